"""Avro data files (file.format = avro) read as Arrow: the columns their writer schema declares with their
storage families, and their rows in windows of whole blocks (container.blocks, every claim checked
before decoding), each column's Arrow type fixed by the schema so that every window, and the file read
whole, give a column the same type."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa

from paimon_conform.core import budget
from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import EPOCH
from paimon_conform.formats.avro import container

FAMILY = {  # Avro primitive -> storage family (read.data_files.FAMILY's names)
    "boolean": "bool",
    "int": "int32",
    "long": "int64",
    "float": "float32",
    "double": "float64",
    "string": "string",
    "bytes": "binary",
    "fixed": "binary",
}
LOGICAL = {
    "date": "date",
    "time-millis": "time",
    "timestamp-millis": "timestamp",
    "timestamp-micros": "timestamp",
    "local-timestamp-millis": "timestamp",
    "local-timestamp-micros": "timestamp",
    "decimal": "decimal",
}
# The Arrow type of a column's values once plain (plain_value): what pa.array infers from them, fixed here so
# that a window of nulls, or of other decimal digits, does not give the column another type (TEMPORAL below)
ARROW = {
    "boolean": pa.bool_(),
    "int": pa.int64(),
    "long": pa.int64(),
    "float": pa.float64(),
    "double": pa.float64(),
    "string": pa.string(),
    "bytes": pa.binary(),
    "fixed": pa.binary(),
}
# Dates, times and timestamps as plain_value gives them (days, milliseconds of the day, microseconds since the
# epoch), typed as the Parquet reader types them, so that paimon_columns.internal_values reads every format alike
TEMPORAL = {
    "date": pa.date32(),
    "time-millis": pa.time32("ms"),
    "timestamp-millis": pa.timestamp("us"),
    "timestamp-micros": pa.timestamp("us"),
    "local-timestamp-millis": pa.timestamp("us"),
    "local-timestamp-micros": pa.timestamp("us"),
}
MAX_DECIMAL_PRECISION = 76  # Arrow's decimal256


def _single(t: list) -> Any:
    """The one non-null branch of a union, or None."""
    inner = [x for x in t if x != "null"]
    return inner[0] if len(inner) == 1 else None


def family(t: Any) -> str | None:
    """The storage family of an Avro field type (None when the kit has no mapping)."""
    if isinstance(t, list):
        return family(_single(t))
    if isinstance(t, dict):
        if t.get("logicalType") in LOGICAL:
            return LOGICAL[t["logicalType"]]
        return family(t.get("type"))
    return FAMILY.get(t) if isinstance(t, str) else None


def arrow_type(t: Any) -> pa.DataType | None:
    """The Arrow type a field's plain values take (None: left to pa.array, as for nested types)."""
    if isinstance(t, list):
        return arrow_type(_single(t))
    if isinstance(t, dict):
        logical = t.get("logicalType")
        if logical == "decimal":
            p, s = t.get("precision"), t.get("scale", 0)
            if not (isinstance(p, int) and isinstance(s, int) and 0 <= s <= p <= MAX_DECIMAL_PRECISION and p):
                return None
            return pa.decimal128(p, s) if p <= 38 else pa.decimal256(p, s)
        if logical in TEMPORAL:
            return TEMPORAL[logical]
        if logical is not None:
            return None  # a logical type fastavro may decode to objects of its own (uuid, ...)
        return ARROW.get(t.get("type")) if isinstance(t.get("type"), str) else None
    return ARROW.get(t) if isinstance(t, str) else None


def _has_logical(t: Any) -> bool:
    """Whether values of a field type may decode to dates, times or datetimes (plain_value converts them)."""
    if isinstance(t, list):
        return any(map(_has_logical, t))
    return not isinstance(t, str)  # a primitive decodes as itself; a logical, named or nested type may not


def plain_value(v: Any) -> Any:
    """fastavro's decoded logical values back to plain forms Arrow can hold."""
    if isinstance(v, dt.datetime):
        base = dt.datetime(1970, 1, 1, tzinfo=v.tzinfo)
        return (v - base) // dt.timedelta(microseconds=1)
    if isinstance(v, dt.date):
        return (v - EPOCH).days
    if isinstance(v, dt.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
    return v


def record_schema(schema: Any) -> dict:
    """The top-level record schema; Java Paimon writes it as the union ["null", record]."""
    if isinstance(schema, list):
        records = [s for s in schema if isinstance(s, dict) and s.get("type") == "record"]
        if len(records) == 1 and all(s == "null" or s is records[0] for s in schema):
            return records[0]
    if isinstance(schema, dict) and schema.get("type") == "record":
        return schema
    raise ValueError(f"top-level Avro schema is not a record: {str(schema)[:80]}")


def _array(values: list, t: pa.DataType | None) -> pa.Array:
    """A column's values as Arrow: of the schema's type, else as pa.array infers it (values outside the
    declared type, e.g. more decimal digits than its precision), else nulls (a column the kit does not model)."""
    for typ in (t, None) if t is not None else (None,):
        try:
            return pa.array(values, typ)
        except MemoryError:
            raise  # never a fault of the input (errors.OutOfMemory)
        except (pa.ArrowException, OverflowError):
            continue
    return pa.array([None] * len(values), pa.null())


@dataclass
class Window:
    """Consecutive rows of an Avro data file: `start` numbers the first in the file; `file_rows` is the file's
    (None when the window is the file read whole)."""

    fields: list[tuple[str, str | None]]  # (name, storage family) of each column the schema declares
    table: pa.Table
    start: int
    file_rows: int | None


def read(path: Path, window_bytes: int | None = None) -> Iterator[Window]:
    """An Avro data file's rows: windows of whole blocks whose decoded records pass `window_bytes` (a
    larger block is its own window), or with `window_bytes` None the whole file as one window. Only one
    block's bytes and one window's rows are held at a time. UsageError for a file that is not a readable
    Avro container; BudgetExceeded for a block the budget cannot hold."""
    with path.open("rb") as f:
        cur = container.Cursor(f, path.stat().st_size)
        try:
            head = container.read_header(cur)
            fields = record_schema(head.schema)["fields"]
            file_rows = None
            if window_bytes is not None:  # the file's rows, from the blocks' frames (their claims)
                first = cur.pos
                file_rows = sum(container.block_counts(cur, head))
                cur.seek(first)
            names = [fld["name"] for fld in fields]
            types = [arrow_type(fld["type"]) for fld in fields]
            declared = [(fld["name"], family(fld["type"])) for fld in fields]
            meter = budget.Meter(f"the rows of {path.name}")
            columns: list[list] = [[] for _ in names]
            start = rows = 0
            logical = [_has_logical(fld["type"]) for fld in fields]
            for records in container.blocks(cur, head, meter):
                for values, n, plain in zip(columns, names, logical, strict=True):
                    values += [plain_value(r.get(n)) for r in records] if plain else [r.get(n) for r in records]
                rows += len(records)
                del records
                if window_bytes is not None and meter.used >= window_bytes and cur.remaining():
                    table = _table(names, types, columns)
                    columns = [[] for _ in names]
                    meter.release(meter.used)
                    yield Window(declared, table, start, file_rows)
                    start = rows
            yield Window(declared, _table(names, types, columns), start, file_rows)
        except container.AvroContainerError as exc:
            raise UsageError(f"not a readable Avro file: {exc}") from None


def _table(names: list[str], types: list[pa.DataType | None], columns: list[list]) -> pa.Table:
    if not names:
        return pa.table({})
    return pa.table({n: _array(values, t) for n, t, values in zip(names, types, columns, strict=True)})
