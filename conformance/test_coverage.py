"""The README's per-release coverage table is the one table/coverage.py renders, and says only what it
defines."""

from __future__ import annotations

from conftest import ROOT

from paimon_conform.core.java_releases import RELEASES
from paimon_conform.table import coverage


def test_the_readme_shows_the_rendered_table():
    assert coverage.markdown() in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_row_starts_at_a_known_release_with_a_defined_status():
    assert RELEASES[RELEASES.index("0.9") :] == coverage.SHOWN
    for row in coverage.ROWS:
        assert row.since in coverage.SHOWN
        assert row.before in ("—", "must")
        assert row.status in ("✓", "part", "warn")
        cells = [coverage.cell(row, v) for v in coverage.SHOWN]
        first = coverage.SHOWN.index(row.since)
        assert cells[:first] == [row.before] * first
        assert cells[first:] == [row.status] * (len(cells) - first)
