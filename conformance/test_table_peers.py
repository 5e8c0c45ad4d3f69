"""Peers reading tables: pypaimon 2.1.0 against the reference table writer and the
Java-written golden tables. Java is the authority; where pypaimon cannot read what Java
reads, the incompatibility is listed here with its evidence, and the test keeps checking
that it still happens (so the list is corrected when pypaimon fixes it)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.environment import ROOT, missing

from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("java", "third-party")

TABLES = ROOT / "golden" / "tables"
SIDECARS = sorted(TABLES.glob("java-*/*.json"))

# pypaimon 2.1.0 reads `_VALUE_STATS_COLS` from every manifest entry without a default.
# Java 0.9.0 and 1.0-SNAPSHOT (and pypaimon before 1.x) write manifests without that
# nullable field (added in Java 1.0.0); Java reads them, taking null. Upstream:
# apache/paimon#6976 ("Fix KeyError when reading manifest files without _VALUE_STATS_COLS").
# Which golden tables pypaimon fails on, pinned both ways: every table of the releases that write no
# `_VALUE_STATS_COLS` (a listed table that now reads fails the test, so does an unlisted failure; a listed
# failure is reported as xfailed, never as a pass).
OLD_RELEASES = ("java-0.9.0", "java-1.0-SNAPSHOT")
PYPAIMON_FAILS = {
    f"{p.parent.name}/{p.stem}": "KeyError: '_VALUE_STATS_COLS'" for p in SIDECARS if p.parent.name in OLD_RELEASES
}
# the releases that write the field: pypaimon reads their manifests and then misses a NaN partition's folder (below)
PYPAIMON_FAILS |= {
    f"{p.parent.name}/{p.stem}": "FileNotFoundError: f=nan"
    for p in SIDECARS
    if p.parent.name not in OLD_RELEASES and p.stem == "append-partition-values"
}


# pypaimon 2.1.0 has no 64-bit deletion vectors (deletion-vectors.bitmap64, Java 1.2.0): it reads Java's
# Bitmap64DeletionVector frames as 32-bit ones and refuses their magic. Java 1.2.0+ reads these tables.
DV64_FAILS = {
    f"{p.parent.name}/{p.stem}": "RuntimeError: Invalid magic number: 3520280932"
    for p in SIDECARS
    if p.stem == "pk-dv64-parquet"
}
PYPAIMON_FAILS |= DV64_FAILS


def is_listed(failure: str, listed: str) -> bool:
    """Whether pypaimon's failure is the listed one: its exception class, and the listed text in its message."""
    kind, _, needle = listed.partition(": ")
    return bool(listed) and failure.startswith(f"{kind}: ") and needle in failure


def pypaimon_read(warehouse: Path) -> list[dict]:
    try:
        from pypaimon import CatalogFactory
    except ImportError:
        missing("pypaimon (the peers extra) is not installed")
    table = CatalogFactory.create({"warehouse": str(warehouse)}).get_table("db.t")
    rb = table.new_read_builder()
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()


def test_pypaimon_reads_the_reference_table(tmp_path):
    """Rows, with the deletion vectors applied (the files sit at level 5, as after a full compaction)."""
    table = write_table(tmp_path / "db.db" / "t", rows=300, release="1.0.0")
    got = sorted((r["dt"], r["id"], r["v"], r["s"]) for r in pypaimon_read(tmp_path))
    assert got == sorted((r["dt"], r["id"], r["v"], r["s"]) for r in table.rows)
    assert table.deleted  # some rows were deleted through deletion vectors, and pypaimon left them out


def test_pypaimon_cannot_read_pre_1_0_manifests(tmp_path):
    write_table(tmp_path / "db.db" / "t", rows=50, release="0.9.0")
    with pytest.raises(KeyError, match="_VALUE_STATS_COLS"):
        pypaimon_read(tmp_path)


def pypaimon_outcome(warehouse: Path) -> tuple[list[dict] | None, str | None]:
    """(rows, None) when pypaimon reads the table, (None, "Kind: message") when it fails."""
    try:
        return pypaimon_read(warehouse), None
    except Exception as exc:  # noqa: BLE001 - any failure is compared with the listed ones
        return None, f"{type(exc).__name__}: {exc}"


