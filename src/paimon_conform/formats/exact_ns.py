"""Timestamps held as exact decimal nanoseconds: a column the Parquet and ORC readers return as
decimal128(38, 0) nanoseconds when int64 nanoseconds would wrap (years outside 1677-2262),
marked in its field's metadata.
"""

from __future__ import annotations

import pyarrow as pa

EXACT_NS = b"paimon_conform.exact_ns"  # field metadata: a timestamp held as decimal128(38, 0) nanoseconds


def exact_ns_field(name: str) -> pa.Field:
    """The field of a timestamp column held as exact decimal nanoseconds (beyond int64's 1677-2262)."""
    return pa.field(name, pa.decimal128(38, 0), metadata={EXACT_NS: b"1"})


def is_exact_ns(field: pa.Field) -> bool:
    """Whether a field is a timestamp held as exact decimal nanoseconds (read_parquet, orc.timestamps)."""
    return bool(field.metadata and field.metadata.get(EXACT_NS))
