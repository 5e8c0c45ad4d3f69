"""Check one data file: its columns (names, order, types, field ids), value kinds,
partition values and buckets, against the table schema and the layout spec."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core import budget
from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import EPOCH, DataType
from paimon_conform.formats.columns import (
    distinct_values,
    internal_values,
    negative_off_grid,
    paimon_type,
    read_parquet,
)
from paimon_conform.formats.exact_ns import is_exact_ns
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.table import avro_container
from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.validate.directories import BucketFile

# Storage families: a data file column matches the schema type when both fall in one family.
FAMILY = {
    "BOOLEAN": "bool",
    "TINYINT": "int8",
    "SMALLINT": "int16",
    "INT": "int32",
    "BIGINT": "int64",
    "FLOAT": "float32",
    "DOUBLE": "float64",
    "CHAR": "string",
    "VARCHAR": "string",
    "BINARY": "binary",
    "VARBINARY": "binary",
    "DATE": "date",
    "TIME": "time",
    "TIMESTAMP": "timestamp",
    "TIMESTAMP_LTZ": "timestamp",
    "DECIMAL": "decimal",
}
# Avro has no 8/16-bit ints nor a time-of-day type of its own
AVRO_ALIASES = {"int8": "int32", "int16": "int32", "time": "int32"}
ORC_ALIASES = {"time": "int32"}  # Java's ORC writer stores TIME as int (millis of day)


@dataclass
class Column:
    """A column as the data file declares it."""

    name: str
    family: str | None
    field_id: int | None
    physical: str | None = None  # Parquet: the physical type (INT32, INT64, INT96, FIXED_LEN_BYTE_ARRAY, ...)
    unit: str | None = None  # Parquet INT64 timestamps: the logical unit (milliseconds, microseconds, nanoseconds)


@dataclass
class DataFile:
    """A data file's declared columns and its rows as Arrow."""

    format: str
    columns: list[Column]
    table: pa.Table
    parquet_metadata: Any = None  # Parquet: the footer (pyarrow FileMetaData) read with the rows


def _arrow_family(t: pa.DataType) -> str | None:
    pt = paimon_type(t)
    return None if pt is None else FAMILY.get(pt.root)


def _parquet(path: Path) -> DataFile:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    table = read_parquet(path)  # one file: no hive-partition discovery from a dt=... parent; exact INT96
    leaves = {}
    for i in range(len(pf.schema)):
        leaf = pf.schema.column(i)
        if "." not in leaf.path:  # top-level primitive columns
            unit = getattr(leaf.logical_type, "to_json", lambda: "")()
            leaves[leaf.path] = (leaf.physical_type, _unit(unit))
    cols = []
    for f in table.schema:
        fid = (f.metadata or {}).get(b"PARQUET:field_id")
        physical, unit = leaves.get(f.name, (None, None))
        family = "timestamp" if physical == "INT96" else _arrow_family(f.type)  # exact INT96: a decimal column
        cols.append(Column(f.name, family, int(fid) if fid is not None else None, physical, unit))
    return DataFile("parquet", cols, table, pf.metadata)


def check_parquet_nan_statistics(
    df: DataFile, file: str, partition_keys: frozenset[str] = frozenset()
) -> list[Finding]:
    """FLOAT / DOUBLE columns holding NaN whose Parquet row-group statistics have a finite min and max.

    pyarrow leaves NaN out of them; Java's Parquet reader (parquet-java) filters row groups by them, so
    `k = NaN` skips the NaN rows (Java 0.9.0 and 1.0 do, conformance/test_type_matrix_peers.py). Java's
    own writer keeps NaN in, and parquet-java then ignores the statistics."""
    meta = df.parquet_metadata
    if df.format != "parquet" or meta is None:
        return []
    floats = [c.name for c in df.columns if c.family in ("float32", "float64") and c.name not in partition_keys]
    with_nan = [n for n in floats if pc.any(pc.is_nan(df.table.column(n))).as_py()]
    if not with_nan:
        return []
    out = []
    try:
        paths = {meta.schema.column(i).path: i for i in range(meta.num_columns)}
        for name in with_nan:
            i = paths.get(name)
            for g in range(meta.num_row_groups) if i is not None else ():
                st = meta.row_group(g).column(i).statistics
                if st is None or not st.has_min_max:
                    continue
                low, high = st.min, st.max
                if isinstance(low, float) and isinstance(high, float) and not (math.isnan(low) or math.isnan(high)):
                    out.append(_nan_statistics(name, g, low, high, file))
                    break
    except (OSError, ValueError, TypeError, pa.ArrowException):
        return out  # statistics pyarrow cannot decode: nothing for a Java filter to act on here either
    return out


