"""The two peer writers, pypaimon 2.1.0 (Python API) and pypaimon-rust 0.4.0 (DataFusion SQL),
over every column type the kit knows in every role a column plays: primary key (fixed bucket,
and dynamic bucket for STRING and DECIMAL(38, 10)), bucket key of an append table under each
bucket function (default, mod for INT / BIGINT, hive; three multi-field keys), partition key,
file-index column (bloom-filter, bitmap, bsi, range-bitmap) and plain value column, with edge
values (nulls, extremes, NaN / -0.0 / ±Infinity, empty / non-ASCII / 7- and 8-byte strings,
pre-1970 timestamps with sub-millisecond digits, 38-digit decimals). Java Paimon 1.0-SNAPSHOT
writes the same cells (roles its writer has) as the control. conformance/support/peers_matrix.py
builds it all; a cell a writer refuses is a listed refusal (below).

Each table is validated by the kit's console script (`validate DIR --report json`, judged for
Java 0.9: the jars here are 0.9-era) and read by Java 1.0-SNAPSHOT (rows, an `= value` /
IS NULL read per distinct value, each row re-hashed to its bucket, the index manifest and HASH
files) and by Java 0.9.0 (rows), and by the kit's own reader. What Java does with its own
control table is not held against a peer. The assertions:

* the validator exits 0 or 1, without a traceback or an internal error, on every table;
* no must-finding where Java reads the table, its rows and its filtered reads right (findings on
  the index manifest or HASH files are also judged by Java reading those);
* where Java cannot read a peer's table, reads other rows or skips / fails filtered reads, the
  kit reports a must-finding, and the incompatibility is listed in peers_matrix.KNOWN with the
  Java evidence it must keep showing;
* the kit's reader returns what Java returns wherever Java reads the table;
* no must-finding on the tables Java wrote (and reads right) itself.

Nothing passes unchecked: each test runs one check over every cell and fails on any cell that fails it. A cell
a check cannot run on is excused only by a pinned list that fails both ways (tools/testees/failures/type-matrix.txt:
each writer's refusals and Java's limits on its own control tables; peers_matrix.KNOWN: the peers'
incompatibilities with their Java evidence); the run's summary prints, per check, how many cells were checked,
listed and not applicable.

Run: .venv/bin/pytest conformance/test_type_matrix_peers.py (about one to two minutes: one
writer process per peer plus one JVM writing the controls, all at once; two validator processes
next to one JVM reading every table; the console script once over all tables and once per table
it fails on). PEERS_MATRIX_DIR=DIR keeps the tables and a Markdown report (report.md, one line
per cell, then the cells grouped by cause) in a fresh directory under DIR.
"""

from __future__ import annotations

import importlib.util
import os
import re
import time

import pytest
from support import peers_matrix as pm
from support import sweep
from support.environment import ROOT, missing
from support.tally import tally

from paimon_conform.testee import failures

EVIDENCE = ("java", "third-party")

LIST = ROOT / "tools" / "testees" / "failures" / "type-matrix.txt"
FIX = os.environ.get("PAIMON_CONFORM_FIX_LISTS") == "1"  # rewrite the list from this run (then review the diff)

pytestmark = pytest.mark.java


@pytest.fixture(scope="module")
def matrix(paimon_java, tmp_path_factory, request) -> dict[str, pm.CellResult]:
    """Every cell written, validated and read (see peers_matrix.build_matrix), by cell id."""
    for module in ("pypaimon", "pypaimon_rust"):
        if importlib.util.find_spec(module) is None:
            missing(f"{module} (the peers extra) is not installed")
    built = pm.background_results()  # started beside the first tests (conftest.pytest_collection_finish)
    if built is not None:
        base, results, seconds, waited = built
    else:
        base = pm.matrix_dir() if os.environ.get("PEERS_MATRIX_DIR") else tmp_path_factory.mktemp("peers-matrix")
        t0 = time.monotonic()
        results = pm.build_matrix(base)
        seconds = waited = time.monotonic() - t0
    (base / "report.md").write_text(pm.report_markdown(results, seconds))
    print(f"peers matrix: {len(results)} cells in {seconds:.0f} s ({waited:.0f} s waited); report {base / 'report.md'}")
    sweep.checked(request.node.nodeid, [r.dir for r in results if r.written])  # test_validator_exits_cleanly's
    return {r.cell.id: r for r in results}


