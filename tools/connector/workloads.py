"""SQL workloads through Paimon's Spark connector, and what the connector reads back: `testee.py`'s venv runs
`workloads.py JAR WAREHOUSE OUT.json [--only NAME,...] [--kit KIT.json]` (conformance/support/connector.py starts
it; KIT.json is what kit_tables.py wrote).

Each workload is the SQL a user of the connector runs: CREATE TABLE with options, INSERTs, UPDATE, DELETE,
MERGE INTO, INSERT OVERWRITE, procedures (compact, tags, branches, expiry). Every table is then read through the
connector: the latest snapshot, each snapshot still there (VERSION AS OF), each workload's filters, each branch.
OUT.json holds, per table, its path and fields and those rows in logical JSON form (session.logical_rows); a
statement the connector refuses is recorded as the workload's error (the suite fails on it), never skipped.
With --kit, each table the kit's `format("paimon")` wrote is read the same ways, written into (MERGE INTO or
INSERT and DELETE, then compact: kit_writes) and read again.
"""

from __future__ import annotations

import json
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import session as connector

from paimon_conform.table.schema import read_schema

DB = "wl"


@dataclass(frozen=True)
class Workload:
    """One table's SQL ({t} is the table's full name, {c} the catalog) and the filters its reads are checked
    with: (column, operator, literal) with operator one of = < >= (literals as SQL spells them)."""

    name: str
    statements: tuple[str, ...]
    filters: tuple[tuple[str, str, Any], ...] = ()
    branches: tuple[str, ...] = ()
    doc: str = ""
    as_text: bool = False  # read every column CAST AS STRING (values PySpark cannot turn into Python objects)


def _values(n: int, start: int = 0, dt: str = "'2024-01-0' || CAST(1 + id % 2 AS STRING)") -> str:
    """A SELECT of n rows (id, dt, v, s, amount) over range(start, start + n)."""
    return (
        f"SELECT id, {dt} AS dt, CONCAT('v', CAST(id * 7 % 13 AS STRING)) AS v, "
        f"IF(id % 5 = 0, NULL, CONCAT('s', CAST(id % 3 AS STRING))) AS s, "
        f"CAST(id * 1.25 AS DECIMAL(12, 2)) AS amount FROM range({start}, {start + n})"
    )


PK_COLUMNS = "(id BIGINT NOT NULL, dt STRING NOT NULL, v STRING, s STRING, amount DECIMAL(12, 2))"
AP_COLUMNS = "(id BIGINT, dt STRING, v STRING, s STRING, amount DECIMAL(12, 2))"
FILTERS = (("id", "=", 7), ("dt", "=", "'2024-01-02'"), ("v", "=", "'v3'"), ("id", ">=", 40), ("s", "<", "'s2'"))

TYPES_COLUMNS = (
    "(id INT NOT NULL, b BOOLEAN, t TINYINT, sm SMALLINT, i INT, big BIGINT, f FLOAT, d DOUBLE, "
    "dec_small DECIMAL(5, 2), dec_mid DECIMAL(18, 6), dec_wide DECIMAL(38, 10), s STRING, bin BINARY, day DATE, "
    "ts TIMESTAMP_NTZ, lts TIMESTAMP)"
)
TYPES_ROWS = (
    "(1, true, 127, 32767, 2147483647, 9223372036854775807, CAST(1.5 AS FLOAT), 1e300, 999.99, "
    "123456789012.123456, 1234567890123456789012345678.0123456789, 'héllo 中', X'00FF7F80', DATE'2024-02-29', "
    "TIMESTAMP_NTZ'2024-01-01 00:00:00.000001', TIMESTAMP'2024-01-01 00:00:00.000001'), "
    "(2, false, -128, -32768, -2147483648, -9223372036854775808, CAST('NaN' AS FLOAT), CAST('-Infinity' AS DOUBLE), "
    "-999.99, -0.000001, -0.0000000001, '', X'', DATE'1970-01-01', TIMESTAMP_NTZ'1969-12-31 23:59:59.999999', "
    "TIMESTAMP'1969-12-31 23:59:59.999999'), "
    "(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
    "(4, true, 0, 0, 0, 0, CAST(-0.0 AS FLOAT), -0.0, 0.00, 0.000000, 0E-10, 'z', X'80', DATE'9999-12-31', "
    "TIMESTAMP_NTZ'9999-12-31 23:59:59.999999', TIMESTAMP'2262-04-11 23:47:16.854775')"
)
TYPE_FILTERS = (("id", "=", 2), ("i", ">=", 0), ("s", "=", "'z'"))


