"""The per-release coverage table of docs/releases.md is the one table/coverage.py renders, and says only what
it defines."""

from __future__ import annotations

from support.environment import ROOT

from paimon_conform.core.java_releases import RELEASES
from paimon_conform.table import coverage

EVIDENCE = ("contract",)


def test_the_docs_show_the_rendered_table():
    assert coverage.markdown() in (ROOT / "docs" / "releases.md").read_text(encoding="utf-8")


def test_every_row_starts_at_a_known_release_with_a_defined_status():
    """Cells: `before` up to `since` (`must` from `must_from`), `status` from `since` to `until` (or the newest),
    `after` past `until`."""
    assert RELEASES[RELEASES.index("0.9") :] == coverage.SHOWN
    for row in coverage.ROWS:
        assert row.since in coverage.SHOWN
        assert row.before in ("—", "must")
        assert row.status in ("✓", "part", "warn")
        cells = [coverage.cell(row, v) for v in coverage.SHOWN]
        first = coverage.SHOWN.index(row.since)
        last = coverage.SHOWN.index(row.until) if row.until else len(cells) - 1
        assert first <= last
        assert row.after == "must"
        known = coverage.SHOWN.index(row.must_from) if row.must_from else first
        assert known <= first
        assert cells[:known] == [row.before] * known
        assert cells[known:first] == ["must"] * (first - known)
        assert cells[first : last + 1] == [row.status] * (last + 1 - first)
        assert cells[last + 1 :] == [row.after] * (len(cells) - 1 - last)
