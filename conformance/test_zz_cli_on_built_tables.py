"""Crash = failure: the CLI over every table directory the test suite built (Java-written, peer-written,
engine-written, deliberately damaged), in the order the suite ran. A table may be valid, have findings
or be unusable (exit 0, 1, 2), but an internal error (a bug in the kit) fails the run. Runs last
(conftest.pytest_collection_modifyitems); the tables live in pytest's base temporary directory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from paimon_conform import cli

MAX_TABLES = 6000  # the adversarial suite alone leaves over 600


def _tables(base: Path) -> list[Path]:
    """Directories holding schema/ and snapshot/ (a table's root), symlinks not followed."""
    found = []
    for top, dirs, _ in os.walk(base, followlinks=False):
        if "schema" in dirs and "snapshot" in dirs:
            found.append(Path(top))
        dirs[:] = [d for d in dirs if d not in ("schema", "snapshot", "manifest", "index")]
        if len(found) >= MAX_TABLES:
            break
    return sorted(found)


def test_every_table_the_suite_built_validates_without_a_crash(tmp_path_factory, capsys):
    base = tmp_path_factory.getbasetemp()
    tables = [t for t in _tables(base) if not t.is_relative_to(base / "sweep0")]
    crashes = []
    report = tmp_path_factory.mktemp("sweep") / "r.json"
    for table in tables:
        code = cli.main(["validate", str(table), "--report", "json", "-o", str(report)])
        err = capsys.readouterr().err
        if code not in (0, 1, 2) or "internal error" in err or "Traceback" in err:
            crashes.append(f"{table}: exit {code}: {err.strip()[-500:]}")
        elif code in (0, 1):
            json.loads(report.read_text())  # the report is whole JSON
    assert not crashes, "\n".join(crashes[:20])
