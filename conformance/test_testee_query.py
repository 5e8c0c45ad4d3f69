"""The testee protocol's `query` operation (issue 19): predicates drawn with a fixed seed over every golden index
file, answered by the kit. Each expected answer is held to what every file index promises, checked here by a
scan of the file's own values: no row that matches is ever ruled out. A testee answering otherwise fails those
cases; an empty row set and skip are one answer."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from support.environment import ROOT
from support.rogue_testee import rogue_command

from paimon_conform.core.types import DataType, java_equals, java_order, parse_type, to_internal
from paimon_conform.layouts import global_index_query
from paimon_conform.testee import kit, queries, runner, suite
from paimon_conform.testee.protocol import problem

EVIDENCE = ("kit",)

GOLDEN = ROOT / "golden"


@pytest.fixture(scope="module")
def cases() -> list[suite.Case]:
    return suite.golden_cases(GOLDEN, ("query",))


def _matches(t: DataType, op: str, v: Any, literals: list[Any]) -> bool:
    """A leaf on one value as SQL reads it (a null matches IS NULL only), by Java's equality and order."""
    if op in ("is_null", "is_not_null"):
        return (v is None) == (op == "is_null")
    if v is None:
        return False
    lits = [to_internal(t, x) for x in literals]
    key = java_order(t)
    if op in ("eq", "in"):
        return any(java_equals(t, v, x) for x in lits)
    if op in ("not_eq", "not_in"):
        return not any(java_equals(t, v, x) for x in lits)
    if op == "between":
        return key(lits[0]) <= key(v) <= key(lits[1])
    compare = {"lt": lambda a, b: a < b, "lte": lambda a, b: a <= b, "gt": lambda a, b: a > b}
    return compare.get(op, lambda a, b: a >= b)(key(v), key(lits[0]))


def _truth(predicate: dict[str, Any], columns: dict[str, tuple[DataType, list[Any]]]) -> set[int]:
    """The positions whose values match, by a scan of the case's values (AND: both, OR: either)."""
    if predicate["op"] in ("and", "or"):
        parts = [_truth(c, columns) for c in predicate["children"]]
        return set.intersection(*parts) if predicate["op"] == "and" else set.union(*parts)
    t, values = columns[predicate["column"]]
    return {i for i, v in enumerate(values) if _matches(t, predicate["op"], v, predicate.get("literals", []))}


def _sidecar_columns(case_id: str) -> dict[str, tuple[DataType, list[Any]]]:
    name = case_id.split(":", 1)[1].rsplit("/", 1)[0]
    sidecar = json.loads((GOLDEN / f"{name}.json").read_text())
    out = {}
    for col, (text, values) in queries.columns_of(sidecar).items():
        t = parse_type(text)
        out[col] = (t, [to_internal(t, v) for v in values])
    return out


def test_every_expected_answer_keeps_every_matching_row(cases):
    """Soundness, the property every file index has: remain keeps all; skip only when no row matches; a row
    set holds every matching row. Checked against a scan for each of the ~600 cases."""
    assert len(cases) >= 500
    for case in cases:
        truth = _truth(case.request["predicate"], _sidecar_columns(case.id))
        answer = queries.outcome(case.expected)
        if answer == "skip":
            assert not truth, f"{case.id}: skip, but rows {sorted(truth)[:10]} match"
        elif answer != "remain":
            assert truth <= set(answer), f"{case.id}: rows {sorted(truth - set(answer))[:10]} match, not kept"
        if case.kind in global_index_query.KINDS:  # exact: a global index answers each leaf from its keys
            assert set(answer if answer != "skip" else ()) == truth, case.id


