"""Bitmap file index V1/V2: Java's writer rules, round trips, answers equal brute force."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing.java import JavaHashMap
from paimon_conform.core.hashing.murmur import binary_string_hash
from paimon_conform.core.types import parse_type, to_internal, to_json
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bitmap_index import entry as layout

EVIDENCE = ("kit",)

T = parse_type

VALUES = {
    "TINYINT": st.integers(-128, 127),
    "SMALLINT": st.integers(-300, 300),
    "INT": st.one_of(st.integers(-50, 50), st.integers(-(2**31), 2**31 - 1)),
    "BIGINT": st.one_of(st.integers(-50, 50), st.integers(-(2**63), 2**63 - 1)),
    "FLOAT": st.one_of(st.sampled_from([0.0, -0.0, 1.5, "NaN", "Infinity", "-Infinity"]), st.floats(width=32)),
    "DOUBLE": st.one_of(st.sampled_from([0.0, -0.0, "NaN", "-Infinity"]), st.floats()),
    "BOOLEAN": st.booleans(),
    "DATE": st.integers(-1000, 30000).map(lambda d: to_json(T("DATE"), d)),
    "TIMESTAMP(3)": st.integers(-(2**41), 2**41).map(lambda ms: to_json(T("TIMESTAMP(3)"), (ms, 0))),
    "TIMESTAMP(6)": st.tuples(st.integers(-(2**41), 2**41), st.integers(0, 999).map(lambda u: u * 1000)).map(
        lambda v: to_json(T("TIMESTAMP(6)"), v)
    ),
    "STRING": st.one_of(st.sampled_from(["", "a", "é", "\U0001f600"]), st.text(max_size=12)),
}


@st.composite
def column(draw):
    type_ = draw(st.sampled_from(sorted(VALUES)))
    pool = draw(st.lists(VALUES[type_], min_size=1, max_size=40))
    t = T(type_)
    pool = [to_json(t, to_internal(t, v)) for v in pool]  # canonical form, as inspect prints it
    rows = draw(st.lists(st.one_of(st.none(), st.sampled_from(pool)), max_size=300))
    return type_, rows


def brute(t, rows, op, literals):
    keys = [None if v is None else bitmap.map_key(t, to_internal(t, v)) for v in rows]
    chosen = literals[:1] if op in ("eq", "not_eq") else literals
    wanted = {None if v is None else bitmap.map_key(t, to_internal(t, v)) for v in chosen}
    if op == "is_null":
        return BitMap(i for i, k in enumerate(keys) if k is None)
    if op == "is_not_null":
        return BitMap(i for i, k in enumerate(keys) if k is not None)
    hit = BitMap(i for i, k in enumerate(keys) if k in wanted)
    return hit if op in ("eq", "in") else BitMap(range(len(rows))) - hit


@given(column(), st.sampled_from([1, 2]), st.sampled_from([16 * 1024, 64, 200]), st.data())
def test_answers_equal_brute_force_and_round_trip(col, version, block, data):
    type_, rows = col
    t = T(type_)
    payload = bitmap.build(t, [to_internal(t, v) for v in rows], version, block)
    assert bitmap.check(payload, t) == []
    index = bitmap.read(payload, t)
    present = [v for v in rows if v is not None]
    literal_pool = st.sampled_from(present) if present else st.none()
    for op in ("eq", "not_eq", "in", "not_in", "is_null", "is_not_null"):
        literals = [data.draw(literal_pool) for _ in range(2)] + [None] * (op in ("in", "not_in"))
        internal = [None if v is None else to_internal(t, v) for v in literals]
        assert bitmap.evaluate(index, t, op, internal) == brute(t, rows, op, literals), op
    case = layout.inspect(payload, t)
    assert case["row_values"] == rows
    assert layout.encode(case) == payload


@given(column())
def test_single_rows_are_stored_as_negative_offsets(col):
    type_, rows = col
    t = T(type_)
    payload = bitmap.build(t, [to_internal(t, v) for v in rows], 1)
    index = bitmap.read(payload, t)
    for key, offset, _ in bitmap.entries(index.obj, index.kind):
        assert (offset < 0) == (len(index.rows[key]) == 1)
    if len(index.nulls) == 1:
        assert index.obj.ofs_null_bitmap == -1 - index.nulls[0]


@given(st.lists(st.binary(max_size=12), max_size=200))
def test_hashmap_emulation_matches_python_semantics(keys):
    """Every key comes out once, and bins are visited in ascending index order."""
    m = JavaHashMap()
    for k in keys:
        m.compute_if_absent(k, binary_string_hash(k), list)
    out = [k for k, _ in m.items()]
    assert sorted(out) == sorted(set(keys))
    cap = len(m.table or [None])
    bins = [((h := binary_string_hash(k) & 0xFFFFFFFF) ^ (h >> 16)) & (cap - 1) for k in out]
    assert bins == sorted(bins)


def test_treeified_bins_are_reported_not_guessed():
    m = JavaHashMap()

    def fill() -> None:
        for i in range(200):  # every key hashes to the same bin
            m.compute_if_absent(i, 0, list)

    with pytest.raises(EncodeError):
        fill()
    assert len(m.table) >= JavaHashMap.MIN_TREEIFY_CAPACITY  # small tables resized first, as Java does


def test_unsupported_types():
    for type_ in ("DECIMAL(10, 2)", "VARBINARY(4)"):
        with pytest.raises(EncodeError):
            bitmap.build(T(type_), [None])


@given(column())
def test_replayed_order_equals_per_row_order(col):
    """build() replays distinct keys only; calling computeIfAbsent per row, as Java does, gives the same order."""
    type_, rows = col
    t = T(type_)
    kind = bitmap.key_kind(t)
    per_row = JavaHashMap()
    for v in rows:
        if v is not None:
            key = bitmap.map_key(t, to_internal(t, v))
            per_row.compute_if_absent(key, bitmap.java_hash(kind, key), list)
    payload = bitmap.build(t, [to_internal(t, v) for v in rows], 1)
    index = bitmap.read(payload, t)
    assert [k for k, _, _ in bitmap.entries(index.obj, kind)] == [k for k, _ in per_row.items()]


@given(st.integers(1, 400), st.integers(1, 3000))
def test_replayed_order_with_many_keys(distinct, n):
    """Many distinct INT keys with repeats (resizes at every size)."""
    import random

    rnd = random.Random(distinct * 7919 + n)
    rows = [rnd.randrange(-(2**31), 2**31) if rnd.random() < 0.5 else rnd.randrange(distinct) for _ in range(n)]
    per_row = JavaHashMap()
    try:
        for v in rows:
            per_row.compute_if_absent(v, v, list)
    except EncodeError:  # a bin Java would treeify (rare with random keys): the writer refuses it too
        with pytest.raises(EncodeError, match="tree"):
            bitmap.build(T("INT"), rows, 1)
        return
    index = bitmap.read(bitmap.build(T("INT"), rows, 1), T("INT"))
    assert [k for k, _, _ in bitmap.entries(index.obj, "i4")] == [k for k, _ in per_row.items()]
