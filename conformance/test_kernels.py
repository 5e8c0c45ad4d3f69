"""The compiled kernels (core/hashing/kernels.py) against references written apart from them: mmh3 over the BinaryRow
bytes the scalar writer builds, the xxhash library, the scalar Python wang64, the numpy bloom positions
(`bloom.positions`, Java's loop spelled out), and a dict for first-occurrence codes. Lengths reach past
XXH64's 32-byte stripes and BinaryRow's 7-byte inline limit; nulls, empty values and empty columns included."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.hashing import fasthash, kernel_calls, kernels
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing as bk
from paimon_conform.layouts.binary_row import codec as br
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom

EVIDENCE = ("third-party", "kit")


def _column(values: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    arr = pa.array(values, type=pa.large_binary())
    offsets = np.frombuffer(arr.buffers()[1], dtype="<i8", count=len(arr) + 1)
    data = arr.buffers()[2]
    return offsets, np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)


@given(st.lists(st.binary(max_size=140), max_size=30))
def test_xxh64_equals_the_xxhash_library(values):
    offsets, data = _column(values)
    assert kernels.xxh64_values(offsets, data).tolist() == [xxhash.xxh64_intdigest(v, seed=0) for v in values]


def test_xxh64_every_length_to_four_stripes():
    """Each length 0..130 (the stripe loop's and every tail step's boundaries) over one random buffer."""
    raw = np.random.default_rng(7).integers(0, 256, 130, dtype=np.uint8).tobytes()
    values = [raw[:n] for n in range(131)]
    offsets, data = _column(values)
    assert kernels.xxh64_values(offsets, data).tolist() == [xxhash.xxh64_intdigest(v, seed=0) for v in values]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=50))
def test_wang64_equals_the_scalar_hash(values):
    got = kernels.wang64_values(np.array(values, dtype=np.int64).view(np.uint64)).view(np.int64)
    assert got.tolist() == [fasthash.wang64(v) for v in values]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=60), st.integers(0, 12), st.integers(1, 5000))
def test_bloom_bits_equal_javas_positions(hashes, k, num_bits):
    h = np.array(hashes, dtype=np.int64)
    want = np.zeros(num_bits, dtype=bool)
    want[bloom.positions(h, k, num_bits)] = True
    got = kernels.bloom_bits(h.view(np.uint64), k, num_bits)
    assert got.tobytes() == np.packbits(want, bitorder="little").tobytes()


@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3), max_size=80))
def test_first_codes_rank_in_first_occurrence_order(values):
    codes, distinct = kernels.first_codes(np.array(values, dtype=np.int64))
    first: dict[int, int] = {}
    for v in values:
        first.setdefault(v, len(first))
    assert distinct.tolist() == list(first)
    assert codes.tolist() == [first[v] for v in values]


KEYS = st.lists(
    st.tuples(st.none() | st.integers(-(2**31), 2**31 - 1), st.none() | st.binary(max_size=70)), min_size=1, max_size=30
)


@given(KEYS, st.sampled_from(["VARBINARY(100)", "STRING"]), st.booleans())
def test_one_var_murmur_equals_the_row_bytes_hash(rows, var_type, var_first):
    """Keys (INT, one STRING / BINARY field, in either order) hashed from the columns equal mmh3 over the
    BinaryRow the scalar writer builds: inline values (<= 7 bytes), values after the fixed part, nulls."""
    if var_type == "STRING":
        rows = [(i, None if b is None else b.decode("latin-1")) for i, b in rows]
    types = [parse_type("INT"), parse_type(var_type)]
    columns = [pa.array([r[0] for r in rows], pa.int32()), pa.array([r[1] for r in rows])]
    if var_first:
        types, columns, rows = types[::-1], columns[::-1], [r[::-1] for r in rows]
    want = [bk.hash_code(br.write(types, list(r))) for r in rows]
    assert bk.hash_columns(types, columns).tolist() == want


ARROW_INTS = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64()}


@given(
    st.sampled_from(sorted(ARROW_INTS)), st.lists(st.none() | st.integers(-128, 127) | st.integers(0, 4), max_size=60)
)
def test_index_builds_from_arrow_columns_equal_builds_from_lists(type_name, values):
    """The writer's Arrow-column path of the bloom and bitmap builds gives the bytes of the internal-value path."""
    t = parse_type(type_name)
    col = pa.array(values, ARROW_INTS[type_name])
    assert bloom.build(t, col, 100) == bloom.build(t, values, 100)
    for version in (1, 2):
        assert bitmap.build(t, col, version) == bitmap.build(t, values, version)


