"""Generated testee cases (issue 19): keys, roaring32 bitmaps, hash-index and deletion-vector files drawn from a
fixed seed beside the golden files. They are stable under the seed, cover every key type with nulls and every
container kind, and the kit's answers for them are its own encoder and reader agreeing (checked here) and
Java's (checked case by case by the Java testees in test_testee_reference)."""

from __future__ import annotations

from collections import Counter

import pytest

from paimon_conform.core import cases as case_format
from paimon_conform.core.types import java_equals, parse_type, to_internal
from paimon_conform.layouts.registry import get
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.testee import generated

EVIDENCE = ("kit",)

OPS = ("decode", "encode", "hash")


@pytest.fixture(scope="module")
def drawn() -> list:
    return generated.cases_for(OPS)


def test_the_cases_come_from_the_fixed_seed(drawn):
    again = generated.cases_for(OPS)
    assert [(c.id, c.request, c.expected) for c in again] == [(c.id, c.request, c.expected) for c in drawn]
    other = generated.cases_for(OPS, seed=generated.SEED + 1)
    assert [c.id for c in other] == [c.id for c in drawn]
    moved = sum(a.request != b.request for a, b in zip(other, drawn, strict=True))
    assert moved > 0.9 * len(drawn)  # two empty bitmaps may meet
    counts = Counter(c.kind for c in drawn if c.op != "encode")
    assert counts == {"binary-row": 64, "roaring32": 24, "hash-index": 12, "deletion-vectors": 12}
    assert len({c.id for c in drawn}) == len(drawn)


def test_kinds_and_ops_select_cases(drawn):
    only = generated.cases_for(("encode",), ["hash-index"])
    assert {(c.op, c.kind) for c in only} == {("encode", "hash-index")}
    assert [c.id for c in only] == [c.id for c in drawn if c.op == "encode" and c.kind == "hash-index"]
    assert generated.cases_for(("query", "read-table")) == []


def test_every_key_type_is_hashed_with_and_without_nulls(drawn):
    keys = [c for c in drawn if c.op == "hash"]
    seen = Counter(t for c in keys for t in c.request["types"])
    assert set(seen) == set(generated.KEY_TYPES)
    nulls = {t for c in keys for t, v in zip(c.request["types"], c.request["values"], strict=True) if v is None}
    assert len(nulls) >= 8
    assert any(len(c.request["types"]) == 4 for c in keys)
    layout = get("binary-row")
    for c in keys:  # the expected row reads back, by the kit's parser, as the values (in Java's equality)
        types = [parse_type(t) for t in c.request["types"]]
        fields = layout.inspect(bytes.fromhex(c.expected["row"]), types)["fields"]
        for t, sent, read in zip(types, c.request["values"], fields, strict=True):
            assert java_equals(t, to_internal(t, read["value"]), to_internal(t, sent)), (c.id, t, sent, read)
        sent_case = {"case_format": 1, "kind": "binary-row", "row_kind": "+I"}
        sent_case["fields"] = [
            {"type": t, "value": v} for t, v in zip(c.request["types"], c.request["values"], strict=True)
        ]
        assert layout.encode(sent_case).hex() == c.expected["row"], c.id  # the values sent encode to that row
        assert set(c.expected["buckets"]) == {str(n) for n in generated.BUCKETS}
        assert all(0 <= b < int(n) for n, b in c.expected["buckets"].items())


def test_the_files_hold_every_container_kind_and_round_trip(drawn):
    kinds: Counter = Counter()
    for c in drawn:
        if c.op == "decode" and c.kind == "roaring32":
            values = roaring.from_ranges(c.expected["ranges"], roaring.MAX_U32)
            kinds.update(k.kind for k in roaring.plan_containers(values))
        if c.op == "encode":  # the case the reader gives back encodes to the very bytes it was read from
            assert get(c.kind).encode(c.request["case"]).hex() == c.expected
            data = bytes.fromhex(c.expected)
            assert case_format.content(get(c.kind).inspect(data, None)) == case_format.content(c.request["case"])
    assert set(kinds) == {roaring.ARRAY, roaring.BITMAP, roaring.RUN}
    vectors = [v for c in drawn if c.op == "decode" and c.kind == "deletion-vectors" for v in c.expected["vectors"]]
    assert len(vectors) >= 12
    assert max(v["cardinality"] for v in vectors) > 4096
