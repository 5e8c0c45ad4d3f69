"""Read a data file's columns (Parquet or ORC) as Paimon types and internal values.

Used by `validate INDEX --data DATAFILE` to check an index against the values
it indexes: no bloom false negative, exact bitmap rows, the column set.
"""

from __future__ import annotations

from decimal import Context, Decimal, localcontext
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType
from paimon_conform.formats import file_format
from paimon_conform.formats.exact_ns import exact_ns_field, is_exact_ns

# The Arrow type of each Paimon type that has exactly one (the rest depend on precision, unit or zone).
ARROW_TYPES = {
    "TINYINT": pa.int8(),
    "SMALLINT": pa.int16(),
    "INT": pa.int32(),
    "BIGINT": pa.int64(),
    "FLOAT": pa.float32(),
    "DOUBLE": pa.float64(),
    "BOOLEAN": pa.bool_(),
    "DATE": pa.date32(),
    "CHAR": pa.string(),
    "VARCHAR": pa.string(),
    "BINARY": pa.binary(),
    "VARBINARY": pa.binary(),
}
UNIT_NANOS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}
UNIT_PRECISION = {"s": 0, "ms": 3, "us": 6, "ns": 9}


def read_table(path: str | Path) -> pa.Table:
    """A Parquet or ORC file as an Arrow table (chosen by the file's magic bytes)."""
    p = Path(path)
    try:
        fmt = file_format(p)
        if fmt == "parquet":
            return read_parquet(p)  # not read_table: a dt=... parent would add a column
        if fmt == "orc":
            from paimon_conform.formats.orc.worker import read_orc

            return read_orc(p)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (OSError, pa.ArrowException) as exc:
        raise UsageError(f"{path}: cannot read the data file: {exc}") from None
    raise UsageError(f"{path}: not a Parquet or ORC file")


def read_parquet(
    path: str | Path, columns: list[str] | None = None, row_groups: list[int] | None = None, exact: bool = False
) -> pa.Table:
    """A Parquet file (or some columns) as Arrow, INT96 timestamps exact beyond the years 1677-2262.

    pyarrow reads INT96 (Java's TIMESTAMP(7..9)) as int64 nanoseconds, which wrap outside
    1677-2262 (and its coarser units are biased by Java's negative nanos-of-day). Every INT96
    column is decoded from its pages as well (parquet.int96); where that differs from pyarrow's
    read, the column comes back as decimal128(38, 0) nanoseconds since the epoch (`internal_values`
    takes it; other columns stay as pyarrow reads them). `row_groups`: only those row groups (all by
    default); `exact`: every INT96 column as decimal nanoseconds (the windows of one file then agree).
    """
    import pyarrow.parquet as pq

    from paimon_conform.formats.parquet.int96 import read_int96

    pf = pq.ParquetFile(path)
    table = pf.read(columns=columns) if row_groups is None else pf.read_row_groups(row_groups, columns=columns)
    int96 = [
        pf.schema.column(i).path
        for i in range(len(pf.schema))
        if pf.schema.column(i).physical_type == "INT96" and pf.schema.column(i).path in table.column_names
    ]
    if not int96:
        return table
    for name in int96:
        values = read_int96(path, name, row_groups)
        if not exact and values == table.column(name).cast(pa.int64()).to_pylist():
            continue
        values = pa.array([None if v is None else Decimal(v) for v in values], pa.decimal128(38, 0))
        table = table.set_column(table.column_names.index(name), exact_ns_field(name), values)
    return table


