"""Smoke test of the table-validation benchmark: it runs, prints its figures, and the table it
validates is clean (the figures themselves are never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import ROOT

from paimon_conform.table.validate import validate_table


def test_benchmark_prints_its_figures(tmp_path):
    cmd = [sys.executable, str(ROOT / "tools" / "benchmarks" / "table_validate.py"), "--rows", "3000"]
    done = subprocess.run([*cmd, "--dir", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    for line in ("pyarrow read of the data files:", "bucket check:", "validation / pyarrow read:", "goal"):
        assert line in out
    assert re.search(r"\(3,000 rows in \d+ data files", out)
    assert "0 must finding(s)" in out
    assert [f for r in validate_table(tmp_path / "table-3000") for f in r.findings] == []
