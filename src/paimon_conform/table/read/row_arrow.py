"""The rows of a `.row` data file (layout `row_file`) as an Arrow table in the forms the Parquet reader
gives, so the data-file checks run on them unchanged: timestamps in the unit of their precision (exact
nanoseconds as DECIMAL(38, 0) when a value does not fit it), decimals as decimal128, nested, VARIANT and
BLOB columns as all-null columns the kit does not model."""

from __future__ import annotations

from decimal import Context, Decimal, localcontext
from typing import Any

import pyarrow as pa

from paimon_conform.formats.paimon_columns import ARROW_TYPES
from paimon_conform.layouts.row_file.types import RowFieldType

UNIT = ((3, "ms", 1_000_000), (6, "us", 1_000), (9, "ns", 1))


def _timestamps(t: RowFieldType, values: list[Any]) -> tuple[pa.Array, bool]:
    """(array, exact-nanoseconds fallback used)."""
    assert t.atomic is not None
    unit, step = next((u, s) for p, u, s in UNIT if t.atomic.timestamp_precision <= p)
    nanos = [None if v is None else v[0] * 1_000_000 + v[1] for v in values]
    tz = "UTC" if t.root == "TIMESTAMP_LTZ" else None
    if all(n is None or (n % step == 0 and -(2**63) <= n // step < 2**63) for n in nanos):
        ints = pa.array([None if n is None else n // step for n in nanos], pa.int64())
        return ints.cast(pa.timestamp(unit, tz=tz)), False
    return pa.array([None if n is None else Decimal(n) for n in nanos], pa.decimal128(38, 0)), True


def _decimals(t: RowFieldType, values: list[Any]) -> pa.Array:
    assert t.atomic is not None
    with localcontext(Context(prec=100)):
        ds = [None if v is None else Decimal(v[0]).scaleb(-t.atomic.scale) for v in values]
        for precision in (t.atomic.precision, 38):
            try:
                return pa.array(ds, pa.decimal128(precision, t.atomic.scale))
            except (pa.ArrowInvalid, OverflowError):
                continue
    return pa.nulls(len(values), pa.null())


def column(t: RowFieldType, values: list[Any]) -> tuple[pa.Array, bool]:
    """One column's Arrow array, and whether it holds timestamps as exact nanoseconds (DECIMAL(38, 0))."""
    if t.root in ARROW_TYPES:
        return pa.array(values, ARROW_TYPES[t.root]), False
    if t.root == "TIME":
        return pa.array(values, pa.int32()).cast(pa.time32("ms")), False
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return _timestamps(t, values)
    if t.root == "DECIMAL":
        return _decimals(t, values), False
    return pa.nulls(len(values), pa.null()), False  # nested, VARIANT, BLOB: not modelled


def table(names: list[str], types: list[RowFieldType], rows: list[list[Any]]) -> tuple[pa.Table, set[str]]:
    """The rows as an Arrow table, and the names of the timestamp columns held as exact nanoseconds."""
    arrays, exact = {}, set()
    for i, (name, t) in enumerate(zip(names, types, strict=True)):
        arrays[name], is_exact = column(t, [r[i] for r in rows])
        if is_exact:
            exact.add(name)
    return pa.table(arrays) if names else pa.table({}), exact
