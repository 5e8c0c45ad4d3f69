"""Paimon's bloom-filter index: sizing, building and probing, byte-exact with Java.

`build(type, values, items, fpp)` returns the payload BloomFilterFileIndex
writes; `might_contain(payload, type, value)` answers as its reader does
(a null literal always remains).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import EncodeError
from .hashing import fast_hash, fast_hash_many
from .types import DataType

DEFAULT_ITEMS = 1_000_000
DEFAULT_FPP = 0.1


def sizing(items: int, fpp: float) -> tuple[int, int]:
    """(numBits, k) for Paimon's BloomFilter64(items, fpp), with Java's double arithmetic."""
    if not 0 < fpp < 1:
        raise EncodeError(f"Bloom filter 'fpp' must be in range (0, 1), but was {fpp}.")
    if items <= 0:
        raise EncodeError(f"Bloom filter 'items' must be positive, but was {items}.")
    nb = int(-items * math.log(fpp) / (math.log(2) * math.log(2)))
    num_bits = nb + (8 - nb % 8)
    k = max(1, math.floor(num_bits / items * math.log(2) + 0.5))
    return num_bits, k


def positions(hashes: np.ndarray, k: int, num_bits: int) -> np.ndarray:
    """Bit positions (k per hash, grouped by i) exactly as BloomFilter64.addHash computes them."""
    h = np.ascontiguousarray(hashes, dtype=np.int64)
    h1 = h.astype(np.int32)  # (int) hash64: the low 32 bits
    h2 = (h >> np.int64(32)).astype(np.int32)  # (int) (hash64 >>> 32)
    out = np.empty((k, h.size), dtype=np.int32)
    c = h1.copy()
    with np.errstate(over="ignore"):
        for i in range(k):
            c += h2  # h1 + (i + 1) * h2 with int32 wrap-around
            np.bitwise_xor(c, c >> np.int32(31), out=out[i])  # negative: ~c
            np.remainder(out[i], np.int32(num_bits), out=out[i])
    return out.ravel()


def build_from_hashes(hashes: np.ndarray, items: int, fpp: float) -> bytes:
    """Payload for already-hashed non-null values."""
    num_bits, k = sizing(items, fpp)
    bits = np.zeros(num_bits, dtype=np.bool_)
    if hashes.size:
        bits[positions(hashes, k, num_bits)] = True
    return struct.pack(">i", k) + np.packbits(bits, bitorder="little").tobytes()


def build(t: DataType, values: Sequence[Any], items: int = DEFAULT_ITEMS, fpp: float = DEFAULT_FPP) -> bytes:
    """Payload BloomFilterFileIndex writes for these internal values (nulls skipped)."""
    present = [v for v in values if v is not None]
    return build_from_hashes(fast_hash_many(t, present), items, fpp)


def split(payload: bytes) -> tuple[int, bytes]:
    """(k, bit-set bytes) of a payload."""
    if len(payload) < 5:
        raise EncodeError("a bloom-filter payload has a 4-byte k and at least one byte of bits")
    return struct.unpack_from(">i", payload)[0], payload[4:]


def might_contain(payload: bytes, t: DataType, value: Any) -> bool:
    """Java's visitEqual: False means the file can be skipped for `value`."""
    if value is None:
        return True
    k, bits = split(payload)
    arr = np.frombuffer(bits, dtype=np.uint8)
    pos = positions(np.asarray([fast_hash(t, value)], dtype=np.int64), k, 8 * len(bits))
    return bool(np.all((arr[pos >> 3] >> (pos & 7)) & 1))


def evaluate(payload: bytes, t: DataType, op: str, literals: Sequence[Any]) -> bool:
    """Java's bloom-filter reader for a predicate: False = skip the file.

    `eq` tests the filter, `in` is the OR of `eq` over the literals, and every
    other predicate (`not_eq`, `not_in`, `is_null`, `is_not_null`, ranges) keeps
    the file, as FileIndexReader's defaults do.
    """
    if op == "eq":
        return might_contain(payload, t, literals[0])
    if op == "in":
        return any(might_contain(payload, t, v) for v in literals)
    return True
