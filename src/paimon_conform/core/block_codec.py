"""Paimon's compressible SST blocks (`org.apache.paimon.sst`, `org.apache.paimon.compression`): the
5-byte `BlockTrailer`, its checksum, block (de)compression, and `VarLengthIntUtils` varints.

Used by the bitmap global index (BGIX) through the spec's `block_decompress` process and the codec.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import cramjam
from zlib_ng.zlib_ng import crc32

from paimon_conform.core import budget
from paimon_conform.core.errors import CaseError, EncodeError

NONE, ZSTD, LZ4, LZO = 0, 1, 2, 3  # BlockCompressionType.persistentId
NAMES = {NONE: "none", ZSTD: "zstd", LZ4: "lz4", LZO: "lzo"}
WRITTEN = {"none": NONE, "zstd": ZSTD, "lz4": LZ4}  # the codecs the encoders write (a case's `compression`)
TRAILER = 5  # compression u1 + CRC u4le
LZ4_HEADER = 8  # Lz4BlockCompressor: compressed length and original length, both s4le
MAX_INT_BYTES, MAX_LONG_BYTES = 5, 10
MAX_BLOCK = 2**31 - 1 - TRAILER  # readCompressibleBlock: "Bitmap block is too large."


class BlockCodecError(Exception):
    """A block Java's decompressor refuses; `code` is the finding code."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg)
        self.code = code


def checksum(block: bytes, compression: int) -> int:
    """SstFileUtils.crc32c: java.util.zip.CRC32 (not CRC-32C) of the block bytes, then the compression byte."""
    return crc32(bytes([compression & 0xFF]), crc32(block))


def trailer(block: bytes, compression: int) -> bytes:
    """The BlockTrailer Java writes after `block`."""
    return struct.pack("<BI", compression, checksum(block, compression))


