"""Check one data file: its columns (names, order, types, field ids, Parquet encodings), strings,
value kinds, NaN statistics, partition values and buckets, against the table schema and the layout spec."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import DataType
from paimon_conform.formats.paimon_columns import (
    distinct_values,
    negative_off_grid,
)
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.table import table_layout as tl
from paimon_conform.table.read.data_files import (
    FAMILY,
    Column,
    DataFile,
    WindowCheck,
    count_in,
    hash_input,
    internal_of,
)
from paimon_conform.table.schema import TableSchema, bucket_rule
from paimon_conform.table.validate.directories import BucketFile
from paimon_conform.table.validate.file_meta import GREGORIAN_MILLIS

# Avro has no 8/16-bit ints nor a time-of-day type of its own
AVRO_ALIASES = {"int8": "int32", "int16": "int32", "time": "int32"}
ORC_ALIASES = {"time": "int32"}  # Java's ORC writer stores TIME as int (millis of day)


def check_parquet_nan_statistics(df: DataFile, file: str, with_nan: list[str]) -> list[Finding]:
    """FLOAT / DOUBLE columns holding NaN whose Parquet row-group statistics have a finite min and max.

    pyarrow leaves NaN out of them; Java's Parquet reader (parquet-java) filters row groups by them, so
    `k = NaN` skips the NaN rows (Java 0.9.0 and 1.0 do, conformance/test_type_matrix_peers.py). Java's
    own writer keeps NaN in, and parquet-java then ignores the statistics. `with_nan`: the columns holding NaN
    (nan_columns over every window of the file)."""
    meta = df.parquet_metadata
    if df.format != "parquet" or meta is None:
        return []
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
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (OSError, ValueError, TypeError, pa.ArrowException):
        return out  # statistics pyarrow cannot decode: nothing for a Java filter to act on here either
    return out


def nan_columns(df: DataFile, partition_keys: frozenset[str] = frozenset()) -> list[str]:
    """The FLOAT / DOUBLE columns (partition keys left out) holding NaN, in column order."""
    floats = [c.name for c in df.columns if c.family in ("float32", "float64") and c.name not in partition_keys]
    return [n for n in floats if pc.any(pc.is_nan(df.table.column(n))).as_py()]


def _nan_statistics(name: str, group: int, low: float, high: float, file: str) -> Finding:
    """DATA_FILE_NAN_STATISTICS: run, every release 0.9.0-2.0.0 loses the NaN rows (test_parquet_nan_statistics)."""
    msg = (
        f"{name} holds NaN, but row group {group}'s statistics say {low}..{high}: Java's Parquet reader filters row "
        "groups by them and skips the NaN rows of `= NaN` (run: every release 0.9.0-2.0.0)"
    )
    return Finding("DATA_FILE_NAN_STATISTICS", "must", f"row_groups[{group}].{name}", None, msg, file)


def check_int96_before_1970(df: DataFile, file: str, hits: set[str]) -> list[Finding]:
    """INT96 timestamps before 1970 with sub-millisecond digits: Java 0.9.0 to 1.2.0 throw reading them
    (Timestamp.fromEpochMillis: the nanos of the millisecond come out negative), Java's own files included.
    Partition columns are left out: Java takes their values from the partition, not from the file. `hits`:
    the columns holding one (int96_before_1970 over every window of the file)."""
    out = []
    for c in df.columns:
        if c.name in hits:
            msg = (
                f"{c.name}: an INT96 value before 1970 with digits below the millisecond; Java 0.9-1.2 throw "
                "reading it (Timestamp.fromEpochMillis), whoever wrote it; 1.3 on read it (run: 0.9.0-2.0.0)"
            )
            out.append(
                Finding(
                    "DATA_FILE_TIMESTAMP_ENCODING",
                    "must",
                    f"columns.{c.name}",
                    None,
                    msg,
                    file,
                    java_releases=between(None, "1.2"),
                    otherwise=None,  # 1.3.1-2.0.0 read them (test_java_verdicts B2-ts9-pre1970); Java 2.x writes them
                )
            )
    return out


def int96_before_1970(df: DataFile, partition_keys: frozenset[str] = frozenset()) -> set[str]:
    """The INT96 columns (partition keys left out) holding a value before 1970 with digits below the millisecond."""
    out = set()
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
            out.add(c.name)
    return out


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
        allowed = {fam}
        if df.format == "avro" and fam is not None:
            # Java's Avro writer stores TIME as int with logicalType time-millis (run: the type x role matrix)
            allowed = {fam, AVRO_ALIASES.get(fam, fam)}
        if df.format == "orc" and fam is not None:
            allowed = {ORC_ALIASES.get(fam, fam)}
        if fam is not None and col.family is not None and col.family not in allowed:
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
# (ParquetSplitReaderUtil / ParquetVectorUpdaterFactory; apache/paimon#5582 in 1.2.0, #7845 in 2.0.0 for
# TIMESTAMP(7-9) as INT64 only: a TIMESTAMP(0-6) INT64 in another unit is misread by 2.0.0 too, test_java_verdicts).
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
                f"{t} stored as INT64 {col.unit} (Java writes {java}): Java takes the value as "
                f"{'milliseconds' if expected == 3 else 'microseconds'} whatever the unit and reads wrong values "
                "(run: every release 0.9.0-2.0.0, 2.0.0 included)"
            )
            return [Finding("DATA_FILE_TIMESTAMP_ENCODING", "must", path, None, msg, file)]
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


def check_strings(df: DataFile, file: str, skip: set[str] | frozenset[str] = frozenset()) -> list[Finding]:
    """String columns hold valid UTF-8 (Parquet and ORC readers do not check it); columns in `skip` not looked at."""
    out = []
    for name in df.table.column_names:
        col = df.table.column(name)
        if name in skip or not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)):
            continue
        for chunk in col.chunks:
            try:
                chunk.validate(full=True)
            except pa.ArrowInvalid as exc:
                out.append(_f("DATA_FILE_BAD_UTF8", file, f"columns.{name}", f"a value is not valid UTF-8 ({exc})"))
                break
    return out


class ValueKinds(WindowCheck):
    """Every _VALUE_KIND is a row-kind byte: counted over the windows of a file."""

    def __init__(self) -> None:
        self.name = tl.spec()["system_fields"]["value_kind"]["name"]
        self.bad = 0
        self.first: tuple[int, Any] | None = None  # the first bad row in the file, its value

    def add(self, df: DataFile) -> None:
        if self.name not in df.table.column_names:
            return
        col = df.table.column(self.name)
        hits, row = count_in(col, list(tl.row_kind_bytes()))
        self.bad += len(col) - hits
        if row >= 0 and self.first is None:
            self.first = (df.start + row, col[row].as_py())

    def findings(self, file: str) -> list[Finding]:
        if self.first is None:
            return []
        row, value = self.first
        msg = f"{self.bad} row(s) hold a value kind that is no row kind, e.g. {value!r}"
        return [_f("DATA_FILE_BAD_VALUE_KIND", file, f"rows[{row}].{self.name}", msg)]


def _distinct(df: DataFile, name: str) -> DataFile:
    """The file reduced to the distinct values of one column."""
    try:
        values = distinct_values(df.table.column(name))
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except pa.ArrowException:
        return df
    return DataFile(df.format, df.columns, pa.table({name: values}))


def check_partition(ref: BucketFile, schema: TableSchema, file: str, misses: dict[str, str]) -> list[Finding]:
    """Every row's partition values render to its directory's values. `misses`: the first value of each key that
    does not (partition_misses over every window of the file)."""
    for key, text in zip(schema.partition_keys, ref.partition, strict=True):
        if key in misses:
            msg = f"a row holds {key}={misses[key]!r}, the directory says {text!r}"
            return [_f("DATA_FILE_WRONG_PARTITION", file, f"rows.{key}", msg)]
    return []


def partition_misses(df: DataFile, ref: BucketFile, schema: TableSchema) -> dict[str, str]:
    """Per partition key, its first value (as the path shows it) that does not render to the directory's."""
    options = tl.LayoutOptions.of(schema.options)
    out = {}
    for key, text in zip(schema.partition_keys, ref.partition, strict=True):
        t = schema.field(key).type
        if key not in df.table.column_names or t.root == "UNSUPPORTED" or t.is_binary:
            continue  # binary partition values have no path form (TABLE_PARTITION_TYPE)
        for v in dict.fromkeys(internal_of(_distinct(df, key), key, t)):  # each distinct value once
            if not tl.same_partition_value(t, text, v, options):
                out[key] = tl.partition_values([(key, t)], [v], options)[0]
                break
    return out


