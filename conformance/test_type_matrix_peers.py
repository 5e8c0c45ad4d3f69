"""Every writer at hand over every column type the kit knows in every role a column plays: primary key (fixed
bucket, and dynamic bucket for STRING and DECIMAL(38, 10)), bucket key of an append table under each bucket
function (default, mod for INT / BIGINT, hive; three multi-field keys), partition key, file-index column
(bloom-filter, bitmap, bsi, range-bitmap) and plain value column, with edge values (nulls, extremes,
NaN / -0.0 / ±Infinity, empty / non-ASCII / 7- and 8-byte strings, pre-1970 timestamps with sub-millisecond
digits, 38-digit decimals).

The writers and readers are the reference testees, driven through the testee protocol
(conformance/support/type_matrix.py): pypaimon 2.1.0, pypaimon-rust 0.4.0, the kit's engine and its Spark source
write; Java Paimon 1.0-SNAPSHOT writes the same cells (roles its writer has) as the control. Each table is
validated by the kit's console script (judged for Java 0.9: the jars here are 0.9-era) and read by Java
1.0-SNAPSHOT with probes (rows, an `= value` / IS NULL read per distinct value, each row re-hashed to its bucket,
the index manifest and HASH files), by Java 0.9.0 and by the kit. What Java does with its own control table is
not held against a peer. The assertions:

* the validator exits 0 or 1, without a traceback or an internal error, on every table;
* no must-finding where Java reads the table, its rows and its filtered reads right (findings on the index
  manifest or HASH files are also judged by Java reading those);
* where Java cannot read a peer's table, reads other rows or skips / fails filtered reads, the kit reports a
  must-finding, and the cell is pinned with the KNOWN entries (support/known_incompatibilities.py) whose Java
  evidence it shows;
* the kit's reader returns what Java returns wherever Java reads the table;
* no must-finding on the tables Java wrote (and reads right) itself.

Nothing passes unchecked: each test runs one check over every cell and fails on any cell that fails it. A cell
a check cannot run on is excused only by the pinned list tools/testees/failures/type-matrix.txt, which fails
both ways (each writer's refusals, Java's limits on its own tables, the cells showing each known
incompatibility); the run's summary prints, per check, how many cells were checked, listed and not applicable.

Run: .venv/bin/pytest conformance/test_type_matrix_peers.py (a few minutes: one session per writer at once, then
the readers next to two console-script runs). PAIMON_CONFORM_FIX_LISTS=1 rewrites the list from the run (review
the diff). PEERS_MATRIX_DIR=DIR keeps the tables and report.md (one line per cell) in a fresh folder under DIR.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from pathlib import Path

import pytest
from support import background, sweep
from support import type_matrix as tm
from support import type_matrix_cells as tmc
from support.environment import ROOT, missing
from support.jobs import type_matrix_job
from support.known_incompatibilities import KNOWN
from support.tally import tally

from paimon_conform.testee import failures

EVIDENCE = ("java", "third-party")

LIST = ROOT / "tools" / "testees" / "failures" / "type-matrix.txt"
FIX = os.environ.get("PAIMON_CONFORM_FIX_LISTS") == "1"  # rewrite the list from this run (then review the diff)

pytestmark = pytest.mark.java


@pytest.fixture(scope="module")
def matrix(paimon_java, request) -> dict[str, tm.CellResult]:
    """Every cell written, validated and read (type_matrix.build), by cell id."""
    for module in ("pypaimon", "pypaimon_rust"):
        if importlib.util.find_spec(module) is None:
            missing(f"{module} (the peers extra) is not installed")
    keep = os.environ.get("PEERS_MATRIX_DIR")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        base = Path(tempfile.mkdtemp(prefix="matrix-", dir=keep))
        results = tm.build(base)
    else:  # started beside the first tests (conftest.pytest_collection_finish)
        base, results = background.result("type-matrix", type_matrix_job)
    if FIX:
        LIST.write_text(failures.render(tm.pinned(results)).replace("testee failure list", "type x role matrix list"))
    (base / "report.md").write_text(tm.report_markdown(results, failures.load(LIST)))
    print(f"type matrix: {len(results)} cells; report {base / 'report.md'}")
    sweep.checked(request.node.nodeid, [r.dir for r in results if r.written])  # test_validator_exits_cleanly's
    return {r.cell.id: r for r in results}


@pytest.fixture(scope="module")
def listed() -> dict[str, str]:
    return failures.load(LIST)


def test_refusals_limits_and_incompatibilities_are_the_pinned_list(matrix, listed):
    """A refusal, Java limit or incompatibility not in the list fails; a listed one that no longer happens fails
    (the list shrinks); a cell showing other KNOWN entries than listed fails."""
    found = tm.pinned(list(matrix.values()))
    unlisted = [f"{k}  # {found[k]}" for k in sorted(set(found) - set(listed))]
    gone = sorted(set(listed) - set(found))
    changed = [
        f"{k}: listed {listed[k]!r}, shows {found[k]!r}"
        for k in sorted(set(found) & set(listed))
        if k.startswith("incompatible:") and found[k] != listed[k]
    ]
    assert not unlisted, f"{len(unlisted)} not in {LIST.name}:\n" + "\n".join(unlisted[:30])
    assert not gone, f"{len(gone)} listed in {LIST.name} no longer happen (remove them):\n" + "\n".join(gone[:30])
    assert not changed, f"{len(changed)} cells show other known incompatibilities:\n" + "\n".join(changed[:30])


def _run(name: str, matrix: dict[str, tm.CellResult], judge, excuse=lambda r: None) -> None:
    """One check over every cell: `excuse(r)` says ("listed"|"n/a", why) when the check does not run on the cell,
    else `judge(r)` returns None (checked, passed) or a failure text."""
    t = tally(f"type-matrix/{name}")
    bad = []
    for cell_id, r in matrix.items():
        verdict = excuse(r) or judge(r)
        if isinstance(verdict, tuple):
            kind, why = verdict
            if kind == "listed":
                t.listed += 1
            else:
                t.not_applicable[why] += 1
            continue
        t.checked += 1
        if verdict:
            bad.append(f"{cell_id}: {verdict}")
    print(t.line(name))
    assert not bad, f"{len(bad)} of {t.checked} cells:\n" + "\n".join(bad[:30])
    assert t.checked, f"{name}: no cell checked"


REFUSED = ("listed", "refused")
CRASHED = ("n/a", "the validator crashed (test_validator_exits_cleanly)")


def _peer(r: tm.CellResult):
    """None for a written, uncrashed cell of a writer under test; else why the peer checks do not run on it."""
    if r.cell.writer == tmc.CONTROL:
        return ("n/a", "a control cell")
    if not r.written:
        return REFUSED
    return CRASHED if r.crashed else None


def _musts(r: tm.CellResult) -> list[str]:
    return [f"{f['code']} {f['file'].rsplit('/', 1)[-1]} {f['path']}: {f['message']}" for f in r.musts]


def test_validator_exits_cleanly(matrix):
    """`paimon-conform validate DIR... --report json` exits 0 or 1, with no traceback or internal error."""

    def judge(r):
        if not r.written:
            return REFUSED
        return f"validate {r.dir}: {r.crashed}" if r.crashed else None

    _run("validator-exits-cleanly", matrix, judge)


KIT_REFUSAL = re.compile(r"\b(UsageError|EncodeError)\b: |^TypeError: Spark SQL has no type")


def test_kit_writers_refuse_with_a_reason(matrix):
    """The kit's own writers (the engine, and its Spark source) write every cell or refuse it with the kit's
    message (a type Java has no index or bucket function for, bytes Java cannot read back, a type Spark SQL
    lacks); any other exception is a bug in the writer."""

    def judge(r):
        if r.cell.writer not in tmc.KIT_WRITERS:
            return ("n/a", "not a kit writer")
        if r.written:
            return ("n/a", "written")
        return None if KIT_REFUSAL.search(r.write_error or "") else f"refused without the kit's reason: {r.write_error}"

    _run("kit-writers-refuse-with-a-reason", matrix, judge)


def test_no_must_finding_where_java_reads_the_table(matrix, listed):
    """A must-finding says Java rejects or misreads the table; Java's reader is asked."""

    def judge(r):
        bad = tm.false_musts(r, listed)
        said = "reads the index manifest and HASH files" if r.java[tm.PROBING].index_read_ok else "reads the table"
        return f"{tm.PROBING} {said} right, yet: {[f['code'] + ': ' + f['message'] for f in bad]}" if bad else None

    _run("no-false-must", matrix, judge, _peer)