def _nan_statistics(name: str, group: int, low: float, high: float, file: str) -> Finding:
    """DATA_FILE_NAN_STATISTICS: shown to lose rows on Java 0.9.0 and 1.0 (parquet-java 1.13); should beyond."""
    msg = (
        f"{name} holds NaN, but row group {group}'s statistics say {low}..{high}: Java's Parquet reader filters row "
        "groups by them and skips the NaN rows of `= NaN` (shown on Java 0.9.0 and 1.0; newer releases not verified)"
    )
    return Finding(
        "DATA_FILE_NAN_STATISTICS",
        "must",
        f"row_groups[{group}].{name}",
        None,
        msg,
        file,
        java_releases=between(None, "1.0"),
        otherwise="should",
    )


def check_int96_before_1970(df: DataFile, file: str, partition_keys: frozenset[str] = frozenset()) -> list[Finding]:
    """INT96 timestamps before 1970 with sub-millisecond digits: Java 0.9.0 and 1.0 throw reading them
    (Timestamp.fromEpochMillis: the nanos of the millisecond come out negative), Java's own files included.
    Partition columns are left out: Java takes their values from the partition, not from the file."""
    out = []
    for c in df.columns:
        if c.physical != "INT96" or c.name in partition_keys:
            continue
        col = df.table.column(c.name)
        if pa.types.is_timestamp(col.type):
            nanos = col.cast(pa.timestamp("ns")).cast(pa.int64())
            hit = bool(pc.any(negative_off_grid(nanos, 10**6)).as_py())
        else:  # exact decimal nanoseconds (beyond int64)
            hit = any(v is not None and int(v) < 0 and int(v) % 10**6 for v in col.to_pylist())
        if hit:
            msg = (
                f"{c.name}: an INT96 value before 1970 with digits below the millisecond; Java 0.9.0 and 1.0 throw "
                "reading it (Timestamp.fromEpochMillis), whoever wrote it; later releases not verified"
            )
            out.append(
                Finding(
                    "DATA_FILE_TIMESTAMP_ENCODING",
                    "must",
                    f"columns.{c.name}",
                    None,
                    msg,
                    file,
                    java_releases=between(None, "1.0"),
                    otherwise=None,  # Java 2.x writes such values (paimon-cpp's corpus tables); not shown to fail
                )
            )
    return out


def _unit(logical_json: str) -> str | None:
    """The timeUnit of a Parquet Timestamp logical type (from its JSON form), else None."""
    for unit in ("milliseconds", "microseconds", "nanoseconds"):
        if f'"timeUnit": "{unit}"' in logical_json or f'"timeUnit":"{unit}"' in logical_json:
            return unit
    return None


def _orc(path: Path) -> DataFile:
    from paimon_conform.formats.orc_isolated import read_orc

    table = read_orc(path)
    cols = [Column(f.name, "timestamp" if is_exact_ns(f) else _arrow_family(f.type), None) for f in table.schema]
    return DataFile("orc", cols, table)


AVRO_FAMILY = {
    "boolean": "bool",
    "int": "int32",
    "long": "int64",
    "float": "float32",
    "double": "float64",
    "string": "string",
    "bytes": "binary",
    "fixed": "binary",
}
AVRO_LOGICAL = {
    "date": "date",
    "time-millis": "time",
    "timestamp-millis": "timestamp",
    "timestamp-micros": "timestamp",
    "local-timestamp-millis": "timestamp",
    "local-timestamp-micros": "timestamp",
    "decimal": "decimal",
}


def _avro_family(t: Any) -> str | None:
    if isinstance(t, list):
        inner = [x for x in t if x != "null"]
        return _avro_family(inner[0]) if len(inner) == 1 else None
    if isinstance(t, dict):
        if t.get("logicalType") in AVRO_LOGICAL:
            return AVRO_LOGICAL[t["logicalType"]]
        return _avro_family(t.get("type"))
    return AVRO_FAMILY.get(t) if isinstance(t, str) else None


def _avro_value(v: Any) -> Any:
    """fastavro's decoded logical values back to plain forms Arrow can hold."""
    if isinstance(v, dt.datetime):
        base = dt.datetime(1970, 1, 1, tzinfo=v.tzinfo)
        return (v - base) // dt.timedelta(microseconds=1)
    if isinstance(v, dt.date):
        return (v - EPOCH).days
    if isinstance(v, dt.time):
        return ((v.hour * 60 + v.minute) * 60 + v.second) * 1000 + v.microsecond // 1000
    return v


