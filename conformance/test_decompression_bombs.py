"""Decompression bombs, one per format the kit decompresses itself (core/codecs.py): a few bytes that claim
gigabytes (snappy's stated length, an SST block's, a Parquet page header's) or a few KiB that expand to a GiB
(zstd of zeros) are refused within the memory budget, exit 2 with the reason or a finding, and never become
an allocation of what they claim.

The CLI runs are capped (RLIMIT_AS): building the claimed bytes would end them with a MemoryError. The
in-process checks measure the peak of Python's allocations while the bomb is refused (tracemalloc), which
building the output would raise to the claimed size. ORC's chunks have theirs in test_orc_timestamps.py
(test_compressed_chunks_never_exceed_the_block_size).
"""

from __future__ import annotations

import bz2
import functools
import io
import json
import lzma
import shutil
import struct
import tracemalloc
import zlib
from collections.abc import Callable

import cramjam
import fastavro
import pytest
from hypothesis import given
from hypothesis import strategies as st
from paimon_layouts import processors
from support.avro_bytes import zigzag
from support.capped import cli_capped
from support.environment import GOLDEN

from paimon_conform.core import budget, codecs, structure, varint
from paimon_conform.core.errors import UsageError
from paimon_conform.formats.parquet import int96

EVIDENCE = ("contract",)

assert structure  # imported for its side effect: processors' claimed sizes go through the budget
GIB = 1 << 30
TABLE = GOLDEN / "tables" / "java-0.9.0" / "append-fixed3-avro"
CAP = 1200 << 20  # address space of a capped CLI run (the interpreter with pyarrow takes about 600 MiB)


@functools.cache
def zstd_of_zeros(size: int = GIB) -> bytes:
    """One zstd frame of `size` zero bytes (32 KiB for a GiB), streamed so that the zeros are never held."""
    c = cramjam.zstd.Compressor(level=19)
    chunk = bytes(1 << 20)
    for _ in range(size >> 20):
        c.compress(chunk)
    return bytes(c.finish())


def snappy_claiming(size: int) -> bytes:
    """A raw snappy block stating `size` uncompressed bytes, followed by one literal byte."""
    return varint.write(size) + b"\x00x"


def peak_while(step: Callable[[], object]) -> int:
    """The peak of Python's allocations, in bytes, while `step` runs (whatever it raises)."""
    tracemalloc.start()
    try:
        step()
    except Exception:  # noqa: BLE001, S110 - the step is expected to refuse; the caller asserts how
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


# ----------------------------------------------------------------------------------- the codec module

ZEROS = 32 << 20
COMPRESS = {  # core.codecs name -> a compressor of the same format from another library
    codecs.DEFLATE: lambda d: (lambda c: c.compress(d) + c.flush())(zlib.compressobj(wbits=-15)),
    codecs.DEFLATE_UNTERMINATED: lambda d: (lambda c: c.compress(d) + c.flush())(zlib.compressobj(wbits=-15)),
    codecs.GZIP: lambda d: (lambda c: c.compress(d) + c.flush())(zlib.compressobj(wbits=31)),
    codecs.SNAPPY: lambda d: bytes(cramjam.snappy.compress_raw(d)),
    codecs.LZ4_BLOCK: lambda d: bytes(cramjam.lz4.compress_block(d, store_size=False)),
    codecs.ZSTD: lambda d: bytes(cramjam.zstd.compress(d)),
    codecs.BZIP2: bz2.compress,
    codecs.XZ: lzma.compress,
    codecs.BROTLI: lambda d: bytes(cramjam.brotli.compress(d)),
}


@functools.cache
def compressed_zeros(codec: str) -> bytes:
    return COMPRESS[codec](bytes(ZEROS))


def test_every_codec_is_covered():
    assert set(COMPRESS) == set(codecs._DECODERS)


@pytest.mark.parametrize("codec", sorted(COMPRESS))
def test_a_codec_never_builds_past_its_limit(codec):
    """32 MiB of zeros under a 1 MiB limit: refused, and the peak allocation stays near the limit."""
    data = compressed_zeros(codec)
    with pytest.raises(codecs.CodecError) as err:
        codecs.decompress(codec, data, 1 << 20)
    if codec != codecs.LZ4_BLOCK:  # (cramjam's LZ4 tells no more than that the output does not fit)
        assert err.value.needed is not None
        assert err.value.needed > 1 << 20
    state = 9 << 20 if codec == codecs.XZ else 0  # the dictionary the xz stream states (preset 6: 8 MiB)
    assert peak_while(lambda: codecs.decompress(codec, data, 1 << 20)) < (4 << 20) + state
    assert codecs.decompress(codec, data, ZEROS) == bytes(ZEROS)  # the same bytes within their size
    assert codecs.decompress(codec, data, ZEROS, exact=True) == bytes(ZEROS)
    with pytest.raises(codecs.CodecError, match="where"):
        codecs.decompress(codec, data, ZEROS + 1, exact=True)