def _types(fmt: str) -> Workload:
    return Workload(
        f"types_{fmt}",
        (
            f"CREATE TABLE {{t}} {TYPES_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
            f"'file.format' = '{fmt}', 'file-index.bloom-filter.columns' = 's,big', "
            f"'file-index.bitmap.columns' = 'i')",
            f"INSERT INTO {{t}} VALUES {TYPES_ROWS}",
            "UPDATE {t} SET s = 'updated' WHERE id = 3",
        ),
        TYPE_FILTERS,
        doc=f"every type Spark SQL has a Paimon type for, {fmt}, bloom-filter and bitmap file indexes",
    )


WORKLOADS: tuple[Workload, ...] = (
    Workload(
        "pk_dv",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,id', "
            "'bucket' = '3', 'deletion-vectors.enabled' = 'true', 'file-index.bloom-filter.columns' = 'v', "
            "'file-index.bitmap.columns' = 's')",
            f"INSERT INTO {{t}} {_values(60)}",
            f"INSERT INTO {{t}} {_values(40, 30)}",
            "UPDATE {t} SET s = 'upd' WHERE id % 7 = 0",
            "DELETE FROM {t} WHERE id % 11 = 0",
            f"MERGE INTO {{t}} AS t USING ({_values(30, 55)}) AS src ON t.id = src.id AND t.dt = src.dt "
            "WHEN MATCHED AND src.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET * "
            "WHEN NOT MATCHED THEN INSERT *",
            "CALL {c}.sys.compact(table => '" + DB + ".{n}')",
            f"INSERT INTO {{t}} {_values(5, 100)}",
        ),
        FILTERS,
        doc="primary key (dt, id), 3 buckets, deletion vectors, bloom-filter and bitmap indexes; "
        "INSERT, UPDATE, DELETE, MERGE INTO, compact",
    ),
    Workload(
        "pk_dynamic",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '-1', "
            "'dynamic-bucket.target-row-num' = '20')",
            f"INSERT INTO {{t}} {_values(50)}",
            f"INSERT INTO {{t}} {_values(50, 25)}",
            "DELETE FROM {t} WHERE id % 9 = 0",
        ),
        FILTERS,
        doc="dynamic bucket (bucket -1, HASH index), 20 rows per bucket; upserts, DELETE",
    ),
    Workload(
        "pk_lookup_changelog",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,id', "
            "'bucket' = '2', 'changelog-producer' = 'lookup', 'file.format' = 'orc')",
            f"INSERT INTO {{t}} {_values(30)}",
            f"INSERT INTO {{t}} {_values(30, 15)}",
            "UPDATE {t} SET v = 'changed' WHERE id < 5",
        ),
        FILTERS,
        doc="changelog-producer lookup, ORC",
    ),
    Workload(
        "pk_full_compaction_changelog",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
            "'changelog-producer' = 'full-compaction', 'file.format' = 'avro')",
            f"INSERT INTO {{t}} {_values(30)}",
            f"INSERT INTO {{t}} {_values(30, 20)}",
            "CALL {c}.sys.compact(table => '" + DB + ".{n}')",
        ),
        FILTERS,
        doc="changelog-producer full-compaction, Avro, compact",
    ),
    Workload(
        "pk_partial_update",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
            "'merge-engine' = 'partial-update')",
            f"INSERT INTO {{t}} {_values(20)}",
            "INSERT INTO {t} SELECT id, '2024-01-01', NULL, 'partial', NULL FROM range(0, 20, 3)",
        ),
        FILTERS,
        doc="merge-engine partial-update: NULLs keep the earlier values",
    ),
    Workload(
        "pk_aggregation",
        (
            "CREATE TABLE {t} (id BIGINT NOT NULL, dt STRING, v STRING, s STRING, amount DECIMAL(12, 2)) "
            "TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', 'merge-engine' = 'aggregation', "
            "'fields.amount.aggregate-function' = 'sum', 'fields.v.aggregate-function' = 'max', "
            "'fields.s.aggregate-function' = 'last_non_null_value')",
            f"INSERT INTO {{t}} {_values(20)}",
            f"INSERT INTO {{t}} {_values(20, 10)}",
        ),
        FILTERS,
        doc="merge-engine aggregation: sum, max, last_non_null_value",
    ),
    Workload(
        "pk_first_row",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2', "
            "'merge-engine' = 'first-row')",
            f"INSERT INTO {{t}} {_values(20)}",
            "INSERT INTO {t} SELECT id, '2024-01-09', 'later', NULL, NULL FROM range(0, 30)",
        ),
        FILTERS,
        doc="merge-engine first-row",
    ),
    Workload(
        "append_overwrite",
        (
            f"CREATE TABLE {{t}} {AP_COLUMNS} PARTITIONED BY (dt) TBLPROPERTIES ('bucket' = '-1')",
            f"INSERT INTO {{t}} {_values(40)}",
            f"INSERT INTO {{t}} {_values(10, 40)}",
            f"INSERT OVERWRITE {{t}} PARTITION (dt = '2024-01-01') SELECT id, v, s, amount FROM ({_values(6, 200)})",
            "DELETE FROM {t} WHERE id % 4 = 1",
            "UPDATE {t} SET v = 'u' WHERE id % 4 = 2",
        ),
        FILTERS,
        doc="append table (bucket -1) partitioned by dt: INSERT, INSERT OVERWRITE of a partition, DELETE, UPDATE",
    ),
    Workload(
        "append_bucketed",
        (
            f"CREATE TABLE {{t}} {AP_COLUMNS} TBLPROPERTIES ('bucket' = '3', 'bucket-key' = 'id', "
            "'file-index.bloom-filter.columns' = 'id,v')",
            f"INSERT INTO {{t}} {_values(30)}",
            f"INSERT INTO {{t}} {_values(30, 30)}",
            f"INSERT OVERWRITE {{t}} {_values(25, 100)}",
            f"INSERT INTO {{t}} {_values(5, 300)}",
        ),
        FILTERS,
        doc="append table, 3 buckets by id, bloom-filter index; INSERT OVERWRITE of the whole table",
    ),
    Workload(
        "tags_branches_expiry",
        (
            f"CREATE TABLE {{t}} {PK_COLUMNS} TBLPROPERTIES ('primary-key' = 'id', 'bucket' = '2')",
            f"INSERT INTO {{t}} {_values(10)}",
            "CALL {c}.sys.create_tag(table => '" + DB + ".{n}', tag => 'first', snapshot => 1)",
            f"INSERT INTO {{t}} {_values(10, 5)}",
            "CALL {c}.sys.create_branch(table => '" + DB + ".{n}', branch => 'side', tag => 'first')",
            f"INSERT INTO {{c}}.{DB}.`{{n}}$branch_side` {_values(4, 50)}",
            f"INSERT INTO {{t}} {_values(10, 20)}",
            f"INSERT INTO {{t}} {_values(10, 30)}",
            "CALL {c}.sys.expire_snapshots(table => '" + DB + ".{n}', retain_max => 2)",
        ),
        FILTERS,
        branches=("side",),
        doc="a tag, a branch from it written to, snapshots expired (retain_max 2)",
    ),
    _types("parquet"),
    _types("orc"),
    _types("avro"),
    Workload(
        "dates_before_1582",
        (
            "CREATE TABLE {t} (id INT, day DATE, ts TIMESTAMP_NTZ, lts TIMESTAMP) TBLPROPERTIES ('bucket' = '-1')",
            "INSERT INTO {t} VALUES "
            + ", ".join(
                f"({i}, DATE'{d}', TIMESTAMP_NTZ'{d} 12:00:00', TIMESTAMP'{d} 12:00:00')"
                for i, d in enumerate(("0001-01-01", "1000-06-15", "1582-10-14", "1582-10-15", "2024-02-29"))
            ),
        ),
        doc="DATE and TIMESTAMP values before the Gregorian cutover, written through Spark SQL; read as text",
        as_text=True,
    ),
)


