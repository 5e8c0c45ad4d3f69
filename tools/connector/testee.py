"""Paimon's Spark connector as a testee: `python tools/testees/paimon_spark.py VERSION` starts this file in the
connector's virtualenv as `testee.py JAR VERSION` (tools/connector/session.py). Tables through Spark SQL, as a
user of the connector writes and reads them:

- write-table: CREATE TABLE <catalog>.<db>.<table> (...) [PARTITIONED BY (...)] TBLPROPERTIES (options,
  'primary-key'), then per commit INSERT INTO it SELECT * FROM a temporary view of the batch; a column type Spark
  SQL has no type for is refused (session.sql_type);
- read-table: SELECT <fields> FROM the table, collected.
The catalog over a table's warehouse is registered on first use. The JVM writes to stderr: the protocol's replies
go to the real stdout alone."""

from __future__ import annotations

import sys
from typing import Any

import session as connector

from paimon_conform.testee import tables
from paimon_conform.testee.kit import TABLE_CAPABILITIES, adapter, serve_beside_a_jvm, table_handlers

JAR, VERSION = sys.argv[1], sys.argv[2]


def _name(path: str) -> str:
    """`<catalog>.<db>.<table>` of a protocol table path, the catalog registered over its warehouse."""
    warehouse, db, table = tables.location(path)
    return f"{connector.catalog(connector.spark(JAR), warehouse)}.{connector.quoted(db)}.{connector.quoted(table)}"


def read_table(path: str, fields: list[dict[str, Any]]) -> list[list[Any]]:
    cols = ", ".join(connector.quoted(f["name"]) for f in fields)
    collected = connector.spark(JAR).sql(f"SELECT {cols} FROM {_name(path)}").collect()
    return connector.logical_rows(fields, collected)


def write_table(path: str, table: dict[str, Any], commits: list[list[list[Any]]], existing: bool = False) -> None:
    session = connector.spark(JAR)
    for f in table["fields"]:
        connector.sql_type(f["type"])  # refused before anything is created
    name = _name(path)
    if not existing:
        session.sql(f"CREATE DATABASE IF NOT EXISTS {name.rsplit('.', 1)[0]}")
        connector.create_table(session, name, table)
    for rows in commits:
        connector.dataframe(session, table["fields"], rows).createOrReplaceTempView("testee_batch")
        session.sql(f"INSERT INTO {name} SELECT * FROM testee_batch")


def _unwrapped(handler: Any) -> Any:
    """The handler, raising a Java failure's root cause instead of Py4J's wrapper (session.root_cause)."""

    def run(request: dict[str, Any]) -> dict[str, Any]:
        try:
            return handler(request)
        except Exception as exc:
            cause = connector.root_cause(exc)
            if cause is exc:
                raise
            raise cause from None

    return run


answer = adapter(
    f"paimon-spark-{VERSION}",
    VERSION,
    TABLE_CAPABILITIES,
    {op: _unwrapped(h) for op, h in table_handlers(read_table, write_table).items()},
    java_release=".".join(VERSION.split(".")[:2]),
)


if __name__ == "__main__":
    serve_beside_a_jvm(answer, connector.stop)
