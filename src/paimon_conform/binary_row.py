"""Paimon's BinaryRow: Java-exact writer, hashCode (Murmur3 x86_32, seed 42) and bucket functions.

Values are internal values (`types.to_internal`). The row is little-endian:
a null bit set whose first byte is the row kind, one 8-byte slot per field,
then a variable part padded to 8 bytes per item.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import EncodeError
from .types import DataType

ROW_KINDS = {"+I": 0, "-U": 1, "+U": 2, "-D": 3}
SEED = 42
C1, C2 = 0xCC9E2D51, 0x1B873593
M32 = 0xFFFFFFFF
FIXED = {"TINYINT": "<b", "SMALLINT": "<h", "INT": "<i", "DATE": "<i", "TIME": "<i", "BIGINT": "<q"}


def bit_set_width(arity: int) -> int:
    """Bytes of the null bit set, header byte included: ((arity + 63 + 8) / 64) * 8."""
    return ((arity + 63 + 8) // 64) * 8


def fixed_size(arity: int) -> int:
    """Bytes before the variable part."""
    return bit_set_width(arity) + 8 * arity


def _pad8(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 8)


def _is_compact(t: DataType) -> bool:
    if t.root == "DECIMAL":
        return t.precision <= 18
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return t.timestamp_precision <= 3
    return True


def _decimal_bytes(unscaled: int) -> bytes:
    """BigInteger.toByteArray(): minimal big-endian two's complement."""
    bits = unscaled.bit_length() if unscaled >= 0 else (-unscaled - 1).bit_length()
    return unscaled.to_bytes(bits // 8 + 1, "big", signed=True)


def _slot(t: DataType, v: Any) -> bytes | None:
    """The 8 slot bytes of a fixed-length value, or None for variable-length encodings."""
    root = t.root
    if root in FIXED:
        return struct.pack(FIXED[root], v).ljust(8, b"\0")
    if root == "BOOLEAN":
        return bytes([1 if v else 0]).ljust(8, b"\0")
    if root == "FLOAT":
        return struct.pack("<f", v).ljust(8, b"\0")
    if root == "DOUBLE":
        return struct.pack("<d", v)
    if root == "DECIMAL" and _is_compact(t):
        return struct.pack("<q", v[0])
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and _is_compact(t):
        return struct.pack("<q", v[0])
    return None


def write(types: Sequence[DataType], values: Sequence[Any], kind: int = 0) -> bytes:
    """The BinaryRow Java's BinaryRowWriter produces for these internal values (None = null)."""
    if len(types) != len(values):
        raise EncodeError(f"{len(types)} types for {len(values)} values")
    arity = len(types)
    width = bit_set_width(arity)
    head = bytearray(width)
    head[0] = kind
    slots = bytearray(8 * arity)
    var = bytearray()
    base = fixed_size(arity)
    for i, (t, v) in enumerate(zip(types, values, strict=True)):
        at = 8 * i
        offset = base + len(var)
        if v is None:
            head[(i + 8) >> 3] |= 1 << ((i + 8) & 7)
            if t.root == "DECIMAL" and not _is_compact(t):
                slots[at : at + 8] = struct.pack("<Q", offset << 32)
                var += bytes(16)  # Java reserves the space of a null non-compact decimal
            elif t.root in ("TIMESTAMP", "TIMESTAMP_LTZ") and not _is_compact(t):
                slots[at : at + 8] = struct.pack("<Q", offset << 32)
                var += bytes(8)
            continue
        slot = _slot(t, v)
        if slot is not None:
            slots[at : at + 8] = slot
            continue
        if t.root == "DECIMAL":
            data = _decimal_bytes(v[0])
            if len(data) > 16:
                raise EncodeError(f"{t}: unscaled value {v[0]} needs more than 16 bytes")
            slots[at : at + 8] = struct.pack("<Q", (offset << 32) | len(data))
            var += data.ljust(16, b"\0")
        elif t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            millis, nanos = v
            slots[at : at + 8] = struct.pack("<Q", (offset << 32) | nanos)
            var += struct.pack("<q", millis)
        elif t.is_string or t.is_binary:
            data = v.encode("utf-8") if t.is_string else bytes(v)
            if len(data) <= 7:
                slots[at : at + 8] = data.ljust(7, b"\0") + bytes([0x80 | len(data)])
            else:
                slots[at : at + 8] = struct.pack("<Q", (offset << 32) | len(data))
                var += _pad8(data)
        else:
            raise EncodeError(f"BinaryRow of {t} is not supported by the kit yet")
    return bytes(head + slots + var)


def serialize_for_manifest(row: bytes, arity: int) -> bytes:
    """SerializationUtils.serializeBinaryRow: int32 BE arity, then the row bytes."""
    return struct.pack(">i", arity) + row


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & M32


def _fmix(h: int) -> int:
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M32
    return h ^ (h >> 16)


def _signed(h: int) -> int:
    return h - (1 << 32) if h >> 31 else h


def hash_code(row: bytes) -> int:
    """BinaryRow.hashCode(): MurmurHashUtils.hashBytesByWords, seed 42, as a signed int."""
    if len(row) % 4:
        raise EncodeError(f"hashByWords needs a multiple of 4 bytes, not {len(row)}")
    h = SEED
    for (k,) in struct.iter_unpack("<I", row):
        k = (k * C1) & M32
        k = (_rotl(k, 15) * C2) & M32
        h ^= k
        h = (_rotl(h, 13) * 5 + 0xE6546B64) & M32
    return _signed(_fmix(h ^ len(row)))


def hash_rows(rows: np.ndarray) -> np.ndarray:
    """hashCode of many rows of one size: `rows` is (n, size) uint8, size a multiple of 4; int32 out."""
    n, size = rows.shape
    if size % 4:
        raise EncodeError(f"hashByWords needs a multiple of 4 bytes, not {size}")
    words = np.ascontiguousarray(rows).view("<u4").astype(np.uint32)
    h = np.full(n, SEED, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for j in range(words.shape[1]):
            k = words[:, j] * np.uint32(C1)
            k = ((k << np.uint32(15)) | (k >> np.uint32(17))) * np.uint32(C2)
            h ^= k
            h = ((h << np.uint32(13)) | (h >> np.uint32(19))) * np.uint32(5) + np.uint32(0xE6546B64)
        h ^= np.uint32(size)
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h.view(np.int32)


def default_bucket(hash_code_: int | np.ndarray, num_buckets: int) -> int | np.ndarray:
    """DefaultBucketFunction: Math.abs(hash % numBuckets) (Java's % truncates)."""
    if num_buckets <= 0:
        raise EncodeError(f"the bucket count must be positive, not {num_buckets}")
    if isinstance(hash_code_, np.ndarray):
        return np.abs(np.fmod(hash_code_.astype(np.int64), num_buckets)).astype(np.int32)
    return abs(int(hash_code_)) % num_buckets


def mod_bucket(value: int, num_buckets: int) -> int:
    """ModBucketFunction: Math.floorMod(value, numBuckets) over one INT or BIGINT key."""
    if num_buckets <= 0:
        raise EncodeError(f"the bucket count must be positive, not {num_buckets}")
    return int(value) % num_buckets
