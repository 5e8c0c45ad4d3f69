"""index_keys.java_longs (a column's Java longs, column-wise) against the scalar forms written value by value
(fasthash.integer_key, bitmap_index map_key, bsi to_long), and every file-index build from an Arrow column
against the build from the column's internal values: bloom filter, bitmap V1 / V2, range-bitmap and BSI, for
every type each takes, in the Arrow forms the kit's readers and writer give (the engine's time64[us] TIME and
timestamp[us] of every precision, Avro's float64 FLOAT, ORC / Parquet units), nulls, NaN, -0.0 and the
overflow Java throws on included."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing import fasthash
from paimon_conform.core.index_keys import ROOTS, java_longs, present_longs
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.formats.paimon_columns import internal_values
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.bsi import codec as bsi
from paimon_conform.layouts.range_bitmap import codec as range_bitmap

EVIDENCE = ("third-party", "kit")

SMALL = st.integers(-3, 3)  # both halves of a BSI, its zero and -1
LONG = st.integers(-(2**63), 2**63 - 1) | SMALL
MILLIS = st.integers(-(2**50), 2**50) | st.sampled_from([-(2**63 // 1000) - 1, (2**63 - 1) // 1000 + 1, 0, -1])
FLOATS = st.floats(width=32) | st.sampled_from([-0.0, 0.0, math.nan, -math.nan, math.inf, -math.inf])
DOUBLES = st.floats() | st.sampled_from([-0.0, 0.0, math.nan, -math.nan, math.inf])
# internal values per type, edges included (timestamp millis whose microseconds overflow a long; DECIMAL(38)
# values beyond a long)
VALUES = {
    "BOOLEAN": st.booleans(),
    "TINYINT": st.integers(-128, 127) | SMALL,
    "SMALLINT": st.integers(-(2**15), 2**15 - 1) | SMALL,
    "INT": st.integers(-(2**31), 2**31 - 1) | SMALL,
    "BIGINT": LONG,
    "FLOAT": FLOATS,
    "DOUBLE": DOUBLES,
    "DATE": st.integers(-(2**31), 2**31 - 1),
    "TIME(0)": st.integers(0, 86_399).map(lambda s: s * 1000),
    "TIME(3)": st.integers(0, 86_399_999),
    "DECIMAL(5, 2)": (st.integers(-99_999, 99_999) | SMALL).map(lambda u: (u, 5, 2)),
    "DECIMAL(18, 4)": st.integers(-(10**18) + 1, 10**18 - 1).map(lambda u: (u, 18, 4)),
    "DECIMAL(38, 10)": st.integers(-(10**38) + 1, 10**38 - 1).map(lambda u: (u, 38, 10)),
    "TIMESTAMP(0)": st.integers(-(2**40), 2**40).map(lambda s: (s * 1000, 0)),
    "TIMESTAMP(3)": MILLIS.map(lambda ms: (ms, 0)),
    "TIMESTAMP(6)": st.tuples(MILLIS, st.integers(0, 999).map(lambda u: u * 1000)),
    "TIMESTAMP(9)": st.tuples(MILLIS, st.integers(0, 999_999)),
    "TIMESTAMP(3) WITH LOCAL TIME ZONE": MILLIS.map(lambda ms: (ms, 0)),
    "TIMESTAMP(6) WITH LOCAL TIME ZONE": st.tuples(MILLIS, st.integers(0, 999).map(lambda u: u * 1000)),
    "STRING": st.text(max_size=12),
    "CHAR(5)": st.text(max_size=5),
}
KEYED = [n for n in VALUES if parse_type(n).root in ROOTS]


def reference(t: DataType, v) -> int:
    """The long of one internal value as the scalar forms give it (all that apply agree)."""
    if t.root == "DECIMAL":
        return bsi.to_long(t, v)
    if t.root == "BOOLEAN":
        return int(bitmap.map_key(t, v))
    key = fasthash.integer_key(t, v)
    assert bitmap.map_key(t, v) == key
    if t.root in bsi.SUPPORTED:
        assert bsi.to_long(t, v) == key
    return key


def references(t: DataType, values: list) -> tuple[list[int], list[int]] | None:
    """(rows, longs) value by value; None where a scalar form raises EncodeError (Java throws)."""
    try:
        return [i for i, v in enumerate(values) if v is not None], [reference(t, v) for v in values if v is not None]
    except EncodeError:
        return None


def columns(draw, names: list[str]) -> tuple[DataType, list]:
    name = draw(st.sampled_from(names))
    return parse_type(name), draw(st.lists(st.none() | VALUES[name] | st.just(None), max_size=40))


@st.composite
def keyed_columns(draw) -> tuple[DataType, list]:
    return columns(draw, KEYED)


@given(keyed_columns())
def test_java_longs_of_internal_values_equal_the_scalar_forms(column):
    t, values = column
    want = references(t, values)
    if want is None:
        with pytest.raises(EncodeError):
            java_longs(t, values)
        return
    rows, longs = java_longs(t, values)
    assert (rows.tolist(), longs.tolist()) == want


def arrow_forms(t: DataType, values: list) -> list[pa.Array]:
    """The column as Arrow in each form a reader or the writer gives it (those that hold its values)."""
    root = t.root
    if root == "BOOLEAN":
        return [pa.array(values, pa.bool_())]
    if root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        width = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[root]
        return [pa.array(values, getattr(pa, f"int{w}")()) for w in (8, 16, 32, 64) if w >= width]
    if root == "DATE":
        return [pa.array(values, pa.date32()), pa.array(values, pa.int64())]
    if root == "TIME":
        return [
            pa.array(values, pa.time32("ms")),
            pa.array([None if v is None else v * 1000 for v in values], pa.time64("us")),
            pa.array([None if v is None else v * 10**6 for v in values], pa.time64("ns")),
        ]
    if root in ("FLOAT", "DOUBLE"):
        out = [pa.array(values, pa.float64())]
        return [*out, pa.array(values, pa.float32())] if root == "FLOAT" else out
    if root == "DECIMAL":
        unscaled = pa.array([None if v is None else v[0] for v in values], pa.decimal128(38, 0))
        return [unscaled.view(pa.decimal128(38, t.scale)), unscaled.view(pa.decimal128(t.precision, t.scale))]
    tz = "UTC" if root == "TIMESTAMP_LTZ" else None
    out = []
    for unit, nanos in (("s", 10**9), ("ms", 10**6), ("us", 1000), ("ns", 1)):
        raw = [None if v is None else (v[0] * 10**6 + v[1]) for v in values]
        if all(r is None or (r % nanos == 0 and -(2**63) <= r // nanos < 2**63) for r in raw):
            out.append(pa.array([None if r is None else r // nanos for r in raw], pa.timestamp(unit, tz)))
    return out


@given(keyed_columns())
def test_java_longs_of_arrow_columns_equal_their_internal_values(column):
    """Every Arrow form gives the longs of the internal values its reader reads from it."""
    t, values = column
    for arr in arrow_forms(t, values):
        listed = internal_values(pa.chunked_array([arr]), t)
        try:
            want = java_longs(t, listed)
        except EncodeError:
            with pytest.raises(EncodeError):
                java_longs(t, arr)
            continue
        rows, longs = java_longs(t, arr)
        assert (rows.tolist(), longs.tolist()) == (want[0].tolist(), want[1].tolist()), arr.type
        assert present_longs(t, arr).tolist() == present_longs(t, listed).tolist() == longs.tolist()
        assert (rows.tolist(), longs.tolist()) == (java_longs(t, pa.chunked_array([arr]))[0].tolist(), longs.tolist())


BUILDS = {  # index kind -> (the types it takes, build(t, values))
    "bloom-filter": (
        lambda t: t.is_string or t.root in fasthash.BLOOM_INTEGER_ROOTS,
        lambda t, v: bloom.build(t, v, 64),
    ),
    "bitmap-v1": (lambda t: t.root in bitmap.KEY_KINDS, lambda t, v: bitmap.build(t, v, 1)),
    "bitmap-v2": (lambda t: t.root in bitmap.KEY_KINDS, lambda t, v: bitmap.build(t, v, 2, 64)),
    "range-bitmap": (lambda t: _takes(range_bitmap.key_kind, t), lambda t, v: range_bitmap.build(t, v)),
    "bsi": (lambda t: t.root in bsi.SUPPORTED, lambda t, v: bsi.build(t, v)),
}


def _takes(key_kind, t: DataType) -> bool:
    try:
        key_kind(t)
    except EncodeError:
        return False
    return True


@st.composite
def any_columns(draw) -> tuple[DataType, list]:
    return columns(draw, list(VALUES))


def _outcome(build, t: DataType, values) -> bytes | str:
    try:
        return build(t, values)
    except EncodeError:
        return "EncodeError"


@pytest.mark.parametrize("kind", sorted(BUILDS))
@given(column=any_columns())
def test_builds_from_arrow_columns_equal_builds_from_internal_values(kind, column):
    """The payload built from each Arrow form of a column equals the payload built from its internal values
    (or both refuse, as Java throws)."""
    takes, build = BUILDS[kind]
    t, values = column
    if not takes(t):
        return
    for arr, listed in _forms(t, values)[1:]:
        assert _outcome(build, t, arr) == _outcome(build, t, listed), arr.type


def test_a_float_beyond_javas_range_is_refused():
    with pytest.raises(EncodeError, match="float range"):
        java_longs(parse_type("FLOAT"), [1e300])
    assert java_longs(parse_type("FLOAT"), [float(np.float32(3.4e38))])[1].tolist() == [
        fasthash.float_bits(float(np.float32(3.4e38)))
    ]


# ---------------------------------------------------------------- the column-wise steps against value-by-value ones


def reference_groups(t: DataType, values: list) -> tuple[list, list[list[int]], list[int], int]:
    """bitmap_index group_rows spelled value by value: keys by map_key in first-occurrence order."""
    rows = [i for i, v in enumerate(values) if v is not None]
    index: dict = {}
    codes = [index.setdefault(bitmap.map_key(t, values[i]), len(index)) for i in rows]
    groups = [[r for r, c in zip(rows, codes, strict=True) if c == k] for k in range(len(index))]
    return list(index), groups, [i for i, v in enumerate(values) if v is None], rows[-1] if rows else -1


def reference_codes(t: DataType, values: list) -> tuple[list, list[int], list[int]]:
    """range_bitmap codes_of spelled value by value: keys by to_key, ranked in sort_key order."""
    kind = range_bitmap.key_kind(t)
    keys = [range_bitmap.to_key(t, v) for v in values]
    rows = [i for i, k in enumerate(keys) if k is not None]
    present = [keys[i] for i in rows]
    distinct = sorted(set(present), key=lambda k: bitmap.sort_key(kind, k))
    rank = {k: i for i, k in enumerate(distinct)}
    return distinct, rows, [rank[k] for k in present]


def reference_bsi(t: DataType, values: list) -> bytes:
    """bsi build spelled value by value: to_long of each value, the positive and the negated negative half."""
    longs = [bsi.to_long(t, v) for v in values]
    if bsi.LONG_MIN in longs:
        raise EncodeError("Long.MIN_VALUE")
    out = b"\x01" + len(values).to_bytes(4, "big", signed=True)  # version 1, the row count
    for sign in (1, -1):
        half = [(i, sign * v) for i, v in enumerate(longs) if v is not None and (v >= 0) == (sign == 1)]
        out += b"\x01" if half else b"\x00"
        if half:
            out += bsi._half(np.array([r for r, _ in half], np.int64), np.array([v for _, v in half], np.int64))
    return out


def _forms(t: DataType, values: list) -> list[tuple[Any, list]]:
    """(the column in one form, the internal values a reader reads from that form): the internal values
    themselves, then each Arrow form."""
    if t.root in ROOTS:
        arrays = arrow_forms(t, values)
    else:
        arrays = [pa.array(values, pa.string()), pa.array(values, pa.large_string())]
    return [(values, values), *((a, internal_values(pa.chunked_array([a]), t)) for a in arrays)]


def _groups(t: DataType, values) -> str:
    keys, groups, nulls, last = bitmap.group_rows(t, values)
    return repr((keys, [g.tolist() for g in groups], nulls.tolist(), last))


def _codes(t: DataType, values) -> str:
    keys, rows, codes = range_bitmap.codes_of(t, values)
    return repr((keys, rows.tolist(), codes.tolist()))


STEPS = {  # a column-wise step, the value-by-value reference it must equal, the types it takes
    "bitmap group_rows": (_groups, lambda t, v: repr(reference_groups(t, v)), lambda t: t.root in bitmap.KEY_KINDS),
    "range-bitmap codes_of": (_codes, lambda t, v: repr(reference_codes(t, v)), BUILDS["range-bitmap"][0]),
    "bsi build": (bsi.build, reference_bsi, BUILDS["bsi"][0]),
}


@pytest.mark.parametrize("step", sorted(STEPS))
@given(column=any_columns())
def test_column_wise_steps_equal_the_value_by_value_references(step, column):
    """Each form of a column gives, column-wise, what the reference gives value by value for the internal
    values read from that form (or both refuse, as Java throws)."""
    ours, reference, takes = STEPS[step]
    t, values = column
    if not takes(t):
        return
    for form, listed in _forms(t, values):
        assert _outcome(ours, t, form) == _outcome(reference, t, listed), getattr(form, "type", "list")


def test_an_arrow_form_not_read_here_is_refused_not_guessed():
    """An Arrow type the readers never give (unsigned ints, decimals at another scale) is refused with an
    EncodeError, never read as something else."""
    with pytest.raises(EncodeError, match="uint32"):
        java_longs(parse_type("INT"), pa.array([1], pa.uint32()))
    with pytest.raises(EncodeError, match="decimal128"):
        java_longs(parse_type("DECIMAL(10, 2)"), pa.array([1], pa.decimal128(10, 3)))
    assert java_longs(parse_type("DECIMAL(10, 2)"), pa.array([1], pa.decimal128(10, 2)))[1].tolist() == [100]