def _avro_record(schema: Any) -> dict:
    """The top-level record schema; Java Paimon writes it as the union ["null", record]."""
    if isinstance(schema, list):
        records = [s for s in schema if isinstance(s, dict) and s.get("type") == "record"]
        if len(records) == 1 and all(s == "null" or s is records[0] for s in schema):
            return records[0]
    if isinstance(schema, dict) and schema.get("type") == "record":
        return schema
    raise ValueError(f"top-level Avro schema is not a record: {str(schema)[:80]}")


def _avro(path: Path) -> DataFile:
    budget.reserve(path.stat().st_size, f"reading {path.name}")
    try:  # block by block, every claimed count checked against the bytes and the budget first
        writer_schema, records = avro_container.read(path.read_bytes())
    except avro_container.AvroContainerError as exc:
        raise UsageError(f"not a readable Avro file: {exc}") from None
    schema = _avro_record(writer_schema)
    names = [fld["name"] for fld in schema["fields"]]
    rows = [[_avro_value(r.get(n)) for n in names] for r in records]
    cols = [Column(fld["name"], _avro_family(fld["type"]), None) for fld in schema["fields"]]
    arrays = {}
    for i, n in enumerate(names):
        values = [r[i] for r in rows]
        try:
            arrays[n] = pa.array(values)
        except (pa.ArrowException, OverflowError):  # a column the kit does not model (nested types)
            arrays[n] = pa.array([None] * len(values), pa.null())
    return DataFile("avro", cols, pa.table(arrays) if names else pa.table({}))


def read_data_file(path: Path) -> DataFile:
    """Columns and rows of a Parquet, ORC or Avro data file (chosen by magic bytes)."""
    try:
        with path.open("rb") as f:
            head = f.read(4)
        if head == b"PAR1":
            return _parquet(path)
        if head[:3] == b"ORC":
            return _orc(path)
        if head == b"Obj\x01":
            return _avro(path)
    except budget.BudgetExceeded:  # the kit cannot read it within the budget: not a finding against the file
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow and fastavro raise many kinds on a damaged file
        raise UsageError(f"cannot read the data file: {exc.__class__.__name__}: {exc}") from None
    raise UsageError("not a Parquet, ORC or Avro file")


def _f(code: str, file: str, path: str, message: str) -> Finding:
    return Finding(code, "must", path, None, message, file)


def check_columns(
    df: DataFile, expected: list[tl.Field], file: str, partition_keys: frozenset[str] | set[str] = frozenset()
) -> list[Finding]:
    """Names and order, then storage types and (Parquet) field ids, against the expected fields.

    Parquet encodings are not judged for partition columns: Java takes partition values from the
    manifest's partition row, never from the data file (apache/paimon#3608, 0.9.0)."""
    names = [c.name for c in df.columns]
    want = [f.name for f in expected]
    if names != want:
        return [_f("DATA_FILE_COLUMNS", file, "columns", f"columns are {names}, Java writes {want}")]
    out = []
    for col, f in zip(df.columns, expected, strict=True):
        fam = FAMILY.get(f.type.root)
        if df.format == "avro" and fam is not None:
            fam = AVRO_ALIASES.get(fam, fam)
        if df.format == "orc" and fam is not None:
            fam = ORC_ALIASES.get(fam, fam)
        if fam is not None and col.family is not None and col.family != fam:
            out.append(
                _f(
                    "DATA_FILE_COLUMN_TYPE",
                    file,
                    f"columns.{col.name}",
                    f"stored as {col.family}, the type is {f.type}",
                )
            )
        if col.field_id is not None and col.field_id != f.id:
            msg = (
                f"field id {col.field_id}, expected {f.id} (readers match columns by name; Java writes ids since 1.0.0)"
            )
            out.append(Finding("DATA_FILE_FIELD_ID", "should", f"columns.{col.name}", None, msg, file))
        if df.format == "parquet" and col.physical is not None and col.name not in partition_keys:
            out += parquet_encoding(col, f.type, file)
    return out


# Parquet encodings Java writes (ParquetSchemaConverter) and which releases read the others
# (ParquetSplitReaderUtil / ParquetVectorUpdaterFactory; apache/paimon#5582 in 1.2.0, #7845 in 2.0.0).
TS_UNITS = {"milliseconds": 3, "microseconds": 6, "nanoseconds": 9}