def pinned(matrix: dict[str, pm.CellResult]) -> dict[str, str]:
    """What the run excuses, as list ids with their evidence: `refused:<cell>` (the writer's error),
    `java-limit:<control cell>` (Java cannot read, or misreads, its own table) and `java-own:<cell>` (Java fails
    on the peer's table as on its own control)."""
    out = {}
    for r in matrix.values():
        if not r.written:
            out[f"refused:{r.cell.id}"] = _short(r.write_error)
        elif r.cell.peer == pm.CONTROL and r.java_problem:
            out[f"java-limit:{r.cell.id}"] = _short(r.java_problem)
        elif any(j.same_as_own for j in r.java.values()):
            out[f"java-own:{r.cell.id}"] = _short(next(j.error for j in r.java.values() if j.same_as_own))
    return out


def _short(text: str | None) -> str:
    return " ".join((text or "no error recorded").split())[:240].replace("#", "No.")


def test_refusals_and_java_limits_are_the_pinned_list(matrix):
    """A refusal or Java limit not in the list fails; a listed one that no longer happens fails (the list shrinks)."""
    found = pinned(matrix)
    if FIX:
        LIST.write_text(failures.render(found).replace("testee failure list", "type x role matrix list"))
    listed = failures.load(LIST)
    unlisted = [f"{k}  # {found[k]}" for k in sorted(set(found) - set(listed))]
    gone = sorted(set(listed) - set(found))
    assert not unlisted, f"{len(unlisted)} not in {LIST.name}:\n" + "\n".join(unlisted[:30])
    assert not gone, f"{len(gone)} listed in {LIST.name} no longer happen (remove them):\n" + "\n".join(gone[:30])


def _run(name: str, matrix: dict[str, pm.CellResult], judge, excuse=lambda r: None) -> None:
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


def _peer(r: pm.CellResult):
    """None for a written, uncrashed peer cell; else why the peer checks do not run on it."""
    if r.cell.peer == pm.CONTROL:
        return ("n/a", "a control cell")
    if not r.written:
        return REFUSED
    return CRASHED if r.crashed else None


def _musts(r: pm.CellResult) -> list[str]:
    return [
        f"{f['code']} {f['file'].rsplit('/', 1)[-1]} {f['path']}: {f['message']}"
        for f in r.findings
        if f.get("severity") == "must"
    ]


def test_validator_exits_cleanly(matrix):
    """`paimon-conform validate DIR --report json` exits 0 or 1, with no traceback or internal error."""

    def judge(r):
        if not r.written:
            return REFUSED
        return f"validate {r.dir}: {r.crashed}" if r.crashed else None

    _run("validator-exits-cleanly", matrix, judge)


KIT_REFUSAL = re.compile(r"\b(UsageError|EncodeError)\b: |^TypeError: Spark SQL has no type")


def test_kit_writers_refuse_with_a_reason(matrix):
    """The kit's own writers (the engine called directly, and through Spark) write every cell or refuse it with
    the kit's message (a type Java has no index or bucket function for, bytes Java cannot read back, a type
    Spark SQL lacks); any other exception is a bug in the writer."""

    def judge(r):
        if r.cell.peer not in pm.KIT_WRITERS:
            return ("n/a", "not a kit writer")
        if r.written:
            return ("n/a", "written")
        return None if KIT_REFUSAL.search(r.write_error or "") else f"refused without the kit's reason: {r.write_error}"

    _run("kit-writers-refuse-with-a-reason", matrix, judge)


def test_no_must_finding_where_java_reads_the_table(matrix):
    """A must-finding says Java rejects or misreads the table; Java's reader is asked."""

    def judge(r):
        bad = pm.false_musts(r)
        said = "reads the index manifest and HASH files" if r.java["1.0-SNAPSHOT"].index_read_ok else "reads the table"
        return f"Java 1.0-SNAPSHOT {said} right, yet: {[f['code'] + ': ' + f['message'] for f in bad]}" if bad else None

    _run("no-false-must", matrix, judge, _peer)


def _incompatible(r: pm.CellResult):
    """None for a peer cell Java shows a problem with; else why the incompatibility checks do not run on it."""
    excused = _peer(r)
    if excused:
        return excused
    if any(j.same_as_own for j in r.java.values()):
        return ("listed", "java-own")
    return None if r.java_problem else ("n/a", "Java reads it right")


