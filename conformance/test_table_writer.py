"""The reference table writer: its tables validate clean, Java Paimon 0.9.0 and 1.0 read
exactly the rows it kept (deletion vectors applied), and its Avro record schemas are the
ones Java writes."""

from __future__ import annotations

import json

import fastavro
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import testees
from support.environment import ROOT

from paimon_conform.table.avro_records import avro_record
from paimon_conform.table.validate.table import TableStats, validate_table
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("java", "kit")

JAVA_TABLES = ROOT / "golden" / "tables"
KINDS = {
    "manifest-list-*": "manifest_file_meta",
    "manifest-[0-9a-f]*": "manifest_entry",
    "index-manifest-*": "index_manifest_entry",
}


def findings(root) -> list[str]:
    return [f"{f.code} {f.file}" for r in validate_table(root) for f in r.findings]


# each example writes a whole table with the reference writer and validates it (~0.4 s on the CI machine):
# 60 keep it under half a minute; CI's 300 would take two minutes of the 30-minute budget
@settings(max_examples=60)
@given(rows=st.integers(1, 300), buckets=st.integers(1, 8), seed=st.integers(0, 2**32), every=st.integers(2, 50))
def test_written_tables_validate_clean(tmp_path_factory, rows, buckets, seed, every):
    root = tmp_path_factory.mktemp("t") / "t"
    table = write_table(root, rows=rows, buckets=buckets, seed=seed, delete_every=every)
    stats = TableStats()
    assert [f for r in validate_table(root, stats=stats) for f in r.findings] == []
    assert stats.rows == stats.bucket_rows == rows + len(table.deleted)  # the delete write's -D rows (level 0)
    assert len(table.rows) + len(table.deleted) == rows


@pytest.mark.parametrize("producer", ["java-0.9.0", "java-1.0-SNAPSHOT"])
@pytest.mark.parametrize(("pattern", "kind"), KINDS.items())
def test_avro_schemas_are_javas(producer, pattern, kind):
    """The writer's schema of each metadata record equals what Java wrote, names included."""
    folder = JAVA_TABLES / producer / "pk-fixed4-parquet-dv" / "manifest"
    files = sorted(folder.glob(pattern))
    assert files
    with files[0].open("rb") as f:
        java = fastavro.reader(f).writer_schema
    assert json.dumps(avro_record(kind), sort_keys=True) == json.dumps(java, sort_keys=True)


@pytest.mark.java
@pytest.mark.parametrize("release", ["0.9.0", "1.0.0"])
@pytest.mark.parametrize("version", ["0.9.0", "1.0-SNAPSHOT"])
def test_java_reads_the_written_table(paimon_java, tmp_path, version, release):
    """Both jars read both record layouts (1.0.0 adds nullable fields older readers skip)."""
    root = tmp_path / "t"
    table = write_table(root, rows=500, buckets=3, seed=11, release=release)
    read, why = testees.read_reply(f"java-{version}", root, ["dt", "id", "v", "s"], probe=[])
    assert read is not None, why
    got = sorted((r[0], r[1], r[2], r[3]) for r in read["rows"])
    want = sorted((r["dt"], r["id"], r["v"], r["s"]) for r in table.rows)
    assert got == want
    assert set(read["row_kinds"]) == {"+I"}
    assert read["deletion_files"] > 0  # Java found the deletion vectors and applied them
    assert not {r["id"] for r in table.deleted} & {r[1] for r in read["rows"]}


@pytest.mark.spark
def test_main_job_writes_and_validates_a_sample_table(spark, tmp_path, capsys):
    """The main job: sample files, the reference table, the Spark pipeline's warehouse, the corpus."""
    from paimon_conform import cli

    assert cli.main(["--sample-dir", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    assert "sample table written by the reference table writer" in out
    assert "db.orders: 20600 rows read back, model 20600 (equal)" in out
    for name in ("orders", "events"):
        table = tmp_path / "s" / "warehouse" / "db.db" / name
        assert [f for r in validate_table(table) for f in r.findings if f.severity != "warning"] == []
    assert (tmp_path / "s" / "table" / "snapshot" / "snapshot-1").is_file()
    assert validate_table(tmp_path / "s" / "table")[0].findings == []
    # a second run into the same directory is refused rather than mixing two tables
    assert cli.main(["--sample-dir", str(tmp_path / "s")]) == 2
    capsys.readouterr()
