"""Table rows as the protocol carries them: lists of logical JSON values (the golden sidecars' form, one per
column), converted to and from Arrow for the Python testees, and compared as multisets by Java's equality
(`row_key`), whatever spelling a reader chose (`2024-01-01T00:00` and `2024-01-01T00:00:00.000000` are one
TIMESTAMP(6) value)."""

from __future__ import annotations

import math
from collections import Counter
from decimal import Context, Decimal, localcontext
from typing import Any

import pyarrow as pa

from paimon_conform.core.errors import PaimonConformError, UsageError
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.formats.paimon_columns import ARROW_TYPES, internal_values

MAX_SHOWN = 3  # differing rows a comparison names


def arrow_type(t: DataType) -> pa.DataType:
    """The Arrow type a column is written with: timestamps at their precision's unit (LTZ in UTC)."""
    if t.root in ARROW_TYPES:
        return ARROW_TYPES[t.root]
    if t.root == "DECIMAL":
        return pa.decimal128(t.precision, t.scale)
    if t.root == "TIME":
        return pa.time32("ms")
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        p = t.timestamp_precision
        unit = "ms" if p <= 3 else "us" if p <= 6 else "ns"
        return pa.timestamp(unit, tz="UTC" if t.root == "TIMESTAMP_LTZ" else None)
    raise UsageError(f"type {t} has no Arrow form in the testee protocol")


def field_type(text: str) -> DataType:
    """A protocol field's type: a BLOB column's values are carried as BYTES are (hex of the data)."""
    if text.strip().upper().removesuffix(" NOT NULL").strip() == "BLOB":
        return parse_type("BYTES")
    return parse_type(text)


def _arrow_value(t: DataType, v: Any) -> Any:
    """An internal value as pyarrow takes it for arrow_type(t)."""
    if v is None:
        return None
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        nanos = v[0] * 1_000_000 + v[1]
        unit = arrow_type(t).unit
        return nanos // {"ms": 1_000_000, "us": 1_000, "ns": 1}[unit]
    if t.root == "DECIMAL":
        with localcontext(Context(prec=100)):
            return Decimal(v[0]).scaleb(-v[2])
    return v


def to_arrow(fields: list[dict[str, Any]], rows: list[list[Any]]) -> pa.Table:
    """Logical rows as an Arrow table with the fields' names, types and nullability."""
    arrays, schema = [], []
    for i, f in enumerate(fields):
        t = field_type(f["type"])
        at = arrow_type(t)
        values = [_arrow_value(t, to_internal(t, r[i])) for r in rows]
        if pa.types.is_timestamp(at):
            arrays.append(pa.array(values, pa.int64()).cast(at))
        else:
            arrays.append(pa.array(values, at))
        schema.append(pa.field(f["name"], at, nullable=f.get("nullable", True)))
    return pa.Table.from_arrays(arrays, schema=pa.schema(schema))


def from_arrow(fields: list[dict[str, Any]], table: pa.Table) -> list[list[Any]]:
    """An Arrow table's rows in logical JSON form, in the order of `fields` (columns found by name)."""
    columns = []
    for f in fields:
        t = field_type(f["type"])
        columns.append([to_json(t, v) for v in internal_values(table.column(f["name"]), t)])
    return [list(r) for r in zip(*columns, strict=True)] if columns else [[] for _ in range(table.num_rows)]


def _value_key(t: DataType, v: Any) -> Any:
    """A hashable key equal for values Java calls equal (every NaN one value, -0.0 not 0.0; FLOAT at 32 bits, as
    to_internal rounds it)."""
    x = to_internal(t, v)
    if isinstance(x, float):
        return "NaN" if math.isnan(x) else (x, math.copysign(1.0, x))
    return x


def row_key(types: list[DataType], row: Any) -> tuple:
    """One row's comparison key; PaimonConformError when it does not fit the types."""
    if not isinstance(row, list) or len(row) != len(types):
        raise UsageError(f"a row of {len(row) if isinstance(row, list) else '?'} value(s) for {len(types)} column(s)")
    return tuple(_value_key(t, v) for t, v in zip(types, row, strict=True))


def difference(fields: list[dict[str, Any]], got: list[list[Any]], want: list[list[Any]]) -> tuple[list, list]:
    """(rows of `want` missing from `got`, rows of `got` not in `want`), as multisets by Java's equality;
    PaimonConformError when a row of `got` does not fit the fields."""
    types = [field_type(f["type"]) for f in fields]
    got_keys = [row_key(types, r) for r in got]
    want_keys = [row_key(types, r) for r in want]
    have, need = Counter(got_keys), Counter(want_keys)
    have_rows, want_rows = dict(zip(got_keys, got, strict=True)), dict(zip(want_keys, want, strict=True))
    missing = [want_rows[k] for k, n in (need - have).items() for _ in range(n)]
    extra = [have_rows[k] for k, n in (have - need).items() for _ in range(n)]
    return missing, extra


def compare(fields: list[dict[str, Any]], got: Any, want: list[list[Any]]) -> str | None:
    """None when `got` holds the rows of `want` in any order; otherwise what differs, in one line."""
    if not isinstance(got, list):
        return f"rows must be a list, got {type(got).__name__}"
    try:
        missing, extra = difference(fields, got, want)
    except PaimonConformError as exc:
        return f"a row the kit cannot read: {exc}"
    if not missing and not extra:
        return None
    shown = [f"missing {r!r}" for r in missing[:MAX_SHOWN]] + [f"unexpected {r!r}" for r in extra[:MAX_SHOWN]]
    return (f"{len(got)} row(s) for {len(want)}: {len(missing)} missing, {len(extra)} unexpected; " + "; ".join(shown))[
        :800
    ]
