"""The write engine under the Spark source (table/write.py + commit.py), driven without Spark:
random sequences of inserts, upserts and deletes, split over random task counts, must read
back as a dictionary model says, validate clean, and keep Java's invariants (one sorted run
per level, no level-0 file in a deletion-vector table). Races between writers are
test_concurrency.py's.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import testees
from support.engine_writes import SCHEMA, run_writes

from paimon_conform.table.read.reader import read_latest
from paimon_conform.table.schema import read_schema
from paimon_conform.table.state import latest_state
from paimon_conform.table.validate.table import validate_table
from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write

EVIDENCE = ("kit",)

change = st.tuples(st.integers(0, 40), st.sampled_from(["a", "b"]), st.sampled_from(["+I", "+U", "-D", "-U"]))
writes = st.lists(st.tuples(st.lists(change, min_size=1, max_size=30), st.integers(1, 3)), min_size=1, max_size=7)


# each example writes up to seven commits with the engine and validates the table (~0.3 s): 60 keep it under
# 20 s of the CI budget
@pytest.mark.slow
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=writes, dv=st.booleans(), bucket=st.sampled_from(["1", "3", "-1"]))
def test_random_writes_read_back_as_the_model(tmp_path_factory, steps, dv, bucket):
    root = tmp_path_factory.mktemp("engine") / "t"
    options = {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": bucket,
        "rowkind.field": "op",
        "deletion-vectors.enabled": str(dv).lower(),
        "dynamic-bucket.target-row-num": "7",
    }
    model = run_writes(root, options, steps)
    if not (root / "snapshot").exists():
        assert model == {}  # only deletes of absent keys: nothing committed
        return
    _, rows = read_latest(root)
    assert {(r["dt"], r["id"]): r["v"] for r in rows.to_pylist()} == model
    assert [f.line() for r in validate_table(root) for f in r.findings if f.severity == "must"] == []
    live = latest_state(root, read_schema(root)).live
    if dv:
        assert all(e.file.level > 0 for e in live)
        per_level: dict = {}
        for e in live:
            per_level.setdefault((e.partition, e.bucket, e.file.level), []).append(e)
        assert all(len(v) == 1 for v in per_level.values())  # one sorted run (one file) per level


def test_writer_refuses_what_it_cannot_write(tmp_path):
    with pytest.raises(Exception, match="partition keys"):
        write.prepare(tmp_path / "t", SCHEMA, {"primary-key": "id", "partition": "dt"}, False)
    with pytest.raises(Exception, match="bucket-key"):
        write.prepare(tmp_path / "t", SCHEMA, {"bucket": "2"}, False)
    with pytest.raises(Exception, match="partition keys alone"):
        write.prepare(tmp_path / "t", SCHEMA, {"primary-key": "dt", "partition": "dt", "bucket": "2"}, False)
    with pytest.raises(Exception, match="must not contain partition fields"):
        write.prepare(tmp_path / "t", SCHEMA, {"bucket": "2", "bucket-key": "dt", "partition": "dt"}, False)
    with pytest.raises(Exception, match=r"file\.format"):
        write.prepare(tmp_path / "t", SCHEMA, {"file.format": "csv"}, False)
    bounded = {"primary-key": "dt,id", "partition": "dt", "bucket": "-1", "dynamic-bucket.max-buckets": "4"}
    with pytest.raises(Exception, match=r"max-buckets is not applied"):
        write.prepare(tmp_path / "t", SCHEMA, bounded, False)
    plan = write.prepare(tmp_path / "t", SCHEMA, {"rowkind.field": "op"}, False)
    table = pa.Table.from_pylist([{"id": 1, "dt": "a", "v": 1.0, "op": "-D"}], SCHEMA)
    with pytest.raises(Exception, match=r"\+I"):
        write.write_task(plan, table.to_batches(), 0)


def test_a_dynamic_bucket_key_split_over_tasks_is_refused(tmp_path):
    options = {"primary-key": "dt,id", "partition": "dt", "bucket": "-1", "dynamic-bucket.target-row-num": "2"}
    plan = write.prepare(tmp_path / "t", SCHEMA, options, False)
    one = pa.Table.from_pylist([{"id": i, "dt": "a", "v": 1.0, "op": "+I"} for i in range(4)], SCHEMA)
    other = pa.Table.from_pylist([{"id": i, "dt": "a", "v": 2.0, "op": "+I"} for i in (9, 3)], SCHEMA)
    results = [write.write_task(plan, one.to_batches(), 0), write.write_task(plan, other.to_batches(), 1)]
    with pytest.raises(Exception, match="different tasks"):
        commit.commit(plan, results)
    assert not list((tmp_path / "t").rglob("*.parquet"))  # the refused write's files are removed


@pytest.mark.java
@pytest.mark.parametrize(
    ("version", "release"), [("0.9.0", "0.9.0"), ("1.0-SNAPSHOT", "0.9.0"), ("1.0-SNAPSHOT", "1.0.0")]
)
def test_java_reads_what_the_engine_wrote(paimon_java, tmp_path, version, release):
    """Upserts and deletes in three writes (deletion vectors, ORC, a dynamic-bucket table) as Java reads them."""

    steps = [
        ([(k, "a" if k % 2 else "b", "+I") for k in range(40)], 2),
        ([(k, "a" if k % 2 else "b", "+U") for k in range(0, 40, 3)] + [(5, "a", "-D"), (8, "b", "-D")], 1),
        ([(k, "a" if k % 2 else "b", "+U") for k in range(1, 40, 4)], 3),
    ]
    for name, extra in (
        ("dv", {"bucket": "3", "deletion-vectors.enabled": "true"}),
        ("orc", {"bucket": "2", "file.format": "orc"}),
        ("dynamic", {"bucket": "-1", "dynamic-bucket.target-row-num": "6"}),
    ):
        root = tmp_path / name
        options = {"primary-key": "dt,id", "partition": "dt", "rowkind.field": "op", "paimon.release": release} | extra
        model = run_writes(root, options, steps)
        rows = testees.read_rows(f"java-{version}", root)
        assert {(r[1], r[0]): r[2] for r in rows} == model, name


def _dv_table(root, bitmap64: bool) -> None:
    options = {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": "2",
        "deletion-vectors.enabled": "true",
        "deletion-vectors.bitmap64": str(bitmap64).lower(),
        "rowkind.field": "op",
    }
    first = [(k, "a", "+I") for k in range(20)]
    run_writes(root, options, [(first, 1), ([(k, "a", "-D") for k in range(0, 20, 3)], 1)])


def _codes(root, version: str = "2.0") -> set[tuple[str, str]]:
    found = [f for r in validate_table(root, java_version=version) for f in r.findings]
    return {(f.code, f.severity) for f in found if f.severity != "warning"}


def test_64_bit_vectors_need_java_1_2(tmp_path):
    """bitmap64 tables: clean for Java >= 1.2 (vectors read by their magic); Java 0.9-1.1 reject them."""
    _dv_table(tmp_path / "t", bitmap64=True)
    assert _codes(tmp_path / "t") == set()
    assert _codes(tmp_path / "t", "1.1") == {("DV_BITMAP_KIND", "must")}


def test_32_bit_vectors_under_bitmap64_are_not_iceberg_compatible(tmp_path):
    """A table that switched deletion-vectors.bitmap64 on keeps its 32-bit vectors: Java reads them; the table's
    Iceberg deletion vectors are no longer readable (the kit once passed this silently)."""
    root = tmp_path / "t"
    _dv_table(root, bitmap64=False)
    assert _codes(root) == set()
    schema = root / "schema" / "schema-0"
    doc = json.loads(schema.read_text())
    doc["options"]["deletion-vectors.bitmap64"] = "true"  # ALTER TABLE ... SET after the vectors were written
    schema.write_text(json.dumps(doc))
    assert read_schema(root).options["deletion-vectors.bitmap64"] == "true"
    assert _codes(root) == {("DV_NOT_ICEBERG_COMPATIBLE", "should")}
