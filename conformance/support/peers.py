"""The independent implementations as oracles: pypaimon 2.1.0 (pure Python) and pypaimon-rust 0.4.0.

pypaimon runs in a child process in which `pypaimon_rust` cannot be imported, so it can never
hand a read or a write to its optional Rust backend (the two oracles stay two codebases).
Rows come back as sorted JSON text per row, in the order of `columns`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support.environment import missing

BLOCK_RUST = """
import sys
class _NoRust:
    def find_spec(self, name, path=None, target=None):
        if name == "pypaimon_rust" or name.startswith("pypaimon_rust."):
            raise ImportError("pypaimon_rust is blocked: pypaimon must use its Python path")
sys.meta_path.insert(0, _NoRust())
"""

READ = """
import json, sys
from pypaimon import CatalogFactory
wh, ident, columns = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
table = CatalogFactory.create({"warehouse": wh}).get_table(ident)
rb = table.new_read_builder()
rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
assert "pypaimon_rust" not in sys.modules
print(json.dumps([json.dumps([r[c] for c in columns], default=str) for r in rows]))
"""

WRITE = """
import json, sys
import pyarrow as pa
from pypaimon import CatalogFactory, Schema
wh, ident, spec = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
catalog = CatalogFactory.create({"warehouse": wh})
catalog.create_database(ident.split(".")[0], True)
types = {"STRING": pa.string(), "BIGINT": pa.int64(), "DOUBLE": pa.float64()}
schema = pa.schema([(n, types[t]) for n, t in spec["columns"]])
catalog.create_table(ident, Schema.from_pyarrow_schema(
    schema, partition_keys=spec["partition"], primary_keys=spec["primary"], options=spec["options"]), False)
table = catalog.get_table(ident)
for rows in spec["commits"]:
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.Table.from_pylist([dict(zip(schema.names, r)) for r in rows], schema))
    c.commit(w.prepare_commit())
    w.close()
    c.close()
assert "pypaimon_rust" not in sys.modules
"""


def _missing(what: str) -> None:
    missing(f"{what} (the peers extra) is not installed")


def _run(script: str, *args: str) -> str:
    try:
        import pypaimon  # noqa: F401
    except ImportError:
        _missing("pypaimon")
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_RUST + script, *args], capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        raise RuntimeError(f"pypaimon failed: {done.stderr.strip().splitlines()[-1] if done.stderr else done}")
    return done.stdout


def pypaimon_rows(warehouse: Path, ident: str, columns: list[str]) -> list[str]:
    """What pypaimon 2.1.0 (Python path only) reads from `db.table`."""
    out = _run(READ, str(warehouse), ident, json.dumps(columns))
    return sorted(json.loads(out.strip().splitlines()[-1]))


def pypaimon_write(warehouse: Path, ident: str, spec: dict) -> None:
    """Create a table with pypaimon 2.1.0 and commit `spec["commits"]` (lists of row tuples) in order."""
    _run(WRITE, str(warehouse), ident, json.dumps(spec))


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
