"""The specs' custom `process:` routines, for the generated Python parsers.

A spec names one as `paimon_layouts.processors.<name>`; the generated code
builds the CamelCase class and calls `decode(data)`. The same routines exist
in every generated language (generated/<language>/), with the same names.
The block codecs (zstd, LZ4) need the `codecs` extra (cramjam); without it a
compressed block is refused with code BLOCK_CODEC_MISSING.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable

from kaitaistruct import KaitaiStructError

NONE, ZSTD, LZ4, LZO = 0, 1, 2, 3  # BlockCompressionType.persistentId
NAMES = {NONE: "none", ZSTD: "zstd", LZ4: "lz4", LZO: "lzo"}
LZ4_HEADER = 8  # Lz4BlockCompressor: compressed length and original length, both s4le
MAX_INT_BYTES = 5
DEFAULT_MAX_DECOMPRESSED = 1 << 30


class ProcessError(KaitaiStructError):
    """A routine refused its input; `code` is the finding code."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg, None)
        self.code = code


def _cap(size: int, what: str) -> None:
    if size > DEFAULT_MAX_DECOMPRESSED:
        raise ProcessError("BLOCK_DECOMPRESS", f"{what}: more than {DEFAULT_MAX_DECOMPRESSED} bytes")


_reserve: Callable[[int, str], None] = _cap


def set_reserve(reserve: Callable[[int, str], None]) -> None:
    """Route every claimed decompressed size through `reserve(size, what)` (which raises to refuse it)."""
    global _reserve
    _reserve = reserve


def decode_java_mutf8(data: bytes) -> str:
    """Java modified UTF-8 (DataInput.readUTF) as a str; ProcessError where readUTF refuses the bytes.

    Lone surrogates (legal in Java strings) become U+FFFD.
    """
    units: list[int] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        if b < 0x80:  # readUTF also accepts a raw 0x00, although writeUTF never writes one
            units.append(b)
            i += 1
        elif b & 0xE0 == 0xC0:
            if i + 1 >= n or data[i + 1] & 0xC0 != 0x80:
                raise ProcessError("MUTF8_INVALID", f"malformed 2-byte sequence at byte {i}")
            units.append(((b & 0x1F) << 6) | (data[i + 1] & 0x3F))
            i += 2
        elif b & 0xF0 == 0xE0:
            if i + 2 >= n or data[i + 1] & 0xC0 != 0x80 or data[i + 2] & 0xC0 != 0x80:
                raise ProcessError("MUTF8_INVALID", f"malformed 3-byte sequence at byte {i}")
            units.append(((b & 0x0F) << 12) | ((data[i + 1] & 0x3F) << 6) | (data[i + 2] & 0x3F))
            i += 3
        else:
            raise ProcessError("MUTF8_INVALID", f"byte 0x{b:02x} at {i} cannot start a modified UTF-8 sequence")
    raw = b"".join(u.to_bytes(2, "big") for u in units)
    return raw.decode("utf-16-be", errors="replace")


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


def _cramjam():
    try:
        import cramjam
    except ImportError:
        raise ProcessError(
            "BLOCK_CODEC_MISSING", "a compressed block needs cramjam (pip install 'paimon-layouts[codecs]')"
        ) from None
    return cramjam


def _stated_length(data: bytes) -> tuple[int, int]:
    """The uncompressed length a compressed block starts with (MemorySliceInput.readVarLenInt), and its size."""
    try:
        got = read_var_int(data, 0)
    except ValueError:
        raise ProcessError("BLOCK_DECOMPRESS", "the uncompressed length is a malformed varint") from None
    if got is None:
        raise ProcessError("BLOCK_DECOMPRESS", "the block ends inside its uncompressed length")
    if got[0] < 0:
        raise ProcessError("BLOCK_DECOMPRESS", f"uncompressed length {got[0]} is negative")
    return got


def decompress(compression: int, data: bytes) -> bytes:
    """An SST block's content as Java's BlockDecompressor gives it; ProcessError where Java refuses it."""
    if compression == NONE:
        return data
    if compression not in NAMES:
        raise ProcessError("BLOCK_BAD_COMPRESSION", f"compression id {compression} (Unknown persistentId)")
    if compression == LZO:
        raise ProcessError("BLOCK_NOT_DECODED", "an LZO block: no LZO decoder is at hand, the content is not checked")
    length, pos = _stated_length(data)
    _reserve(length, f"a block stating {length} uncompressed bytes")
    if compression == ZSTD:
        out = at_most("zstd", data[pos:], length, "BLOCK_DECOMPRESS")
        got = len(out)
    else:
        cramjam = _cramjam()
        out = bytearray(length)
        try:
            got = _lz4(data[pos:], out)
        except cramjam.DecompressionError as exc:
            raise ProcessError("BLOCK_DECOMPRESS", f"lz4 refuses the block: {exc}") from None
    if got != length:
        says = f"more than {length}" if got > length else str(got)
        msg = f"{NAMES[compression]} gives {says} bytes where the block states {length}"
        raise ProcessError("BLOCK_DECOMPRESS", msg)
    return bytes(out)


