"""Custom Kaitai `process:` routines referenced by the specs.

Referenced from specs as `paimon_conform.core.kaitai_processors.<name>`; the
generated code instantiates the CamelCase class and calls `decode(data)`.
"""

from __future__ import annotations

from kaitaistruct import KaitaiStructError
from zlib_ng.zlib_ng import crc32


class ProcessError(KaitaiStructError):
    """A processor rejected its input; located and re-raised as a LayoutError."""

    def __init__(self, code: str, msg: str) -> None:
        super().__init__(msg, None)
        self.code = code


def decode_java_mutf8(data: bytes) -> str:
    """Decode Java modified UTF-8 (DataInput.readUTF) to a str.

    Raises ProcessError on byte sequences Java's readUTF rejects (bad lead
    byte, 4-byte sequences, truncated sequences). Lone surrogates (legal in
    Java strings) become U+FFFD.
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
        return crc32(data).to_bytes(4, "big")


class BlockDecompress:
    """Undoes an SST block's compression (BlockCompressionType id as the argument), as Java's reader does."""

    def __init__(self, compression: int) -> None:
        self.compression = compression

    def decode(self, data: bytes) -> bytes:
        """The block's content; ProcessError where Java's decompressor refuses the block."""
        from paimon_conform.core.block_codec import BlockCodecError, decompress

        try:
            return decompress(self.compression, data)
        except BlockCodecError as err:
            raise ProcessError(err.code, str(err)) from None


class ZstdBlock:
    """Decompresses a row file's block into its stated uncompressed size (ZstdBlockDecompressor)."""

    def __init__(self, size: int) -> None:
        self.size = size

    def decode(self, data: bytes) -> bytes:
        """The block's content; ProcessError unless the frames give exactly the stated size."""
        from paimon_conform.core.block_codec import BlockCodecError, zstd_exact

        try:
            return zstd_exact(data, self.size)
        except BlockCodecError as err:
            raise ProcessError("ROW_FILE_BLOCK_DECOMPRESS", str(err)) from None