@dataclass
class Result:
    """What the connector read from one workload's table."""

    path: str
    fields: list[dict[str, Any]]
    latest: list[list[Any]] = field(default_factory=list)
    snapshots: dict[str, list[list[Any]]] = field(default_factory=dict)
    filters: list[dict[str, Any]] = field(default_factory=list)
    branches: dict[str, list[list[Any]]] = field(default_factory=dict)


def fields_of(path: Path) -> list[dict[str, Any]]:
    """The table's columns as the protocol names them (name, Paimon type text, nullability)."""
    return [{"name": f.name, "type": str(f.type), "nullable": f.nullable} for f in read_schema(path).fields]


def _select(session: Any, fields: list[dict[str, Any]], source: str, where: str = "") -> list[list[Any]]:
    cols = ", ".join(connector.quoted(f["name"]) for f in fields)
    return connector.logical_rows(fields, session.sql(f"SELECT {cols} FROM {source} {where}").collect())


def run(session: Any, warehouse: Path, w: Workload) -> Result:
    """Run a workload's statements, then read its table every way the suite checks."""
    c = connector.catalog(session, str(warehouse))
    t = f"{c}.{DB}.{w.name}"
    for statement in w.statements:
        session.sql(statement.format(t=t, c=c, n=w.name))
    path = warehouse / f"{DB}.db" / w.name
    fields = fields_of(path)
    if w.as_text:
        cols = ", ".join(f"CAST({connector.quoted(f['name'])} AS STRING)" for f in fields)
        return Result(str(path), fields, latest=[list(r) for r in session.sql(f"SELECT {cols} FROM {t}").collect()])
    result = Result(str(path), fields, latest=_select(session, fields, t))
    ids = [r[0] for r in session.sql(f"SELECT snapshot_id FROM {c}.{DB}.`{w.name}$snapshots`").collect()]
    for sid in sorted(ids):
        result.snapshots[str(sid)] = _select(session, fields, f"{t} VERSION AS OF {sid}")
    for column, op, literal in w.filters:
        rows = _select(session, fields, t, f"WHERE {connector.quoted(column)} {op} {literal}")
        result.filters.append({"column": column, "op": op, "literal": literal, "rows": rows})
    for branch in w.branches:
        result.branches[branch] = _select(session, fields, f"{c}.{DB}.`{w.name}$branch_{branch}`")
    return result


