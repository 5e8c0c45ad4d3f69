"""Smoke tests of the table-validation benchmarks (tools/benchmarks/table_validate.py on the
reference writer's table, tools/benchmarks/table_validate_java.py on a Java-written one): each runs, prints its
figures, and the table it validates is clean (the figures themselves are never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from support.environment import ROOT

from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("contract",)


def test_benchmark_prints_its_figures(tmp_path):
    cmd = [sys.executable, str(ROOT / "tools" / "benchmarks" / "table_validate.py"), "--rows", "3000"]
    done = subprocess.run([*cmd, "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in ("pyarrow read of the data files:", "bucket check:", "validation / pyarrow read:", "goal"):
        assert line in out
    read = re.search(r"\(([\d,]+) rows in \d+ data files", out)
    assert read, out
    assert int(read.group(1).replace(",", "")) >= 3000  # and the delete write's level-0 -D rows, kept in history
    assert "0 must finding(s)" in out
    assert [f for r in validate_table(tmp_path / "table-3000") for f in r.findings] == []


@pytest.mark.java
def test_java_table_benchmark_prints_its_figures(paimon_java, tmp_path):
    """table_validate_java.py: Java Paimon writes the PK table (DVs); the benchmark times and validates it."""
    cmd = [
        sys.executable,
        str(ROOT / "tools" / "benchmarks" / "table_validate_java.py"),
        "--rows",
        "2000",
        "--seed",
        "5",
        "--repeat",
        "1",
    ]
    done = subprocess.run([*cmd, "--dir", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for line in (
        "pyarrow read of the data files:",
        "validation:",
        "  read ",
        "  bucket ",
        "  metadata ",
        "  entries ",
        "bucket check:",
        "validation / pyarrow read:",
        "goal bucket check >= 1,000,000 rows/s on one core:",
        "goal validation within 3x of the pyarrow read:",
    ):
        assert line in out, line
    # every data file on disk (live or compacted away) is read by both: the same files, the same rows
    files = re.search(r"data files: (\d+) under bucket-\* \(([\d,]+) rows; validated: (\d+) files\)", out)
    assert files
    assert files[1] == files[3]
    validated = re.search(r"validation: [\d.]+ s, ([\d,]+) rows, [\d,]+ rows/s", out)
    assert validated
    assert validated[1] == files[2]
    assert int(files[2].replace(",", "")) >= 2_000 + 200 + 20  # the rows, then the upserts and deletes
    assert re.search(r"[1-9]\d* DELETION_VECTORS files with [1-9]\d* vectors", out)
    assert "0 must finding(s)" in out
    found = validate_table(tmp_path / "table-2000-5")
    assert [f for r in found for f in r.findings if f.severity == "must"] == []
    assert [r.unusable for r in found if r.unusable] == []