def _incompatible(r: tm.CellResult):
    """None for a peer cell Java shows a problem with; else why the incompatibility checks do not run on it."""
    excused = _peer(r)
    if excused:
        return excused
    if any(j.same_as_own for j in r.java.values()):
        return ("listed", "java-own")
    return None if r.java_problem else ("n/a", "Java reads it right")


def test_java_incompatibility_is_reported(matrix, listed):
    """Where Java cannot read the peer's table, or reads or filters it wrong, the kit says must."""

    def judge(r):
        bad = tm.false_musts(r, listed)
        real = [f["code"] for f in r.musts if f not in bad]
        why = "; ".join(f"{k.id}: {k.reason}" for k in tm.listed_known(r, listed)) or "not listed"
        return None if real else f"{r.java_problem}\n(known: {why})\nkit findings: {r.codes or 'none'}"

    _run("incompatibility-reported", matrix, judge, _incompatible)


def test_java_incompatibility_is_explained(matrix):
    """Every incompatibility Java shows matches the evidence of at least one KNOWN entry (a cell pinned as
    UNLISTED fails here, whatever the list says)."""

    def judge(r):
        ids = tm.pinned([r]).get(f"incompatible:{r.cell.id}")
        return None if ids and ids != "UNLISTED" else f"no KNOWN entry matches Java's evidence: {r.java_evidence}"

    _run("incompatibility-explained", matrix, judge, _incompatible)


