"""Deletion-vector index files: encoder, fast loader, spec parser, Java's reader rules."""

from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import MAX_DV32, positions32, positions64

from paimon_conform.core.errors import EncodeError, InvariantError, LayoutError, TruncatedError
from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.roaring32 import codec as roaring

vector = st.one_of(
    st.tuples(st.just("bitmap32"), positions32(max_value=MAX_DV32)),
    st.tuples(st.just("bitmap64"), positions64()),
)


@given(st.lists(vector, max_size=5))
def test_encoder_fast_loader_and_spec_parser_agree(vectors):
    data, ranges = dv.encode_file(vectors)
    loaded = dv.load(data)
    assert [(v.offset, v.length, v.kind) for v in loaded] == [
        (o, n, k) for (k, _), (o, n) in zip(vectors, ranges, strict=True)
    ]
    for (_, values), got in zip(vectors, loaded, strict=True):
        assert np.array_equal(roaring.bitmap_values(got.bitmap), np.asarray(values, dtype=np.uint64))
    case = dv.inspect(data)
    assert [v["ranges"] for v in case["vectors"]] == [
        roaring.to_ranges(np.asarray(v, dtype=np.uint64)) for _, v in vectors
    ]
    assert dv.encode(case) == data
    assert dv.validate(data) == []


@given(st.lists(vector, min_size=1, max_size=4))
def test_manifest_length_conventions(vectors):
    data, ranges = dv.encode_file(vectors)
    for (kind, values), (offset, length) in zip(vectors, ranges, strict=True):
        (len_blob,) = struct.unpack_from(">I", data, offset)
        # 32-bit: the manifest length is the blob (magic + bitmap); 64-bit: the whole frame
        assert length == (len_blob + 8 if kind == "bitmap64" else len_blob)
        got = roaring.bitmap_values(dv.read_vector(data, offset, length))
        assert np.array_equal(got, np.asarray(values, dtype=np.uint64))
        wrong = length - 8 if kind == "bitmap64" else length + 8
        with pytest.raises(InvariantError) as err:
            dv.read_vector(data, offset, wrong)
        assert err.value.code == "DV_LENGTH_CONVENTION"


@given(
    st.dictionaries(
        st.text("abcdef", min_size=1, max_size=6), positions32(max_value=MAX_DV32, max_containers=2), max_size=10
    ),
    st.sampled_from([1, 64, 4096, 2 * 1024 * 1024]),
    st.booleans(),
)
def test_rolling_split_by_target_size(vectors, target, bitmap64):
    files = dv.write_files(vectors, bitmap64=bitmap64, target_size=target)
    assert [name for f in files for name in f.ranges] == list(vectors)
    for n, f in enumerate(files):
        assert f.data[0] == 1
        # every file but the last was closed because it grew past the target
        if n < len(files) - 1:
            assert len(f.data) > target
        # and a file is never closed early: without its last vector it was not past the target
        if f.ranges:
            last_offset = max(o for o, _, _ in f.ranges.values())
            assert last_offset <= target or len(f.ranges) == 1
        for name, (offset, length, card) in f.ranges.items():
            assert len(dv.read_vector(f.data, offset, length)) == card == len(set(vectors[name]))
    if not vectors:
        assert [f.data for f in files] == [b"\x01"]


def test_java_rolling_split_reproduced(golden_root):
    """The Java-written split files come back byte for byte from write_files."""
    parts = sorted((golden_root / "deletion_vectors" / "java-0.9.0").glob("split-by-target-size-*.json"))
    assert len(parts) > 1
    mapping, expected = {}, []
    for side in parts:
        case = json.loads(side.read_text())
        for v in case["vectors"]:
            mapping[v["data_file"]] = roaring.from_ranges(v["ranges"])
        expected.append(side.with_suffix(".bin").read_bytes())
    files = dv.write_files(mapping, target_size=8192)
    assert [f.data for f in files] == expected


def test_crc_is_checked_on_the_fast_path_and_can_be_skipped():
    data, _ = dv.encode_file([("bitmap32", [1, 2, 3])])
    bad = bytearray(data)
    bad[-1] ^= 0xFF
    with pytest.raises(InvariantError) as err:
        dv.load(bytes(bad))
    assert (err.value.code, err.value.path, err.value.offset) == ("DV_CRC_MISMATCH", "vectors[0].crc", len(data) - 4)
    assert list(dv.load(bytes(bad), verify_crc=False)[0].bitmap) == [1, 2, 3]


def test_blob_crc_covers_magic_and_bitmap():
    data, _ = dv.encode_file([("bitmap64", [7])])
    (len_blob,) = struct.unpack_from(">I", data, 1)
    blob = data[5 : 5 + len_blob]
    assert blob[:4] == bytes.fromhex("d1d33964")
    assert struct.unpack_from(">I", data, 5 + len_blob)[0] == zlib.crc32(blob)


def test_empty_vectors_and_empty_file():
    _, ranges = dv.encode_file([("bitmap32", []), ("bitmap64", [])])
    assert ranges == [(1, 12), (21, 20)]  # 32-bit: 4 + 8; 64-bit: 4 + 8 + 8
    assert dv.load(b"\x01") == []
    with pytest.raises(TruncatedError):
        dv.load(b"")


def test_position_limits():
    with pytest.raises(EncodeError):
        dv.encode_blob("bitmap32", [2**31])
    with pytest.raises(EncodeError):
        dv.encode_blob("bitmap64", [dv.MAX_POSITION64 + 1])


def test_offset_outside_the_file_is_a_layout_error():
    data, _ = dv.encode_file([("bitmap32", [1])])
    with pytest.raises(LayoutError):
        dv.read_vector(data, len(data) + 10, 12)
