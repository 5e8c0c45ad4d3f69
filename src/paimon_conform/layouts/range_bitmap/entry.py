"""Layout `range_bitmap`: the range-bitmap file-index payload, kind `range-bitmap`.

Keys are typed by the column, so every call needs the column type. The case
form lists the column's values row by row (`row_values`), plus `chunk_size`
when the dictionary was chunked with a size other than the type's default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.layouts.base import Layout, case_header, never_detected, payload_rows, require_type, stated_type
from paimon_conform.layouts.range_bitmap import codec as range_bitmap

NAME = "range_bitmap"
KIND = "range-bitmap"


def payload_case(data: bytes, t: DataType, index: range_bitmap.Index | None = None) -> dict[str, Any] | None:
    """{"row_values"[, "chunk_size"]} when Java's writer reproduces `data` from them, else None."""
    index = index or range_bitmap.read(data, t)
    internal = range_bitmap.row_values(index, t)
    values = [to_json(t, v) for v in internal]
    again = [to_internal(t, v) for v in values]
    if range_bitmap.build(t, again) == data:
        return {"row_values": values}
    size = range_bitmap.inferred_chunk_size(index)
    if range_bitmap.build(t, again, size) == data:
        return {"chunk_size": f"{size}b", "row_values": values}
    return None


def build_payload(entry: dict[str, Any], t: DataType | None, column_values: list | None) -> bytes:
    """Payload from {"row_values", "chunk_size"} or from the column's values and options."""
    rows = payload_rows(entry, t, column_values, KIND)
    return build_values(t, rows, entry.get("options", {}), entry.get("chunk_size"))


def build_values(
    t: DataType, values: Sequence[Any] | pa.Array, options: dict[str, Any], chunk_size: Any = None
) -> bytes:
    """The payload for a column's internal values (None = null), or the column as Arrow, and the index's
    options (`chunk-size`; a case's own `chunk_size` first)."""
    return range_bitmap.build(t, values, options.get("chunk-size") if chunk_size is None else chunk_size)


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing a standalone range-bitmap payload."""
    t = require_type(types, KIND)
    index = range_bitmap.read(data, t)
    raise_first_must(NAME, range_bitmap.check_index(index))
    payload = payload_case(data, t, index)
    if payload is None:
        raise LayoutError(
            NAME, "RANGE_BITMAP_NOT_JAVA_LAYOUT", "", None, "valid, but not the bytes Java writes for its values"
        )
    return case_header(KIND) | {"type": str(t)} | payload


def encode(case: dict[str, Any]) -> bytes:
    """Bytes from a case: type, row_values, optional chunk_size."""
    return build_payload(case, parse_type(case["type"]), None)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a range-bitmap payload (needs the column type)."""
    return range_bitmap.check(data, require_type(types, KIND))


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    t = require_type(types, KIND)
    index = range_bitmap.read(data, t)
    chunks = len(index.obj.dictionary.chunks.chunks)
    span = ""
    if index.keys:
        lo, hi = (to_json(t, range_bitmap.from_key(t, k)) for k in (index.min_key, index.max_key))
        span = f", range {lo!r}..{hi!r}"
    return (
        f"range-bitmap: {index.num_rows} rows, {len(index.keys)} distinct values in {chunks} chunk(s), "
        f"{len(index.ebm)} non-null, {len(index.slices)} slices{span}"
    )


LAYOUT = Layout(
    NAME, KIND, "Range-bitmap file-index payload", never_detected, inspect, encode, validate, describe, stated_type
)
