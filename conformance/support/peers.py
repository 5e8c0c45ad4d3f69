"""The independent implementations as oracles: pypaimon 2.1.0 (pure Python) and pypaimon-rust 0.4.0.

pypaimon is its testee (tools/testees/pypaimon_testee.py), a child process in which `pypaimon_rust` cannot be
imported, so it can never hand a read or a write to its optional Rust backend (the two oracles stay two
codebases); pypaimon-rust is called here directly, for the SQL the tests write. Rows come back as sorted JSON
text per row, in the order of `columns`.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from support import testees
from support.environment import missing


def _missing(what: str) -> None:
    missing(f"{what} (the peers extra) is not installed")


def pypaimon_rows(warehouse: Path, ident: str, columns: list[str]) -> list[str]:
    """What pypaimon 2.1.0 (its Python path: the pypaimon testee) reads from `db.table`."""
    if importlib.util.find_spec("pypaimon") is None:
        _missing("pypaimon")
    db, table = ident.split(".")
    return as_json_rows(testees.read_rows("pypaimon", warehouse / f"{db}.db" / table, columns))


def pypaimon_write(warehouse: Path, ident: str, spec: dict) -> None:
    """Create a table with pypaimon 2.1.0 (the pypaimon testee) and commit `spec["commits"]` (lists of rows) in
    order; `spec["columns"]` holds [name, type] pairs."""
    if importlib.util.find_spec("pypaimon") is None:
        _missing("pypaimon")
    db, name = ident.split(".")
    table = {
        "fields": [{"name": n, "type": t} for n, t in spec["columns"]],
        "primary_keys": spec["primary"],
        "partition_keys": spec["partition"],
        "options": spec["options"],
    }
    testees.write_table("pypaimon", warehouse / f"{db}.db" / name, table, spec["commits"])


def rust_context(warehouse: Path):
    """A pypaimon-rust DataFusion SQL context on a warehouse (catalog name `paimon`)."""
    try:
        from pypaimon_rust.datafusion import SQLContext
    except ImportError:
        _missing("pypaimon-rust")
    ctx = SQLContext()
    ctx.register_catalog("paimon", {"warehouse": str(warehouse)})
    return ctx


def rust_sql(ctx, sql: str) -> list:
    """Run one statement; a query's batches collected."""
    result = ctx.sql(sql)
    return result.collect() if hasattr(result, "collect") else result


def rust_create_table(ctx, name: str, keys: bool, options: dict[str, str]) -> None:
    """CREATE TABLE paimon.db.<name> (dt, id, v, s), partitioned by dt, primary key (dt, id) when `keys`."""
    pk = ", PRIMARY KEY (dt, id)" if keys else ""
    opts = ", ".join(f"'{k}'='{v}'" for k, v in options.items())
    rust_sql(
        ctx,
        f"CREATE TABLE paimon.db.{name} (dt STRING NOT NULL, id BIGINT NOT NULL, v DOUBLE, s STRING{pk}) "
        f"PARTITIONED BY (dt) WITH ({opts})",
    )


def rust_rows(warehouse: Path, ident: str, columns: list[str]) -> list[str]:
    """What pypaimon-rust 0.4.0 reads from `db.table`."""
    ctx = rust_context(warehouse)
    cols = ", ".join(columns)
    batches = rust_sql(ctx, f"SELECT {cols} FROM paimon.{ident}")
    return sorted(json.dumps([r[c] for c in columns], default=str) for b in batches for r in b.to_pylist())


def sql_values(rows) -> str:
    """Rows as the VALUES list of an INSERT statement (strings quoted, None as NULL)."""

    def lit(v) -> str:
        return "NULL" if v is None else f"'{v}'" if isinstance(v, str) else repr(v)

    return ", ".join("(" + ", ".join(lit(v) for v in r) + ")" for r in rows)


def as_json_rows(rows: list[tuple] | list[list]) -> list[str]:
    """Rows in the form the peers' answers take (sorted JSON text per row)."""
    return sorted(json.dumps(list(r), default=str) for r in rows)
