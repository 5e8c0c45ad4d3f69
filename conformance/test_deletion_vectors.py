"""Deletion-vector index files: encoder, fast loader, spec parser, Java's reader rules."""

from __future__ import annotations

import json
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.strategies import MAX_DV32, positions32, positions64

from paimon_conform.core.errors import EncodeError, InvariantError, LayoutError, TruncatedError
from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.roaring32 import codec as roaring

EVIDENCE = ("java", "kit")

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


# ---------------------------------------------------------------- the fast checker against the spec parser


def _reframed(data: bytes, vectors: list[tuple[int, int]], change) -> bytes:
    """`data` with one vector's blob changed by `change(bytearray)` and its length word and CRC rewritten, so the
    damage reaches the bitmap instead of stopping at the framing."""
    out, pos = bytearray(data[:1]), 1
    for i, (offset, _) in enumerate(vectors):
        (n,) = struct.unpack_from(">I", data, offset)
        blob = bytearray(data[offset + 4 : offset + 4 + n])
        if i == 0:
            change(blob)
        out += dv.frame(bytes(blob))
        pos = offset + 8 + n
    return bytes(out + data[pos:])


def _outcome(describe, data: bytes):
    try:
        return describe(data)
    except LayoutError as err:
        return (err.code, err.path, err.offset, str(err))


def _same_verdict(data: bytes) -> None:
    """validate and inspect answer as their spec-parser references do (findings, case, or the error)."""
    assert dv.validate(data) == dv.validate_by_spec(data)
    assert _outcome(dv.inspect, data) == _outcome(dv.inspect_by_spec, data)
    if dv.is_clean(data):
        assert dv.validate_by_spec(data) == []


# each example runs the spec parser on three files (~0.1 s each): 100 examples, beside the named cases below
# and every golden and must-reject file, keep the CI run under its time target
@settings(max_examples=100)
@given(st.lists(st.tuples(st.just("bitmap32"), positions32(max_value=MAX_DV32)), min_size=1, max_size=3), st.data())
def test_fast_checker_equals_the_spec_parser(vectors, draw):
    """Valid files (the fast checker must pass them: that is its speed), files whose first vector's containers
    were forced to other kinds (not run-optimized), and files with one byte of a bitmap changed under a fixed
    CRC: the same findings as the spec parser's path, and `is_clean` only where that path finds nothing."""
    data, ranges = dv.encode_file(vectors)
    assert dv.is_clean(data)
    _same_verdict(data)
    values = np.array(vectors[0][1], dtype=np.uint64)
    if values.size:
        plan = roaring.plan_containers(roaring.as_sorted_unique(values, roaring.MAX_U32), None)
        sized = ["array" if c.lows.size <= roaring.ARRAY_MAX else "bitmap" for c in plan]  # what the size allows
        kinds = [draw.draw(st.sampled_from([kind, "run"])) for kind in sized]
        forced = dv.MAGIC32_BYTES + roaring.encode_roaring32(values, kinds, draw.draw(st.none() | st.booleans()))
        _same_verdict(_reframed(data, ranges, lambda blob: blob.__setitem__(slice(None), forced)))
    blob_len = struct.unpack_from(">I", data, ranges[0][0])[0]
    if blob_len > 4:
        at = draw.draw(st.integers(4, blob_len - 1))
        flip = draw.draw(st.integers(1, 255))
        _same_verdict(_reframed(data, ranges, lambda blob: blob.__setitem__(at, blob[at] ^ flip)))


def test_fast_checker_on_files_not_written_here(golden_root):
    """Java-written and must-reject DV files: the same verdicts; every clean Java file passes the fast checker."""
    files = sorted(golden_root.glob("deletion_vectors/*/*.bin"))
    assert len(files) >= 20
    for f in files:
        data = f.read_bytes()
        _same_verdict(data)
        if f.parent.name.startswith("java-") and all(v.kind == "bitmap32" for v in dv.load(data)):
            assert dv.is_clean(data) == (dv.validate_by_spec(data) == []), f.name  # 64-bit ones go to the spec


@pytest.mark.parametrize(
    ("values", "kinds"),
    [(list(range(0, 8192, 2)), ["run"]), ([0, 1, 2, 3, 10, 11, 12, 13], ["array"])],
    ids=["run-of-4096-singles", "array-of-two-runs"],
)
def test_fast_checker_sends_containers_java_would_not_write_to_the_spec(values, kinds):
    """Containers larger than Java writes their values: not clean, and the spec path's should-finding is what
    validate reports."""
    forced = bytes([dv.VERSION]) + dv.frame(dv.MAGIC32_BYTES + roaring.encode_roaring32(values, kinds))
    assert not dv.is_clean(forced)
    assert [f.code for f in dv.validate(forced)] == ["ROARING_NOT_RUN_OPTIMIZED"]
    assert dv.validate(forced) == dv.validate_by_spec(forced)


def test_a_run_on_the_array_tie_goes_to_the_spec_and_passes():
    """[0, 1, 2] as a run: 6 bytes, as an array too. A fresh Java bitmap keeps the array, a run container read
    from an earlier vector stays a run (Paimon's Spark connector writes such vectors): not the bytes the fast
    checker expects, so the spec path judges it, and finds nothing."""
    forced = bytes([dv.VERSION]) + dv.frame(dv.MAGIC32_BYTES + roaring.encode_roaring32([0, 1, 2], ["run"]))
    assert not dv.is_clean(forced)
    assert dv.validate(forced) == dv.validate_by_spec(forced) == []