def concat_exact(tables: list[pa.Table]) -> pa.Table:
    """Tables concatenated; a timestamp column whose files disagree on the unit (or hold exact decimal
    nanoseconds, see read_parquet) becomes exact decimal nanoseconds in all of them (no unit cast can
    overflow)."""
    kinds: dict[str, set[pa.DataType]] = {}
    for t in tables:
        for f in t.schema:
            kinds.setdefault(f.name, set()).add(f.type)
    mixed = {
        name
        for name, types in kinds.items()
        if len(types) > 1 and all(pa.types.is_timestamp(x) or _is_exact_ns(x) or pa.types.is_null(x) for x in types)
    }
    out = []
    for t in tables:
        for name in mixed & set(t.column_names):
            col = t.column(name)
            if pa.types.is_timestamp(col.type):
                factor = UNIT_NANOS[col.type.unit]
                nanos = col.cast(pa.int64()).to_pylist()
                values = pa.array([None if v is None else Decimal(v * factor) for v in nanos], pa.decimal128(38, 0))
                t = t.set_column(t.column_names.index(name), name, values)
        out.append(t)
    return pa.concat_tables(out, promote_options="permissive")


def _is_exact_ns(t: pa.DataType) -> bool:
    return pa.types.is_decimal(t) and t.scale == 0


def constant_column(t: DataType, value: Any, n: int, like: pa.DataType) -> pa.Array:
    """`n` copies of an internal value of type `t`, as an Arrow array of type `like` (the data file's column
    type) where that type can hold it exactly, else in a form `internal_values` reads back exactly."""
    if value is None:
        return pa.nulls(n, like if not pa.types.is_null(like) else pa.null())
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        nanos = value[0] * 1_000_000 + value[1]
        if pa.types.is_timestamp(like) and nanos % UNIT_NANOS[like.unit] == 0:
            units = nanos // UNIT_NANOS[like.unit]
            if -(2**63) <= units < 2**63:
                return pa.array([units] * n, pa.int64()).cast(like)
        return pa.array([Decimal(nanos)] * n, pa.decimal128(38, 0))
    if t.root == "DECIMAL":
        with localcontext(Context(prec=100)):
            d = Decimal(value[0]).scaleb(-value[2])
        return pa.array([d] * n, pa.decimal128(t.precision, t.scale))
    if t.root == "DATE":
        return pa.array([value] * n, pa.int32()).cast(pa.date32())
    if t.root == "TIME":
        return pa.array([value] * n, pa.int32()).cast(pa.time32("ms"))
    try:
        return pa.array([value] * n, like)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return pa.array([value] * n)


def paimon_type(t: pa.DataType) -> DataType | None:
    """The Paimon type of an Arrow column type, or None when the kit has no mapping."""
    simple = {
        pa.int8(): "TINYINT",
        pa.int16(): "SMALLINT",
        pa.int32(): "INT",
        pa.int64(): "BIGINT",
        pa.float32(): "FLOAT",
        pa.float64(): "DOUBLE",
        pa.bool_(): "BOOLEAN",
        pa.date32(): "DATE",
    }
    if t in simple:
        return DataType(simple[t])
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return DataType("VARCHAR")
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        return DataType("VARBINARY")
    if pa.types.is_time(t):
        return DataType("TIME")
    if pa.types.is_timestamp(t):
        return DataType("TIMESTAMP_LTZ" if t.tz else "TIMESTAMP", UNIT_PRECISION[t.unit])
    if pa.types.is_decimal(t):
        return DataType("DECIMAL", t.precision, t.scale)
    return None


