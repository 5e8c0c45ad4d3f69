"""The case schemas are checked with jsonschema-rs (`core.cases.check`), ~100x faster than the pure-Python
jsonschema on the sidecars' long range lists. The pure-Python validator stays the reference: both must give
the same verdict on every golden sidecar and on cases damaged at a drawn place (a value replaced, a key
dropped or added), and a refused case names the place of its first error."""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from referencing import Registry, Resource
from support.environment import ROOT

from paimon_conform.core import cases
from paimon_conform.core.errors import CaseError
from paimon_conform.golden import sidecars

EVIDENCE = ("third-party", "kit")

SIDECARS = [json.loads(p.read_text()) for p in sidecars(ROOT / "golden")]
SMALL = [c for c in SIDECARS if len(json.dumps(c)) < 20_000]  # the pure-Python reference is slow on big ones
REPLACEMENTS = [None, "x", -1, 0, 2**70, 1.5, True, [], {}, [[1, 0]], "00ff", "zz"]


@cache
def _reference(uri: str) -> jsonschema.Draft202012Validator:
    registry = Registry().with_resources((i, Resource.from_contents(d)) for i, d in cases.documents().items())
    return jsonschema.Draft202012Validator(registry.get_or_retrieve(uri).value.contents, registry=registry)


def _target(case: Any) -> str | None:
    if not isinstance(case, dict):
        return None
    kind = "must_reject" if "must_reject" in case else case.get("kind")
    return cases.schema_id(kind) if isinstance(kind, str) and cases.schema_id(kind) in cases.documents() else None


def _verdicts(case: dict[str, Any]) -> tuple[bool, bool]:
    """(the kit accepts it, the reference accepts it)."""
    uri = _target(case)
    assert uri is not None
    try:
        cases.check(case)
        kit = True
    except CaseError:
        kit = False
    return kit, _reference(uri).is_valid(case)


def test_every_sidecar_passes_both_validators():
    assert len(SIDECARS) > 350
    for case in SIDECARS:
        if _target(case) is not None:
            assert _verdicts(case) == (True, True), case.get("kind")


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON value (lists: their first, second and last items only)."""
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _places(v, (*path, k))
    elif isinstance(value, list):
        for i in sorted({0, 1, len(value) - 1} & set(range(len(value)))):
            out += _places(value[i], (*path, i))
    return out


@given(st.data())
def test_damaged_cases_get_the_same_verdict_from_both(data):
    case = copy.deepcopy(data.draw(st.sampled_from(SMALL)))
    path = data.draw(st.sampled_from(_places(case)[1:] or [()]))
    if not path:
        return
    parent = case
    for p in path[:-1]:
        parent = parent[p]
    how = data.draw(st.sampled_from(["replace", "drop", "add"]))
    if how == "replace":
        parent[path[-1]] = data.draw(st.sampled_from(REPLACEMENTS))
    elif how == "drop":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent["unexpected_key"] = 1
    else:
        parent.append(data.draw(st.sampled_from(REPLACEMENTS)))
    if _target(case) is None:
        with pytest.raises(CaseError):
            cases.check(case)
        return
    kit, reference = _verdicts(case)
    assert kit == reference, (path, how)


def test_a_refused_case_names_its_first_error():
    case = {"case_format": 1, "kind": "roaring32", "cardinality": 3, "ranges": [[1, 3], [5, "x"]]}
    with pytest.raises(CaseError, match=r"schema:roaring32: at ranges/1/1: "):
        cases.check(case)
    with pytest.raises(CaseError, match="unknown case kind"):
        cases.check({"case_format": 1, "kind": "no-such-layout"})
