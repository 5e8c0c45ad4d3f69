"""Shared fixtures and the Hypothesis profiles.

Profiles: `ci` (CI=true: no deadline, 300 examples, derandomized by the
printed seed) and `dev` (fewer examples). A dependency the tests need that is
missing (node, javac) skips a test on a developer machine and fails it in CI.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
sys.path.insert(0, str(ROOT / "tools"))

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

settings.register_profile(
    "ci", deadline=None, max_examples=300, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=60, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if IN_CI else "dev"))


CORPUS = Path(os.environ.get("PAIMON_CONFORM_CORPUS", ROOT.parent / "shared" / "external-corpus"))


def require_corpus() -> Path:
    """The third-party corpus (`PAIMON_CONFORM_CORPUS`, or ../shared/external-corpus): skip without it on a
    developer machine, fail in CI."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        message = f"the third-party corpus is missing: {CORPUS}/MANIFEST.tsv (set PAIMON_CONFORM_CORPUS)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    return CORPUS


PAIMON_CPP_TABLES = ("files", "paimon-cpp", "test", "test_data", "parquet")


def corpus_table(tmp_path: Path, name: str) -> Path:
    """A writable copy of paimon-cpp's Java-written table `name` from the corpus (the corpus stays as it is)."""
    src = require_corpus().joinpath(*PAIMON_CPP_TABLES, f"{name}.db", name)
    return Path(shutil.copytree(src, tmp_path / name))


def form(results: list) -> list[tuple]:
    """Everything a report shows of a validation run (its FileResults), to compare two runs."""
    finding = lambda f: (f.code, f.severity, f.file, f.path, f.offset, f.message)  # noqa: E731
    return [(r.file, r.kind, r.unusable, r.info, [finding(f) for f in r.findings]) for r in results]


def require(tool: str) -> None:
    """Skip (developer machine) or fail (CI) when a command-line tool is missing."""
    if shutil.which(tool) is None:
        message = f"{tool} is not on PATH; install it (see README: Installing)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


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


def pytest_report_header(config):
    """Say which Hypothesis profile runs, so a CI log shows it."""
    return f"hypothesis profile: {settings._current_profile}; CI={IN_CI}"


@pytest.fixture(scope="session")
def spark():
    """One local[2] SparkSession for the whole run, `format("paimon")` registered."""
    try:
        from paimon_conform.spark import source as ps
    except ImportError as exc:
        message = f"PySpark (the spark extra) is not installed: {exc}"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    require("java")
    session = ps.session("paimon-conform-tests")
    yield session
    session.stop()


LAST = "test_every_table_the_suite_built_validates_without_a_crash"
PEERS_MATRIX_TESTS = "test_type_matrix_peers.py"
_peers_matrix: dict = {}  # the background build of the peer matrix: its future and folder


def pytest_collection_finish(session):
    """When the run includes the peer-matrix tests, build the matrix (writer, validator and Java child
    processes, ~2.5 min) in a thread from the start, beside the tests that come before it: most of the suite
    keeps one core busy, the matrix's children take the other."""
    if not any(item.path.name == PEERS_MATRIX_TESTS for item in session.items) or session.config.option.collectonly:
        return
    if os.environ.get("PEERS_MATRIX_DIR") or shutil.which("java") is None:
        return  # built by the fixture into that folder / the fixture says what is missing (a failure in CI)
    if any(importlib.util.find_spec(m) is None for m in ("pypaimon", "pypaimon_rust")):
        return
    import peers_matrix as pm

    base = Path(tempfile.mkdtemp(prefix="peers-matrix-"))
    _peers_matrix["base"] = base
    _peers_matrix["future"] = ThreadPoolExecutor(1, "peers-matrix").submit(_timed, pm.build_matrix, base)


def _timed(build, *args):
    t0 = time.monotonic()
    return build(*args), time.monotonic() - t0


def peers_matrix_results():
    """The background build's (base, results, seconds it took, seconds waited for it); None when none was
    started."""
    if "future" not in _peers_matrix:
        return None
    t0 = time.monotonic()
    results, seconds = _peers_matrix["future"].result()
    return _peers_matrix["base"], results, seconds, time.monotonic() - t0


def pytest_sessionfinish(session, exitstatus):
    """The background matrix's tables go with the run (a failed run keeps them, as pytest keeps tmp_path)."""
    base = _peers_matrix.get("base")
    if base is not None and exitstatus == 0:
        shutil.rmtree(base, ignore_errors=True)


def pytest_collection_modifyitems(session, config, items):
    """The sweep over every table the suite built runs last (it validates what the other tests left)."""
    last = [i for i in items if i.name == LAST]
    items[:] = [i for i in items if i.name != LAST] + last


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI a skipped test is a failed promise: report it as a failure, with the reason it gave."""
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.longrepr = f"skipped in CI: {reason}"
