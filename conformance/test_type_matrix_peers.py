"""The two peer writers, pypaimon 2.1.0 (Python API) and pypaimon-rust 0.4.0 (DataFusion SQL),
over every column type the kit knows in every role a column plays: primary key (fixed bucket,
and dynamic bucket for STRING and DECIMAL(38, 10)), bucket key of an append table under each
bucket function (default, mod for INT / BIGINT, hive; three multi-field keys), partition key,
file-index column (bloom-filter, bitmap, bsi, range-bitmap) and plain value column, with edge
values (nulls, extremes, NaN / -0.0 / ±Infinity, empty / non-ASCII / 7- and 8-byte strings,
pre-1970 timestamps with sub-millisecond digits, 38-digit decimals). Java Paimon 1.0-SNAPSHOT
writes the same cells (roles its writer has) as the control. conformance/peers_matrix.py
builds it all; a cell a writer refuses is skipped with the writer's error.

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

import peers_matrix as pm
import pytest
from conftest import IN_CI, peers_matrix_results

CELLS = pm.cells()
PEER_CELLS = [c for c in CELLS if c.peer != pm.CONTROL]
CONTROL_CELLS = [c for c in CELLS if c.peer == pm.CONTROL]

pytestmark = pytest.mark.java


@pytest.fixture(scope="module")
def matrix(paimon_java, tmp_path_factory) -> dict[str, pm.CellResult]:
    """Every cell written, validated and read (see peers_matrix.build_matrix), by cell id."""
    for module in ("pypaimon", "pypaimon_rust"):
        if importlib.util.find_spec(module) is None:
            message = f"{module} (the peers extra) is not installed"
            if IN_CI:
                pytest.fail(message)
            pytest.skip(message)
    built = peers_matrix_results()  # started beside the first tests (conftest.pytest_collection_finish)
    if built is not None:
        base, results, seconds, waited = built
    else:
        base = pm.matrix_dir() if os.environ.get("PEERS_MATRIX_DIR") else tmp_path_factory.mktemp("peers-matrix")
        t0 = time.monotonic()
        results = pm.build_matrix(base)
        seconds = waited = time.monotonic() - t0
    (base / "report.md").write_text(pm.report_markdown(results, seconds))
    print(f"peers matrix: {len(results)} cells in {seconds:.0f} s ({waited:.0f} s waited); report {base / 'report.md'}")
    return {r.cell.id: r for r in results}


def _cell(matrix: dict[str, pm.CellResult], cell_id: str) -> pm.CellResult | None:
    """The cell's result, or None when its writer refused it (recorded with the writer's error in the report;
    nothing to check, and not a skip: the refusal is the outcome)."""
    r = matrix[cell_id]
    if not r.written:
        assert r.write_error, f"{cell_id}: not written, and no error recorded"
        return None
    return r


def _judged(matrix: dict[str, pm.CellResult], cell_id: str) -> pm.CellResult | None:
    """The cell's result when it has findings to judge: written, and validated without a crash (a crash is
    test_validator_exits_cleanly's failure)."""
    r = _cell(matrix, cell_id)
    return None if r is None or r.crashed else r


def _musts(r: pm.CellResult) -> list[str]:
    return [
        f"{f['code']} {f['file'].rsplit('/', 1)[-1]} {f['path']}: {f['message']}"
        for f in r.findings
        if f.get("severity") == "must"
    ]


@pytest.mark.parametrize("cell_id", [c.id for c in CELLS])
def test_validator_exits_cleanly(matrix, cell_id):
    """`paimon-conform validate DIR --report json` exits 0 or 1, with no traceback or internal error."""
    r = _cell(matrix, cell_id)
    if r is None:
        return
    assert r.crashed is None, f"validate {r.dir}: {r.crashed}"


KIT_REFUSAL = re.compile(r"\b(UsageError|EncodeError)\b: |^TypeError: Spark SQL has no type")


@pytest.mark.parametrize("cell_id", [c.id for c in PEER_CELLS if c.peer in pm.KIT_WRITERS])
def test_kit_writers_refuse_with_a_reason(matrix, cell_id):
    """The kit's own writers (the engine called directly, and through Spark) write every cell or refuse it with
    the kit's message (a type Java has no index or bucket function for, bytes Java cannot read back, a type
    Spark SQL lacks); any other exception is a bug in the writer."""
    r = matrix[cell_id]
    assert r.written or KIT_REFUSAL.search(r.write_error or ""), f"{cell_id}: {r.write_error}"