def test_java_incompatibility_is_reported(matrix):
    """Where Java cannot read the peer's table, or reads or filters it wrong, the kit says must."""

    def judge(r):
        bad = pm.false_musts(r)
        real = [f["code"] for f in r.findings if f.get("severity") == "must" and f not in bad]
        why = "; ".join(f"{k.id}: {k.reason}" for k in pm.known_for(r.cell)) or "not listed"
        return None if real else f"{r.java_problem}\n(known: {why})\nkit findings: {r.codes or 'none'}"

    _run("incompatibility-reported", matrix, judge, _incompatible)


def test_java_incompatibility_is_listed(matrix):
    """Every incompatibility Java shows is a KNOWN entry whose evidence it matches."""

    def judge(r):
        known = pm.known_for(r.cell)
        if any(k.java and k.shown(r) for k in known):
            return None
        return f"not listed in peers_matrix.KNOWN: {r.java_evidence} (entries covering it: {[k.id for k in known]})"

    _run("incompatibility-listed", matrix, judge, _incompatible)


@pytest.mark.parametrize("known", pm.KNOWN, ids=[k.id for k in pm.KNOWN])
def test_known_incompatibility_still_happens(matrix, known):
    """Each listed incompatibility still shows for every cell it covers (so the list shrinks as peers are fixed)."""
    covered = [r for r in matrix.values() if r.written and known.covers(r.cell)]
    assert covered, f"{known.id} covers no table any peer writes"
    if known.java is None:
        # no jar here can show it: the kit's finding is the evidence that it still happens
        missing = [
            r.cell.id
            for r in covered
            if not r.crashed and not any(f.get("severity") == "must" and f["code"] in known.codes for f in r.findings)
        ]
        assert not missing, f"{known.id}: no {'/'.join(known.codes)} must-finding for {missing} ({known.evidence})"
        return
    gone = [r.cell.id for r in covered if not known.shown(r) and not known.masked(r)]
    assert not gone, f"{known.id}: Java no longer shows /{known.java}/ for {gone}"


def _java_reads_own(r: pm.CellResult):
    """None when Java 1.0-SNAPSHOT reads the cell's table (its own, right); else why checks against Java's rows
    do not run on it."""
    if not r.written:
        return REFUSED
    j = r.java["1.0-SNAPSHOT"]
    if r.cell.peer == pm.CONTROL and (not j.reads or not j.rows_equal):
        return ("listed", "java-limit")
    if not j.reads:
        return ("listed", "java-own" if j.same_as_own else "a KNOWN incompatibility (incompatibility-listed)")
    return None


def test_kit_reader_returns_what_java_reads(matrix):
    """reader.read_latest (and its logical_rows) returns Java 1.0-SNAPSHOT's rows wherever Java reads the table."""

    def judge(r):
        j = r.java["1.0-SNAPSHOT"]
        if r.kit_error is not None:
            return f"the kit's reader refuses a table Java reads: {r.kit_error}"
        if (r.kit_missing, r.kit_extra) != (j.missing, j.extra):
            return (
                f"written rows missing: kit {r.kit_missing[:3]}, Java {j.missing[:3]}; "
                f"rows not written: kit {r.kit_extra[:3]}, Java {j.extra[:3]}"
            )
        return f"logical_rows fails on rows Java reads: {r.kit_json_error}" if r.kit_json_error else None

    _run("kit-reader-returns-javas-rows", matrix, judge, _java_reads_own)


def test_java_written_control_has_no_must_finding(matrix):
    """The tables Java 1.0-SNAPSHOT writes itself (and reads right) carry no must-finding."""

    def judge(r):
        if r.cell.peer != pm.CONTROL:
            return ("n/a", "a peer cell")
        excused = _java_reads_own(r) or (CRASHED if r.crashed else None)
        if excused:
            return excused
        return f"must-findings on a table Java wrote and reads: {_musts(r)}" if _musts(r) else None

    _run("control-has-no-must", matrix, judge)


def test_console_script_agrees_with_the_driver(matrix):
    """The per-table runs in one process (cli.main) report what one console-script run over all tables does."""
    differ = {r.cell.id: r.real_cli for r in matrix.values() if r.real_cli}
    assert not differ, differ
