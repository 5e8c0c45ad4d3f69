"""The protocol's message checks (testee/protocol.py, compiled by jsonschema-rs) give the verdict of the reference
Draft 2020-12 validator (the pure-Python jsonschema, kept as the reference in the tests only) on plain arrays (a query
reply's row positions, a hash request's types) with odd elements put in, and name where the problem is."""

from __future__ import annotations

import jsonschema
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.testee import protocol

EVIDENCE = ("contract",)

ANY_SCALAR = st.one_of(
    st.integers(-(2**33), 2**33),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(0, 2**32).map(float.__floor__).map(float),  # integral floats: JSON integers to the library
    st.text(max_size=3),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
POSITION = st.integers(0, 2**32 - 1)


def _library(message: object, definition: str) -> set[str] | None:
    """Where the reference validator finds the message invalid (every error's path), or None when it is valid."""
    v = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": protocol.schema()["$defs"]})
    paths = {"/".join(str(p) for p in e.absolute_path) or "<root>" for e in v.iter_errors(message)}
    return paths or None


def _agrees(message: object, definition: str) -> None:
    """problem() is None exactly where the reference finds no error, and otherwise names one of its paths."""
    got, reference = protocol.problem(message, definition), _library(message, definition)
    assert (got is None) == (reference is None), (got, reference)
    if got is not None:
        assert got.startswith(f"not a valid {definition} at ")
        assert got.removeprefix(f"not a valid {definition} at ").split(": ", 1)[0] in reference, (got, reference)


@st.composite
def arrays(draw: st.DrawFn, element: st.SearchStrategy) -> list:
    """Mostly plain arrays (every element valid), some with one element of any JSON type put in."""
    out = draw(st.lists(element, max_size=40))
    if draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), draw(ANY_SCALAR))
    return out


@given(rows=arrays(POSITION), result=st.sampled_from(["rows", "skip", "remain"]), extra=st.booleans())
def test_query_replies_get_the_librarys_verdict(rows, result, extra):
    message = {"id": 7, "result": result, "rows": rows, **({"error": {"message": "x"}} if extra else {})}
    _agrees(message, "query_reply")


@given(types=arrays(st.text(max_size=4)), buckets=arrays(st.integers(1, 100)))
def test_hash_requests_get_the_librarys_verdict(types, buckets):
    message = {"op": "hash", "id": 1, "kind": "binary-row", "types": types, "values": [], "buckets": buckets}
    _agrees(message, "hash_request")


@given(rows=arrays(st.lists(st.integers(), max_size=3)))
def test_read_table_rows_get_the_librarys_verdict(rows):
    message = {"id": 3, "rows": rows}
    _agrees(message, "read_table_reply")


def test_odd_elements_get_the_librarys_verdict():
    """Controls: a bool and a value out of bounds are refused and located, an integral float is a JSON integer."""
    base = {"id": 1, "result": "rows"}
    assert protocol.problem({**base, "rows": list(range(10_000))}, "query_reply") is None
    assert protocol.problem({**base, "rows": [0, True]}, "query_reply") == (
        'not a valid query_reply at rows/1: true is not of type "integer"'
    )
    assert protocol.problem({**base, "rows": [0, 1.0]}, "query_reply") is None
    assert "4294967296" in protocol.problem({**base, "rows": [0, 2**32]}, "query_reply")
    for odd in ([0, True], [0, 2**32], [-1]):
        _agrees({**base, "rows": odd}, "query_reply")
