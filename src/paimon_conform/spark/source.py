"""Paimon tables on Spark 4 through PySpark's Python Data Source API, on the kit's own layouts.

    from paimon_conform.spark import source as ps
    session = ps.session()          # or your own SparkSession
    ps.register(session)            # format("paimon"), filter pushdown on
    (df.write.format("paimon").mode("append")
       .option("primary-key", "dt,id").option("partition", "dt").option("bucket", "4")
       .option("deletion-vectors.enabled", "true").save(path))
    session.read.format("paimon").load(path).where("dt = '2024-01-01'")
    session.read.format("paimon").option("scan.snapshot-id", "3").load(path)   # time travel

Options are Paimon's own names (`primary-key`, `partition`, `bucket`, `bucket-key`,
`file.format`, `deletion-vectors.enabled`, `file-index.<kind>.columns`, `rowkind.field`, ...);
they are stored in the table's schema when the write creates the table. Each Spark task
buckets its rows with the kit's vectorized BinaryRow hash and writes data files (table/write.py);
the driver commits (table/commit.py). `write()` repartitions a DataFrame so every bucket is
written by one task (fewer, larger files). Reading plans splits on the driver (table/scan.py),
prunes partitions, buckets and files from pushed filters, and reads each split in a task.
Save modes: `append` and `overwrite` (Spark refuses the others for Python sources).
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    InputPartition,
    IsNotNull,
    IsNull,
    LessThan,
    LessThanOrEqual,
    Not,
    WriterCommitMessage,
)
from pyspark.sql.pandas.types import to_arrow_schema as _pyspark_to_arrow_schema
from pyspark.sql.types import StructType

from paimon_conform.core.errors import UsageError, checking
from paimon_conform.formats.paimon_columns import negative_off_grid
from paimon_conform.layouts.binary_row.bucketing import bucket_columns
from paimon_conform.layouts.file_index import query
from paimon_conform.spark import bucket as spark_bucket
from paimon_conform.table.read import scan
from paimon_conform.table.schema import bucket_rule
from paimon_conform.table.write import commit as table_commit
from paimon_conform.table.write import tasks as table_write

FORMAT = "paimon"
BUCKET_COLUMN = "__paimon_bucket"
LOG4J = """rootLogger.level = error
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
"""
COMPARISONS = {
    EqualTo: "eq",
    GreaterThan: "gt",
    GreaterThanOrEqual: "gte",
    LessThan: "lt",
    LessThanOrEqual: "lte",
}


# ---------------------------------------------------------------- session


def session(app: str = "paimon-conform", master: str = "local[2]", **conf: str):
    """A quiet local SparkSession with the settings this source needs, `format("paimon")` registered."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    log4j = Path(tempfile.gettempdir()) / "paimon-conform-log4j2.properties"
    log4j.write_text(LOG4J)
    builder = (
        SparkSession.builder.appName(app)
        .master(master)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.memory", "4g")
        .config("spark.sql.python.filterPushdown.enabled", "true")
        .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{log4j}")
        .config("spark.hadoop.fs.file.impl.disable.cache", "true")
    )
    for key, value in conf.items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    return spark


def register(spark) -> None:
    """Make `format("paimon")` available in a SparkSession (and turn filter pushdown on for it)."""
    spark.dataSource.register(PaimonDataSource)
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")


# ---------------------------------------------------------------- the data source


def _options(options: Any) -> dict[str, str]:
    return {str(k): str(v) for k, v in dict(options).items()}


def _path(options: dict[str, str]) -> str:
    path = options.get("path")
    if not path:
        raise UsageError("format('paimon') needs a table directory: .save(path) / .load(path)")
    return path


SNAPSHOT_OPTION = "scan.snapshot-id"  # time travel, Java's option name


def _snapshot(options: dict[str, str]) -> int | None:
    """The snapshot a read asks for (`scan.snapshot-id`), None for the latest; UsageError when not a snapshot id."""
    text = options.get(SNAPSHOT_OPTION)
    if text is None:
        return None
    if not re.fullmatch(r"[0-9]{1,19}", text) or not 0 < int(text) < 1 << 63:
        raise UsageError(f"format('paimon'): {SNAPSHOT_OPTION} must be a snapshot id (1, 2, ...), not {text!r}")
    return int(text)


class PaimonDataSource(DataSource):
    """`format("paimon")`: a Paimon table directory, read and written with the kit's layouts."""

    @classmethod
    def name(cls) -> str:
        return FORMAT

    def schema(self) -> StructType:
        from pyspark.sql.pandas.types import from_arrow_schema

        options = _options(self.options)
        path = _path(options)
        with checking(path, "schema"):
            return from_arrow_schema(arrow_schema(scan.read_schema_at(Path(path), _snapshot(options))))

    def reader(self, schema: StructType) -> DataSourceReader:
        options = _options(self.options)
        return PaimonReader(_path(options), schema, _snapshot(options))

    def writer(self, schema: StructType, overwrite: bool) -> DataSourceArrowWriter:
        return PaimonWriter(_options(self.options), schema, overwrite)


