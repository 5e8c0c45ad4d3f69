"""The reference testees over every case, each with its failure list, as a user runs them: Java Paimon of every release
in tools/java/releases.tsv (0.9.0 … 2.0.0, from Maven Central) and the 1.0-SNAPSHOT jar, pypaimon 2.1.0, pypaimon-rust
0.4.0 and Paimon's Spark connector 0.9.0 (tools/testees/). A run passes only when every failure is listed and
every listed case still fails; the counts show each testee was asked what it declares."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support import background, testees
from support.jobs import reference_testees_job

from paimon_conform.testee import generated

EVIDENCE = ("java", "third-party")

ROOT = Path(__file__).resolve().parent.parent
TESTEES = ROOT / "tools" / "testees"
CLI = [sys.executable, "-m", "paimon_conform.cli"]
REFERENCE = testees.reference_runs_listed()


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=900, cwd=ROOT)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[subprocess.CompletedProcess, dict]]:
    """Every reference testee's run (started beside the first tests when the run includes this module)."""
    return background.result("testee-reference", lambda: reference_testees_job(tmp_path_factory))


@pytest.mark.parametrize("name", sorted(REFERENCE))
def test_reference_testee_passes_with_its_failure_list(name: str, runs) -> None:
    _, listing, ops = REFERENCE[name]
    done, doc = runs[name]
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    passed = {c["op"] for c in doc["cases"] if c["status"] == "passed"}
    assert ops <= passed, f"{name}: no passing case of {sorted(ops - passed)}"
    listed = [
        line.split("#")[0].strip()
        for line in (TESTEES / "failures" / listing).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    statuses = {c["id"]: c["status"] for c in doc["cases"]}
    assert all(statuses.get(c) == "expected-failure" for c in listed), "every listed case ran and still fails"
    if name.startswith("java-"):  # Java agrees with the kit on every key and file drawn from the seed
        drawn = {c.id for c in generated.cases_for(("decode", "encode", "hash"))}
        assert {statuses[c] for c in drawn} == {"passed"}
    assert all(
        line.split("  # ", 1)[1].strip()
        for line in (TESTEES / "failures" / listing).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ), "every entry gives its evidence"


def test_java_testee_reads_what_it_is_asked_to_judge_a_writer_by(tmp_path: Path) -> None:
    """--reader: the kit's engine writes each table kind and Java 1.0-SNAPSHOT reads every one back."""
    reader = f"{sys.executable} {TESTEES / 'java_paimon.py'} 1.0-SNAPSHOT"
    done = _run(
        ["testee", "--ops", "write-table", "--reader", reader, "--", sys.executable, "-m", "paimon_conform.testee.kit"]
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert ": 4 case(s): 4 passed" in done.stdout


def test_a_reader_that_misreads_fails_the_write_case(tmp_path: Path) -> None:
    """A second reader returning other rows fails the write case, naming the reader."""
    rogue = tmp_path / "rogue_reader.py"
    rogue.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    if r['op'] == 'bye': break\n"
        "    if r['op'] == 'hello':\n"
        "        caps = {'read-table': ['table']}\n"
        "        out = {'id': 0, 'name': 'rogue', 'version': '0', 'protocol': 1, 'capabilities': caps}\n"
        "    else:\n"
        "        out = {'id': r['id'], 'rows': []}\n"
        "    print(json.dumps(out), flush=True)\n"
    )
    done = _run(
        [
            "testee",
            "--ops",
            "write-table",
            "--kind",
            "pk",
            "--reader",
            f"{sys.executable} {rogue}",
            "--",
            sys.executable,
            "-m",
            "paimon_conform.testee.kit",
        ]
    )
    assert done.returncode == 1
    assert "write-table:pk: FAILED the reader reads other rows than were written" in done.stdout


def java_releases_by_line() -> dict[str, str]:
    """Each Java release of tools/java/releases.tsv and its release line (the 1.0-SNAPSHOT jar is no release)."""
    import java_releases

    return {v: r.line for v, r in java_releases.releases().items()}


# Must-findings about filtered reads only: a full read (read-table) opens neither file indexes nor global indexes,
# and Java of every release reads the rows; the query path's refusals are run elsewhere (test_java_release_goldens
# and the query cases for file indexes, test_global_index_java for global indexes).
QUERY_ONLY = {"FILE_INDEX_NEEDS_NEWER_JAVA", "GLOBAL_INDEX_LAYOUT"}
# Where each occurs on the goldens (so that QUERY_ONLY cannot go stale): file indexes of kinds 0.9 and 1.0 cannot
# read, a bitmap global index in the other release's layout for 1.4 and 2.0.
QUERY_ONLY_BY_LINE = {
    "0.9": "FILE_INDEX_NEEDS_NEWER_JAVA",
    "1.0": "FILE_INDEX_NEEDS_NEWER_JAVA",
    "1.4": "GLOBAL_INDEX_LAYOUT",
    "2.0": "GLOBAL_INDEX_LAYOUT",
}


@pytest.fixture(scope="module")
def kit_findings() -> dict[str, list]:
    """Every golden table's findings, not yet judged for a release (java_releases.judge does that per line)."""
    from paimon_conform.table.validate.table import validate_table

    tables = sorted((ROOT / "golden" / "tables").glob("java-*/*.json"))
    return {
        f"tables/{p.parent.name}/{p.stem}": [
            f for r in validate_table(p.with_suffix(""), java_version=None) for f in r.findings
        ]
        for p in tables
    }


@pytest.mark.parametrize("version", sorted(java_releases_by_line()))
def test_each_release_reads_a_golden_table_exactly_when_the_kit_has_no_must_for_it(version, runs, kit_findings):
    """The kit's verdict for release R on every Java-written golden table (0.9.0 ... 2.0.0, the feature tables
    included) is what R's own reader did with it: its testee's full read fails (listed with the evidence in its
    failure list) exactly where the kit has a must-finding for R's line."""
    import copy

    from paimon_conform.core.java_releases import judge

    line = java_releases_by_line()[version]
    statuses = {c["id"]: c for c in runs[f"java-{version}"][1]["cases"]}
    disagree, query_only = [], set()
    for table, found in kit_findings.items():
        case = statuses[f"read-table:{table}"]
        java_fails = case["status"] in ("failed", "expected-failure")
        musts = {f.code for f in judge(copy.deepcopy(found), line) if f.severity == "must"}
        query_only |= musts & QUERY_ONLY
        if java_fails != bool(musts - QUERY_ONLY):
            disagree.append(f"{table}: Java {case['status']} {case['detail'][:200]!r}; kit musts {sorted(musts)}")
    assert not disagree, "\n".join(disagree)
    assert len(kit_findings) >= 76
    if line in QUERY_ONLY_BY_LINE:
        assert QUERY_ONLY_BY_LINE[line] in query_only, "a query-only must no longer occurs: QUERY_ONLY is stale"