@pytest.mark.parametrize("codec", sorted(COMPRESS))
@given(plain=st.binary(max_size=300), flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=3))
def test_damaged_streams_give_bytes_within_the_limit_or_a_codec_error(codec, plain, flips):
    """Whatever the bytes: the output within the limit, or CodecError; never another exception."""
    data = bytearray(COMPRESS[codec](plain))
    for at, xor in flips:
        if data:
            data[at % len(data)] ^= xor
    limit = len(plain) + 8
    try:
        out = codecs.decompress(codec, bytes(data), limit)
    except codecs.CodecError:
        return
    assert len(out) <= limit
    if not flips:
        assert out == plain


def test_an_xz_dictionary_beyond_the_decoders_limit_is_refused_before_it_is_allocated():
    """An xz stream's header states its dictionary (1.5 GiB at most); the decoder is not given that much."""
    big = lzma.compress(b"x", filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1536 << 20}])
    with pytest.raises(codecs.CodecError, match="xz refuses"):
        codecs.decompress(codecs.XZ, big, 1 << 20)
    assert peak_while(lambda: codecs.decompress(codecs.XZ, big, 1 << 20)) < 1 << 20
    small = lzma.compress(b"x", preset=9)  # control: the largest preset a writer uses decodes
    assert codecs.decompress(codecs.XZ, small, 1 << 20) == b"x"


def test_zstd_claims_and_expansions_under_a_budget_sized_limit():
    """A limit that is a budget (an Avro block's room), not a declared size: the buffer grows with the output."""
    frame = zstd_of_zeros()
    assert len(frame) < 64 << 10
    assert peak_while(lambda: codecs.decompress(codecs.ZSTD, frame, 64 << 20)) < 300 << 20
    with pytest.raises(codecs.CodecError):
        codecs.decompress(codecs.ZSTD, frame, 64 << 20)
    assert peak_while(lambda: codecs.decompress(codecs.ZSTD, b"\x28\xb5\x2f\xfd" + bytes(20), GIB)) < 1 << 20


# ----------------------------------------------------------------------------------- Avro (metadata files)


def _bomb_table(tmp_path, codec: str, block: bytes) -> str:
    """A copy of a Java-written table whose manifests are each one Avro block `block` (with the manifest's
    own writer schema, in `codec`)."""
    root = shutil.copytree(TABLE, tmp_path / "t")
    for path in (root / "manifest").glob("manifest-*"):
        if path.name.startswith("manifest-list-"):
            continue
        schema = fastavro.reader(io.BytesIO(path.read_bytes())).writer_schema
        buf = io.BytesIO()
        sync = bytes(range(16))
        fastavro.writer(buf, fastavro.parse_schema(json.loads(json.dumps(schema))), [], codec=codec, sync_marker=sync)
        path.write_bytes(buf.getvalue() + zigzag(1) + zigzag(len(block)) + block + sync)
    return str(root)


@pytest.mark.parametrize(
    ("codec", "block", "claims"),
    [
        ("snappy", snappy_claiming((4 << 30) - 1) + bytes(4), "need about 4.0 GiB"),  # 4 GiB stated in 5 bytes (+ CRC)
        ("zstandard", None, ""),  # a GiB of zeros in 32 KiB
    ],
)
def test_an_avro_manifest_bomb_ends_within_the_budget(tmp_path, codec, block, claims):
    table = _bomb_table(tmp_path, codec, block if block is not None else zstd_of_zeros())
    done = cli_capped("validate", "--max-memory", "64M", table, limit=CAP)
    text = done.stdout + done.stderr
    assert done.returncode == 2, text[-2000:]
    assert "memory budget" in text, text[-2000:]
    assert "decompressed block" in text, text[-2000:]
    assert "UNUSABLE manifest-" in text, text[-2000:]  # the file and the field: manifest-<id>: blocks[0]
    assert claims in text
    for crash in ("MemoryError", "Traceback", "internal error"):
        assert crash not in text, text[-2000:]


