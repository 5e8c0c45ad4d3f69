"""Layout `btree_global_index` (PBTI, Paimon 1.4.1): the writer, the spec's parser and Java's lookup agree.

The data blocks and index block are checked against Paimon 0.9.0's own SST writer (its lookup store's
SortLookupStoreWriter, which 1.4.1 moved to org.apache.paimon.sst as SstFileWriter), the null bitmap against
CRoaring, and lookups against a model of SstFileReader.lookup; no Java 1.4.1 jar is at hand for the footer.
"""

from __future__ import annotations

import json
import struct
from bisect import bisect_left
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyroaring import BitMap64

from paimon_conform.core import block_codec
from paimon_conform.core.types import parse_type, to_internal
from paimon_conform.layouts.btree_global_index import codec, entry
from paimon_conform.layouts.registry import detect
from paimon_conform.layouts.sorted_index import key_bytes, order, read_key

EVIDENCE = ("java", "kit")

TYPES = ["INT", "BIGINT", "STRING", "DOUBLE", "DECIMAL(30, 2)", "TIMESTAMP(9)", "BOOLEAN", "SMALLINT"]
CODECS = [block_codec.NONE, block_codec.ZSTD, block_codec.LZ4]


def _values(draw, type_text: str, n: int) -> list:
    t = parse_type(type_text)
    pool = {
        "INT": st.integers(-50, 50),
        "BIGINT": st.integers(-(2**63), 2**63 - 1),
        "STRING": st.text(max_size=6),
        "DOUBLE": st.floats(allow_nan=True),
        "DECIMAL(30, 2)": st.decimals(min_value=-(10**27), max_value=10**27, places=2, allow_nan=False),
        "TIMESTAMP(9)": st.datetimes().map(lambda d: d.isoformat(timespec="microseconds")),
        "BOOLEAN": st.booleans(),
        "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    }[type_text]
    raw = draw(st.lists(st.one_of(st.none(), pool), min_size=n, max_size=n))
    return [to_internal(t, str(v) if type_text.startswith("DECIMAL") and v is not None else v) for v in raw]


def _lookup(index: codec.Index, t, value) -> list[int]:
    """SstFileReader.lookup: the index block's first entry whose last key is >= the value, then that data
    block's first entry whose key is >= it, taken only when equal (keys compared with the column's order)."""
    sort = order(t)
    target = sort(value)
    obj = index.obj
    lasts = [sort(read_key(t, e.key)) for e in obj.index.content.entries_region.entries]
    i = bisect_left(lasts, target)
    if i == len(lasts):
        return []
    entries = obj.data_blocks[i].block.content.entries_region.entries
    keys = [sort(read_key(t, e.key)) for e in entries]
    j = bisect_left(keys, target)
    if j == len(keys) or keys[j] != target:
        return []
    return [r.value for r in entries[j].value.row_ids]


@st.composite
def columns(draw):
    type_text = draw(st.sampled_from(TYPES))
    n = draw(st.integers(1, 120))
    return (
        type_text,
        _values(draw, type_text, n),
        draw(st.sampled_from([16, 64, 300, 65536])),
        draw(st.sampled_from(CODECS)),
    )


# each example writes an SST file and looks every key up through the spec parser and the kit's reader; 120 keep
# the test under 20 s of the CI budget (the golden files and Java's reads cover the named cases)
@settings(max_examples=120)
@given(columns())
def test_writer_parser_and_lookup_agree(column):
    type_text, values, block_size, compression = column
    t = parse_type(type_text)
    data = codec.encode(t, values, block_size, compression)
    assert detect(data) is entry.LAYOUT
    index = codec.read(data)
    assert codec.check(index, t) == []
    expected: dict[bytes, list[int]] = {}
    for row, v in enumerate(values):
        if v is not None:
            expected.setdefault(key_bytes(t, v), []).append(row)
    assert dict(zip(index.keys, index.rows, strict=True)) == expected
    sort = order(t)
    assert all(sort(read_key(t, a)) < sort(read_key(t, b)) for a, b in pairwise(index.keys))
    assert index.null_rows == BitMap64(r for r, v in enumerate(values) if v is None)
    for raw, rows in expected.items():
        assert _lookup(index, t, read_key(t, raw)) == rows
    case = entry.inspect(data, t)
    assert entry.encode(case) == data  # the case holds everything the writer needs


def test_blocks_split_and_align_as_the_writer_does():
    """BlockWriter: a block is aligned when every entry has one length, and flushes once memory() passes the size."""
    t = parse_type("INT")
    index = codec.read(codec.encode(t, list(range(100)), 100))
    blocks = [s.block.content for s in index.obj.data_blocks]
    assert all(b.is_aligned for b in blocks)  # 4-byte keys, one row id below 128: 1 + 4 + 1 + 2 bytes each
    assert [len(b.entries_region.entries) for b in blocks[:-1]] == [12] * (len(blocks) - 1)  # 12 * 8 + 5 > 100
    mixed = codec.read(codec.encode(t, [1, 1, 2], 65536)).obj.data_blocks[0].block.content
    assert not mixed.is_aligned
    assert list(mixed.positions) == [0, 9]  # key 1 with rows 0 and 1 takes 1 + 4 + 1 + 3 bytes
    empty = codec.encode(t, [None, None], 65536)
    obj = codec.read(empty).obj
    assert obj.data_blocks == []
    assert not obj.index.content.is_aligned
    assert obj.index.content.stated_int == 0


def test_footer_is_little_endian():
    data = codec.encode(parse_type("INT"), [3, None, 1])
    fields = struct.unpack("<qiqqiqiiI", data[-52:])
    assert data[-4:] == b"ITBP"  # 0x50425449 written as a little-endian int
    assert fields[:3] == (0, 0, 0)  # no bloom filter
    assert fields[7:] == (1, codec.MAGIC)
    assert fields[5] > 0  # the null-rows bitmap's offset
    assert fields[6] > 0


@pytest.mark.java
def test_blocks_are_the_ones_paimons_sst_writer_writes(tmp_path, paimon_java):
    """Paimon 0.9.0's SortLookupStoreWriter, given the kit's entries, block size and codec, writes the kit's data
    blocks and index block byte for byte (its own footer after them)."""
    rng = np.random.default_rng(11)
    cases = []
    for type_text, values in (
        ("INT", [int(v) for v in rng.integers(-500, 500, 3000)]),
        ("STRING", [f"k{int(v)}" * int(1 + v % 4) for v in rng.integers(0, 400, 2000)]),
        ("BIGINT", list(range(5000))),
        ("STRING", ["same-length-" + str(v % 10) for v in range(900)]),
    ):
        t = parse_type(type_text)
        for size, comp in ((65536, "none"), (512, "none"), (256, "zstd"), (4096, "lz4")):
            internal = [to_internal(t, v) for v in values]
            data = codec.encode(t, internal, size, codec_id := {"none": 0, "zstd": 1, "lz4": 2}[comp])
            index = codec.read(data)
            entries = [
                [e.key.hex(), e._raw_value.hex()]
                for s in index.obj.data_blocks
                for e in s.block.content.entries_region.entries
            ]
            cases.append((data, codec_id, {"compression": comp, "block_size": size, "entries": entries}))
    (tmp_path / "request.json").write_text(json.dumps({"files": [c[2] for c in cases]}))
    paimon_java.run_java(
        "SstBlockCheck", str(tmp_path / "request.json"), str(tmp_path / "report.json"), extra=(paimon_java.lz4_jar(),)
    )
    report = json.loads((tmp_path / "report.json").read_text())["files"]
    compressed = 0
    for (data, codec_id, _), r in zip(cases, report, strict=True):
        java = bytes.fromhex(r["bytes"])
        assert java[: len(java) - r["footer_length"]] == data[: len(data) - codec.FOOTER]
        compressed += codec_id in codec.read(data).compressions
    assert compressed >= 4


def test_bad_bytes_never_raise():
    """Every single-byte change of a valid file is reported (a must where it breaks what Java reads), never raised."""
    t = parse_type("STRING")
    data = codec.encode(t, ["b", None, "a", "b", "c" * 30, None], 32)
    for i in range(len(data)):
        for b in (0x00, 0xFF, data[i] ^ 0x01):
            if b == data[i]:
                continue
            bad = data[:i] + bytes([b]) + data[i + 1 :]
            found = entry.validate(bad, t)
            assert all(f.severity in ("must", "should", "warning") for f in found)


@given(st.binary(max_size=400), st.booleans())
def test_arbitrary_bytes_never_raise(data, with_magic):
    """Bytes without the footer magic are a must (too short or bad magic); with it, whatever they break is
    reported, never raised."""
    if with_magic:
        data += b"\x00" * 44 + struct.pack("<iI", 1, codec.MAGIC)
    found = entry.validate(data, parse_type("INT"))
    assert all(f.severity in ("must", "should", "warning") for f in found)
    if not with_magic:
        assert {f.code for f in found if f.severity == "must"} & {"BTREE_TOO_SHORT", "BTREE_BAD_MAGIC"}


def test_a_changed_byte_in_a_crc_covered_region_is_a_must():
    t = parse_type("INT")
    data = codec.encode(t, [5, 1, None, 5, 3])
    obj = codec.read(data).obj
    regions = [(s.handle.ofs_block.value, s.handle.len_block.value + 5) for s in obj.data_blocks]
    regions.append((obj.footer.ofs_index, obj.footer.len_index + 5))
    regions.append((obj.footer.ofs_null_rows, obj.footer.len_null_rows + 4))
    for start, length in regions:
        for i in range(start, start + length):
            bad = bytearray(data)
            bad[i] ^= 0x10
            assert any(f.severity == "must" for f in entry.validate(bytes(bad), t)), i