def kit_writes(name: str, table: dict[str, Any]) -> list[str]:
    """What the connector writes into a table the kit wrote: a primary-key table gets a MERGE INTO (a third of
    its keys: every second one deleted, the rest updated, and new keys inserted), an append table an INSERT of
    a quarter of its rows again and a DELETE; then both are compacted."""
    cols = [connector.quoted(f["name"]) for f in table["fields"]]
    if table["primary_keys"]:
        on = " AND ".join(f"t.{connector.quoted(k)} = src.{connector.quoted(k)}" for k in table["primary_keys"])
        changed = ", ".join("'merged' AS `s`" if c == "`s`" else c for c in cols)
        inserted = ", ".join("`id` + 1000 AS `id`" if c == "`id`" else c for c in cols)
        source = f"SELECT {changed} FROM {{t}} WHERE id % 3 = 0 UNION ALL SELECT {inserted} FROM {{t}} WHERE id < 4"
        writes = [
            f"MERGE INTO {{t}} AS t USING ({source}) AS src ON {on} "
            "WHEN MATCHED AND src.id % 2 = 0 THEN DELETE WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *"
        ]
    else:
        writes = ["INSERT INTO {t} SELECT * FROM {t} WHERE id % 4 = 0", "DELETE FROM {t} WHERE id % 5 = 0"]
    return [*writes, "CALL {c}.sys.compact(table => 'kit." + name + "')"]