# ----------------------------------------------------------------------------------- Parquet pages (INT96)


def _i32(delta: int, value: int) -> bytes:
    """A Thrift compact i32 field `delta` ids after the previous one."""
    return bytes([(delta << 4) | 5]) + varint.write(varint.zigzag(value, 32))


def page(uncompressed: int, body: bytes) -> bytes:
    """A data page v1 (one PLAIN value, no levels) whose header states `uncompressed` bytes, then `body`."""
    data_page = _i32(1, 1) + _i32(1, 0) + _i32(1, 3) + _i32(1, 3) + b"\x00"
    head = _i32(1, 0) + _i32(1, uncompressed) + _i32(1, len(body)) + bytes([(2 << 4) | 12]) + data_page + b"\x00"
    return head + body


def test_a_parquet_page_claiming_2_gib_is_refused_by_the_budget():
    chunk = page((1 << 31) - 1, snappy_claiming((1 << 31) - 1))
    with budget.limited(64 << 20), pytest.raises(budget.BudgetExceeded, match="INT96 page"):
        int96._chunk(chunk, 1, False, 1)
    with budget.limited(64 << 20):
        assert peak_while(lambda: int96._chunk(chunk, 1, False, 1)) < 1 << 20


def test_a_parquet_page_expanding_past_its_stated_size_is_refused():
    chunk = page(1 << 20, zstd_of_zeros())  # states 1 MiB, expands to a GiB
    with pytest.raises(UsageError, match="more than 1048576"):
        int96._chunk(chunk, 1, False, 6)
    assert peak_while(lambda: int96._chunk(chunk, 1, False, 6)) < 4 << 20
    exact = page(12, bytes(cramjam.zstd.compress(bytes(12))))  # control: one INT96 zero, read
    assert int96._chunk(exact, 1, False, 6) == [-int96.JULIAN_EPOCH_DAY * int96.NANOS_PER_DAY]


# ----------------------------------------------------------------------------------- SST blocks and row files


def test_an_sst_block_stating_2_gib_is_refused_by_the_budget():
    stated = varint.write((1 << 31) - 1)
    lz4 = stated + struct.pack("<ii", 4, (1 << 31) - 1) + b"\x00\x00\x00\x00"
    for compression, block in ((processors.ZSTD, stated + zstd_of_zeros()), (processors.LZ4, lz4)):
        with budget.limited(64 << 20), pytest.raises(budget.BudgetExceeded):
            codecs.sst_block(compression, block)
        with budget.limited(64 << 20):
            assert peak_while(lambda c=compression, b=block: codecs.sst_block(c, b)) < 1 << 20


def test_an_sst_block_expanding_past_its_stated_length_is_refused():
    with pytest.raises(processors.ProcessError, match="gives more than 1048576 bytes where the block states"):
        codecs.sst_block(processors.ZSTD, varint.write(1 << 20) + zstd_of_zeros())
    assert peak_while(lambda: codecs.sst_block(processors.ZSTD, varint.write(1 << 20) + zstd_of_zeros())) < 4 << 20


def test_a_row_file_block_bomb_is_refused():
    with budget.limited(64 << 20), pytest.raises(budget.BudgetExceeded):
        codecs.zstd_exact(zstd_of_zeros(), (1 << 31) - 1)
    with pytest.raises(processors.ProcessError, match="more than 1048576"):
        codecs.zstd_exact(zstd_of_zeros(), 1 << 20)
    assert peak_while(lambda: codecs.zstd_exact(zstd_of_zeros(), 1 << 20)) < 4 << 20


def test_an_lz4_block_gives_its_own_output_never_padding():
    """cramjam's decompress_block(output_len=N) pads a short block with zeros to N: the codec module and the SST
    routine take the block's actual output, so a block shorter than its header states is refused as Java's
    Lz4BlockDecompressor refuses it, and an ORC chunk is as long as its data."""
    content = bytes(range(100))
    raw = bytes(cramjam.lz4.compress_block(content, store_size=False))
    assert codecs.decompress(codecs.LZ4_BLOCK, raw, 256) == content
    short = varint.write(200) + struct.pack("<ii", len(raw), 200) + raw
    with pytest.raises(processors.ProcessError, match="LZ4 gives 100 bytes where its header states 200"):
        codecs.sst_block(processors.LZ4, short)
    exact = varint.write(100) + struct.pack("<ii", len(raw), 100) + raw  # control: the same block, stated right
    assert codecs.sst_block(processors.LZ4, exact) == content
