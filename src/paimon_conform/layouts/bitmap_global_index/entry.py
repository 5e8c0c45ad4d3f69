"""Layout `bitmap_global_index`: the bitmap global index file of Paimon 2.0 (footer magic BGIX).

The case lists the indexed column's values row by row (`row_values`, row i being relative row id i), the
column `type`, and the writer's options when not the defaults (`dictionary_block_size`, `compression`):
Java's writer turns them into exactly one file. Keys are typed by the column; without the type the
structure is checked and a warning says the keys were not.
"""

from __future__ import annotations

from typing import Any

from paimon_conform.core import block_codec
from paimon_conform.core.errors import CaseError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.layouts import sorted_index
from paimon_conform.layouts.base import Layout, case_header, require_type, stated_type
from paimon_conform.layouts.bitmap_global_index import codec

NAME = "bitmap_global_index"
KIND = "bitmap-global-index"
READERS = between("2.0")  # BitmapGlobalIndexFormat arrived in 2.0.0 (apache/paimon#8276)


def detect(data: bytes) -> bool:
    """The footer's magic, BGIX, in the last four bytes."""
    return len(data) >= codec.FOOTER and data[-4:] == codec.MAGIC_BYTES


def findings(data: bytes, t: DataType | None) -> tuple[list[Finding], codec.Index | None]:
    """Every finding for the bytes, and the parsed index when its structure holds."""
    return sorted_index.file_findings(NAME, "BGIX", READERS, codec.read, codec.check, data, t)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a bitmap global index file (keys checked when the column type is given)."""
    return findings(data, types if isinstance(types, DataType) else None)[0]


def row_values(index: codec.Index, t: DataType) -> list[Any]:
    """The column's values row by row (internal form) that the index records."""
    return sorted_index.case_rows(
        list(zip(index.keys, index.bitmaps, strict=True)), index.all_rows, t, "bitmap global index"
    )


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case these bytes are the file of."""
    t = require_type(types, KIND)
    found, index = findings(data, t)
    raise_first_must(NAME, found)
    assert index is not None
    case = case_header(KIND) | {"type": str(t), "row_values": [to_json(t, v) for v in row_values(index, t)]}
    low, high = codec.block_size_range(index)
    if high is not None and low > high:
        raise CaseError("the dictionary blocks are split as no dictionary block size of Java's writer splits them")
    if not low <= codec.DEFAULT_BLOCK_SIZE <= (high if high is not None else codec.DEFAULT_BLOCK_SIZE):
        case["dictionary_block_size"] = low
    compression = block_codec.case_compression(index.compressions)
    if compression:
        case["compression"] = compression
    return case


def encode(case: dict[str, Any]) -> bytes:
    """The file Java's writer writes for the case's rows and options."""
    t = parse_type(case["type"])
    values = [to_internal(t, v) for v in case["row_values"]]
    size = case.get("dictionary_block_size", codec.DEFAULT_BLOCK_SIZE)
    compression = block_codec.written_compression(case.get("compression", "none"))
    return codec.encode(t, values, size, compression)


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    index = codec.read(data)
    blocks = len(index.block_counts)
    codecs = sorted({block_codec.NAMES[c] for c in index.compressions})
    return (
        f"bitmap_global_index: {len(index.keys)} value(s) in {blocks} dictionary block(s) ({', '.join(codecs)}), "
        f"{len(index.non_null_rows)} non-null and {len(index.null_rows)} null row(s)"
    )


LAYOUT = Layout(
    NAME, KIND, "bitmap global index (BGIX, Paimon 2.0)", detect, inspect, encode, validate, describe, stated_type
)
