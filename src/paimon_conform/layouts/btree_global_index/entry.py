"""Layout `btree_global_index`: the BTree global index file of Paimon 1.4.1 (footer magic PBTI).

The case lists the indexed column's values row by row (`row_values`, row i being relative row id i), the
column `type`, and the writer's options when not the defaults (`block_size`, `compression`): Java's
writer turns them into exactly one file. Keys are typed by the column; without the type the structure
is checked and a warning says the keys were not.
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
from paimon_conform.layouts.btree_global_index import codec

NAME = "btree_global_index"
KIND = "btree-global-index"
READERS = between("1.4")  # BTreeGlobalIndexer arrived in 1.4.1 (apache/paimon#6869)


def detect(data: bytes) -> bool:
    """The footer's magic, 0x50425449 little-endian, in the last four bytes."""
    return len(data) >= codec.FOOTER and data[-4:] == codec.MAGIC_BYTES


def findings(data: bytes, t: DataType | None) -> tuple[list[Finding], codec.Index | None]:
    """Every finding for the bytes, and the parsed index when its structure holds."""
    return sorted_index.file_findings(NAME, "BTREE", READERS, codec.read, codec.check, data, t)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a BTree index file (keys checked when the column type is given)."""
    return findings(data, types if isinstance(types, DataType) else None)[0]


def row_values(index: codec.Index, t: DataType) -> list[Any]:
    """The column's values row by row (internal form) that the index records."""
    return sorted_index.case_rows(list(zip(index.keys, index.rows, strict=True)), index.all_rows, t, "btree index")


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case these bytes are the file of (the options the writer needs to write them again)."""
    t = require_type(types, KIND)
    found, index = findings(data, t)
    raise_first_must(NAME, found)
    assert index is not None
    case = case_header(KIND) | {"type": str(t), "row_values": [to_json(t, v) for v in row_values(index, t)]}
    compression = block_codec.case_compression(index.compressions)
    if compression:
        case["compression"] = compression
    size = codec.block_size_of(index)
    if size is None:
        raise CaseError("the data blocks are split as no block size of Java's writer splits them")
    if size != codec.DEFAULT_BLOCK_SIZE:
        case["block_size"] = size
    return case


def encode(case: dict[str, Any]) -> bytes:
    """The file Java's writer writes for the case's rows and options."""
    t = parse_type(case["type"])
    values = [to_internal(t, v) for v in case["row_values"]]
    compression = block_codec.written_compression(case.get("compression", "none"))
    return codec.encode(t, values, case.get("block_size", codec.DEFAULT_BLOCK_SIZE), compression)


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    index = codec.read(data)
    codecs = sorted({block_codec.NAMES[c] for c in index.compressions})
    rows = sum(len(r) for r in index.rows)
    return (
        f"btree_global_index: {len(index.keys)} key(s) in {len(index.block_counts)} data block(s) "
        f"({', '.join(codecs)}), {rows} row(s) with a value and {len(index.null_rows)} null row(s)"
    )


LAYOUT = Layout(
    NAME, KIND, "BTree global index (PBTI, Paimon 1.4.1)", detect, inspect, encode, validate, describe, stated_type
)
