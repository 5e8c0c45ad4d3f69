"""Where the repository, goldens and third-party corpus are, whether this is CI, and how a test asks for a tool
or the corpus (skipped on a developer machine, a failure in CI)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GOLDEN = ROOT / "golden"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CORPUS = Path(os.environ.get("PAIMON_CONFORM_CORPUS", ROOT.parent / "shared" / "external-corpus"))
PAIMON_CPP_TABLES = ("files", "paimon-cpp", "test", "test_data", "parquet")


def missing(message: str) -> None:
    """A dependency the test needs is missing: skip on a developer machine, fail in CI."""
    if IN_CI:
        pytest.fail(message)
    pytest.skip(message)


def require(tool: str) -> None:
    """Skip (developer machine) or fail (CI) when a command-line tool is missing."""
    if shutil.which(tool) is None:
        missing(f"{tool} is not on PATH; install it (see docs/install.md)")


def require_corpus() -> Path:
    """The third-party corpus (`PAIMON_CONFORM_CORPUS`, or ../shared/external-corpus)."""
    if not (CORPUS / "MANIFEST.tsv").is_file():
        missing(f"the third-party corpus is missing: {CORPUS}/MANIFEST.tsv (set PAIMON_CONFORM_CORPUS)")
    return CORPUS


def corpus_table(tmp_path: Path, name: str) -> Path:
    """A writable copy of paimon-cpp's Java-written table `name` from the corpus (the corpus stays as it is)."""
    src = require_corpus().joinpath(*PAIMON_CPP_TABLES, f"{name}.db", name)
    return Path(shutil.copytree(src, tmp_path / name))


def form(results: list) -> list[tuple]:
    """Everything a report shows of a validation run (its FileResults), to compare two runs."""
    finding = lambda f: (f.code, f.severity, f.file, f.path, f.offset, f.message)  # noqa: E731
    return [(r.file, r.kind, r.unusable, r.info, [finding(f) for f in r.findings]) for r in results]