@given(st.lists(st.none() | st.text(max_size=40), max_size=40), st.booleans())
def test_bloom_from_string_columns_equals_lists(values, binary):
    t = parse_type("VARBINARY(200)" if binary else "STRING")
    listed = [None if v is None else v.encode() for v in values] if binary else values
    col = pa.array(listed, pa.binary() if binary else pa.string())
    assert bloom.build(t, col, 50) == bloom.build(t, listed, 50)


# The small-input paths (core/hashing/kernel_calls.py and bloom.bit_set: numpy / Python below COMPILED_FROM values, so
# that a process checking only small files never loads numba) against the kernels, on the same inputs; then the
# dispatch.


@given(st.lists(st.binary(max_size=140), max_size=30), st.integers(0, 3))
def test_small_xxh64_equals_the_kernel(values, cut):
    offsets, data = _column(values)
    offsets = offsets[min(cut, len(values)) :]  # a slice of a column: offsets into the whole data buffer
    assert kernel_calls.xxh64_values(offsets, data).tolist() == kernels.xxh64_values(offsets, data).tolist()


@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.sampled_from([0, -1, 2**63 - 1, -(2**63)]), max_size=60))
def test_small_wang64_equals_the_kernel(values):
    v = np.array(values, dtype=np.int64).view(np.uint64)
    assert kernel_calls.wang64_values(v).tolist() == kernels.wang64_values(v).tolist()
    assert kernel_calls.wang64_numpy(v).tolist() == [fasthash.wang64(x) & (2**64 - 1) for x in values]


@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=60), st.integers(0, 12), st.integers(1, 5000))
def test_small_bloom_bits_equal_the_kernel(hashes, k, num_bits):
    h = np.array(hashes, dtype=np.int64)
    small = bloom.bit_set(h, k, num_bits)
    assert small.dtype == np.uint8
    assert small.tobytes() == kernels.bloom_bits(h.view(np.uint64), k, num_bits).tobytes()


@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3), max_size=80))
def test_small_first_codes_equal_the_kernel(values):
    arr = np.array(values, dtype=np.int64)
    codes, distinct = kernel_calls.first_codes(arr)
    want_codes, want_distinct = kernels.first_codes(arr)
    assert (codes.dtype, distinct.dtype) == (want_codes.dtype, want_distinct.dtype)
    assert codes.tolist() == want_codes.tolist()
    assert distinct.tolist() == want_distinct.tolist()


def test_the_dispatch_takes_the_kernel_from_compiled_from_values(monkeypatch):
    """Below COMPILED_FROM the small path runs, from it the kernel: each call is seen on the side it takes."""
    seen: list[str] = []
    for name in ("xxh64_values", "wang64_values", "bloom_bits", "first_codes"):
        real = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *a, _real=real, _n=name: seen.append(_n) or _real(*a))
    limit = kernel_calls.COMPILED_FROM
    for n, compiled in ((limit - 1, False), (limit, True)):
        seen.clear()
        ints = np.arange(n, dtype=np.uint64)
        offsets, data = _column([b"x"] * n)
        kernel_calls.xxh64_values(offsets, data)
        kernel_calls.wang64_values(ints)
        bloom.bit_set(ints.view(np.int64), 3, 1024)
        kernel_calls.first_codes(ints.view(np.int64))
        assert seen == (["xxh64_values", "wang64_values", "bloom_bits", "first_codes"] if compiled else [])