@pytest.mark.parametrize("cell_id", [c.id for c in PEER_CELLS])
def test_no_must_finding_where_java_reads_the_table(matrix, cell_id):
    """A must-finding says Java rejects or misreads the table; Java's reader is asked."""
    r = _judged(matrix, cell_id)
    if r is None:
        return
    bad = pm.false_musts(r)
    j = r.java["1.0-SNAPSHOT"]
    said = "reads the index manifest and HASH files" if j.index_read_ok else "reads the table"
    assert not bad, (
        f"Java 1.0-SNAPSHOT {said} right (rows equal, every `k = value` read returns its rows), "
        f"yet: {[f['code'] + ': ' + f['message'] for f in bad]}"
    )


@pytest.mark.parametrize("cell_id", [c.id for c in PEER_CELLS])
def test_java_incompatibility_is_reported(matrix, cell_id):
    """Where Java cannot read the peer's table, or reads or filters it wrong, the kit says must."""
    r = _judged(matrix, cell_id)
    if r is None:
        return
    problem = r.java_problem
    if problem is None:
        return
    bad = pm.false_musts(r)
    real = [f["code"] for f in r.findings if f.get("severity") == "must" and f not in bad]
    why = "; ".join(f"{k.id}: {k.reason}" for k in pm.known_for(r.cell)) or "not listed"
    assert real, f"{problem}\n(known: {why})\nkit findings: {r.codes or 'none'}"


@pytest.mark.parametrize("cell_id", [c.id for c in PEER_CELLS])
def test_java_incompatibility_is_listed(matrix, cell_id):
    """Every incompatibility Java shows is a KNOWN entry whose evidence it matches."""
    r = _cell(matrix, cell_id)
    if r is None:
        return
    if r.java_problem is None:
        return
    known = pm.known_for(r.cell)
    assert any(k.java and k.shown(r) for k in known), (
        f"not listed in peers_matrix.KNOWN: {r.java_evidence}\n(entries covering the cell: "
        f"{[k.id for k in known] or 'none'})"
    )


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


@pytest.mark.parametrize("cell_id", [c.id for c in CELLS])
def test_kit_reader_returns_what_java_reads(matrix, cell_id):
    """reader.read_latest (and its logical_rows) returns Java 1.0-SNAPSHOT's rows wherever Java reads the table."""
    r = _cell(matrix, cell_id)
    if r is None:
        return
    j = r.java["1.0-SNAPSHOT"]
    if not j.reads:
        return  # Java cannot read it: nothing to compare (test_java_incompatibility_* judge that)
    if r.cell.peer == pm.CONTROL and not j.rows_equal:
        return  # Java does not read its own table right: Java's limit, recorded in the report
    refused = r.kit_error
    assert refused is None, f"the kit's reader refuses a table Java reads: {refused}"
    assert (r.kit_missing, r.kit_extra) == (j.missing, j.extra), (
        f"written rows missing: kit {r.kit_missing[:3]}, Java {j.missing[:3]}; "
        f"rows not written: kit {r.kit_extra[:3]}, Java {j.extra[:3]}"
    )
    json_error = r.kit_json_error
    assert json_error is None, f"logical_rows fails on rows Java reads: {json_error}"


@pytest.mark.parametrize("cell_id", [c.id for c in CONTROL_CELLS])
def test_java_written_control_has_no_must_finding(matrix, cell_id):
    """The tables Java 1.0-SNAPSHOT writes itself (and reads right) carry no must-finding."""
    r = _judged(matrix, cell_id)
    if r is None:
        return
    j = r.java["1.0-SNAPSHOT"]
    if not j.reads or not j.rows_equal:
        return  # Java does not read its own table right: Java's limit, recorded in the report
    assert not _musts(r), f"must-findings on a table Java wrote and reads: {_musts(r)}"


def test_console_script_agrees_with_the_driver(matrix):
    """The per-table runs in one process (cli.main) report what one console-script run over all tables does."""
    differ = {r.cell.id: r.real_cli for r in matrix.values() if r.real_cli}
    assert not differ, differ
