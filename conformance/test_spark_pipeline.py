"""The Spark pipeline end to end: tables written through `format("paimon")` on PySpark, read back
by our Spark source, our reader, pypaimon 2.1.0 (Python path only), pypaimon-rust 0.4.0 and Java
Paimon 1.0, each against an independent pandas model of the rows; and validated clean.

Every table is written in several Spark jobs (inserts, upserts, deletes through `rowkind.field`),
some straight through `df.write` (rows of one bucket spread over tasks), some through
`paimon_conform.spark.source.write` (one task per bucket).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import testees
from support.peers import as_json_rows, pypaimon_rows, rust_rows

from paimon_conform.spark import source as ps
from paimon_conform.table.read import scan
from paimon_conform.table.read.reader import read_latest
from paimon_conform.table.schema import read_schema
from paimon_conform.table.state import latest_state
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("java", "third-party", "kit")

pytestmark = pytest.mark.spark

COLUMNS = ["id", "dt", "v", "s", "op"]
PLAIN = ["id", "dt", "v", "s"]


class Model:
    """The rows a table must hold, kept in pandas beside the writes."""

    def __init__(self, keys: list[str] | None) -> None:
        self.keys = keys
        self.frame = pd.DataFrame()

    def apply(self, batch: pd.DataFrame) -> None:
        """Apply a batch as Paimon does: upsert by key (last wins), -U / -D delete, or append."""
        if self.keys is None:
            self.frame = pd.concat([self.frame, batch], ignore_index=True)
            return
        merged = pd.concat([self.frame, batch], ignore_index=True).drop_duplicates(self.keys, keep="last")
        if "op" in merged:
            merged = merged[~merged["op"].isin(["-U", "-D"])]
        self.frame = merged.reset_index(drop=True)

    def rows(self, columns: list[str]) -> list[str]:
        return as_json_rows(self.frame[columns].astype(object).where(self.frame[columns].notna(), None).values.tolist())


def batch(ids, dt_of, seed: int, op: str | None = "+I") -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ids = np.asarray(list(ids), dtype=np.int64)
    frame = pd.DataFrame(
        {
            "id": ids,
            "dt": [dt_of(int(i)) for i in ids],
            "v": np.round(rng.uniform(-100, 100, len(ids)), 3),
            "s": [None if i % 13 == 0 else f"s{x}" for i, x in zip(ids, rng.integers(0, 40, len(ids)), strict=True)],
        }
    )
    if op is not None:
        frame["op"] = op
    return frame


def day(i: int) -> str:
    return f"2024-01-0{i % 3 + 1}"


SPARK_SCHEMA = "id BIGINT, dt STRING, v DOUBLE, s STRING"


def to_spark(spark, frame: pd.DataFrame, parts: int = 3):
    schema = SPARK_SCHEMA + (", op STRING" if "op" in frame else "")
    return spark.createDataFrame(frame.astype(object).where(frame.notna(), None), schema).repartition(parts)


@pytest.fixture(scope="module")
def tables(spark, tmp_path_factory) -> dict:
    """name -> (warehouse, table dir, model, columns): the tables the pipeline wrote."""
    wh = tmp_path_factory.mktemp("spark-wh")
    out = {}

    def make(name, options, steps, keys, columns, direct):
        path = wh / "db.db" / name
        model = Model(keys)
        for i, frame in enumerate(steps):
            df = to_spark(spark, frame)
            if direct[i]:
                df.write.format("paimon").mode("append").options(**options).save(str(path))
            else:
                ps.write(df, str(path), **options)
            model.apply(frame)
        out[name] = (wh, path, model, columns)

    pk = {"primary-key": "dt,id", "partition": "dt"}
    upserts = batch(range(0, 2000, 7), day, 2, "+U")
    # Spark keeps no order between rows of one DataFrame: a write never holds one key twice
    deletes = batch([i for i in range(3, 2000, 50) if i % 7], day, 3, "-D")
    fresh = batch(range(2000, 2100), day, 4)
    again = batch(range(0, 2000, 11), day, 5, "+U")
    make(
        "pk_dv",
        pk
        | {
            "bucket": "4",
            "deletion-vectors.enabled": "true",
            "rowkind.field": "op",
            "file-index.bloom-filter.columns": "s",
            "file-index.bloom-filter.s.items": "1000",
        },
        # the third write has no free level left in some buckets: they are rewritten at level 5
        [batch(range(2000), day, 1), pd.concat([upserts, deletes, fresh]), again, batch(range(5, 2100, 97), day, 8)],
        ["dt", "id"],
        COLUMNS,
        [True, False, True, False],
    )
    make(
        "pk_mor_orc",
        pk | {"bucket": "3", "file.format": "orc", "rowkind.field": "op"},
        [batch(range(1500), day, 1), pd.concat([upserts[upserts.id < 1500], deletes[deletes.id < 1500]])],
        ["dt", "id"],
        COLUMNS,
        [True, False],
    )
    make(
        "pk_dynamic",
        pk | {"bucket": "-1", "dynamic-bucket.target-row-num": "150"},
        [batch(range(1000), day, 1, None), batch([*range(0, 1000, 9), *range(1000, 1300)], day, 6, None)],
        ["dt", "id"],
        PLAIN,
        [False, False],
    )
    make(
        "append_index",
        {
            "partition": "dt",
            "file-index.bloom-filter.columns": "s",
            "file-index.bloom-filter.s.items": "2000",
            "file-index.bitmap.columns": "dt",
        },
        [batch(range(600), day, 1, None), batch(range(600, 900), day, 7, None)],
        None,
        PLAIN,
        [True, True],
    )
    make(
        "append_embedded",
        {"partition": "dt", "file-index.bitmap.columns": "dt,s", "file-index.in-manifest-threshold": "4 kb"},
        [batch(range(200), day, 1, None)],
        None,
        PLAIN,
        [True],
    )
    make(
        "append_fixed",
        {"bucket": "3", "bucket-key": "id", "partition": "dt"},
        [batch(range(500), day, 1, None)],
        None,
        PLAIN,
        [False],
    )
    return out


NAMES = ["pk_dv", "pk_mor_orc", "pk_dynamic", "append_index", "append_embedded", "append_fixed"]


def spark_rows(spark, path, columns) -> list[str]:
    df = spark.read.format("paimon").load(str(path))
    return as_json_rows([tuple(r) for r in df.select(*columns).collect()])


@pytest.mark.parametrize("name", NAMES)
def test_spark_source_reads_the_model(spark, tables, name):
    _, path, model, columns = tables[name]
    assert spark_rows(spark, path, columns) == model.rows(columns)


@pytest.mark.parametrize("name", NAMES)
def test_our_reader_reads_the_model(tables, name):
    _, path, model, columns = tables[name]
    _, rows = read_latest(path)
    assert as_json_rows([list(r.values()) for r in rows.select(columns).to_pylist()]) == model.rows(columns)


@pytest.mark.parametrize("name", NAMES)
def test_pypaimon_reads_the_model(tables, name):
    wh, _, model, columns = tables[name]
    assert pypaimon_rows(wh, f"db.{name}", columns) == model.rows(columns)


@pytest.mark.parametrize("name", NAMES)
def test_pypaimon_rust_reads_the_model(tables, name):
    wh, _, model, columns = tables[name]
    assert rust_rows(wh, f"db.{name}", columns) == model.rows(columns)


@pytest.mark.java
@pytest.mark.parametrize("name", NAMES)
def test_java_reads_the_model(paimon_java, tables, name):
    _, path, model, columns = tables[name]
    assert as_json_rows(testees.read_rows("java-1.0-SNAPSHOT", path, columns)) == model.rows(columns)


@pytest.mark.parametrize("name", NAMES)
def test_written_tables_validate_clean(tables, name):
    _, path, _, _ = tables[name]
    stats = TableStats()
    found = [f.line() for r in validate_table(path, stats=stats) for f in r.findings if f.severity != "warning"]
    assert found == []
    assert stats.rows > 0


def _files(path, pattern):
    return sorted(p.name for p in path.rglob(pattern))


def test_deletion_vector_table_has_javas_compacted_shape(tables):
    """No level-0 file left, deletion vectors for replaced and deleted rows, COMPACT after APPEND."""
    _, path, model, _ = tables["pk_dv"]
    schema = read_schema(path)
    state = latest_state(path, schema)
    assert state.snapshot.commit_kind == "COMPACT"
    assert 0 not in {e.file.level for e in state.live}
    assert {e.index_type for e in state.index_files} == {"DELETION_VECTORS"}
    deleted = sum(r.cardinality for e in state.index_files for r in e.dv_ranges)
    assert deleted == sum(e.file.row_count for e in state.live) - len(model.frame)
    snapshots = sorted((path / "snapshot").glob("snapshot-*"), key=lambda p: int(p.name.split("-")[1]))
    kinds = [json.loads(p.read_text())["commitKind"] for p in snapshots]
    assert kinds == ["APPEND", "COMPACT"] * 4
    for e in state.live:  # Java's names and folders
        assert re.fullmatch(r"data-[0-9a-f-]{36}-[0-9]+\.parquet", e.file.file_name)
        assert e.file.extra_files == (f"{e.file.file_name}.index",) or e.file.embedded_index is not None


def test_merge_on_read_table_keeps_level_0_files_with_retractions(tables):
    _, path, _, _ = tables["pk_mor_orc"]
    state = latest_state(path, read_schema(path))
    assert {e.file.level for e in state.live} == {0}
    assert sum(e.file.delete_row_count or 0 for e in state.live) > 0  # -D rows kept for the merge
    assert all(e.file.file_name.endswith(".orc") for e in state.live)


def test_dynamic_bucket_table_keeps_its_hash_index(tables):
    _, path, model, _ = tables["pk_dynamic"]
    state = latest_state(path, read_schema(path))
    hashes = [e for e in state.index_files if e.index_type == "HASH"]
    assert len({e.bucket for e in hashes}) > 1  # the target row count forced more than one bucket
    assert sum(e.row_count for e in hashes) == len(model.frame)  # one hash per distinct key


def test_file_indexes_are_separate_or_embedded(tables):
    _, separate, _, _ = tables["append_index"]
    _, embedded, _, _ = tables["append_embedded"]
    assert _files(separate, "*.index")
    live = latest_state(embedded, read_schema(embedded)).live
    assert not _files(embedded, "*.index")
    assert all(e.file.embedded_index for e in live)


def test_filters_prune_partitions_buckets_and_files(tables):
    from paimon_conform.layouts.file_index.query import Leaf, Literal

    _, path, _, _ = tables["append_index"]
    _, all_splits, _ = scan.plan(path)
    _, splits, stats = scan.plan(path, [Leaf("dt", "eq", [Literal("2024-01-02", False)])])
    assert stats.partitions_pruned == 2
    assert 0 < len(splits) < len(all_splits)
    _, splits, stats = scan.plan(path, [Leaf("s", "eq", [Literal("absent", False)])])
    assert stats.files_skipped_by_index == len(all_splits)
    assert splits == []
    _, fixed, _, _ = tables["append_fixed"]
    _, splits, stats = scan.plan(fixed, [Leaf("id", "eq", [Literal("17", True)])])
    assert stats.buckets_pruned > 0
    assert len({s.bucket for s in splits}) == 1


def test_spark_filters_reach_the_scan(spark, tables):
    """Spark pushes `dt = ...` and `s IN (...)` to the source, which prunes; the answers stay exact."""
    from pyspark.sql.datasource import EqualTo, In

    _, path, model, columns = tables["append_index"]
    reader = ps.PaimonReader(str(path), spark.read.format("paimon").load(str(path)).schema)
    left = list(reader.pushFilters([EqualTo(("dt",), "2024-01-02"), In(("s",), ("absent", "none"))]))
    assert len(left) == 2  # Spark re-applies them to the rows
    assert [p.value for p in reader.partitions()] == [None]  # every file skipped by its index
    df = spark.read.format("paimon").load(str(path)).where("dt = '2024-01-02' AND s = 's7'")
    want = model.frame[(model.frame.dt == "2024-01-02") & (model.frame.s == "s7")]
    got = as_json_rows([tuple(r) for r in df.select(*columns).collect()])
    assert got == as_json_rows(want[columns].values.tolist())


def test_a_failed_job_leaves_no_snapshot_and_no_files(spark, tables, tmp_path):
    path = tmp_path / "t"
    options = {"primary-key": "dt,id", "partition": "dt", "bucket": "2", "rowkind.field": "op"}
    first = batch(range(100), day, 1)
    to_spark(spark, first).write.format("paimon").mode("append").options(**options).save(str(path))
    before = sorted(p.relative_to(path) for p in path.rglob("*"))
    bad = batch(range(100, 200), day, 2)
    bad.loc[bad.index[-1], "op"] = "X"  # one task fails: not a row kind
    with pytest.raises(Exception, match=r"row kind|rowkind"):
        to_spark(spark, bad).write.format("paimon").mode("append").options(**options).save(str(path))
    assert sorted(p.relative_to(path) for p in path.rglob("*")) == before
    assert spark_rows(spark, path, COLUMNS) == as_json_rows(first[COLUMNS].values.tolist())


def test_overwrite_replaces_every_row(spark, tmp_path):
    path = tmp_path / "t"
    options = {"primary-key": "dt,id", "partition": "dt", "bucket": "2", "deletion-vectors.enabled": "true"}
    to_spark(spark, batch(range(300), day, 1, None)).write.format("paimon").mode("append").options(**options).save(
        str(path)
    )
    second = batch(range(1000, 1050), day, 2, None)
    to_spark(spark, second).write.format("paimon").mode("overwrite").options(**options).save(str(path))
    assert spark_rows(spark, path, PLAIN) == as_json_rows(second[PLAIN].values.tolist())
    assert [f.line() for r in validate_table(path) for f in r.findings if f.severity == "must"] == []


def test_pipeline_report_fails_on_a_difference(tmp_path):
    from paimon_conform.core.findings import Finding
    from paimon_conform.spark.pipeline import TableRun, report

    good = TableRun("db.a", tmp_path, 10, 10, True, 2)
    assert report([good], 1.0)[1] is True
    different = TableRun("db.b", tmp_path, 10, 9, False, 2)
    text, ok = report([good, different], 1.0)
    assert ok is False
    assert "DIFFERENT" in text
    finding = Finding("DATA_FILE_COLUMNS", "must", "", None, "m", "x")
    assert report([TableRun("db.c", tmp_path, 1, 1, True, 1, [finding])], 1.0)[1] is False


# each example is one Spark job on the shared local[2] session (about a second, mostly planning the expression),
# each row with its own bucket count
@settings(max_examples=10, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(
        st.tuples(st.integers(-(2**63), 2**63 - 1), st.integers(-(2**31), 2**31 - 1), st.integers(1, 5000)),
        min_size=1,
        max_size=1000,
    ),
    which=st.sampled_from([("a",), ("b",), ("a", "b"), ("b", "a")]),
)
def test_spark_sql_bucket_equals_the_kits_hash(spark, rows, which):
    """The JVM-side bucket expression gives the bucket the kit's BinaryRow hash gives, row for row."""
    import pyarrow as pa
    import pyspark.sql.functions as F

    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.binary_row import bucketing
    from paimon_conform.spark import bucket as spark_bucket

    types = {"a": parse_type("BIGINT"), "b": parse_type("INT")}
    df = spark.createDataFrame([(i, *r) for i, r in enumerate(rows)], "i BIGINT, a BIGINT, b INT, n INT")
    got = spark_bucket.with_bucket(df, list(which), [types[c] for c in which], F.col("n"), "bk").orderBy("i")
    arrays = {"a": pa.array([r[0] for r in rows], pa.int64()), "b": pa.array([r[1] for r in rows], pa.int32())}
    key = [arrays[c] for c in which]
    by_count = {n: bucketing.bucket_columns([types[c] for c in which], key, n).tolist() for n in {r[2] for r in rows}}
    assert [r.bk for r in got.select("bk").collect()] == [by_count[r[2]][i] for i, r in enumerate(rows)]
