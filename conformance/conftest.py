"""Fixtures and hooks only (the helpers are in the `support` package).

Hypothesis profiles: `ci` (CI=true: no deadline, 300 examples, the printed seed) and `dev` (fewer examples).
A dependency the tests need that is missing (node, javac) skips a test on a developer machine and fails it
in CI.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from support import sweep, tally
from support.environment import GOLDEN, IN_CI, missing, require

settings.register_profile(
    "ci", deadline=None, max_examples=300, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=60, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))

pytest_plugins = ("pytester",)  # test_sweep runs the teardown hook in an inner session


@pytest.fixture(scope="session")
def golden_root() -> Path:
    """The repository's golden corpus."""
    return GOLDEN


@pytest.fixture(scope="session")
def paimon_java():
    """The Paimon 0.9.0 jar and our compiled Java programs (tools/paimon_java.py)."""
    require("javac")
    require("java")
    import paimon_java as pj

    pj.ensure_classes()
    return pj


@pytest.fixture(scope="session")
def spark():
    """One local[2] SparkSession for the whole run, `format("paimon")` registered."""
    try:
        from paimon_conform.spark import source as ps
    except ImportError as exc:
        missing(f"PySpark (the spark extra) is not installed: {exc}")
    require("java")
    session = ps.session("paimon-conform-tests")
    yield session
    session.stop()


def pytest_report_header(config):
    """Say which Hypothesis profile runs, so a CI log shows it."""
    return f"hypothesis profile: {settings._current_profile}; CI={IN_CI}"


MODULE_SECONDS: Counter[str] = Counter()  # the main thread's seconds per test module (setup, call, teardown)


def pytest_runtest_logreport(report):
    """Add a test phase's seconds to its module's, for the summary: where the run's time goes."""
    MODULE_SECONDS[report.nodeid.split("::", 1)[0].rsplit("/", 1)[-1]] += report.duration


def pytest_terminal_summary(terminalreporter):
    """What each matrix checked (support/tally.py), where the time went, and what the crash sweep saw."""
    if MODULE_SECONDS:
        terminalreporter.section("seconds by test module (the main thread; printed, never asserted)")
        for module, seconds in MODULE_SECONDS.most_common(20):
            terminalreporter.write_line(f"{seconds:7.1f} s  {module}")
        terminalreporter.write_line(f"{sum(MODULE_SECONDS.values()):7.1f} s  all {len(MODULE_SECONDS)} modules")
    if tally.TALLIES:
        terminalreporter.section("checks run, listed and not applicable")
        for line in tally.lines():
            terminalreporter.write_line(line)
    from support import background

    if background.timings:
        terminalreporter.section("background jobs: seconds run, seconds a test waited")
        for name, t in background.timings.items():
            terminalreporter.write_line(f"{name}: ran {t.get('ran', 0):.0f} s, waited for {t.get('waited', 0):.0f} s")
    seen = sweep.swept + sweep.handed
    if seen:
        terminalreporter.section("tables the crash sweep saw")
        for module, n in sorted(seen.items()):
            terminalreporter.write_line(
                f"{module}: {n} ({sweep.handed[module]} checked by the test itself, "
                f"{sweep.identical[module]} byte-identical to one the CLI ran over; {sweep.spent[module]:.1f} s)"
            )


def pytest_collection_finish(session):
    """The background jobs (support/jobs.py) of the modules collected, started beside the first tests."""
    if session.config.option.collectonly or shutil.which("java") is None:
        return  # each fixture computes its job itself (and says what is missing: a failure in CI)
    from support import background, jobs

    peers = all(importlib.util.find_spec(m) is not None for m in ("pypaimon", "pypaimon_rust"))
    order = list(dict.fromkeys(item.path.name for item in session.items))  # modules in the order they run
    factory = session.config._tmp_path_factory
    for module in sorted(jobs.JOBS.keys() & set(order), key=order.index):  # the job a test needs first, first
        name, job = jobs.JOBS[module]
        if name == "type-matrix" and (not peers or os.environ.get("PEERS_MATRIX_DIR")):
            continue
        background.start(name, lambda job=job: job(factory), session.config)


def pytest_sessionfinish(session, exitstatus):
    """Jobs no test asked for are dropped; the scratch folders go with a passing run."""
    from support import background, jobs

    outer = background.stop(session.config) or not background.owned()  # not an inner pytester session's end
    if outer and exitstatus == 0:
        jobs.remove_scratch()


def pytest_collection_modifyitems(session, config, items):
    """The modules that wait for a background job (support/jobs.py) run after the others, so the jobs have the
    second core while the rest of the suite runs; the sweep over every table the suite built runs last (it
    checks the count of tables swept)."""
    from support import jobs

    last = [i for i in items if i.name == sweep.LAST]
    rest = [i for i in items if i.name != sweep.LAST]
    waiting = [i for i in rest if i.path.name in jobs.JOBS]
    items[:] = [i for i in rest if i.path.name not in jobs.JOBS] + waiting + last


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Before a test's tmp_path goes, the CLI runs over every table the test built in it (sweep.sweep_test): an
    internal error there fails the test."""
    tmp = item.funcargs.get("tmp_path") if hasattr(item, "funcargs") else None
    crashes = sweep.sweep_test(item.nodeid, tmp) if isinstance(tmp, Path) else []
    yield
    if crashes:
        pytest.fail("the sweep of this test's tables: internal errors\n" + "\n".join(crashes[:10]), pytrace=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI a skipped test is a failed promise: report it as a failure, with the reason it gave."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped in CI: {reason}"
