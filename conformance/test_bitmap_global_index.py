"""The bitmap global index (BGIX, Paimon 2.0): the encoder, the spec's parser, CRoaring and a model of Java's
lookups agree; changed bytes never pass unnoticed where Java checks them; the compressed blocks and block
trailers are byte for byte what Paimon's own block codecs write (run through the 0.9.0 jar)."""

from __future__ import annotations

import json
import math
import struct

import numpy as np
import paimon_java
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap64

from paimon_conform.core import block_codec, structure, varint
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.layouts.bitmap_global_index import codec
from paimon_conform.layouts.bitmap_global_index import entry as bgix

EVIDENCE = ("third-party", "kit")

TYPES = {
    "INT": st.integers(-(2**31), 2**31 - 1),
    "BIGINT": st.integers(-(2**63), 2**63 - 1),
    "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    "STRING": st.text(max_size=6),
    "DOUBLE": st.floats(allow_nan=True, allow_infinity=True),
    "BOOLEAN": st.booleans(),
    "DECIMAL(25, 3)": st.integers(-(10**25) + 1, 10**25 - 1).map(lambda n: (n, 25, 3)),
    "TIMESTAMP(9)": st.tuples(
        st.integers(-62_135_596_800_000, 253_402_300_799_999), st.integers(0, 999_999)
    ),  # years 1..9999
}


@st.composite
def columns(draw):
    """A column type, its values row by row (with nulls; few distinct ones, so values repeat), block size, codec."""
    type_text = draw(st.sampled_from(sorted(TYPES)))
    pool = draw(st.lists(TYPES[type_text], min_size=1, max_size=6))
    values = draw(st.lists(st.one_of(st.none(), st.sampled_from(pool)), min_size=1, max_size=40))
    size = draw(st.sampled_from([1, 20, 64, codec.DEFAULT_BLOCK_SIZE]))
    compression = draw(st.sampled_from([block_codec.NONE, block_codec.ZSTD, block_codec.LZ4]))
    return parse_type(type_text), values, size, compression


def same(t: DataType, a, b) -> bool:
    """Equality as Java's comparator sees it (every NaN one value, -0.0 before 0.0)."""
    return codec.key_bytes(t, a) == codec.key_bytes(t, b)


def java_equal(obj, t: DataType, literal) -> BitMap64:
    """BitmapIndexReader.equal: binary search of the index block by first key, then the block's entries in order
    until one compares greater (a model written from the reader, independent of the writer)."""
    sort = codec.order(t)
    key = sort(literal)
    firsts = [sort(codec.read_key(t, e.key)) for e in obj.index.content.entries]
    lo, hi = 0, len(firsts) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if firsts[mid] <= key:
            lo = mid + 1
        else:
            hi = mid - 1
    if hi < 0:
        return BitMap64()
    slot = obj.dictionary_blocks[hi]
    for e, b in zip(slot.block.content.entries, slot.bitmaps, strict=True):
        k = sort(codec.read_key(t, e.key))
        if k == key:
            return BitMap64.deserialize(b._raw__m_bitmap)
        if k > key:
            return BitMap64()
    return BitMap64()


@given(columns())
def test_encoder_spec_parser_croaring_and_java_lookups_agree(column):
    t, values, size, compression = column
    data = codec.encode(t, values, size, compression)
    assert bgix.validate(data, t) == []
    index = codec.read(data)
    obj = index.obj
    # every row of every value is found by Java's lookup, and by nothing else
    for v in {codec.key_bytes(t, v): v for v in values if v is not None}.values():
        rows = [i for i, x in enumerate(values) if x is not None and same(t, x, v)]
        assert list(java_equal(obj, t, v)) == rows
    assert list(index.null_rows) == [i for i, x in enumerate(values) if x is None]
    assert list(index.non_null_rows) == [i for i, x in enumerate(values) if x is not None]
    # CRoaring reads each bitmap block as the spec's parser does
    assert [BitMap64.deserialize(b._raw__m_bitmap) for s in obj.dictionary_blocks for b in s.bitmaps] == (index.bitmaps)
    case = json.loads(json.dumps(bgix.inspect(data, t)))
    assert bgix.encode(case) == data


def test_keys_sort_by_the_column_type_not_by_their_bytes():
    t = parse_type("INT")
    data = codec.encode(t, [256, 1, -1])  # little-endian bytes: 256 = 00 01 00 00 sorts first bytewise
    assert [codec.read_key(t, k) for k in codec.read(data).keys] == [-1, 1, 256]
    t = parse_type("DOUBLE")
    keys = codec.read(codec.encode(t, [0.0, math.nan, -0.0, -math.inf])).keys
    assert [struct.unpack("<d", k)[0] for k in keys][:3] == [-math.inf, -0.0, 0.0]
    assert keys[3] == struct.pack("<Q", 0x7FF8000000000000)  # Double.doubleToLongBits: one NaN, last


def test_dictionary_blocks_split_where_the_writer_splits_them():
    """A block takes entries while its estimated size stays within the block size (estimatedSizeAfter)."""
    t = parse_type("STRING")
    values = [f"k{i:03d}" for i in range(50)]
    for size in (1, 9, 10, 30, 200):
        index = codec.read(codec.encode(t, values, size))
        per_entry = 1 + 4 + 1 + 1  # key length, key, bitmap offset (< 128 only at first), bitmap length
        assert sum(index.block_counts) == 50
        assert all(n >= 1 for n in index.block_counts)
        if size < 1 + per_entry * 2 + 1:
            assert index.block_counts == [1] * 50
        low, high = codec.block_size_range(index)
        assert low <= size
        assert high is None or size <= high


