"""Our Spark source reading tables other writers made: every Java-written golden table (the
rows Java's reader returned), and tables written by pypaimon 2.1.0 (Python path only) and by
pypaimon-rust 0.4.0 (the rows each writer's model says they hold). Filters pushed into the
scan must not change an answer.
"""

from __future__ import annotations

import json
import shutil

import pytest
from support.environment import ROOT
from support.peers import as_json_rows, pypaimon_write, rust_context, rust_create_table, rust_sql, sql_values

from paimon_conform.table.read.reader import logical_rows
from paimon_conform.table.schema import read_schema

EVIDENCE = ("java", "third-party")

pytestmark = pytest.mark.spark

SIDECARS = sorted((ROOT / "golden" / "tables").glob("java-*/*.json"))
WITH_DT = [p for p in SIDECARS if any(f["name"] == "dt" for f in json.loads(p.read_text())["schema"]["fields"])]


def canonical(rows: list[list]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


def spark_logical(spark, path, where: str | None = None) -> list[list]:
    """Rows our Spark source returns, in the kit's logical JSON form."""
    df = spark.read.format("paimon").load(str(path))
    if where:
        df = df.where(where)
    return logical_rows(read_schema(path), df.toArrow())


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[f"{p.parent.name}/{p.stem}" for p in SIDECARS])
def test_spark_source_returns_javas_rows(spark, sidecar):
    meta = json.loads(sidecar.read_text())
    assert canonical(spark_logical(spark, sidecar.with_suffix(""))) == canonical(meta["expected_rows"])


@pytest.mark.parametrize("sidecar", WITH_DT, ids=[f"{p.parent.name}/{p.stem}" for p in WITH_DT])
def test_pushed_partition_filters_keep_javas_answer(spark, sidecar):
    meta = json.loads(sidecar.read_text())
    at = [f["name"] for f in meta["schema"]["fields"]].index("dt")
    want = [r for r in meta["expected_rows"] if r[at] == "2024-01-02"]
    assert want
    assert canonical(spark_logical(spark, sidecar.with_suffix(""), "dt = '2024-01-02'")) == canonical(want)


def rows(n: int, day: str, start: int = 0) -> list[list]:
    return [[day, i, i * 0.25, None if i % 7 == 0 else f"p{i % 5}", "+I"] for i in range(start, start + n)]


@pytest.fixture(scope="module")
def pypaimon_tables(tmp_path_factory) -> tuple:
    """Tables pypaimon wrote (fixed and dynamic bucket, upserts, deletes via rowkind.field) and their rows."""
    wh = tmp_path_factory.mktemp("pypaimon-wh")
    columns = [["dt", "STRING"], ["id", "BIGINT"], ["v", "DOUBLE"], ["s", "STRING"], ["op", "STRING"]]
    first = rows(120, "2024-01-01") + rows(80, "2024-01-02")
    changes = [["2024-01-01", i, -1.0, "u", "+U"] for i in range(0, 120, 4)]
    changes += [["2024-01-02", i, 0.0, None, "-D"] for i in range(0, 80, 5)]
    model = {(r[0], r[1]): r for r in first}
    for r in changes:
        if r[4] == "-D":
            model.pop((r[0], r[1]))
        else:
            model[(r[0], r[1])] = r
    for name, bucket in (("fixed", "3"), ("dynamic", "-1")):
        spec = {
            "columns": columns,
            "partition": ["dt"],
            "primary": ["dt", "id"],
            "options": {"bucket": bucket, "rowkind.field": "op", "dynamic-bucket.target-row-num": "50"},
            "commits": [first, changes],
        }
        pypaimon_write(wh, f"db.{name}", spec)
    return wh, sorted(model.values())


@pytest.mark.parametrize("name", ["fixed", "dynamic"])
def test_spark_source_reads_pypaimon_tables(spark, pypaimon_tables, name):
    wh, want = pypaimon_tables
    got = spark.read.format("paimon").load(str(wh / "db.db" / name)).collect()
    assert as_json_rows([list(r) for r in got]) == as_json_rows(want)


@pytest.fixture(scope="module")
def rust_tables(tmp_path_factory) -> tuple:
    """Tables pypaimon-rust wrote (primary key with upserts, dynamic bucket, append with file indexes)."""
    wh = tmp_path_factory.mktemp("rust-wh")
    ctx = rust_context(wh)
    rust_sql(ctx, "CREATE SCHEMA paimon.db")
    first = [r[:4] for r in rows(150, "2024-01-01") + rows(90, "2024-01-02")]
    upserts = [["2024-01-01", i, 9.5, "r"] for i in range(0, 150, 6)]

    want = {}
    for name, keys, options in (
        ("pk", True, {"bucket": "4"}),
        ("dyn", True, {"bucket": "-1", "dynamic-bucket.target-row-num": "40"}),
        ("app", False, {"file-index.bloom-filter.columns": "s", "file-index.bloom-filter.s.items": "100"}),
    ):
        rust_create_table(ctx, name, keys, options)
        rust_sql(ctx, f"INSERT INTO paimon.db.{name} VALUES {sql_values(first)}")
        if keys:
            rust_sql(ctx, f"INSERT INTO paimon.db.{name} VALUES {sql_values(upserts)}")
            merged = {(r[0], r[1]): r for r in first} | {(r[0], r[1]): r for r in upserts}
            want[name] = sorted(merged.values())
        else:
            want[name] = sorted(first)
    return wh, want


@pytest.mark.parametrize("name", ["pk", "dyn", "app"])
def test_spark_source_reads_rust_tables(spark, rust_tables, name):
    """pypaimon-rust writes primary-key files in thin mode; the source reads the value columns."""
    wh, want = rust_tables
    got = spark.read.format("paimon").load(str(wh / "db.db" / name)).collect()
    assert as_json_rows([list(r) for r in got]) == as_json_rows(want[name])


def test_file_index_skipping_on_a_rust_table_keeps_the_answer(spark, rust_tables, tmp_path):
    wh, want = rust_tables
    shutil.copytree(wh / "db.db" / "app", tmp_path / "app")
    df = spark.read.format("paimon").load(str(tmp_path / "app")).where("s = 'p3'")
    assert as_json_rows([list(r) for r in df.collect()]) == as_json_rows([r for r in want["app"] if r[3] == "p3"])
    assert spark.read.format("paimon").load(str(tmp_path / "app")).where("s = 'absent'").count() == 0