def leb128(value: int) -> bytes:
    """Unsigned LEB128 of a non-negative value: 7 bits per byte, low group first, the high bit on all but the last."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def var_int(value: int, num_bytes: int = MAX_INT_BYTES) -> bytes:
    """VarLengthIntUtils.encodeInt / encodeLong (num_bytes 5 / 10): the LEB128 of a non-negative int / long."""
    if not 0 <= value < 1 << (32 if num_bytes == MAX_INT_BYTES else 64) - 1:
        raise EncodeError(f"{value} is not a non-negative {'int' if num_bytes == MAX_INT_BYTES else 'long'}")
    return leb128(value)


def read_var_int(data: bytes, pos: int, num_bytes: int = MAX_INT_BYTES) -> tuple[int, int] | None:
    """VarLengthIntUtils.decodeInt / decodeLong at `pos`: (Java's signed value, next position).

    None when the bytes end inside the value; ValueError when it does not end within num_bytes ("Malformed").
    """
    acc = 0
    for i in range(num_bytes):
        if pos + i >= len(data):
            return None
        b = data[pos + i]
        acc |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            bits = 32 if num_bytes == MAX_INT_BYTES else 64
            acc &= (1 << bits) - 1
            return (acc - (1 << bits) if acc >> (bits - 1) else acc), pos + i + 1
    raise ValueError("Malformed")


def _stated_length(data: bytes) -> tuple[int, int]:
    """The uncompressed length a compressed block starts with (MemorySliceInput.readVarLenInt), and its size."""
    try:
        got = read_var_int(data, 0)
    except ValueError:
        raise BlockCodecError("BLOCK_DECOMPRESS", "the uncompressed length is a malformed varint") from None
    if got is None:
        raise BlockCodecError("BLOCK_DECOMPRESS", "the block ends inside its uncompressed length")
    if got[0] < 0:
        raise BlockCodecError("BLOCK_DECOMPRESS", f"uncompressed length {got[0]} is negative")
    return got


def decompress(compression: int, data: bytes) -> bytes:
    """The block's content as Java's BlockDecompressor gives it; BlockCodecError where Java refuses it."""
    if compression == NONE:
        return data
    if compression not in NAMES:
        raise BlockCodecError("BLOCK_BAD_COMPRESSION", f"compression id {compression} (Unknown persistentId)")
    if compression == LZO:
        raise BlockCodecError(
            "BLOCK_NOT_DECODED", "an LZO block: no LZO decoder is at hand, the content is not checked"
        )
    length, pos = _stated_length(data)
    budget.reserve(length, f"a block stating {length} uncompressed bytes")
    out = bytearray(length)
    try:
        got = cramjam.zstd.decompress_into(data[pos:], out) if compression == ZSTD else _lz4(data[pos:], out)
    except cramjam.DecompressionError as exc:
        raise BlockCodecError("BLOCK_DECOMPRESS", f"{NAMES[compression]} refuses the block: {exc}") from None
    if got != length:
        msg = f"{NAMES[compression]} gives {got} bytes where the block states {length}"
        raise BlockCodecError("BLOCK_DECOMPRESS", msg)
    return bytes(out)


def _lz4(data: bytes, out: bytearray) -> int:
    """Lz4BlockDecompressor: the 8-byte header (compressed, original length) and a raw LZ4 block."""
    if len(data) < LZ4_HEADER:
        raise BlockCodecError("BLOCK_DECOMPRESS", "an LZ4 block shorter than its 8-byte header")
    compressed, original = struct.unpack_from("<ii", data)
    if original < 0 or compressed < 0 or (original == 0) != (compressed == 0):
        raise BlockCodecError("BLOCK_DECOMPRESS", f"LZ4 header lengths {compressed}/{original} (invalid length)")
    if original > len(out) or compressed > len(data) - LZ4_HEADER:
        raise BlockCodecError("BLOCK_DECOMPRESS", f"LZ4 header lengths {compressed}/{original} do not fit the block")
    if original == 0:
        return 0
    # output_len: no size prefix in the input (cramjam's _into variant reads one in some releases), at most `original`
    plain = bytes(cramjam.lz4.decompress_block(data[LZ4_HEADER : LZ4_HEADER + compressed], output_len=original))
    got = len(plain)
    out[:got] = plain
    if got != original:
        raise BlockCodecError("BLOCK_DECOMPRESS", f"LZ4 gives {got} bytes where its header states {original}")
    return got


def zstd_stream(content: bytes, level: int = 1) -> bytes:
    """ZstdBlockCompressor.compress: one frame streamed as zstd-jni's ZstdOutputStream writes it (no content
    size in the frame header, no checksum)."""
    stream = cramjam.zstd.Compressor(level=level)
    stream.compress(content)
    return bytes(stream.finish())


def zstd_exact(data: bytes, size: int) -> bytes:
    """ZstdBlockDecompressor into a buffer of `size` bytes, as the row format reads a block; BlockCodecError
    when the frames do not decompress to exactly `size` bytes (Java fails on more, and reads the zeros it
    left on fewer)."""
    budget.reserve(size, f"a block stating {size} uncompressed bytes")
    out = bytearray(size + 1)  # one byte more, to tell "more than stated" from "exactly"
    try:
        got = cramjam.zstd.decompress_into(data, out)
    except cramjam.DecompressionError as exc:
        if "whole buffer" in str(exc):  # the output passed the buffer
            got = size + 1
        else:
            raise BlockCodecError("BLOCK_DECOMPRESS", f"zstd refuses the block: {exc}") from None
    if got != size:
        says = f"more than {size}" if got > size else str(got)
        raise BlockCodecError("BLOCK_DECOMPRESS", f"zstd gives {says} bytes where the index states {size}")
    return bytes(out[:size])


def compress(compression: int, content: bytes) -> tuple[int, bytes]:
    """BitmapGlobalIndexFormat.encodeBlock: (compression used, stored bytes).

    The compressed form (the varint length, then the codec's bytes) is kept only when it is smaller than
    7/8 of the content; otherwise the block is stored uncompressed with compression NONE.
    """
    if compression == NONE:
        return NONE, content
    if compression == ZSTD:
        body = zstd_stream(content)
    elif compression == LZ4:
        raw = bytes(cramjam.lz4.compress_block(content, store_size=False))
        body = struct.pack("<ii", len(raw), len(content)) + raw
    else:
        raise EncodeError(f"the encoder writes none, zstd or lz4 blocks, not {NAMES.get(compression, compression)}")
    stored = var_int(len(content)) + body
    if len(stored) < len(content) - len(content) // 8:
        return compression, stored
    return NONE, content


def case_compression(compressions: Iterable[int]) -> str | None:
    """A case's `compression` option from the codecs a file's blocks were stored with (None: no block was
    compressed); CaseError when they name two, which no Java writer does."""
    used = {c for c in compressions if c != NONE}
    if len(used) > 1:
        raise CaseError("blocks compressed with different codecs: Java's writer uses one")
    return NAMES[used.pop()] if used else None


def written_compression(name: str) -> int:
    """The codec id of a case's `compression` option; CaseError for one the encoders do not write."""
    if name not in WRITTEN:
        raise CaseError(f"compression {name!r}: the encoder writes {', '.join(WRITTEN)}")
    return WRITTEN[name]
