"""pypaimon-rust 0.4.0 as a testee (`python tools/testees/rust_testee.py`): tables only, through its
DataFusion SQL context, the public API it has:

- read-table: register_catalog("paimon", {"warehouse": the folder above <database>.db}),
  SELECT <fields> FROM paimon.<db>.<table>;
- write-table: CREATE TABLE ... [PRIMARY KEY (...)] [PARTITIONED BY (...)] WITH (options), then per batch
  INSERT INTO ... SELECT * FROM a registered Arrow batch.
Rows travel through the kit's rows module (logical JSON <-> Arrow)."""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pyarrow as pa
from pypaimon_rust.datafusion import SQLContext

from paimon_conform.testee import tables
from paimon_conform.testee.kit import TABLE_CAPABILITIES, adapter, serve, table_handlers
from paimon_conform.testee.rows import from_arrow, to_arrow

_contexts: dict[str, SQLContext] = {}


def _where(path: str) -> tuple[SQLContext, str]:
    """(a SQL context with the warehouse as catalog `paimon`, "paimon.<db>.<table>")."""
    warehouse, db, table = tables.location(path)
    if warehouse not in _contexts:
        ctx = SQLContext()
        ctx.register_catalog("paimon", {"warehouse": warehouse})
        _contexts[warehouse] = ctx
    return _contexts[warehouse], f"paimon.{db}.{table}"


def _collect(result: Any) -> list:
    return result.collect() if hasattr(result, "collect") else result


def sql_type(text: str) -> str:
    """A Paimon type as pypaimon-rust's CREATE TABLE spells it (no WITH LOCAL TIME ZONE in its parser)."""
    return text.replace("WITH LOCAL TIME ZONE", "WITH TIME ZONE")


def read_table(path: str, fields: list[dict[str, Any]]) -> list[list[Any]]:
    ctx, name = _where(path)
    cols = ", ".join(f'"{f["name"]}"' for f in fields)
    batches = _collect(ctx.sql(f"SELECT {cols} FROM {name}"))  # noqa: S608 - names from the runner, quoted
    table = pa.Table.from_batches(batches) if batches else pa.table({f["name"]: [] for f in fields})
    return from_arrow(fields, table)


def write_table(path: str, table: dict[str, Any], commits: list[list[list[Any]]], existing: bool = False) -> None:
    ctx, name = _where(path)
    if not existing:
        _create(ctx, name, table)
    for n, rows in enumerate(commits):
        source = f"testee_batch_{Path(path).name}_{n}"
        ctx.register_batch(source, to_arrow(table["fields"], rows).to_batches()[0])
        _collect(ctx.sql(f"INSERT INTO {name} SELECT * FROM {source}"))  # noqa: S608 - our own names


def _create(ctx: SQLContext, name: str, table: dict[str, Any]) -> None:
    """CREATE SCHEMA and CREATE TABLE for the request's table."""
    db = name.rsplit(".", 1)[0]
    _collect(ctx.sql(f"CREATE SCHEMA IF NOT EXISTS {db}"))
    cols = ", ".join(
        f'"{f["name"]}" {sql_type(f["type"])}' + ("" if f.get("nullable", True) else " NOT NULL")
        for f in table["fields"]
    )
    pk = f", PRIMARY KEY ({', '.join(table['primary_keys'])})" if table["primary_keys"] else ""
    part = f" PARTITIONED BY ({', '.join(table['partition_keys'])})" if table["partition_keys"] else ""
    opts = ", ".join(f"'{k}'='{v}'" for k, v in table["options"].items())
    _collect(ctx.sql(f"CREATE TABLE {name} ({cols}{pk}){part}" + (f" WITH ({opts})" if opts else "")))


answer = adapter("pypaimon-rust", version("pypaimon-rust"), TABLE_CAPABILITIES, table_handlers(read_table, write_table))

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer, answer)