class Buckets(WindowCheck):
    """Every row's bucket key hashes to the file's bucket: over the windows of a file."""

    def __init__(self, ref: BucketFile, schema: TableSchema, file: str, names: list[str]) -> None:
        self.ref, self.file = ref, file
        self.rows = 0
        self.wrong = 0
        self.first: tuple[int, int] | None = None  # the first row in another bucket, and that bucket
        self.refused: list[Finding] = []  # no row can be checked (found before the first window or in one)
        self.rule = bucket_rule(schema)
        if self.rule is None:
            if schema.bucket == -1 and not schema.primary_keys and ref.bucket != 0:
                msg = f"a bucket-unaware append table writes to bucket-0, not bucket-{ref.bucket}"
                self.refused = [_f("DATA_FILE_WRONG_BUCKET", file, "bucket", msg)]
            return
        keys, n, _ = self.rule
        self.types = [schema.field(k).type for k in keys]
        if ref.bucket >= n:
            msg = f"bucket {ref.bucket} does not exist with bucket = {n}"
            self.refused = [_f("DATA_FILE_WRONG_BUCKET", file, "bucket", msg)]
        elif any(t.root == "UNSUPPORTED" for t in self.types) or any(k not in names for k in keys):
            self.rule = None

    def add(self, df: DataFile) -> None:
        if self.rule is None or self.refused:
            return
        keys, n, function = self.rule
        columns = [hash_input(df, k, t) for k, t in zip(keys, self.types, strict=True)]
        try:
            buckets = np.asarray(bucketing.bucket_columns(self.types, columns, n, function))
        except (EncodeError, UsageError) as exc:  # a key type the bucket function rejects: Java's writer fails too
            msg = f"no bucket can be computed for these rows: {exc}"
            self.refused = [_f("DATA_FILE_WRONG_BUCKET", self.file, "bucket", msg)]
            return
        unjudged = self._unjudged(df, keys, len(buckets))
        wrong = np.flatnonzero((buckets != self.ref.bucket) & ~unjudged)
        if wrong.size and self.first is None:
            self.first = (df.start + int(wrong[0]), int(buckets[wrong[0]]))
        self.wrong += int(wrong.size)
        self.rows += len(buckets) - int(unjudged.sum())

    def _unjudged(self, df: DataFile, keys: list[str], rows: int) -> np.ndarray:
        """Rows whose key the kit cannot read as the writer had it, in ORC: a TIMESTAMP_LTZ (Java stores the
        writer zone's wall clock and records no zone) and a TIMESTAMP before 1582-10-15 (Java's ORC reader returns
        it in the Julian calendar, its writer hashed the proleptic Gregorian value; run: test_timestamp_zones_java)."""
        out = np.zeros(rows, dtype=bool)
        if df.format != "orc":
            return out
        for k, t in zip(keys, self.types, strict=True):
            if t.root == "TIMESTAMP_LTZ":
                out[:] = True
            elif t.root == "TIMESTAMP":
                millis = [v[0] if isinstance(v, tuple) else 0 for v in internal_of(df, k, t)]
                out |= np.asarray(millis, dtype=np.int64) < GREGORIAN_MILLIS
        return out

    def findings(self) -> tuple[list[Finding], int]:
        """The findings, and the rows checked."""
        if self.refused or self.rule is None:
            return self.refused, 0
        if self.first is None:
            return [], self.rows
        keys, n, function = self.rule
        row, bucket = self.first
        msg = (
            f"{self.wrong} of {self.rows} row(s) hash to another bucket; row {row} belongs in "
            f"bucket-{bucket} ({function} bucket function over {keys} of types {[str(t) for t in self.types]}, "
            f"bucket = {n})"
        )
        return [_f("DATA_FILE_WRONG_BUCKET", self.file, f"rows[{row}]", msg)], self.rows
