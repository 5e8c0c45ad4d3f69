"""Paimon's compressible SST blocks (`org.apache.paimon.sst`, `org.apache.paimon.compression`): the
5-byte `BlockTrailer`, its checksum, block (de)compression, and `VarLengthIntUtils` varints.

Used by the bitmap global index (BGIX) and the BTree global index; a block is decompressed by the spec's
`block_decompress` process (core.codecs.sst_block).
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

import cramjam
from paimon_layouts.processors import LZ4, LZ4_HEADER, LZO, MAX_INT_BYTES, NAMES, NONE, ZSTD  # noqa: F401 - re-exported
from zlib_ng.zlib_ng import crc32

from paimon_conform.core import varint
from paimon_conform.core.errors import CaseError, EncodeError

WRITTEN = {"none": NONE, "zstd": ZSTD, "lz4": LZ4}  # the codecs the encoders write (a case's `compression`)
TRAILER = 5  # compression u1 + CRC u4le
MAX_LONG_BYTES = 10
MAX_BLOCK = 2**31 - 1 - TRAILER  # readCompressibleBlock: "Bitmap block is too large."


def checksum(block: bytes, compression: int) -> int:
    """SstFileUtils.crc32c: java.util.zip.CRC32 (not CRC-32C) of the block bytes, then the compression byte."""
    return crc32(bytes([compression & 0xFF]), crc32(block))


def trailer(block: bytes, compression: int) -> bytes:
    """The BlockTrailer Java writes after `block`."""
    return struct.pack("<BI", compression, checksum(block, compression))


def var_int(value: int, num_bytes: int = MAX_INT_BYTES) -> bytes:
    """VarLengthIntUtils.encodeInt / encodeLong (num_bytes 5 / 10): the LEB128 of a non-negative int / long."""
    if not 0 <= value < 1 << (32 if num_bytes == MAX_INT_BYTES else 64) - 1:
        raise EncodeError(f"{value} is not a non-negative {'int' if num_bytes == MAX_INT_BYTES else 'long'}")
    return varint.write(value)


def read_var_int(data: bytes, pos: int, num_bytes: int = MAX_INT_BYTES) -> tuple[int, int]:
    """VarLengthIntUtils.decodeInt / decodeLong (num_bytes 5 / 10) at `pos`: (Java's signed value, next position);
    varint.VarintError when the bytes end inside it or it does not end within num_bytes ("Malformed")."""
    return varint.read(data, pos, max_bytes=num_bytes, bits=varint.INT if num_bytes == MAX_INT_BYTES else varint.LONG)


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
