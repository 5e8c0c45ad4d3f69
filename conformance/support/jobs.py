"""The background jobs (support/background.py): per test module that has one, the job's name and what it computes
from the run's temporary-folder factory. conftest starts those of the modules a run collected."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from support import (
    adversarial,
    connector,
    damaged_goldens,
    global_index_experiments,
    java_matrix,
    languages,
    nested_blob_tables,
    packaging,
    testees,
    type_matrix,
)
from support.environment import ROOT

_scratch: list[Path] = []  # folders outside the run's temporary tree, removed with a passing run


def type_matrix_job(_factory: pytest.TempPathFactory | None = None) -> tuple[Path, list[type_matrix.CellResult]]:
    """The type x role matrix built in a fresh folder (its tables are handed to the sweep by the test)."""
    base = Path(tempfile.mkdtemp(prefix="type-matrix-"))
    _scratch.append(base)
    return base, type_matrix.build(base)


def protocol_matrix_job(factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """`paimon-conform matrix` over the reference testees, its page and JSON in a folder of the run."""
    out = factory.mktemp("matrix")
    return out, testees.run_matrix(out)


def reference_testees_job(factory: pytest.TempPathFactory) -> dict[str, tuple[subprocess.CompletedProcess, dict]]:
    """Every reference testee over every case with its failure list (testees.reference_run), one after another."""
    out = factory.mktemp("reference-testees")
    return {name: testees.reference_run(name, out) for name in sorted(testees.reference_runs_listed())}


def java_tables_job(factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess]:
    """The Java table goldens written again by every release of golden_java_tables.VERSIONS, in a folder of the run."""
    out = factory.mktemp("java-tables")
    command = [sys.executable, str(ROOT / "tools" / "golden_java_tables.py"), "--out", str(out)]
    return out, subprocess.run(command, capture_output=True, text=True)


def java_matrix_job(_factory: pytest.TempPathFactory | None = None) -> dict[str, java_matrix.Matrix]:
    """Java's own type x role matrix, one JVM run per jar."""
    return {v: java_matrix.build(v) for v in java_matrix.VERSIONS}


def java_zones_job(_factory: pytest.TempPathFactory | None = None) -> dict[tuple[str, str], java_matrix.Matrix]:
    """The timestamp matrix of test_timestamp_zones_java.py: one JVM run per (release, zone)."""
    cases = java_matrix.zone_cases()
    return {(v, z): java_matrix.build(v, cases, z) for v, z in java_matrix.ZONE_RUNS}


def packaging_job(factory: pytest.TempPathFactory) -> dict[str, packaging.Install]:
    """The wheel installed in clean environments, one after another, and what each one's console script did."""
    return packaging.installs(factory.mktemp("packaging"))


def adversarial_job(factory: pytest.TempPathFactory) -> adversarial.Run:
    """Every adversarial case of the pristine table, run by one worker process (the case folders removed after)."""
    return adversarial.run_all(factory.mktemp("adversarial"))


def global_index_java_job(factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The global-index experiments read by each release (support/global_index_experiments.py)."""
    return global_index_experiments.run(factory)


def nested_blob_java_job(factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The nested-BLOB tables Java 2.0.0 writes, read by each release (support/nested_blob_tables.py)."""
    return nested_blob_tables.run(factory)


def kit_testee_job(_factory: pytest.TempPathFactory | None = None) -> subprocess.CompletedProcess:
    """`paimon-conform testee --report json` with the kit as the testee, over every golden case."""
    command = [sys.executable, "-m", "paimon_conform.cli", "testee", "--report", "json", "--"]
    command += [sys.executable, "-m", "paimon_conform.testee.kit"]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT)


def damaged_goldens_job(factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The damaged-golden sweep of test_tracebacks.py, in a child process (support/damaged_goldens.py)."""
    return damaged_goldens.run_child(factory.mktemp("damaged-goldens"))


def main_job(_factory: pytest.TempPathFactory | None = None) -> subprocess.CompletedProcess:
    """`paimon-conform` with no command (the main job: sample files and table, Spark pipeline, the corpus)."""
    return subprocess.run([sys.executable, "-m", "paimon_conform.cli"], capture_output=True, text=True, cwd=ROOT)


def connector_workloads_job(factory: pytest.TempPathFactory) -> tuple[Path, dict, subprocess.CompletedProcess]:
    """The Spark connector's SQL workloads (support/connector.py), run in its own virtualenv."""
    return connector.run_workloads(factory.mktemp("connector"))


def generated_languages_job(factory: pytest.TempPathFactory) -> languages.Run:
    """Every generated language built and run over the corpus jobs and their mutants, the testees on the
    generated parsers, generated/python installed alone (support/languages.py)."""
    return languages.run_all(factory.mktemp("languages"))


JOBS: dict[str, tuple[str, Callable[[pytest.TempPathFactory], Any]]] = {
    "test_java.py": ("java-tables", java_tables_job),  # first: its module runs before the others'
    "test_type_matrix_peers.py": ("type-matrix", type_matrix_job),
    "test_testee_matrix.py": ("testee-matrix", protocol_matrix_job),
    "test_type_matrix_java.py": ("java-matrix", java_matrix_job),
    "test_timestamp_zones_java.py": ("java-zones", java_zones_job),
    "test_testee_reference.py": ("testee-reference", reference_testees_job),
    "test_global_index_java.py": ("global-index-java", global_index_java_job),
    "test_blob_nested_java.py": ("nested-blob-java", nested_blob_java_job),
    "test_testee.py": ("kit-testee", kit_testee_job),
    "test_tracebacks.py": ("damaged-goldens", damaged_goldens_job),
    "test_packaging.py": ("packaging", packaging_job),
    "test_cli.py": ("main-job", main_job),
    "test_adversarial.py": ("adversarial", adversarial_job),
    "test_spark_connector.py": ("connector-workloads", connector_workloads_job),
    "test_generated_languages.py": ("generated-languages", generated_languages_job),
}


def remove_scratch() -> None:
    """The scratch folders go (with a passing run; a failed one keeps them, as pytest keeps tmp_path)."""
    while _scratch:
        shutil.rmtree(_scratch.pop(), ignore_errors=True)
