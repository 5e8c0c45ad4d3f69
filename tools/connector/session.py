"""Paimon's own Spark connector in a local Spark session: run in the connector's virtualenv (.venv-connector, the
PySpark of requirements/connector.txt), never in the kit's (PySpark 4, which the 0.9.0 connector, built for Spark
3.5 and Scala 2.12, cannot load).

- One SparkSession with the connector jar, its SQL extensions (MERGE INTO, UPDATE, DELETE, CALL), session time
  zone UTC (and TZ=UTC for the Python side: collect() turns a TIMESTAMP into a naive datetime in the process's
  zone).
- A Paimon catalog per warehouse, registered on first use (`catalog(warehouse)` -> its name).
- Paimon types as Spark SQL spells them, and values between the protocol's logical JSON and Spark's Python values
  through the kit's own rows module (paimon_conform.testee.rows), so both venvs convert alike.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ["TZ"] = "UTC"
time.tzset()

import pyarrow as pa  # noqa: E402 - after the zone is set

from paimon_conform.testee.rows import arrow_type, field_type, from_arrow, to_arrow  # noqa: E402

LOG4J = "rootLogger.level = error\nrootLogger.appenderRef.stderr.ref = console\nappender.console.type = Console\n"
LOG4J += "appender.console.name = console\nappender.console.target = SYSTEM_ERR\n"
LOG4J += "appender.console.layout.type = PatternLayout\nappender.console.layout.pattern = %p %c: %m%n\n"

_session: list[Any] = []
_catalogs: dict[str, str] = {}

# Paimon type -> the Spark SQL type the connector turns back into it (SparkTypeUtils.toPaimonType)
SPARK_SQL = {
    "BOOLEAN": "BOOLEAN",
    "TINYINT": "TINYINT",
    "SMALLINT": "SMALLINT",
    "INT": "INT",
    "BIGINT": "BIGINT",
    "FLOAT": "FLOAT",
    "DOUBLE": "DOUBLE",
    "DATE": "DATE",
    "STRING": "STRING",
    "BYTES": "BINARY",
    "TIMESTAMP(6)": "TIMESTAMP_NTZ",
    "TIMESTAMP(6) WITH LOCAL TIME ZONE": "TIMESTAMP",
}


def spark(jar: str):
    """The session, started on first use with the connector jar on its class path."""
    if not _session:
        from pyspark.sql import SparkSession

        log4j = Path(tempfile.gettempdir()) / "paimon-conform-connector-log4j2.properties"
        log4j.write_text(LOG4J)
        builder = (
            SparkSession.builder.appName("paimon-conform-connector")
            .master("local[2]")
            .config("spark.jars", jar)
            .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.driver.memory", "3g")
            .config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile=file:{log4j} -Duser.timezone=UTC")
        )
        _session.append(builder.getOrCreate())
        _session[0].sparkContext.setLogLevel("ERROR")
    return _session[0]


def stop() -> None:
    """Stop the session when one was started."""
    if _session:
        _session.pop().stop()


class ConnectorError(Exception):
    """What the connector (a JVM exception under Spark's) raised: its root cause, without Py4J's wrapping."""


def root_cause(exc: BaseException) -> BaseException:
    """A Py4J error as a ConnectorError naming the innermost Java exception (the connector's own words); any other
    exception as it is."""
    java = getattr(exc, "java_exception", None)
    if java is None:
        return exc
    for _ in range(32):  # a cause chain is short; a cyclic one must not spin
        cause = java.getCause()
        if cause is None or cause == java:
            break
        java = cause
    return ConnectorError(str(java.toString()))


def catalog(session: Any, warehouse: str) -> str:
    """The name of a Paimon catalog over `warehouse`, registered in the session on first use."""
    if warehouse not in _catalogs:
        name = f"w{len(_catalogs)}"
        session.conf.set(f"spark.sql.catalog.{name}", "org.apache.paimon.spark.SparkCatalog")
        session.conf.set(f"spark.sql.catalog.{name}.warehouse", warehouse)
        _catalogs[warehouse] = name
    return _catalogs[warehouse]


def sql_type(text: str) -> str:
    """A Paimon type as the Spark SQL type the connector creates it from; TypeError when Spark has none (TIME,
    CHAR / VARCHAR / BINARY lengths, timestamps not in microseconds: Spark would create another type)."""
    t = text.strip().upper()
    if t in SPARK_SQL:
        return SPARK_SQL[t]
    if re.fullmatch(r"DECIMAL\(\d+, ?\d+\)", t):
        return t
    raise TypeError(f"Spark SQL has no type the connector creates {text} from")


def quoted(name: str) -> str:
    """An identifier in backquotes."""
    return "`" + name.replace("`", "``") + "`"


def create_table(session: Any, name: str, table: dict[str, Any]) -> None:
    """CREATE TABLE through the connector: columns, primary key and partition as Paimon's Spark DDL takes them."""
    cols = ", ".join(
        f"{quoted(f['name'])} {sql_type(f['type'])}" + ("" if f.get("nullable", True) else " NOT NULL")
        for f in table["fields"]
    )
    options = dict(table.get("options", {}))
    if table.get("primary_keys"):
        options["primary-key"] = ",".join(table["primary_keys"])
    part = f" PARTITIONED BY ({', '.join(map(quoted, table['partition_keys']))})" if table.get("partition_keys") else ""
    props = ", ".join(f"'{k}' = '{v}'" for k, v in options.items())
    session.sql(f"CREATE TABLE {name} ({cols}){part}" + (f" TBLPROPERTIES ({props})" if props else ""))


def spark_schema(session: Any, fields: list[dict[str, Any]]) -> Any:
    """The Spark schema of the fields (their SQL types, their nullability)."""
    from pyspark.sql.types import StructType, _parse_datatype_string

    schema = StructType()
    for f in fields:
        schema.add(f["name"], _parse_datatype_string(sql_type(f["type"])), f.get("nullable", True))
    return schema


def dataframe(session: Any, fields: list[dict[str, Any]], rows: list[list[Any]]) -> Any:
    """A DataFrame of logical rows: Python values through Arrow's (naive datetimes for TIMESTAMP_NTZ, aware ones in
    UTC for TIMESTAMP, Decimal, date, bytes)."""
    values = to_arrow(fields, rows).to_pylist()
    data = [tuple(r[f["name"]] for f in fields) for r in values]
    return session.createDataFrame(data, spark_schema(session, fields))


def logical_rows(fields: list[dict[str, Any]], collected: list[Any]) -> list[list[Any]]:
    """Collected Spark rows in logical JSON form (a TIMESTAMP's naive datetime is UTC: the process runs in UTC)."""
    arrays = []
    for i, f in enumerate(fields):
        at = arrow_type(field_type(f["type"]))
        column = [r[i] for r in collected]
        if pa.types.is_binary(at):
            column = [None if v is None else bytes(v) for v in column]
        arrays.append(pa.array(column, at))
    names = [f["name"] for f in fields]
    return from_arrow(fields, pa.Table.from_arrays(arrays, names=names))