def test_the_cases_tell_answers_apart(cases):
    """Every index kind has cases; each kind of answer occurs, row sets on the exact indexes, skips on the
    bloom filter; containers mix columns in AND / OR."""
    by_kind: dict[str, set[str]] = {}
    for c in cases:
        by_kind.setdefault(c.kind, set()).add(c.expected["result"])
    assert set(by_kind) == set(queries.KINDS)
    assert by_kind["file-index"] == {"remain", "skip", "rows"}
    assert "skip" in by_kind["bloom-filter"]
    assert "rows" not in by_kind["bloom-filter"]
    assert all("rows" in by_kind[k] for k in ("bitmap", "bsi", "range-bitmap", *global_index_query.KINDS))
    mixed = [c for c in cases if c.kind == "file-index" and "children" in c.request["predicate"]]
    assert any(len({ch.get("column") for ch in c.request["predicate"]["children"]} - {None}) > 1 for c in mixed)


def test_the_predicates_come_from_the_fixed_seed(cases):
    again = suite.golden_cases(GOLDEN, ("query",))
    assert [(c.id, c.request) for c in again] == [(c.id, c.request) for c in cases]
    sidecar = json.loads((GOLDEN / "file_index/java-0.9.0/two-indexes-one-column.json").read_text())
    drawn = queries.predicates("x", sidecar)
    assert drawn == queries.predicates("x", sidecar)
    assert drawn != queries.predicates("x", sidecar, seed=queries.SEED + 1)
    assert len(drawn) == queries.PER_FILE


def test_a_testee_answering_remain_or_other_rows_fails_exactly_those_cases(cases, tmp_path, monkeypatch):
    """A testee that never rules anything out fails every case whose answer is not remain; one that drops a
    row fails that case; one that answers an empty row set for skip passes."""
    chosen = [c for c in cases if c.kind in ("file-index", "bitmap")]
    # the rogue finds a case by its request: two goldens of the same bytes (one payload written by two
    # releases) can ask the same question, so the misbehaving cases are ones whose request is asked once
    asked = Counter(json.dumps(c.request, sort_keys=True) for c in chosen)
    once = [c for c in chosen if asked[json.dumps(c.request, sort_keys=True)] == 1]
    rows_case = next(c for c in once if c.expected["result"] == "rows" and c.expected["rows"])
    skip_case = next(c for c in once if c.expected["result"] == "skip")
    plan = {c.id: "remain" for c in chosen if c not in (rows_case, skip_case)}
    plan |= {rows_case.id: "drop-row", skip_case.id: "empty-rows"}
    command = rogue_command(tmp_path, monkeypatch, {"query": ["file-index", "bitmap"]}, plan, chosen)
    run = runner.run(command, chosen, timeout=10)
    failed = {r.case.id: r.detail for r in run.failed()}
    expected_failures = {
        c.id for c in chosen if c.id in plan and plan[c.id] == "remain" and c.expected["result"] != "remain"
    }
    assert set(failed) == expected_failures | {rows_case.id}
    assert "answered remain" in failed[next(iter(expected_failures))]
    assert f"{len(rows_case.expected['rows']) - 1} row(s)" in failed[rows_case.id]


@pytest.mark.parametrize(
    "predicate",
    [
        {"column": "v", "op": "eq"},
        {"column": "v", "op": "between", "literals": [1]},
        {"column": "v", "op": "like", "literals": ["a%"]},
        {"op": "and", "children": []},
        {"column": "v", "op": "eq", "literals": ["not a number"]},
        "v = 1",
    ],
)
def test_a_malformed_query_is_an_error_reply(predicate):
    data, type_text = _lone_int_payload()
    request = {
        "id": 1,
        "op": "query",
        "kind": "bitmap",
        "data": data,
        "types": {"v": type_text},
        "predicate": predicate,
    }
    reply = kit.answer(request)
    assert "error" in reply
    assert "result" not in reply
    assert problem(reply, "query_reply") is None


def _lone_int_payload() -> tuple[str, str]:
    """Some golden INT bitmap payload and its type."""
    for sidecar in sorted((GOLDEN / "bitmap_index").glob("*/*.json")):
        c = json.loads(sidecar.read_text())
        if c.get("type") == "INT" and "must_reject" not in c:
            return sidecar.with_suffix(".bin").read_bytes().hex(), "INT"
    raise AssertionError("no INT bitmap in the corpus")
