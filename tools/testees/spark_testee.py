"""The kit's Spark engine as a testee (`python tools/testees/spark_testee.py`): tables through the kit's
`format("paimon")` data source on a local PySpark session (src/paimon_conform/spark/source.py).

- write-table: a DataFrame of the batch (naive timestamps as TIMESTAMP_NTZ), written with source.write and the
  table's keys and options; a table with a column type Spark SQL has no type for (TIME, CHAR / VARCHAR / BINARY
  lengths, timestamps not in microseconds) is refused: Spark would write another type;
- read-table: spark.read.format("paimon").load(path), collected as Arrow.
The session starts at the first table request. Its JVM and Python workers inherit a stdout that is stderr: the
protocol's replies go to the real stdout alone."""

from __future__ import annotations

import re
from typing import Any

from paimon_conform import __version__
from paimon_conform.testee.kit import TABLE_CAPABILITIES, adapter, engine_options, serve_beside_a_jvm, table_handlers
from paimon_conform.testee.rows import from_arrow, to_arrow

_spark: list[Any] = []
# Paimon types a Spark SQL column becomes through format("paimon") (Spark's types to Arrow, Arrow to Paimon),
# besides DECIMAL(p, s)
SPARK_TYPES = frozenset(
    {
        "BOOLEAN",
        "TINYINT",
        "SMALLINT",
        "INT",
        "BIGINT",
        "FLOAT",
        "DOUBLE",
        "DATE",
        "TIMESTAMP(6)",
        "TIMESTAMP(6) WITH LOCAL TIME ZONE",
        "STRING",
        "BYTES",
    }
)


def spark():
    """The session, started on first use."""
    if not _spark:
        from paimon_conform.spark import source

        _spark.append(source.session("paimon-conform-testee", "local[2]"))
    return _spark[0]


def read_table(path: str, fields: list[dict[str, Any]]) -> list[list[Any]]:
    df = spark().read.format("paimon").load(path).select(*[f["name"] for f in fields])
    return from_arrow(fields, df.toArrow())


def write_table(path: str, table: dict[str, Any], commits: list[list[list[Any]]], existing: bool = False) -> None:
    """Each commit a DataFrame written with source.write (appending to the table when it exists)."""
    import pyspark.sql.functions as F

    from paimon_conform.spark import source

    lacking = [t for f in table["fields"] if (t := f["type"]) not in SPARK_TYPES and not t.startswith("DECIMAL")]
    if lacking:
        raise TypeError(f"Spark SQL has no type that format('paimon') writes as {', '.join(lacking)}")
    options = engine_options(table)
    for rows in commits:
        data = to_arrow(table["fields"], rows)
        df = spark().createDataFrame(data)
        for f in data.schema:
            if str(f.type).startswith("timestamp[") and "tz=" not in str(f.type):
                df = df.withColumn(f.name, F.col(f.name).cast("timestamp_ntz"))
        try:
            source.write(df, path, **options)
        except Exception as exc:
            kit = re.search(r"paimon_conform\.core\.errors\.(\w+): (.*)", str(exc))  # raised in a Spark task
            if kit is None:
                raise
            raise SparkTaskError(f"{kit.group(1)}: {kit.group(2)}") from None


class SparkTaskError(Exception):
    """The kit's error a Spark task raised, without the Python worker's traceback around it."""


answer = adapter("paimon-conform-spark", __version__, TABLE_CAPABILITIES, table_handlers(read_table, write_table))


def stop() -> None:
    """Stop the session when one was started."""
    if _spark:
        _spark.pop().stop()


def main() -> None:
    serve_beside_a_jvm(answer, stop)


if __name__ == "__main__":
    main()