def internal_values(column: pa.ChunkedArray, t: DataType) -> list[Any]:
    """The column's values in the kit's internal form (None for null)."""
    at = column.type
    if pa.types.is_date(at):
        return column.cast(pa.int32()).to_pylist()
    if pa.types.is_time(at):
        nanos = UNIT_NANOS[at.unit]
        raw = column.cast(pa.int32() if pa.types.is_time32(at) else pa.int64())
        return [None if v is None else v * nanos // 1_000_000 for v in raw.to_pylist()]
    if pa.types.is_timestamp(at):
        nanos = UNIT_NANOS[at.unit]
        out = []
        for v in column.cast(pa.int64()).to_pylist():
            if v is None:
                out.append(None)
            else:
                total = v * nanos
                out.append((total // 1_000_000, total % 1_000_000))
        return out
    if pa.types.is_decimal(at) and t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):  # exact INT96 nanoseconds
        ns = decimal_values(column, DataType("DECIMAL", 38, 0))
        return [None if v is None else divmod(v[0], 1_000_000) for v in ns]
    if pa.types.is_decimal(at):
        return decimal_values(column, t)
    return column.to_pylist()


def decimal_values(column: pa.Array | pa.ChunkedArray, t: DataType) -> list[Any]:
    """A decimal column as (unscaled, p, s) at the scale of `t`, exact for all 38 digits.

    Read from the 128-bit buffers, not through Python's Decimal (whose default
    28-digit context would round DECIMAL(38, s) values).
    """
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not pa.types.is_decimal128(arr.type):
        arr = arr.cast(pa.decimal128(38, arr.type.scale))
    n = len(arr)
    words = np.frombuffer(arr.buffers()[1], dtype="<u8", count=2 * (n + arr.offset))[2 * arr.offset :]
    low, high = words[0::2].tolist(), words[1::2].view("<i8").tolist()
    shift = t.scale - arr.type.scale
    valid = arr.is_valid().to_pylist() if arr.null_count else [True] * n
    out: list[Any] = []
    for lo, hi, ok in zip(low, high, valid, strict=True):
        if not ok:
            out.append(None)
            continue
        unscaled = (hi << 64) | lo
        if shift >= 0:
            unscaled *= 10**shift
        else:
            unscaled, rest = divmod(unscaled, 10**-shift)
            if rest:
                raise UsageError(f"{t}: a stored decimal has more than {t.scale} fraction digits")
        out.append((unscaled, t.precision, t.scale))
    return out


def min_max_rows(column: pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray | None:
    """The column's minimum and maximum in Arrow's order (nulls skipped) as two rows taken from the column
    itself, not rebuilt from Scalar.as_py() (which drops nanoseconds and overflows year 0); None when every
    value is null (or NaN, which equals no row)."""
    pair = pc.min_max(column)
    if not pair["min"].is_valid:
        return None
    rows = [pc.index(column, pair["min"]).as_py(), pc.index(column, pair["max"]).as_py()]
    return None if -1 in rows else column.take(rows)


def negative_off_grid(ints: pa.Array | pa.ChunkedArray, step: int) -> pa.Array | pa.ChunkedArray:
    """Per value (int64): below zero and not a multiple of `step`, where truncating toward zero (Java's `/`,
    Arrow's integer divide) and flooring disagree."""
    whole = pc.multiply(pc.divide(ints, step), step)
    return pc.and_(pc.less(ints, 0), pc.not_equal(ints, whole))


def distinct_values(column: pa.ChunkedArray) -> pa.ChunkedArray:
    """The column's distinct values, first occurrence order (Arrow's hash kernel)."""

    return pa.chunked_array([pc.unique(column.combine_chunks())])


def columns(
    path: str | Path,
    names: set[str] | None = None,
    table: pa.Table | None = None,
    distinct: set[str] | frozenset[str] = frozenset(),
    types: dict[str, DataType] | None = None,
) -> tuple[int, dict[str, tuple[DataType, list[Any]]]]:
    """(row count, {column: (Paimon type, internal values)}) of a data file (or of its rows already read).

    `names` limits the conversion to those columns; columns in `distinct` come back as their
    distinct values only (enough for a bloom filter's no-false-negative check); `types` (the table
    schema's) take precedence over the types the file's columns suggest.
    """
    table = read_table(path) if table is None else table
    out = {}
    for name in table.column_names:
        if names is not None and name not in names:
            continue
        field = table.schema.field(name)
        t = (types or {}).get(name) or (DataType("TIMESTAMP", 9) if is_exact_ns(field) else paimon_type(field.type))
        if t is None:
            continue
        column = distinct_values(table.column(name)) if name in distinct else table.column(name)
        out[name] = (t, internal_values(column, t))
    return table.num_rows, out
