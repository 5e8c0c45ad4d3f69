"""Crash = failure: the CLI over every table the test suite built (Java-written, peer-written, engine-written,
deliberately damaged). Each test's tables are swept as it ends (conftest's teardown hook, support/sweep.py);
this test, run last, sweeps what session fixtures built and holds the totals to the suite's own count."""

from __future__ import annotations

import pytest
from support import sweep

EVIDENCE = ("contract",)


def test_every_table_the_suite_built_validates_without_a_crash(request, tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    crashes = sweep.sweep(sweep.SESSION, base)
    assert not crashes, "\n".join(crashes[:20])
    items = request.session.items
    modules = {sweep.module_of(i.nodeid) for i in items} - {sweep.module_of(request.node.nodeid)}
    if not modules:
        pytest.skip("run alone: no table built by other tests to sweep")
    in_full = {m for m in modules if _ran_in_full(request.config, m)}
    if in_full == modules and any(a.rstrip("/").endswith("conformance") for a in map(str, request.config.args)):
        in_full.add(sweep.SESSION)  # the whole suite ran: its session fixtures built what they build
    short = sweep.short_by_floor(in_full)
    assert not short, "modules whose tables the sweep did not see (counts: the run's summary):\n" + "\n".join(short)
    assert sum((sweep.swept + sweep.handed).values()) > 0


def _ran_in_full(config: pytest.Config, module: str) -> bool:
    """Whether every test of `module` was selected: no -k, -m, --deselect or node ids, the file or a folder above
    it named."""
    o = config.option
    if o.keyword or o.markexpr or getattr(o, "deselect", None) or getattr(o, "lf", False):
        return False
    args = [str(a) for a in config.args]
    return not any("::" in a for a in args) and any(a.rstrip("/").endswith((module, "conformance")) for a in args)