def arrow_schema(schema) -> pa.Schema:
    """The Arrow schema Spark sees for a table schema (a BLOB column as binary: the data the reader reads)."""
    from paimon_conform.table.features import plain_blob_columns
    from paimon_conform.table.write.files import arrow_type

    blobs = plain_blob_columns(schema)
    return pa.schema(
        [
            pa.field(f.name, pa.binary() if f.name in blobs else arrow_type(f.type), nullable=f.nullable)
            for f in schema.fields
        ]
    )


# ---------------------------------------------------------------- writing


@dataclass
class TaskCommit(WriterCommitMessage):
    """What a write task hands to the driver."""

    result: table_write.TaskResult


class PaimonWriter(DataSourceArrowWriter):
    """Tasks write data files; the driver commits snapshots (or removes the files on abort)."""

    def __init__(self, options: dict[str, str], schema: StructType, overwrite: bool) -> None:
        with checking(_path(options), "write plan"):
            self.plan = table_write.prepare(_path(options), spark_arrow_schema(schema), options, overwrite)

    def write(self, iterator: Iterator[pa.RecordBatch]) -> TaskCommit:
        from pyspark import TaskContext

        ctx = TaskContext.get()
        task = 0 if ctx is None else ctx.partitionId()
        with checking(str(self.plan.root), f"write task {task}"):
            return TaskCommit(table_write.write_task(self.plan, iterator, task))

    def commit(self, messages: list[TaskCommit | None]) -> None:
        with checking(str(self.plan.root), "commit"):
            table_commit.commit(self.plan, [m.result for m in messages if m is not None])

    def abort(self, messages: list[TaskCommit | None]) -> None:
        with checking(str(self.plan.root), "abort"):
            table_commit.abort(self.plan, [m.result for m in messages if m is not None])


