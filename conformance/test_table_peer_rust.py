"""Tables written by pypaimon-rust 0.4.0 (apache/paimon-rust's Python bindings, DataFusion SQL):
validated like any third-party writer's output.

Its one incompatibility is listed as an expected failure with its evidence: pypaimon-rust
writes primary-key data files in the thin-mode layout (no `_KEY_*` columns) without setting
`data-file.thin-mode = true`, and Java Paimon 0.9.0 and the 1.0-SNAPSHOT jar (Sep 2024) then
fail with "Required column is missing in data file. Col: [_KEY_id]" (checked in
test_java_cannot_read_rust_pk_table); Java 1.0.0 and later read thin files whatever the option
(apache/paimon#4651), so the finding is a must for Java <= 0.9 and a should for newer targets.
Everything else (buckets, partitions, manifests, statistics, HASH index, file indexes) must
come out clean.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import testees
from support.peers import rust_context, sql_values
from support.peers import rust_create_table as create
from support.peers import rust_sql as run

from paimon_conform import cli
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("java", "third-party")

THIN_MODE = {
    "code": "DATA_FILE_COLUMNS",
    "file": "*/bucket-*/data-*.parquet",
    "reason": "pypaimon-rust 0.4.0 writes thin-mode files without data-file.thin-mode=true",
}


def sql_context(warehouse: Path):
    ctx = rust_context(warehouse)
    run(ctx, "CREATE SCHEMA paimon.db")
    return ctx


def rows_kv(n: int, day: str = "2024-01-01") -> list[tuple]:
    return [(day if i % 3 else "a b:c/d", i, i * 0.5, None if i % 11 == 0 else f"s{i % 7}") for i in range(n)]


def read_back(ctx, table: str) -> list[tuple]:
    batches = run(ctx, f"SELECT dt, id, v, s FROM paimon.db.{table}")
    return sorted(tuple(r.values()) for b in batches for r in b.to_pylist())


@pytest.fixture(scope="module")
def rust_tables(tmp_path_factory) -> dict[str, tuple[Path, list[tuple]]]:
    """Each table's directory and the rows pypaimon-rust reads back."""
    wh = tmp_path_factory.mktemp("rust")
    ctx = sql_context(wh)
    out = {}
    # primary key, 4 fixed buckets, two commits (the second upserts a third of the keys)
    create(ctx, "pk_fixed", True, {"bucket": "4", "file.format": "parquet"})
    first, upserts = rows_kv(240), [("2024-01-01", i, i * 1.5, f"u{i % 5}") for i in range(1, 240, 3) if i % 3]
    run(ctx, f"INSERT INTO paimon.db.pk_fixed VALUES {sql_values(first)}")
    run(ctx, f"INSERT INTO paimon.db.pk_fixed VALUES {sql_values(upserts)}")
    merged = {(r[0], r[1]): r for r in first} | {(r[0], r[1]): r for r in upserts}
    out["pk_fixed"] = (sorted(merged.values()), None)
    # primary key, dynamic bucket: HASH index files
    create(ctx, "pk_dynamic", True, {"bucket": "-1", "dynamic-bucket.target-row-num": "50"})
    run(ctx, f"INSERT INTO paimon.db.pk_dynamic VALUES {sql_values(rows_kv(300))}")
    out["pk_dynamic"] = (sorted(rows_kv(300)), None)
    # append with bloom-filter and bitmap file indexes
    create(
        ctx,
        "append_index",
        False,
        {
            "file-index.bloom-filter.columns": "s",
            "file-index.bitmap.columns": "s",
            "file-index.bloom-filter.s.items": "200",
        },
    )
    run(ctx, f"INSERT INTO paimon.db.append_index VALUES {sql_values(rows_kv(200))}")
    out["append_index"] = (sorted(rows_kv(200)), None)
    # append with a fixed bucket count and a bucket key
    create(ctx, "append_fixed", False, {"bucket": "3", "bucket-key": "id"})
    run(ctx, f"INSERT INTO paimon.db.append_fixed VALUES {sql_values(rows_kv(150))}")
    out["append_fixed"] = (sorted(rows_kv(150)), None)
    return {name: (wh / "db.db" / name, read_back(ctx, name), want) for name, (want, _) in out.items()}


@pytest.mark.parametrize("name", ["pk_fixed", "pk_dynamic", "append_index", "append_fixed"])
def test_rust_reads_back_what_it_wrote(rust_tables, name):
    _, got, want = rust_tables[name]
    assert got == want


@pytest.mark.parametrize(("name", "fixed"), [("pk_fixed", True), ("pk_dynamic", False), ("append_fixed", True)])
def test_rust_table_is_clean_apart_from_thin_mode(rust_tables, name, fixed):
    root = rust_tables[name][0]
    stats = TableStats()
    old = validate_table(root, stats=stats, java_version="0.9")
    musts = {f.code for r in old for f in r.findings if f.severity == "must"}
    assert musts <= {"DATA_FILE_COLUMNS"}
    assert ("DATA_FILE_COLUMNS" in musts) == name.startswith("pk")
    newest = [f for r in validate_table(root) for f in r.findings if f.severity != "warning"]
    assert {(f.code, f.severity) for f in newest} <= {("DATA_FILE_COLUMNS", "should"), ("MANIFEST_SCHEMA", "should")}
    assert stats.rows > 0
    if fixed:
        assert stats.bucket_rows == stats.rows  # every row hashed and found in its bucket


def test_rust_file_indexes_are_checked_against_the_data(rust_tables):
    root = rust_tables["append_index"][0]
    assert list(root.rglob("*.index"))  # pypaimon-rust wrote separate file-index files
    found = [f for r in validate_table(root) for f in r.findings if f.severity == "must"]
    assert found == []


def test_rust_pk_table_passes_with_its_expected_failure_listed(rust_tables, tmp_path, capsys):
    listed = tmp_path / "rust-expected.json"
    listed.write_text(json.dumps({"expected": [THIN_MODE]}))
    root = rust_tables["pk_fixed"][0]
    args = ["validate", "--java-version", "0.9", "--level", "must", "--expect-failures", str(listed), str(root)]
    assert cli.main(args) == 0
    assert "(expected: pypaimon-rust 0.4.0 writes thin-mode" in capsys.readouterr().out


@pytest.mark.java
def test_java_cannot_read_rust_pk_table(paimon_java, rust_tables):
    """The evidence for the expected failure: Java's reader needs the _KEY_ columns."""
    reply, why = testees.read_reply("java-1.0-SNAPSHOT", rust_tables["pk_fixed"][0])
    assert reply is None
    assert "Required column is missing in data file. Col: [_KEY_" in why, why