@pytest.mark.parametrize("known", KNOWN.values(), ids=list(KNOWN))
def test_known_incompatibility_still_happens(matrix, listed, known):
    """Each KNOWN entry is pinned on some cell; one no jar here can show is reported by the kit's must-finding of
    its codes on every cell it covers (so the registry shrinks as peers are fixed)."""
    covered = [matrix[k.split(":", 1)[1]] for k, v in listed.items() if k.startswith("incompatible:") and known.id in v]
    assert covered, f"{known.id} is pinned on no cell: remove it"
    if known.java is None:
        unreported = [r.cell.id for r in covered if not any(f["code"] in known.codes for f in r.musts)]
        assert not unreported, f"{known.id}: no {'/'.join(known.codes)} must-finding for {unreported}"


def _java_reads_own(r: tm.CellResult):
    """None when Java 1.0-SNAPSHOT reads the cell's table (its own, right); else why checks against Java's rows
    do not run on it."""
    if not r.written:
        return REFUSED
    j = r.java[tm.PROBING]
    if r.cell.writer == tmc.CONTROL and not j.rows_equal:
        return ("listed", "java-limit")
    if not j.reads:
        return ("listed", "java-own" if j.same_as_own else "an incompatibility (incompatibility-explained)")
    if j.rows_as_own:
        return ("listed", "java-own: Java misreads its own table's rows too")
    return None


def test_kit_reader_returns_what_java_reads(matrix):
    """The kit's reader (the kit testee's read-table) returns Java 1.0-SNAPSHOT's rows wherever Java reads the
    table."""
    _run("kit-reader-returns-javas-rows", matrix, tm.kit_reads_like_java, _java_reads_own)


def test_java_written_control_has_no_must_finding(matrix):
    """The tables Java 1.0-SNAPSHOT writes itself (and reads right) carry no must-finding."""

    def judge(r):
        if r.cell.writer != tmc.CONTROL:
            return ("n/a", "a peer cell")
        excused = _java_reads_own(r) or (CRASHED if r.crashed else None)
        if excused:
            return excused
        return f"must-findings on a table Java wrote and reads: {_musts(r)}" if r.musts else None

    _run("control-has-no-must", matrix, judge)
