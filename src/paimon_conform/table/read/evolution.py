"""Schema evolution on read: a data file written under an older schema, as Java reads it today.

Java opens a file with the schema of its `_SCHEMA_ID` (the column names at write time),
then maps it to the current schema by field id (SchemaEvolutionUtil.createIndexCastMapping):
a current field whose id the file's schema lacks (added later) reads as null, a dropped
field is not read, a renamed one is found under its old name, order follows the current
schema, and a field whose type changed is read in its old type and cast
(CastExecutors.resolve). Filters on a column whose type changed are not pushed to that
file (apache/paimon#4705), so its stats and file index cannot prune it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyarrow as pa

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType
from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import TableSchema


@dataclass(frozen=True)
class Mapped:
    """A current field and where its values are in a file: the file's column name and type (None: added)."""

    name: str
    type: DataType
    source: str | None
    source_type: DataType | None


def mapping(current: TableSchema, written: TableSchema) -> list[Mapped]:
    """Each current field, matched by field id to the schema the file was written with."""
    by_id = {f.id: f for f in written.fields}
    out = []
    for f in current.fields:
        old = by_id.get(f.id)
        out.append(Mapped(f.name, f.type, None if old is None else old.name, None if old is None else old.type))
    return out


def source_columns(current: TableSchema, written: TableSchema) -> list[str]:
    """The file columns a read of the current fields needs."""
    return [m.source for m in mapping(current, written) if m.source is not None]


def evolve(rows: pa.Table, current: TableSchema, written: TableSchema, extra: list[str] = ()) -> pa.Table:
    """A file's rows (read with the written schema's names) as the current schema's columns, plus `extra`."""
    if written.id == current.id:
        return rows.select([f.name for f in current.fields] + list(extra))
    columns, names = [], []
    for m in mapping(current, written):
        if m.source is None:
            columns.append(pa.nulls(rows.num_rows))
        else:
            col = rows.column(m.source)
            if m.source_type is not None and m.source_type != m.type:
                col = cast(col, m.source_type, m.type)
            columns.append(col)
        names.append(m.name)
    for name in extra:
        columns.append(rows.column(name))
        names.append(name)
    return pa.table(columns, names=names)


_NUMERIC = {"TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE"}
_INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
_ARROW_INTS = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64()}


def cast(col: pa.ChunkedArray | pa.Array, src: DataType, dst: DataType) -> pa.ChunkedArray | pa.Array:
    """A column cast as Java's CastExecutors do, for the type changes the kit reproduces exactly.

    UsageError for any other cast (the reader refuses rather than guess).
    """
    try:
        if src.root in _NUMERIC and dst.root in _INT_BITS:
            return pa.array(
                [None if v is None else _java_int(v, _INT_BITS[dst.root]) for v in col.to_pylist()],
                _ARROW_INTS[dst.root],
            )
        if src.root in _NUMERIC and dst.root in ("FLOAT", "DOUBLE"):  # int -> float rounds to nearest, as Java
            return col.cast(pa.float32() if dst.root == "FLOAT" else pa.float64(), safe=False)
        if dst.root == "VARCHAR" and (src.root in _INT_BITS or src.root == "BOOLEAN" or src.is_string):
            return col.cast(pa.string())  # String.valueOf: decimal digits, "true" / "false"
        if dst.root == "VARCHAR" and src.root in ("FLOAT", "DOUBLE"):
            single = src.root == "FLOAT"
            values = [None if v is None else tl.java_floating_string(v, single) for v in col.to_pylist()]
            return pa.array(values, pa.string())
        if src.is_binary and dst.root == "VARBINARY":
            return col.cast(pa.binary())
        if src.root == "DECIMAL" and dst.root == "DECIMAL" and _widens(src, dst):  # no rounding, no overflow
            return col.cast(pa.decimal128(dst.precision, dst.scale))
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, ValueError, OverflowError) as exc:
        raise UsageError(f"cannot cast {src} to {dst} as Java does: {exc}") from None
    raise UsageError(f"the kit does not reproduce Java's cast from {src} to {dst} (CastExecutors)")


def _widens(src: DataType, dst: DataType) -> bool:
    return dst.scale >= src.scale and dst.precision - dst.scale >= src.precision - src.scale


def _java_int(v: int | float, bits: int) -> int:
    """A Java primitive narrowing to a `bits`-bit integer: floats go through int/long (NaN 0, saturated),
    then integers keep their low bits (two's complement)."""
    if isinstance(v, float):
        if math.isnan(v):
            return 0
        wide = 64 if bits == 64 else 32
        v = max(-(2 ** (wide - 1)), min(2 ** (wide - 1) - 1, int(v)))  # int() truncates toward zero
    mask = (1 << bits) - 1
    return ((int(v) & mask) ^ (1 << (bits - 1))) - (1 << (bits - 1))