def parquet_encoding(col: Column, t: DataType, file: str) -> list[Finding]:
    """A TIMESTAMP or DECIMAL column stored in a Parquet encoding some Java releases reject or misread."""
    path = f"columns.{col.name}"
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        p = t.timestamp_precision
        java = "INT96" if p > 6 else f"INT64 {'milliseconds' if p <= 3 else 'microseconds'}"
        if col.physical == "INT96":
            if p > 6:
                return []
            msg = f"{t} stored as INT96 (Java writes {java}): Java before 1.2.0 fails to read it"
            return [_released("DATA_FILE_TIMESTAMP_ENCODING", msg, path, file, between(None, "1.1"))]
        if col.physical != "INT64":
            return []  # another family: DATA_FILE_COLUMN_TYPE
        unit = TS_UNITS.get(col.unit or "")
        if p > 6:
            what = (
                "fails on it"
                if t.root == "TIMESTAMP_LTZ"
                else "fails on it before 1.2.0 and reads wrong values 1.2-1.4"
            )
            msg = f"{t} stored as INT64 {col.unit or 'without a unit'} (Java writes INT96): Java {what}; 2.0 reads it"
            return [_released("DATA_FILE_TIMESTAMP_ENCODING", msg, path, file, between(None, "1.4"))]
        expected = 3 if p <= 3 else 6
        if unit is not None and unit != expected:
            msg = (
                f"{t} stored as INT64 {col.unit} (Java writes {java}): Java before 2.0.0 takes the value as "
                f"{'milliseconds' if expected == 3 else 'microseconds'} whatever the unit and reads wrong values"
            )
            return [_released("DATA_FILE_TIMESTAMP_ENCODING", msg, path, file, between(None, "1.4"))]
        return []
    if t.root == "DECIMAL":
        java = "INT32" if t.precision <= 9 else "INT64" if t.precision <= 18 else "FIXED_LEN_BYTE_ARRAY"
        if col.physical != java and t.precision <= 18:
            msg = (
                f"{t} stored as {col.physical} (Java writes {java}): Java before 1.2.0 fails to read a compact "
                "decimal in another physical type (apache/paimon#5582)"
            )
            return [_released("DATA_FILE_DECIMAL_ENCODING", msg, path, file, between(None, "1.1"))]
    return []


def _released(code: str, message: str, path: str, file: str, releases: tuple[str, ...]) -> Finding:
    return Finding(code, "must", path, None, message, file, java_releases=releases)


def check_strings(df: DataFile, file: str) -> list[Finding]:
    """String columns hold valid UTF-8 (Parquet and ORC readers do not check it)."""
    out = []
    for name in df.table.column_names:
        col = df.table.column(name)
        if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
            continue
        for chunk in col.chunks:
            try:
                chunk.validate(full=True)
            except pa.ArrowInvalid as exc:
                out.append(_f("DATA_FILE_BAD_UTF8", file, f"columns.{name}", f"a value is not valid UTF-8 ({exc})"))
                break
    return out


def count_in(col: pa.ChunkedArray, values: list[int]) -> tuple[int, int]:
    """(rows whose value is in `values`, first row that is not, or -1): pyarrow compute, no pandas import."""
    import pyarrow.compute as pc

    inside = pc.fill_null(pc.is_in(col, value_set=pa.array(values, col.type)), False)
    hits = pc.sum(inside).as_py() or 0
    first_out = pc.index(inside, False).as_py() if hits < len(col) else -1
    return hits, first_out


def check_value_kinds(df: DataFile, file: str) -> list[Finding]:
    """Every _VALUE_KIND is a row-kind byte."""
    name = tl.spec()["system_fields"]["value_kind"]["name"]
    if name not in df.table.column_names:
        return []
    col = df.table.column(name)
    hits, row = count_in(col, list(tl.row_kind_bytes()))
    if row >= 0:
        return [
            _f(
                "DATA_FILE_BAD_VALUE_KIND",
                file,
                f"rows[{row}].{name}",
                f"{len(col) - hits} row(s) hold a value kind that is no row kind, e.g. {col[row].as_py()!r}",
            )
        ]
    return []