def _lz4(data: bytes, out: bytearray) -> int:
    """Lz4BlockDecompressor: the 8-byte header (compressed, original length) and a raw LZ4 block."""
    if len(data) < LZ4_HEADER:
        raise ProcessError("BLOCK_DECOMPRESS", "an LZ4 block shorter than its 8-byte header")
    compressed, original = struct.unpack_from("<ii", data)
    if original < 0 or compressed < 0 or (original == 0) != (compressed == 0):
        raise ProcessError("BLOCK_DECOMPRESS", f"LZ4 header lengths {compressed}/{original} (invalid length)")
    if original > len(out) or compressed > len(data) - LZ4_HEADER:
        raise ProcessError("BLOCK_DECOMPRESS", f"LZ4 header lengths {compressed}/{original} do not fit the block")
    if original == 0:
        return 0
    # the block's actual output, into a buffer of `original` bytes (decompress_block pads a short one with zeros)
    got = _cramjam().lz4.decompress_block_into(data[LZ4_HEADER : LZ4_HEADER + compressed], out)
    if got != original:
        raise ProcessError("BLOCK_DECOMPRESS", f"LZ4 gives {got} bytes where its header states {original}")
    return got


def at_most(name: str, data: bytes, limit: int, code: str) -> bytes:
    """`data` through cramjam's codec `name` (zstd, brotli, ...) into a buffer one byte past `limit`: the output,
    limit + 1 bytes long when there is more than `limit` (never more is built); ProcessError (`code`) for
    damaged bytes."""
    cramjam = _cramjam()
    out = bytearray(limit + 1)
    try:
        got = getattr(cramjam, name).decompress_into(data, out)
    except cramjam.DecompressionError as exc:
        if "whole buffer" not in str(exc):  # cramjam's words when the output passed the buffer
            raise ProcessError(code, f"{name} refuses the block: {exc}") from None
        got = limit + 1
    return bytes(out[:got])


def zstd_exact(data: bytes, size: int, code: str = "ROW_FILE_BLOCK_DECOMPRESS") -> bytes:
    """ZstdBlockDecompressor into a buffer of `size` bytes, as the row format reads a block; ProcessError when
    the frames do not decompress to exactly `size` bytes (Java fails on more, and reads the zeros it left on
    fewer)."""
    _reserve(size, f"a block stating {size} uncompressed bytes")
    out = at_most("zstd", data, size, code)
    if len(out) != size:
        says = f"more than {size}" if len(out) > size else str(len(out))
        raise ProcessError(code, f"zstd gives {says} bytes where the index states {size}")
    return out


class JavaMutf8:
    """Turns modified UTF-8 into standard UTF-8 bytes."""

    def decode(self, data: bytes) -> bytes:
        """Return `data` re-encoded as standard UTF-8."""
        return decode_java_mutf8(data).encode("utf-8")


class Utf8Strict:
    """Passes well-formed UTF-8 through; rejects anything else (UTF8_INVALID) instead of replacing it."""

    def decode(self, data: bytes) -> bytes:
        """Return `data` unchanged when it is well-formed UTF-8."""
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ProcessError("UTF8_INVALID", f"malformed UTF-8 at byte {err.start}: {err.reason}") from None
        return data


class Crc32:
    """Replaces the data by its CRC32 (java.util.zip.CRC32), as 4 bytes BE."""

    def decode(self, data: bytes) -> bytes:
        """Return the big-endian CRC32 of `data`."""
        return zlib.crc32(data).to_bytes(4, "big")


class BlockDecompress:
    """Undoes an SST block's compression (BlockCompressionType id as the argument), as Java's reader does."""

    def __init__(self, compression: int) -> None:
        self.compression = compression

    def decode(self, data: bytes) -> bytes:
        """The block's content; ProcessError where Java's decompressor refuses the block."""
        return decompress(self.compression, data)


class ZstdBlock:
    """Decompresses a row file's block into its stated uncompressed size (ZstdBlockDecompressor)."""

    def __init__(self, size: int) -> None:
        self.size = size

    def decode(self, data: bytes) -> bytes:
        """The block's content; ProcessError unless the frames give exactly the stated size."""
        return zstd_exact(data, self.size)