def write(df, path: str, mode: str = "append", **options: str) -> None:
    """Write a DataFrame through `format("paimon")`, repartitioned so each bucket comes from one task:
    by partition and bucket for fixed buckets (the bucket computed in Spark SQL for INT / BIGINT
    keys, spark_bucket.py, else by the kit's hash over Arrow batches in mapInArrow), by primary key for dynamic
    buckets. Fewer, larger files than a plain `df.write`, whose tasks each write every bucket
    they see."""
    import pyspark.sql.functions as F

    if mode not in ("append", "overwrite"):
        raise UsageError(f"save mode {mode!r}: Paimon tables take append or overwrite")
    opts = {k: str(v) for k, v in options.items()}
    schema, _ = table_write.target_schema(Path(path), spark_arrow_schema(df.schema), opts)
    table_write.check_options(schema)  # refused here with the kit's message, not from a Spark worker
    n = int(df.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    rule = bucket_rule(schema)
    if rule is not None:
        keys, buckets, function = rule
        df = with_bucket_column(df, keys, buckets, function)
        df = df.repartition(n, *[F.col(c) for c in schema.partition_keys], F.col(BUCKET_COLUMN)).drop(BUCKET_COLUMN)
    elif schema.primary_keys:
        df = df.repartition(n, *[F.col(c) for c in schema.primary_keys])
    df.write.format(FORMAT).mode(mode).options(**opts).save(path)


def spark_arrow_schema(schema: StructType) -> pa.Schema:
    """The Arrow schema of Spark rows as the data source API hands them over (TIMESTAMP as UTC instants)."""
    if "timezone" in inspect.signature(_pyspark_to_arrow_schema).parameters:  # required for TIMESTAMP since 4.1
        return _pyspark_to_arrow_schema(schema, timezone="UTC")
    return _pyspark_to_arrow_schema(schema)


def with_bucket_column(df, keys: list[str], buckets: int, function: str):
    """df with each row's fixed bucket in BUCKET_COLUMN: Spark SQL for INT / BIGINT keys without nulls
    under the default function, else the kit's vectorized BinaryRow hash over Arrow batches."""
    from pyspark.sql.types import IntegerType, StructField

    fields = spark_arrow_schema(df.select(*keys).schema)
    types = [table_write.arrow_to_paimon(f.type, f.name) for f in fields]
    if function == "default" and spark_bucket.supported(types, [f.nullable for f in fields]):
        return spark_bucket.with_bucket(df, keys, types, buckets, BUCKET_COLUMN)
    out_schema = StructType([*df.schema.fields, StructField(BUCKET_COLUMN, IntegerType(), nullable=False)])
    return df.mapInArrow(bucket_batches(keys, types, buckets, function), out_schema)


def bucket_batches(keys: list[str], types: list, buckets: int, function: str):
    """A mapInArrow function appending each row's fixed bucket, computed on the Arrow columns as they are
    (no pandas: BIGINT keys with nulls and timestamps outside pandas' range stay exact)."""

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            arrays = [batch.column(batch.schema.get_field_index(k)) for k in keys]
            bucket = pa.array(bucket_columns(types, arrays, buckets, function), pa.int32())
            yield pa.RecordBatch.from_arrays([*batch.columns, bucket], [*batch.schema.names, BUCKET_COLUMN])

    return run


# ---------------------------------------------------------------- reading


def _literal(value: Any) -> query.Literal | bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return query.Literal(str(value), True)
    if isinstance(value, str):
        return query.Literal(value, False)
    if isinstance(value, dt.datetime):
        return query.Literal(value.replace(tzinfo=None).isoformat(), False)
    if isinstance(value, dt.date):
        return query.Literal(value.isoformat(), False)
    return None


def to_leaf(f: Any, columns: set[str]) -> query.Leaf | None:
    """A pushed Spark filter as a query leaf, or None when the kit does not use it."""
    negate = isinstance(f, Not)
    inner = f.child if negate else f
    attr = getattr(inner, "attribute", ())
    if len(attr) != 1 or attr[0] not in columns:
        return None
    column = attr[0]
    if isinstance(inner, IsNull | IsNotNull):
        op = "is_null" if isinstance(inner, IsNull) != negate else "is_not_null"
        return query.Leaf(column, op)
    if isinstance(inner, In):
        literals = [_literal(v) for v in inner.value]
        if any(x is None for x in literals):
            return None
        return query.Leaf(column, "not_in" if negate else "in", literals)
    op = COMPARISONS.get(type(inner))
    if op is None or (negate and op != "eq"):
        return None
    lit = _literal(inner.value)
    return None if lit is None else query.Leaf(column, "not_eq" if negate else op, [lit])


def _floor_micros(nanos: pa.Array) -> pa.Array:
    """Epoch nanoseconds (int64) floored to microseconds, as Java's Timestamp.toMicros does."""
    whole = pc.divide(nanos, 1000)  # integer division truncates toward zero
    return pc.if_else(negative_off_grid(nanos, 1000), pc.subtract(whole, 1), whole)


def _as_spark_columns(rows: pa.Table, target: pa.Schema) -> pa.Table:
    """The kit's rows in the Arrow types Spark takes: TIMESTAMP(7..9) floored to microseconds (Spark holds no
    nanoseconds; exact INT96 values beyond int64 nanoseconds come as decimals, paimon_columns.read_parquet), TIME read
    as milliseconds of the day (ORC) as a time of day."""
    for i, f in enumerate(target):
        col = rows.column(i)
        if pa.types.is_timestamp(f.type) and pa.types.is_decimal(col.type):
            ns = [None if v is None else int(v) for v in col.to_pylist()]
            micros = pa.array([None if v is None else v // 1000 for v in ns], pa.int64())
            rows = rows.set_column(i, f.name, micros.cast(f.type))
        elif pa.types.is_timestamp(f.type) and pa.types.is_timestamp(col.type) and col.type.unit == "ns":
            micros = _floor_micros(col.combine_chunks().cast(pa.int64()))
            rows = rows.set_column(i, f.name, micros.cast(pa.timestamp("us", col.type.tz)))
        elif pa.types.is_time(f.type) and not pa.types.is_time(col.type):
            millis = col.cast(pa.int32()).cast(pa.time32("ms"))  # Paimon's TIME: milliseconds of the day
            rows = rows.set_column(i, f.name, millis.cast(f.type))
    return rows


class PaimonReader(DataSourceReader):
    """Plans splits on the driver (pruned by the pushed filters); each task reads one split."""

    def __init__(self, path: str, schema: StructType, snapshot: int | None = None) -> None:
        self.path, self.spark_schema, self.snapshot = path, schema, snapshot
        with checking(path, "schema"):
            self.table = scan.read_schema_at(Path(path), snapshot)  # read once on the driver, pickled to the tasks
        self.leaves: list[query.Leaf] = []

    def pushFilters(self, filters: list) -> Iterator:
        columns = {f.name for f in self.table.fields}
        for f in filters:
            leaf = to_leaf(f, columns)
            if leaf is not None:
                self.leaves.append(leaf)
            yield f  # pruning is not filtering: Spark still applies every filter to the rows

    def partitions(self) -> list[InputPartition]:
        with checking(self.path, "plan"):
            _, splits, _ = scan.plan(self.path, self.leaves, snapshot=self.snapshot)
        return [InputPartition(s) for s in splits] or [InputPartition(None)]

    def read(self, partition: InputPartition) -> Iterator[pa.RecordBatch]:
        if partition.value is None:
            return
        split = partition.value
        with checking(", ".join(f"{self.path}/{f.relative}" for f in split.files), "rows"):
            rows = scan.read_split(self.path, self.table, split)
            target = spark_arrow_schema(self.spark_schema)
            rows = _as_spark_columns(rows.select(target.names), target).cast(target)
        yield from rows.to_batches(max_chunksize=1 << 20)
