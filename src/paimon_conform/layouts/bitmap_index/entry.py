"""Layout `bitmap_index`: the bitmap file-index payload (versions 1 and 2), kind `bitmap`.

Keys are typed by the column, so every call needs the column type (`types`,
a DataType). The case form lists the column's values row by row (`row_values`): the payload
Java writes for them is fully determined by those values, the version and
the index block size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from paimon_conform.core import budget
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.options import parse_memory_size
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.layouts.base import Layout, case_header, never_detected, payload_rows, require_type, stated_type
from paimon_conform.layouts.bitmap_index import codec as bitmap

NAME = "bitmap_index"
KIND = "bitmap"
ROW_BYTES = 64  # one row listed in a case: its value, its slot, the seen flag


def row_values(index: bitmap.Index, t: DataType) -> list[Any]:
    """The column, row by row, in logical JSON form, rebuilt from the index."""
    covered = len(index.nulls) + sum(len(r) for r in index.rows.values())
    if covered != index.num_rows:  # never allocate from the unchecked row count
        raise LayoutError(
            NAME,
            "BITMAP_ROWS_NOT_COVERED",
            "num_rows",
            1,
            f"the row count says {index.num_rows} rows, the bitmaps cover {covered}",
        )
    budget.reserve(ROW_BYTES * index.num_rows, f"a list of the {index.num_rows} rows of a bitmap index")
    out: list[Any] = [None] * index.num_rows
    seen = [False] * index.num_rows
    for key, rows in index.rows.items():
        value = to_json(t, bitmap.key_to_internal(t, key))
        for r in rows:
            if r >= index.num_rows or seen[r]:
                raise LayoutError(
                    NAME,
                    "BITMAP_ROW_OUT_OF_RANGE" if r >= index.num_rows else "BITMAP_ROW_TWICE",
                    "",
                    None,
                    f"row {r} cannot hold the value {value!r}",
                )
            out[r], seen[r] = value, True
    return out


def payload_case(data: bytes, t: DataType) -> dict[str, Any] | None:
    """{"version", "row_values"} when Java's writer reproduces `data` from them, else None.

    A V2 payload written with another index block size gets `index_block_size`.
    """
    index = bitmap.read(data, t)
    values = row_values(index, t)
    internal = [to_internal(t, v) for v in values]
    block = bitmap.DEFAULT_BLOCK_SIZE
    if index.version == 2:
        block = bitmap.inferred_block_size(index.obj) or block
    if bitmap.build(t, internal, index.version, block) != data:
        return None
    case: dict[str, Any] = {"version": index.version}
    if block != bitmap.DEFAULT_BLOCK_SIZE:
        case["index_block_size"] = block
    return case | {"row_values": values}


def build_payload(entry: dict[str, Any], t: DataType | None, column_values: list | None) -> bytes:
    """Payload from {"version", "row_values"} or from the column's values and options."""
    rows = payload_rows(entry, t, column_values, KIND)
    return build_values(t, rows, entry.get("options", {}), entry.get("version"), entry.get("index_block_size"))


def build_values(
    t: DataType, values: Sequence[Any] | pa.Array, options: dict[str, Any], version: Any = None, block_size: Any = None
) -> bytes:
    """The payload for a column's internal values (None = null), or the column as Arrow, and the index's
    options (`version`, `index-block-size`; a case's own `version` and `index_block_size` first)."""
    version = options.get("version", 2) if version is None else version
    block = parse_memory_size(options.get("index-block-size", "16kb")) if block_size is None else block_size
    return bitmap.build(t, values, int(version), block)


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing a standalone bitmap payload."""
    t = require_type(types, KIND)
    for f in bitmap.check(data, t):
        if f.severity == "must":
            raise LayoutError(NAME, f.code, f.path, f.offset, f.message)
    payload = payload_case(data, t)
    if payload is None:
        raise LayoutError(
            NAME,
            "BITMAP_NOT_JAVA_LAYOUT",
            "",
            None,
            "valid, but not the bytes Java writes for these values; cannot be described as a case",
        )
    return case_header(KIND) | {"type": str(t)} | payload


def encode(case: dict[str, Any]) -> bytes:
    """Bytes from a case: type, version, values (and options)."""
    return build_payload(case, parse_type(case["type"]), None)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a bitmap payload (needs the column type)."""
    return bitmap.check(data, require_type(types, KIND))


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    t = require_type(types, KIND)
    index = bitmap.read(data, t)
    return (
        f"bitmap: version {index.version}, {index.num_rows} rows, {len(index.rows)} distinct values, "
        f"{len(index.nulls)} null rows"
    )


LAYOUT = Layout(
    NAME, KIND, "Bitmap file-index payload", never_detected, inspect, encode, validate, describe, stated_type
)
