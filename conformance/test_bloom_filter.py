"""The bloom-filter payload: FastHash vectors, Java's sizing, the payload bytes, no false negatives,
the measured false-positive rate, and the types Java's bloom filter does not take."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import hx

from paimon_conform.core.hashing import fasthash
from paimon_conform.core.types import parse_type, to_internal, to_json
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.file_index import entry as fi

EVIDENCE = ("third-party", "kit")

T = parse_type

VALUES = {
    "TINYINT": st.integers(-128, 127),
    "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    "INT": st.integers(-(2**31), 2**31 - 1),
    "BIGINT": st.integers(-(2**63), 2**63 - 1),
    "FLOAT": st.one_of(st.floats(width=32), st.sampled_from(["NaN", "Infinity", "-Infinity"])),
    "DOUBLE": st.one_of(st.floats(), st.sampled_from(["NaN", "Infinity", "-Infinity"])),
    "DATE": st.dates().map(lambda d: d.isoformat()),
    "TIME": st.integers(0, 86_399_999),
    "TIMESTAMP(3)": st.integers(-(2**40), 2**40).map(lambda ms: to_json(T("TIMESTAMP(3)"), (ms, 0))),
    "TIMESTAMP(9)": st.tuples(st.integers(-(2**40), 2**40), st.integers(0, 999_999)).map(
        lambda v: to_json(T("TIMESTAMP(9)"), v)
    ),
    "STRING": st.text(),
    "VARBINARY(20)": st.binary(max_size=20).map(bytes.hex),
}


@st.composite
def column(draw):
    type_ = draw(st.sampled_from(sorted(VALUES)))
    values = draw(st.lists(st.one_of(st.none(), VALUES[type_]), max_size=60))
    values += draw(st.lists(st.sampled_from(values), max_size=10)) if values else []  # duplicates
    return type_, values


# Java-verified values (../shared/paimon-layouts.md §6.2-§6.4)
@pytest.mark.parametrize(
    ("type_", "value", "hash64"),
    [
        ("INT", 5, -3822126110415902464),
        ("BIGINT", 5, -3822126110415902464),
        ("INT", -1, 6614246905173314819),
        ("TINYINT", -1, 6614246905173314819),
        ("FLOAT", 1.5, -5964487987920989368),
        ("FLOAT", -1.5, 9066114211688710582),
        ("DOUBLE", 1.5, 4457999897849084360),
        ("STRING", "abc", 4952883123889572249),
        ("STRING", "", -1205034819632174695),
        ("TIMESTAMP(3)", "2023-11-14T22:13:20.123", -780439430849039776),
        ("TIMESTAMP(6)", "2023-11-14T22:13:20.123456789", 6804527640801269588),
    ],
)
def test_fast_hash_vectors(type_, value, hash64):
    t = T(type_)
    assert fasthash.fast_hash(t, to_internal(t, value)) == hash64


@pytest.mark.parametrize(
    ("items", "fpp", "num_bits", "k"),
    [
        (1, 0.01, 16, 11),
        (1, 0.05, 8, 6),
        (10, 0.01, 96, 7),
        (10, 0.1, 48, 3),
        (100, 0.05, 624, 4),
        (1000, 0.01, 9592, 7),
        (1_000_000, 0.1, 4792536, 3),
        (1_000_000, 0.05, 6235232, 4),
    ],
)
def test_bloom_sizing(items, fpp, num_bits, k):
    assert bloom.sizing(items, fpp) == (num_bits, k)


def test_bloom_payload_vectors():
    assert bloom.build(T("INT"), [1, 2, 3, 4, 5, None], 10, 0.1) == hx("00000003 89282170c005")
    assert bloom.build(T("STRING"), ["a", "bb", "ccc"], 10, 0.1) == hx("00000003 018100702100")
    assert len(bloom.build(T("INT"), [1])) == 599_071  # default items and fpp


@given(column(), st.integers(1, 500), st.sampled_from([0.01, 0.05, 0.1, 0.3]))
def test_bloom_has_no_false_negatives_and_round_trips(col, items, fpp):
    type_, values = col
    t = T(type_)
    internal = [to_internal(t, v) for v in values]
    payload = bloom.build(t, internal, items, fpp)
    num_bits, k = bloom.sizing(items, fpp)
    assert len(payload) == 4 + num_bits // 8
    assert int.from_bytes(payload[:4], "big") == k
    assert all(bloom.might_contain(payload, t, v) for v in internal)
    assert bloom.might_contain(payload, t, None)
    case = {
        "case_format": 1,
        "kind": "file-index",
        "columns": [
            {
                "name": "c",
                "type": type_,
                "values": values,
                "indexes": [{"index_type": "bloom-filter", "options": {"items": items, "fpp": fpp}}],
            }
        ],
    }
    data = fi.encode(case)
    assert fi.encode(fi.inspect(data, {"c": t})) == data
    assert fi.validate(data) == []


@given(column())
def test_vectorized_hash_equals_scalar(col):
    type_, values = col
    t = T(type_)
    internal = [to_internal(t, v) for v in values if v is not None]
    assert fasthash.fast_hash_many(t, internal).tolist() == [fasthash.fast_hash(t, v) for v in internal]


@pytest.mark.parametrize(("items", "fpp"), [(1000, 0.1), (1000, 0.01), (5000, 0.05), (200, 0.3)])
@pytest.mark.parametrize("type_", ["INT", "STRING"])
def test_measured_false_positive_rate(items, fpp, type_):
    """Inserting `items` distinct values, fresh values hit at about the configured fpp.

    Tolerances (fixed seeds, so no flakiness): the measured rate is within 5 standard deviations
    of the rate of the filter actually built ((set bits / m)^k), the rate of Paimon's sizing
    ((1 - e^(-k n / m))^k) is within 20 % of fpp, and the measured rate within 30 % of fpp.
    """
    rng = np.random.default_rng(items)
    t = T(type_)
    drawn = rng.choice(2**31 - 1, size=items + 20_000, replace=False)
    values = [f"v{x}" for x in drawn.tolist()] if type_ == "STRING" else drawn.tolist()
    inserted, fresh = values[:items], values[items:]
    payload = bloom.build(t, inserted, items, fpp)
    num_bits, k = bloom.sizing(items, fpp)
    bits = np.unpackbits(np.frombuffer(payload[4:], dtype=np.uint8), bitorder="little")
    hashes = fasthash.fast_hash_many(t, fresh)
    hit = bits[bloom.positions(hashes, k, num_bits).reshape(k, -1)].all(axis=0)
    measured = hit.mean()
    this_filter = (bits.mean()) ** k  # the rate of this filter, from the bits it has set
    sigma = math.sqrt(this_filter * (1 - this_filter) / len(fresh))
    assert abs(measured - this_filter) < 5 * sigma, (measured, this_filter)
    expected = (1 - math.exp(-k * items / num_bits)) ** k  # the rate of Paimon's sizing
    assert abs(expected - fpp) < 0.2 * fpp, (expected, fpp)
    assert abs(measured - fpp) < 0.3 * fpp, (measured, fpp)


def test_unsupported_bloom_types_raise_encode_errors():
    from paimon_conform.core.errors import EncodeError

    with pytest.raises(EncodeError):
        bloom.build(T("BOOLEAN"), [True])
    with pytest.raises(EncodeError):
        bloom.build(T("DECIMAL(10, 2)"), [(1, 10, 2)])
    with pytest.raises(EncodeError):
        bloom.sizing(10, 1.0)


@given(st.lists(st.binary(max_size=80) | st.text(max_size=40).map(str.encode), max_size=60))
def test_column_xxh64_equals_the_xxhash_library(values):
    """XXH64 over a column's offsets and data (the tail steps for all values under 32 bytes at once) equals
    xxhash's digest of each value: every tail shape, the 32-byte boundary, empty values."""
    offsets = np.cumsum([0, *map(len, values)]).astype(np.int64)
    data = np.frombuffer(b"".join(values), dtype=np.uint8)
    assert fasthash.xxh64_column(offsets, data).tolist() == [fasthash.xxh64(v) for v in values]
