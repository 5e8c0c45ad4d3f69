"""The 32-bit portable RoaringBitmap: encoder, generated parser and pyroaring agree; Java's container rule; ranges."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap
from support.strategies import positions32

from paimon_conform.core.errors import EncodeError
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.layouts.roaring32 import entry as r32

EVIDENCE = ("third-party", "kit")


@given(positions32())
def test_roaring32_encoder_parser_pyroaring_agree(values):
    data = roaring.encode_roaring32(values)
    # the generated (spec) parser reads back the same values
    parsed = r32.parse(data)
    assert roaring.structure_values(parsed).tolist() == values
    # CRoaring reads our bytes as the same set
    assert list(BitMap.deserialize(data)) == values
    # and, run-optimized, writes exactly our bytes
    bm = BitMap(values)
    bm.run_optimize()
    assert bm.serialize() == data
    # validation finds nothing in what Java would write
    assert r32.validate(data) == []


@given(positions32())
def test_encoder_fast_path_equals_javas_container_plan(values):
    """encode_roaring32 takes CRoaring's bytes where they are shown to be Java's (is_java_canonical): they
    equal the bytes Java's container rule plans, container by container (plan_containers)."""
    arr = roaring.as_sorted_unique(values, roaring.MAX_U32)
    assert roaring.encode_roaring32(values) == roaring.serialize_containers(roaring.plan_containers(arr))


@given(positions32())
def test_roaring32_case_round_trip(values):
    data = roaring.encode_roaring32(values)
    case = r32.inspect(data)
    assert case["cardinality"] == len(values)
    assert "layout" not in case  # Java's own layout needs no override
    assert r32.encode(case) == data


@given(positions32())
def test_non_canonical_bitmap_reproduced_from_its_case(values):
    # pyroaring without run_optimize writes bitmaps Java would not (array where
    # a run is smaller, or runs from range construction); the case records it.
    data = BitMap(values).serialize()
    case = r32.inspect(data)
    assert r32.encode(case) == data
    findings = r32.validate(data)
    assert all(f.severity == "should" and f.code == "ROARING_NOT_RUN_OPTIMIZED" for f in findings)
    assert bool(findings) == (data != roaring.encode_roaring32(values))


@given(st.integers(1, 65536), st.integers(1, 32768))
def test_java_container_rule(cardinality, runs):
    kind = roaring.java_container_kind(cardinality, runs)
    size = 2 * cardinality if cardinality <= 4096 else 8192
    assert (kind == "run") == (2 + 4 * runs < size)
    if kind != "run":
        assert kind == ("array" if cardinality <= 4096 else "bitmap")


@pytest.mark.parametrize(
    ("values", "kinds"),
    [
        ([0, 1, 2], ["array"]),  # 2 + 4 == 6 is not < 6
        ([0, 1, 2, 3], ["run"]),
        (list(range(0, 8192, 2)), ["array"]),  # 4096 values
        (list(range(0, 8194, 2)), ["bitmap"]),  # 4097 values
        ([v for i in range(2047) for v in (32 * i, 32 * i + 1, 32 * i + 2)], ["run"]),  # 2 + 4*2047 < 8192
        ([v for i in range(2048) for v in (32 * i, 32 * i + 1, 32 * i + 2)], ["bitmap"]),
        ([v for i in range(2047) for v in (32 * i, 32 * i + 1)], ["array"]),  # 4094 values: 8190 is not < 8188
    ],
)
def test_container_kind_edges(values, kinds):
    assert roaring.container_kinds(r32.parse(roaring.encode_roaring32(values))) == kinds


def test_out_of_range_values_are_encode_errors():
    with pytest.raises(EncodeError):
        roaring.encode_roaring32([2**32])
    with pytest.raises(EncodeError):
        roaring.encode_roaring32([-1])
    with pytest.raises(EncodeError):
        roaring.encode_roaring32(np.array([1.5]))
    with pytest.raises(EncodeError):
        roaring.from_ranges([[5, 4]])
    with pytest.raises(EncodeError):
        roaring.from_ranges([[1, 5], [3, 9]])


_bound = st.one_of(st.integers(0, 40), st.integers(2**32 - 20, 2**32 + 2), st.integers(2**64 - 20, 2**64 + 1))
_ranges = st.lists(
    st.one_of(
        st.lists(_bound, min_size=2, max_size=2),
        st.lists(st.integers(-3, 40), min_size=1, max_size=3),  # negatives and wrong lengths
        st.tuples(_bound, _bound).map(list),
        st.lists(st.booleans(), min_size=2, max_size=2),
    ),
    max_size=6,
)


@given(
    st.one_of(_ranges, _ranges.map(lambda r: sorted(r, key=lambda p: p[:1]))), st.sampled_from([2**32 - 1, 2**64 - 1])
)
def test_column_wise_ranges_equal_pair_by_pair(ranges, limit):
    """The column-wise range check and expansion give the scalar reference's count, values and refusals."""
    try:
        total = roaring._check_ranges_scalar(ranges, limit)
    except EncodeError:
        with pytest.raises(EncodeError):
            roaring.check_ranges(ranges, limit)
        with pytest.raises(EncodeError):
            roaring.from_ranges(ranges, limit)
        return
    assert roaring.check_ranges(ranges, limit) == total
    if total > 10_000:  # counted, not listed (the budget refuses listing billions of values)
        return
    want = [v for a, b in ranges for v in range(int(a), int(b) + 1)]
    assert roaring.from_ranges(ranges, limit).tolist() == want


def test_column_wise_ranges_full_u64_span():
    """[0, 2^64 - 1] holds 2^64 values: the uint64 sum wraps to 0 and must still count them."""
    assert roaring.check_ranges([[0, 2**64 - 1]]) == 2**64
    assert roaring.check_ranges([[0, 9], [10, 2**64 - 1]]) == 2**64


@given(st.lists(st.integers(0, 2**40), max_size=200))
def test_ranges_round_trip(values):
    arr = np.unique(np.asarray(values, dtype=np.uint64))
    assert roaring.from_ranges(roaring.to_ranges(arr)).tolist() == arr.tolist()


@pytest.mark.parametrize(
    ("ranges", "container", "flagged"),
    [
        # 7 values in 3 runs: 14 bytes either way. Java keeps the kind the container had; the Spark connector
        # 0.9.0 writes this very vector as a run container (test_spark_connector.py, pk_dv)
        ([[0, 0], [5, 5], [8, 12]], "run", False),
        ([[0, 0], [5, 5], [8, 12]], "array", False),
        ([[0, 2]], "run", False),  # 6 bytes either way
        ([[0, 3], [6, 6], [9, 9]], "run", False),  # 14 bytes as runs, 12 as an array: a run stays up to 2 + 2c
        ([[0, 0], [2, 2], [4, 6]], "run", True),  # 14 bytes as runs, more than 2 + 2 * 5
        ([[0, 0], [2, 2], [4, 4]], "run", True),  # 14 bytes as runs, 6 as an array
        ([[0, 3]], "array", True),  # 8 bytes as an array, 6 as a run
    ],
)
def test_a_tie_between_run_and_array_is_not_a_finding(ranges, container, flagged):
    cardinality = sum(b - a + 1 for a, b in ranges)
    case = {"case_format": 1, "kind": "roaring32", "cardinality": cardinality, "ranges": ranges}
    case["layout"] = {"containers": [container]}
    data = r32.encode(case)
    assert r32.inspect(data).get("layout", {}).get("containers", [container]) == [container]
    codes = [f.code for f in r32.validate(data)]
    assert codes == (["ROARING_NOT_RUN_OPTIMIZED"] if flagged else [])