@given(st.lists(st.integers(0, 255), min_size=1, max_size=12), st.sampled_from([5, 10]))
def test_the_common_varint_spec_reads_what_java_reads(raw, width):
    data = bytes(raw)
    try:
        got = block_codec.read_var_int(data, 0, width)
    except varint.VarintError as exc:
        refused = exc.kind
    else:
        refused = None
    if refused is not None:
        with pytest.raises(LayoutError) as err:
            _parse_varint(data, width)
        assert err.value.code == {"too_long": "VARINT_MALFORMED", "ends": "TRUNCATED"}[refused]
        return
    obj = _parse_varint(data, width)
    assert obj.value == got[0]
    if got[0] >= 0:  # the writer's bytes for the value read back as it (the reader also takes padded forms)
        written = block_codec.var_int(got[0], width)
        assert block_codec.read_var_int(written, 0, width) == (got[0], len(written))
        assert len(written) <= got[1]


def _parse_varint(data: bytes, width: int):
    """The common spec's parser (and its debug build, which locates faults) for one varint of `width` bytes."""
    from paimon_layouts.debug.var_len_int import VarLenInt as Debug
    from paimon_layouts.var_len_int import VarLenInt

    return structure.parse("var_len_int", data, lambda s: VarLenInt(width, s), lambda s: Debug(width, s))


@given(columns(), st.data())
def test_a_changed_block_or_footer_byte_is_a_must_finding(column, draw):
    """Every stored block is covered by its trailer's CRC and the footer by its own checks: a change anywhere
    there is refused (where it changes what the block holds), and no change raises anything."""
    t, values, size, compression = column
    data = bytearray(codec.encode(t, values, size, compression))
    obj = codec.read(bytes(data)).obj
    regions = [(obj.footer.ofs_index, obj.footer.len_index)]
    regions += [(s.ref.ofs_block.value, s.ref.len_block.value) for s in obj.dictionary_blocks]
    ofs, length = draw.draw(st.sampled_from(regions))
    at = draw.draw(st.integers(ofs, ofs + length - 1)) if length else ofs + length  # the trailer's byte
    data[at] ^= draw.draw(st.integers(1, 255))
    found = bgix.validate(bytes(data), t)
    assert any(f.severity == "must" for f in found)
    assert all(f.code and f.path is not None for f in found)


@given(st.binary(max_size=120), st.data())
def test_arbitrary_bytes_end_in_findings_never_an_exception(noise, draw):
    base = codec.encode(parse_type("INT"), [3, 1, None, 3, 2, None, 1])
    how = draw.draw(st.sampled_from(["noise", "footer-of-noise", "cut"]))
    if how == "noise":
        data = noise
    elif how == "footer-of-noise":
        data = noise + base[-48:]
    else:
        data = base[: draw.draw(st.integers(0, len(base)))]
    found = bgix.validate(data, parse_type("INT"))
    assert (found == [] and data == base) or any(f.severity == "must" for f in found)


def test_index_meta_bytes_round_trip():
    for first, last, nulls in [
        (b"\x01\x00\x00\x00", b"\x09\x00\x00\x00", False),
        (None, None, True),
        (b"", b"z", True),
    ]:
        assert codec.read_index_meta(codec.index_meta(first, last, nulls)) == (first, last, nulls)
    with pytest.raises(ValueError, match="does not fit"):
        codec.read_index_meta(b"\x05\x00\x00\x00ab")


def test_compressed_blocks_and_trailers_are_the_ones_paimon_writes(tmp_path):
    """Paimon 0.9.0's own block codecs (ZstdBlockCompressor at level 1, Lz4BlockCompressor with lz4-java) compress
    each content to the kit's bytes, decompress the kit's bytes back, and write the same BlockTrailer."""
    rng = np.random.default_rng(7)
    contents = [b"abc" * 200, bytes(range(256)) * 8, b"x" * 5000, rng.integers(0, 4, 3000, dtype=np.uint8).tobytes()]
    index = codec.read(codec.encode(parse_type("STRING"), [f"value-{i % 37}" * 3 for i in range(400)], 64))
    contents += [s.block._raw__m_content for s in index.obj.dictionary_blocks[:3]]
    blocks = []
    for name, cid in (("zstd", block_codec.ZSTD), ("lz4", block_codec.LZ4)):
        for c in contents:
            used, stored = block_codec.compress(cid, c)
            blocks.append({"compression": name, "content": c.hex(), "stored": stored.hex(), "used": used})
    request = {
        "blocks": [
            {k: b[k] for k in ("compression", "content", "stored")} | {"trailer": block_codec.NAMES[b["used"]]}
            for b in blocks
        ]
    }
    (tmp_path / "request.json").write_text(json.dumps(request))
    paimon_java.run_java(
        "BlockCodecCheck", str(tmp_path / "request.json"), str(tmp_path / "report.json"), extra=(paimon_java.lz4_jar(),)
    )
    report = json.loads((tmp_path / "report.json").read_text())["blocks"]
    compressed = 0
    for b, r in zip(blocks, report, strict=True):
        stored = bytes.fromhex(b["stored"])
        assert r["java_trailer"] == block_codec.trailer(stored, b["used"]).hex()
        if b["used"] == block_codec.NONE:  # the writer keeps the plain bytes: Java's form saves under an eighth
            java = bytes.fromhex(r["java_stored"])
            assert len(java) >= len(stored) - len(stored) // 8
            continue
        compressed += 1
        assert r["java_stored"] == b["stored"], b["compression"]
        assert r["decoded"] == b["content"], r["error"]
    assert compressed >= 8
