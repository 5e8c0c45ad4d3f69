"""The protocol's message checks (testee/protocol.py) give jsonschema's own verdict and message: its fast pass over
plain arrays (a query reply's row positions, a hash request's types) must never accept what the library rejects,
nor change which error is reported first."""

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


def _library(message: object, definition: str) -> str | None:
    """What the unmodified Draft 2020-12 validator of the library reports first, in problem()'s words."""
    v = jsonschema.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": protocol.schema()["$defs"]})
    error = jsonschema.exceptions.best_match(v.iter_errors(message))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "<root>"
    return f"not a valid {definition} at {where}: {error.message[:300]}"


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
    assert protocol.problem(message, "query_reply") == _library(message, "query_reply")


@given(types=arrays(st.text(max_size=4)), buckets=arrays(st.integers(1, 100)))
def test_hash_requests_get_the_librarys_verdict(types, buckets):
    message = {"op": "hash", "id": 1, "kind": "binary-row", "types": types, "values": [], "buckets": buckets}
    assert protocol.problem(message, "hash_request") == _library(message, "hash_request")


@given(rows=arrays(st.lists(st.integers(), max_size=3)))
def test_read_table_rows_get_the_librarys_verdict(rows):
    message = {"id": 3, "rows": rows}
    assert protocol.problem(message, "read_table_reply") == _library(message, "read_table_reply")


def test_the_fast_pass_is_taken_and_refuses_what_it_cannot_tell():
    """The pass itself: a plain array passes at once; a bool, an integral float or a value out of bounds goes to
    the library (which rejects the first and the third, accepts the second)."""
    items = protocol.schema()["$defs"]["query_reply"]["properties"]["rows"]["items"]
    assert protocol._plainly_valid(items, list(range(10_000)), {})
    for odd in ([0, True], [0, 1.0], [0, 2**32], [-1]):
        assert not protocol._plainly_valid(items, odd, {})
    base = {"id": 1, "result": "rows"}
    assert protocol.problem({**base, "rows": [0, True]}, "query_reply") is not None
    assert protocol.problem({**base, "rows": [0, 1.0]}, "query_reply") is None
    assert "4294967296" in protocol.problem({**base, "rows": [0, 2**32]}, "query_reply")
