"""BlobDescriptor (Paimon 1.4+): a BLOB's URI, offset and length, as Java's serialize() writes it."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from paimon_conform.core.errors import EncodeError, InvariantError, TruncatedError

NAME = "blob_descriptor"
MAGIC = 0x424C4F4244455343  # "BLOBDESC", written as a little-endian long
MAGIC_BYTES = MAGIC.to_bytes(8, "little")
CURRENT_VERSION = 2
FIXED = 16  # offset s8 + length s8


@dataclass(frozen=True)
class BlobDescriptor:
    """What a descriptor says: the URI of the bytes, where they start, how many there are."""

    uri: str
    offset: int
    length: int
    version: int = CURRENT_VERSION


def encode(d: BlobDescriptor) -> bytes:
    """The bytes Java writes (version 2 with the magic; version 1, before Paimon 1.4, without)."""
    if d.version not in (1, 2):
        raise EncodeError(f"Java writes descriptor version 1 or 2, not {d.version}")
    for name, v in (("offset", d.offset), ("length", d.length)):
        if not -(2**63) <= v < 2**63:
            raise EncodeError(f"{name} {v} does not fit in a signed 64-bit long")
    uri = d.uri.encode("utf-8", errors="strict")
    head = bytes([d.version]) + (MAGIC_BYTES if d.version == 2 else b"")
    return head + struct.pack("<i", len(uri)) + uri + struct.pack("<qq", d.offset, d.length)


def decode(data: bytes) -> BlobDescriptor:
    """The descriptor, checked as Java's deserialize() and the spec check it; LayoutError otherwise."""
    if not data:
        raise TruncatedError(NAME, "TRUNCATED", "version", 0, "input ends inside this field: 1 byte(s) needed")
    version = struct.unpack_from("<b", data)[0]
    if version > CURRENT_VERSION:
        msg = f"version {version}: Java reads versions up to {CURRENT_VERSION}"
        raise InvariantError(NAME, "BLOB_DESCRIPTOR_BAD_VERSION", "version", 0, msg)
    pos = 1
    if version == 2:
        if len(data) < 9:
            raise TruncatedError(NAME, "TRUNCATED", "magic", 1, "input ends inside the 8-byte magic")
        if data[1:9] != MAGIC_BYTES:
            msg = f"magic {data[1:9].hex()}, not {MAGIC_BYTES.hex()} (BLOBDESC)"
            raise InvariantError(NAME, "BLOB_DESCRIPTOR_BAD_MAGIC", "magic", 1, msg)
        pos = 9
    if len(data) < pos + 4:
        raise TruncatedError(NAME, "TRUNCATED", "len_uri", pos, "input ends inside the URI length")
    n = struct.unpack_from("<i", data, pos)[0]
    if not 0 <= n <= len(data) - pos - 4 - FIXED:
        msg = f"URI length {n} does not leave the 16 bytes of offset and length in {len(data) - pos - 4}"
        raise InvariantError(NAME, "BLOB_DESCRIPTOR_BAD_URI_LENGTH", "len_uri", pos, msg)
    raw = data[pos + 4 : pos + 4 + n]
    try:
        uri = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        msg = f"malformed UTF-8 at byte {err.start}: {err.reason}"
        raise InvariantError(NAME, "UTF8_INVALID", "uri.decoded", pos + 4, msg) from None
    end = pos + 4 + n
    offset, length = struct.unpack_from("<qq", data, end)
    if len(data) != end + FIXED:
        msg = f"{len(data) - end - FIXED} byte(s) after the length; Java writes none (its reader ignores them)"
        raise InvariantError(NAME, "BLOB_DESCRIPTOR_TRAILING_BYTES", "end_check", end + FIXED, msg)
    return BlobDescriptor(uri, offset, length, version)