def _internal(df: DataFile, name: str, t: DataType) -> list[Any]:
    col = df.table.column(name)
    if df.format == "avro" and t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return [None if v is None else (v // 1000, (v % 1000) * 1000) for v in col.to_pylist()]
    if df.format == "avro" and t.root == "DECIMAL":
        with localcontext(Context(prec=100)):  # the default 28 digits would round DECIMAL(38, s)
            return [
                None if v is None else (int(Decimal(v).scaleb(t.scale)), t.precision, t.scale) for v in col.to_pylist()
            ]
    if df.format == "avro" and t.root in ("FLOAT",):
        return [None if v is None else float(np.float32(v)) for v in col.to_pylist()]
    return internal_values(col, t)


def key_columns(df: DataFile, schema: TableSchema) -> list[tuple[str, DataType]]:
    """The columns holding the trimmed primary key (`_KEY_<k>`, or `<k>` in thin-mode files), with types."""
    prefix = tl.spec()["system_fields"]["key_prefix"]
    keys = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    return [(prefix + k if prefix + k in df.table.column_names else k, schema.field(k).type) for k in keys]


def hash_input(df: DataFile, name: str, t: DataType) -> Any:
    """A column as bucketing.hash_columns takes it (Avro rows are converted to internal values first)."""
    return df.table.column(name) if df.format != "avro" else _internal(df, name, t)


def _distinct(df: DataFile, name: str) -> DataFile:
    """The file reduced to the distinct values of one column (Arrow does it; not for Avro's Python rows)."""
    if df.format == "avro":
        return df
    try:
        values = distinct_values(df.table.column(name))
    except pa.ArrowException:
        return df
    return DataFile(df.format, df.columns, pa.table({name: values}))


def check_partition(df: DataFile, ref: BucketFile, schema: TableSchema, file: str) -> list[Finding]:
    """Every row's partition values render to its directory's values."""
    options = tl.LayoutOptions.of(schema.options)
    for key, text in zip(schema.partition_keys, ref.partition, strict=True):
        t = schema.field(key).type
        if key not in df.table.column_names or t.root == "UNSUPPORTED" or t.is_binary:
            continue  # binary partition values have no path form (TABLE_PARTITION_TYPE)
        for v in dict.fromkeys(_internal(_distinct(df, key), key, t)):  # each distinct value once
            if not tl.same_partition_value(t, text, v, options):
                shown = tl.partition_values([(key, t)], [v], options)[0]
                msg = f"a row holds {key}={shown!r}, the directory says {text!r}"
                return [_f("DATA_FILE_WRONG_PARTITION", file, f"rows.{key}", msg)]
    return []


def bucket_rule(schema: TableSchema) -> tuple[list[str], int, str] | None:
    """(bucket key, bucket count, function) when rows are placed by hash; None otherwise."""
    n = schema.bucket
    if n <= 0:
        return None
    keys = bucketing.bucket_key_fields(
        schema.primary_keys, schema.partition_keys, schema.options, [f.name for f in schema.fields]
    )
    if not keys:
        return None
    function = str(schema.options.get("bucket-function.type", "default")).strip().lower()
    return keys, n, function


def check_buckets(df: DataFile, ref: BucketFile, schema: TableSchema, file: str) -> tuple[list[Finding], int]:
    """Every row's bucket key hashes to the file's bucket; returns findings and rows checked."""
    rule = bucket_rule(schema)
    if rule is None:
        if schema.bucket == -1 and not schema.primary_keys and ref.bucket != 0:
            msg = f"a bucket-unaware append table writes to bucket-0, not bucket-{ref.bucket}"
            return [_f("DATA_FILE_WRONG_BUCKET", file, "bucket", msg)], 0
        return [], 0
    keys, n, function = rule
    if ref.bucket >= n:
        msg = f"bucket {ref.bucket} does not exist with bucket = {n}"
        return [_f("DATA_FILE_WRONG_BUCKET", file, "bucket", msg)], 0
    types = [schema.field(k).type for k in keys]
    if any(t.root == "UNSUPPORTED" for t in types) or any(k not in df.table.column_names for k in keys):
        return [], 0
    columns = [hash_input(df, k, t) for k, t in zip(keys, types, strict=True)]
    try:
        buckets = np.asarray(bucketing.bucket_columns(types, columns, n, function))
    except (EncodeError, UsageError) as exc:  # a key type the bucket function rejects: Java's writer fails too
        msg = f"no bucket can be computed for these rows: {exc}"
        return [_f("DATA_FILE_WRONG_BUCKET", file, "bucket", msg)], 0
    wrong = np.flatnonzero(buckets != ref.bucket)
    if wrong.size:
        row = int(wrong[0])
        msg = (
            f"{wrong.size} of {len(buckets)} row(s) hash to another bucket; row {row} belongs in "
            f"bucket-{int(buckets[row])} ({function} bucket function over {keys}, bucket = {n})"
        )
        return [_f("DATA_FILE_WRONG_BUCKET", file, f"rows[{row}]", msg)], len(buckets)
    return [], len(buckets)
