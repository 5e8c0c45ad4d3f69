"""The kit's table reader (latest snapshot, deletion vectors, deduplicate merge) returns the
rows Java Paimon's own reader returned for every Java-written golden table, and the rows the
reference table writer kept."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from support.environment import ROOT

from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("java", "kit")

SIDECARS = sorted((ROOT / "golden" / "tables").glob("java-*/*.json"))


def canonical(rows: list[list]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True) for r in rows)


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[f"{p.parent.name}/{p.stem}" for p in SIDECARS])
def test_reader_returns_javas_rows(sidecar):
    meta = json.loads(sidecar.read_text())
    schema, rows = read_latest(sidecar.with_suffix(""))
    assert canonical(logical_rows(schema, rows)) == canonical(meta["expected_rows"])
    assert rows.num_rows == len(meta["expected_rows"])


BRANCHED = [p for p in SIDECARS if "branches" in json.loads(p.read_text())]


@pytest.mark.parametrize("sidecar", BRANCHED, ids=[f"{p.parent.name}/{p.stem}" for p in BRANCHED])
def test_reader_returns_javas_rows_of_each_branch(sidecar):
    """A branch (branch/branch-<name>/) read by the kit gives the rows Java's switchToBranch(name) read."""
    meta = json.loads(sidecar.read_text())
    for name, branch in meta["branches"].items():
        schema, rows = read_latest(sidecar.with_suffix(""), branch=name)
        assert canonical(logical_rows(schema, rows)) == canonical(branch["expected_rows"]), name
        main = canonical(meta["expected_rows"])
        assert canonical(branch["expected_rows"]) != main  # the branch's own commits are not the main branch's


def test_the_java_tables_include_branches_and_blob_columns():
    assert len(BRANCHED) >= 2
    blobs = [p for p in SIDECARS if any(f["type"] == "BLOB" for f in json.loads(p.read_text())["schema"]["fields"])]
    assert len(blobs) >= 2


def test_reader_applies_the_reference_writers_deletion_vectors(tmp_path):
    table = write_table(tmp_path / "t", rows=300, buckets=3)
    _, rows = read_latest(table.root)
    got = sorted((r["dt"], r["id"], r["v"], r["s"]) for r in rows.to_pylist())
    assert got == sorted((r["dt"], r["id"], r["v"], r["s"]) for r in table.rows)
    assert table.deleted


def test_orc_reads_work_from_a_script_without_a_main_guard():
    """The ORC worker is a plain subprocess: a caller's top-level script is not re-run in it."""
    table = ROOT / "golden" / "tables" / "java-1.0-SNAPSHOT" / "pk-fixed4-orc-mor"
    script = (
        "from paimon_conform.table.validate.table import validate_table\n"
        f"r = validate_table({str(table)!r})\n"
        "print(sum(len(x.findings) for x in r), 'findings')\n"
    )
    done = subprocess.run([sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0 findings"
    assert done.stderr == ""