def _logical(value):
    """A value pypaimon returns, in the sidecars' logical form where it differs: bytes (BYTES, BLOB) as hex."""
    return value.hex() if isinstance(value, bytes) else value


def assert_java_rows(meta: dict, rows: list[dict]) -> None:
    """The rows are the ones Java read back when it wrote the table (its sidecar's expected rows)."""
    names = [f["name"] for f in meta["schema"]["fields"]]
    got = sorted(json.dumps([_logical(r[n]) for n in names], default=str) for r in rows)
    assert got == sorted(json.dumps(r, default=str) for r in meta["expected_rows"])


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[f"{p.parent.name}/{p.stem}" for p in SIDECARS])
def test_pypaimon_on_java_tables(sidecar, tmp_path):
    """Either pypaimon returns Java's rows, or it fails with a listed incompatibility."""
    meta = json.loads(sidecar.read_text())
    shutil.copytree(sidecar.with_suffix(""), tmp_path / "db.db" / "t")
    rows, failure = pypaimon_outcome(tmp_path)
    table_id = f"{sidecar.parent.name}/{sidecar.stem}"
    if failure is not None:
        assert is_listed(failure, PYPAIMON_FAILS.get(table_id, "")), f"an unlisted pypaimon failure: {failure}"
        pytest.xfail(f"listed pypaimon incompatibility: {failure}")  # checked, not a pass
    assert table_id not in PYPAIMON_FAILS, "a listed pypaimon failure now reads: correct PYPAIMON_FAILS"
    assert_java_rows(meta, rows)


# With `_VALUE_STATS_COLS` put into the manifests (null, as Java 1.0.0+ writes it when every column has
# statistics: Java reads the table the same), pypaimon reads each Java table and its rows are compared.
# Pinned both ways, as above: a FLOAT / DOUBLE partition value NaN is `f=NaN` in Java's path, and pypaimon
# looks for `f=nan` (Python's str of the float).
PYPAIMON_FAILS_WITH_STATS_COLS = {
    f"{p.parent.name}/{p.stem}": "FileNotFoundError: f=nan" for p in SIDECARS if p.stem == "append-partition-values"
} | DV64_FAILS
VALUE_STATS_COLS = {
    "name": "_VALUE_STATS_COLS",
    "type": ["null", {"type": "array", "items": "string"}],
    "default": None,
}


def with_value_stats_cols(root: Path) -> None:
    """Every manifest entry's file gets `_VALUE_STATS_COLS: null`; the manifest sizes are put right again."""
    from support import java_mutations as jm

    def entry(record: dict) -> dict:
        record["_FILE"]["_VALUE_STATS_COLS"] = None
        return record

    assert jm.rewrite_avro(root, "manifest", jm.add_field("_FILE", VALUE_STATS_COLS), entry) > 0
    jm.fix_sizes(root)


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[f"{p.parent.name}/{p.stem}" for p in SIDECARS])
def test_pypaimon_rows_of_java_tables_given_the_stats_cols_field(sidecar, tmp_path):
    """pypaimon's rows are Java's (the expected rows Java read back when it wrote the table)."""
    meta = json.loads(sidecar.read_text())
    root = tmp_path / "db.db" / "t"
    shutil.copytree(sidecar.with_suffix(""), root)
    with_value_stats_cols(root)
    table_id = f"{sidecar.parent.name}/{sidecar.stem}"
    rows, failure = pypaimon_outcome(tmp_path)
    if failure is not None:
        listed = PYPAIMON_FAILS_WITH_STATS_COLS.get(table_id, "")
        if not is_listed(failure, listed):
            pytest.fail(f"an unlisted pypaimon failure: {failure}")
        pytest.xfail(f"listed pypaimon incompatibility: {listed}")  # checked, not a pass
    assert table_id not in PYPAIMON_FAILS_WITH_STATS_COLS, "a listed pypaimon failure now reads: correct the list"
    assert_java_rows(meta, rows)
