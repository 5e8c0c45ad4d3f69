"""Range-bitmap index: Java-exact writer, decoding, and every query against a brute-force scan.

The brute-force model orders logical values with its own comparator written
from Java's rules (signed numbers, Float/Double.compare with NaN above all
and -0.0 below 0.0, false < true, unsigned UTF-8 bytes), not with the kit's.
"""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap
from support.oracle import brute_force

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.java_releases import judge
from paimon_conform.core.types import parse_type, to_internal, to_json
from paimon_conform.layouts.file_index import entry as fi
from paimon_conform.layouts.range_bitmap import codec as rb
from paimon_conform.layouts.range_bitmap import entry as layout
from paimon_conform.layouts.range_bitmap import query as rq

EVIDENCE = ("kit",)

T = parse_type
F32 = st.floats(width=32, allow_nan=False)
F64 = st.floats(allow_nan=False)
SPECIAL = st.sampled_from(["NaN", "Infinity", "-Infinity", 0.0, -0.0])
VALUES = {
    "TINYINT": st.integers(-128, 127),
    "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    "INT": st.integers(-(2**31), 2**31 - 1) | st.integers(-5, 5),
    "BIGINT": st.integers(-(2**63), 2**63 - 1) | st.integers(-5, 5),
    "DATE": st.integers(-30000, 30000).map(lambda d: to_json(T("DATE"), d)),
    "TIME": st.integers(0, 86_399_999).map(lambda ms: to_json(T("TIME"), ms)),
    "TIMESTAMP(3)": st.integers(-(2**41), 2**41).map(lambda ms: to_json(T("TIMESTAMP(3)"), (ms, 0))),
    "TIMESTAMP(6)": st.integers(-(2**50), 2**50).map(
        lambda us: to_json(T("TIMESTAMP(6)"), (us // 1000, (us % 1000) * 1000))
    ),
    "TIMESTAMP_LTZ(3)": st.integers(-(2**41), 2**41).map(lambda ms: to_json(T("TIMESTAMP_LTZ(3)"), (ms, 0))),
    "DECIMAL(18, 4)": st.integers(-(10**17), 10**17).map(lambda u: to_json(T("DECIMAL(18, 4)"), (u, 18, 4))),
    "FLOAT": F32 | SPECIAL,
    "DOUBLE": F64 | SPECIAL,
    "BOOLEAN": st.booleans(),
    "STRING": st.text(max_size=6) | st.sampled_from(["", "a", "ä", "z", "\U0001f600"]),
    "VARCHAR(20)": st.text(alphabet="ab\u00e9", max_size=4),
}


def java_order(t, v):
    """Java's comparator as a sort key, on internal values (independent of the kit's)."""
    if t.root in ("FLOAT", "DOUBLE"):
        if math.isnan(v):
            return (1, 0.0, 0)
        return (0, v, 0 if math.copysign(1.0, v) < 0 else 1)
    if t.root == "DECIMAL":
        return v[0]
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return v
    if t.is_string:
        return v.encode("utf-8")
    return v


def column(max_size: int = 60):
    """(type, logical values with nulls and duplicates)."""
    return st.sampled_from(sorted(VALUES)).flatmap(
        lambda ty: st.tuples(
            st.just(ty),
            st.lists(st.one_of(st.none(), VALUES[ty]), max_size=12).flatmap(
                lambda pool: st.lists(st.sampled_from(pool) if pool else st.none(), max_size=max_size)
            ),
            st.lists(VALUES[ty], max_size=3),
        )
    )


CHUNKS = st.sampled_from([None, "0b", "8b", "20 b", "1kb", "16KB"])


@given(column(), CHUNKS)
def test_round_trip_and_layout_facts(col, chunk):
    type_, rows, _ = col
    t = T(type_)
    internal = [to_internal(t, v) for v in rows]
    payload = rb.build(t, internal, chunk)
    assert rb.check(payload, t) == []
    index = rb.read(payload, t)
    distinct = sorted({java_order(t, v): v for v in internal if v is not None}.items())
    assert len(index.keys) == len(distinct)
    # the dictionary holds the distinct values in Java's order; each row's code is its value's rank
    got = [java_order(t, rb.from_key(t, k)) for k in index.keys]
    assert got == [k for k, _ in distinct]
    rank = {k: i for i, (k, _) in enumerate(distinct)}
    assert index.row_codes().tolist() == [-1 if v is None else rank[java_order(t, v)] for v in internal]
    header = index.obj.codes.header
    expected_slices = 64 if not distinct else max((len(distinct) - 1).bit_length(), 1)
    assert header.num_slices == expected_slices
    assert index.obj.codes.len_header == 10 + 8 * expected_slices
    case = layout.inspect(payload, t)
    assert case["row_values"] == [to_json(t, v) for v in internal]
    assert layout.encode(case) == payload
    container = fi.encode(
        {
            "case_format": 1,
            "kind": "file-index",
            "columns": [
                {
                    "name": "c",
                    "type": type_,
                    "values": rows,
                    "indexes": [{"index_type": "range-bitmap", "options": {"chunk-size": chunk} if chunk else {}}],
                }
            ],
        }
    )
    found = fi.validate(container, {"c": t})
    assert [f.code for f in found] == ["FILE_INDEX_NEEDS_NEWER_JAVA"]  # range-bitmap: Java 1.3 and later only
    assert "1.2" in found[0].java_releases
    assert "1.3" not in found[0].java_releases
    assert judge(found, "1.3") == []
    entry = fi.inspect(container, {"c": t})["columns"][0]["indexes"][0]["payload"]
    assert entry["row_values"] == case["row_values"]


@given(column(), st.sampled_from(sorted(rq.OPERATORS)), st.data())
def test_queries_equal_a_scan(col, op, data):
    type_, rows, extra = col
    t = T(type_)
    internal = [to_internal(t, v) for v in rows]
    index = rb.read(rb.build(t, internal), t)
    pool = [v for v in internal if v is not None] + [to_internal(t, v) for v in extra]
    if not pool and op not in ("is_null", "is_not_null"):
        return
    n = {"in": 3, "not_in": 3, "between": 2}.get(op, 1)
    lits = [data.draw(st.sampled_from(pool)) for _ in range(n)] if pool else []
    got = rq.evaluate(index, op, [rb.to_key(t, v) for v in lits])
    if op == "is_null" and not index.keys:
        assert got == BitMap(range(len(rows)))  # Java: every row of a key-less index
    else:
        assert got == brute_force(internal, op, lits, lambda x: java_order(t, x)), (op, lits)


def top_model(t, values, k, largest, nulls, strict, within=None):
    """Brute-force top-k: values beyond the k-th, its ties (strict: highest row ids kept), nulls placed."""
    rows_ = [i for i in range(len(values)) if within is None or i in within]
    present = [(java_order(t, values[i]), i) for i in rows_ if values[i] is not None]
    null_rows = [i for i in rows_ if values[i] is None]

    def best(m):
        if m <= 0:
            return []
        if m >= len(present):
            return [i for _, i in present]
        ordered = sorted((o for o, _ in present), reverse=largest)
        kth = ordered[m - 1]
        better = [i for o, i in present if (o > kth if largest else o < kth)]
        ties = sorted(i for o, i in present if o == kth)
        return better + (ties[len(ties) - (m - len(better)) :] if strict else ties)

    if nulls == rq.NULLS_LAST:
        rows = best(k)
        if len(rows) < k:
            rows += null_rows[: k - len(rows)] if strict else null_rows
        return BitMap(rows)
    if len(null_rows) >= k:
        return BitMap(null_rows[:k] if strict else null_rows)
    return BitMap(null_rows + best(k - len(null_rows)))


@given(
    column(),
    st.integers(0, 12),
    st.booleans(),
    st.sampled_from([rq.NULLS_FIRST, rq.NULLS_LAST]),
    st.booleans(),
)
def test_top_and_bottom_k_equal_a_sort(col, k, largest, nulls, strict):
    type_, rows, _ = col
    t = T(type_)
    internal = [to_internal(t, v) for v in rows]
    index = rb.read(rb.build(t, internal), t)
    pick = rq.top_k if largest else rq.bottom_k
    got = pick(index, k, nulls, None, strict)
    if not index.keys:
        assert got == BitMap(range(len(rows)))  # Java: a key-less index answers with every row
    else:
        assert got == top_model(t, internal, k, largest, nulls, strict)
        if strict:
            assert len(got) == min(k, len(rows))


@given(column(), st.integers(1, 6), st.data())
def test_top_k_within_a_found_set(col, k, data):
    type_, rows, _ = col
    t = T(type_)
    internal = [to_internal(t, v) for v in rows]
    index = rb.read(rb.build(t, internal), t)
    found = BitMap(data.draw(st.sets(st.integers(0, max(len(rows) - 1, 0)), max_size=len(rows))))
    got = rq.top_k(index, k, rq.NULLS_LAST, found, True)
    if index.keys:
        assert got == (top_model(t, internal, k, True, rq.NULLS_LAST, True, found) if found else BitMap())


def test_notes_example_and_facts():
    t = T("INT")
    payload = rb.build(t, [5, None, 3, 5, 9, 3])
    assert payload.hex().startswith("000000150100000006000000030000000300000009")
    index = rb.read(payload, t)
    assert index.keys == [3, 5, 9]
    assert index.row_codes().tolist() == [1, -1, 0, 1, 2, 0]
    assert rq.gt(index, 4) == BitMap([0, 3, 4])
    assert rq.lte(index, 5) == BitMap([0, 2, 3, 5])
    empty = rb.read(rb.build(t, [None, None]), t)
    assert empty.obj.codes.len_header == 522
    assert len(empty.slices) == 64
    one = rb.read(rb.build(T("SMALLINT"), [4, 4]), T("SMALLINT"))
    assert len(one.slices) == 1
    assert len(rb.read(rb.build(T("TINYINT"), [1, 2, 3]), T("TINYINT")).obj.dictionary.chunks.chunks) == 3
    # default 16kb for INT: 4096 keys after each chunk's first
    big = rb.read(rb.build(t, list(range(10_000))), t)
    assert [c.num_extra_keys for c in big.obj.dictionary.chunks.chunks] == [4096, 4096, 1805]


def test_float_keys_are_ieee_bits():
    t = T("FLOAT")
    index = rb.read(rb.build(t, [to_internal(t, v) for v in [1.5, "NaN", -0.0, 0.0]]), t)
    assert [struct.pack(">i", k).hex() for k in index.keys] == ["80000000", "00000000", "3fc00000", "7fc00000"]


def test_unsupported_types_and_options():
    with pytest.raises(EncodeError):
        rb.build(T("BINARY(3)"), [b"a"])
    with pytest.raises(EncodeError):
        rb.build(T("DECIMAL(20, 2)"), [(1, 20, 2)])
    with pytest.raises(EncodeError):
        rb.build(T("TIMESTAMP(9)"), [(1, 0)])
    with pytest.raises(EncodeError):
        rb.build(T("INT"), [1], "16 kibibits")
    assert rb.chunk_size_bytes(T("INT"), " 2 KiBiBytes ") == 2048
    assert rb.chunk_size_bytes(T("INT")) == 16384
    assert rb.chunk_size_bytes(T("BOOLEAN")) == 0