def run_kit_table(session: Any, warehouse: Path, name: str, table: dict[str, Any]) -> dict[str, Any]:
    """Read a table the kit wrote (latest, every snapshot, its filters), write into it, read it again."""
    c = connector.catalog(session, str(warehouse))
    t = f"{c}.kit.{name}"
    fields = table["fields"]
    out: dict[str, Any] = {"latest": _select(session, fields, t), "snapshots": {}, "filters": []}
    ids = [r[0] for r in session.sql(f"SELECT snapshot_id FROM {c}.kit.`{name}$snapshots`").collect()]
    for sid in sorted(ids):
        out["snapshots"][str(sid)] = _select(session, fields, f"{t} VERSION AS OF {sid}")
    for column, op, literal in table["filters"]:
        rows = _select(session, fields, t, f"WHERE {connector.quoted(column)} {op} {literal}")
        out["filters"].append({"column": column, "op": op, "literal": literal, "rows": rows})
    out["writes"] = kit_writes(name, table)
    for statement in out["writes"]:
        session.sql(statement.format(t=t, c=c))
    out["after"] = _select(session, fields, t)
    return out


def main(argv: list[str]) -> int:
    jar, warehouse, out = argv[0], Path(argv[1]), Path(argv[2])
    options = dict(zip(argv[3::2], argv[4::2], strict=False))
    only = set(options["--only"].split(",")) if "--only" in options else None
    doc: dict[str, Any] = {"tables": {}, "errors": {}, "docs": {}}
    try:
        _run_all(jar, warehouse, options, only, doc)
    finally:  # what ran is written, whatever stopped the rest
        out.write_text(json.dumps(doc), encoding="utf-8")
        connector.stop()
    return 0


def _run_all(jar: str, warehouse: Path, options: dict[str, str], only: set[str] | None, doc: dict[str, Any]) -> None:
    """Every workload, then (with --kit) every kit table, into `doc`."""
    session = connector.spark(jar)
    session.sql(f"CREATE DATABASE IF NOT EXISTS {connector.catalog(session, str(warehouse))}.{DB}")
    for w in WORKLOADS:
        if only is not None and w.name not in only:
            continue
        doc["docs"][w.name] = w.doc
        try:
            doc["tables"][w.name] = run(session, warehouse, w).__dict__
        except Exception as exc:  # noqa: BLE001 - the connector's refusal is the workload's recorded result
            cause = connector.root_cause(exc)
            doc["errors"][w.name] = f"{type(cause).__name__}: {cause}"[:4000]
            traceback.print_exc()
    if "--kit" in options:  # tables the kit wrote (kit_tables.py): read, written into, read again
        kit = json.loads(Path(options["--kit"]).read_text(encoding="utf-8"))
        doc["kit"], doc["kit_errors"] = {}, {}
        for name, table in kit.items():
            try:
                doc["kit"][name] = run_kit_table(session, Path(table["path"]).parent.parent, name, table)
            except Exception as exc:  # noqa: BLE001 - the connector's refusal is the recorded result
                cause = connector.root_cause(exc)
                doc["kit_errors"][name] = f"{type(cause).__name__}: {cause}"[:4000]
                traceback.print_exc()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
