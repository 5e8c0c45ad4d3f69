"""Paimon's compressible SST blocks (`org.apache.paimon.sst`, `org.apache.paimon.compression`): the
5-byte `BlockTrailer`, its checksum, block (de)compression, and `VarLengthIntUtils` varints.

Used by the bitmap global index (BGIX) through the spec's `block_decompress` process and the codec.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import cramjam
from paimon_layouts import processors
from paimon_layouts.processors import LZ4, LZ4_HEADER, LZO, MAX_INT_BYTES, NAMES, NONE, ZSTD  # noqa: F401 - re-exported
from zlib_ng.zlib_ng import crc32

from paimon_conform.core.errors import CaseError, EncodeError

WRITTEN = {"none": NONE, "zstd": ZSTD, "lz4": LZ4}  # the codecs the encoders write (a case's `compression`)
TRAILER = 5  # compression u1 + CRC u4le
MAX_LONG_BYTES = 10
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


read_var_int = processors.read_var_int


def decompress(compression: int, data: bytes) -> bytes:
    """The block's content as Java's BlockDecompressor gives it; BlockCodecError where Java refuses it."""
    try:
        return processors.decompress(compression, data)
    except processors.ProcessError as err:
        raise BlockCodecError(err.code, str(err)) from None


def zstd_exact(data: bytes, size: int) -> bytes:
    """ZstdBlockDecompressor into a buffer of exactly `size` bytes (processors.zstd_exact); BlockCodecError
    where Java refuses the block."""
    try:
        return processors.zstd_exact(data, size, "BLOCK_DECOMPRESS")
    except processors.ProcessError as err:
        raise BlockCodecError(err.code, str(err)) from None


def zstd_stream(content: bytes, level: int = 1) -> bytes:
    """ZstdBlockCompressor.compress: one frame streamed as zstd-jni's ZstdOutputStream writes it (no content
    size in the frame header, no checksum)."""
    stream = cramjam.zstd.Compressor(level=level)
    stream.compress(content)
    return bytes(stream.finish())


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
