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
import pyarrow as pa

from paimon_conform.core import budget
from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing import kernel_calls
from paimon_conform.core.hashing.fasthash import fast_hash, fast_hash_many
from paimon_conform.core.types import DataType

DEFAULT_ITEMS = 1_000_000
DEFAULT_FPP = 0.1
PROBE_CHUNK = 1 << 20  # bit positions computed at a time when a filter is probed


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
    """Bit positions (k per hash, grouped by i) exactly as BloomFilter64.addHash computes them.

    k <= 0 gives none (Java's loop `for i in 1..k` never runs); k positions per hash past the
    memory budget are refused (probe a stored filter with `contains` instead: it never lists them).
    """
    h = np.ascontiguousarray(hashes, dtype=np.int64)
    k = max(int(k), 0)
    budget.reserve(8 * k * h.size, f"{k} bloom-filter bit positions for each of {h.size} value(s)")
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
    budget.reserve(num_bits // 8 + 1, f"a bloom filter of {num_bits} bits (items {items}, fpp {fpp})")
    return struct.pack(">i", k) + bit_set(np.ascontiguousarray(hashes, dtype=np.int64), k, num_bits).tobytes()


def bit_set(hashes: np.ndarray, k: int, num_bits: int) -> np.ndarray:
    """The ceil(num_bits / 8) bytes (uint8) of the bit set after BloomFilter64.addHash of each int64 hash: from
    `positions` for fewer than COMPILED_FROM hashes, else in the compiled loop (kernels.bloom_bits)."""
    if len(hashes) < kernel_calls.COMPILED_FROM:
        bits = np.zeros(num_bits, dtype=bool)
        bits[positions(hashes, k, num_bits)] = True
        return np.packbits(bits, bitorder="little")
    return kernel_calls.compiled().bloom_bits(hashes.view(np.uint64), k, num_bits)


def build(t: DataType, values: Sequence[Any] | pa.Array, items: int = DEFAULT_ITEMS, fpp: float = DEFAULT_FPP) -> bytes:
    """Payload BloomFilterFileIndex writes for these internal values (nulls skipped): a list, or an Arrow array
    of the column (hashed from its buffers: strings and binaries by XXH64, the rest by index_keys.java_longs)."""
    present = values.drop_null() if isinstance(values, pa.Array) else [v for v in values if v is not None]
    return build_from_hashes(fast_hash_many(t, present), items, fpp)


def split(payload: bytes) -> tuple[int, bytes]:
    """(k, bit-set bytes) of a payload."""
    if len(payload) < 5:
        raise EncodeError("a bloom-filter payload has a 4-byte k and at least one byte of bits")
    return struct.unpack_from(">i", payload)[0], payload[4:]


def contains(hashes: np.ndarray, k: int, bits: bytes) -> np.ndarray:
    """For each hash, whether BloomFilter64.testHash finds all its k bits set in `bits`.

    Exactly Java's loop (`for i in 1..k`, int arithmetic), computed a chunk of positions at a time
    and stopped once every hash has a clear bit, so a stored k of any size (up to 2^31 - 1) never
    lists k positions: combined hashes h1 + i * h2 repeat with period 2^32 / gcd(h2, 2^32), so no
    hash needs more than that many steps. k <= 0 finds every hash (the loop never runs).
    """
    h = np.ascontiguousarray(hashes, dtype=np.int64)
    alive = np.ones(h.size, dtype=bool)
    arr = np.frombuffer(bits, dtype=np.uint8)
    num_bits = 8 * len(bits)
    if k <= 0 or h.size == 0 or bool(np.all(arr == 0xFF)):
        return alive
    if num_bits == 0:
        return ~alive
    h1 = h.astype(np.int32).astype(np.int64)
    h2 = (h >> np.int64(32)).astype(np.int32).astype(np.int64)
    low = h2 & 0xFFFFFFFF
    gcd = np.where(low == 0, np.int64(1) << 32, low & -low)  # gcd(h2, 2^32): h2's lowest set bit
    period = (np.int64(1) << 32) // gcd
    done = 0
    while True:
        live = np.flatnonzero(alive & (period > done))
        steps = min(int(k), int(period[live].max(initial=0))) - done
        if live.size == 0 or steps <= 0:
            return alive
        m = max(1, min(steps, PROBE_CHUNK // live.size))
        i = np.arange(done + 1, done + m + 1, dtype=np.int64)
        c = (h1[live, None] + i[None, :] * h2[live, None]).astype(np.uint32).view(np.int32)
        c = np.bitwise_xor(c, c >> np.int32(31))  # negative: ~c
        pos = (c % np.int32(num_bits)).astype(np.int64)
        hit = ((arr[pos >> 3] >> (pos & 7)) & 1).astype(bool)
        alive[live] = hit.all(axis=1)
        done += m


def might_contain(payload: bytes, t: DataType, value: Any) -> bool:
    """Java's visitEqual: False means the file can be skipped for `value`."""
    if value is None:
        return True
    k, bits = split(payload)
    return bool(contains(np.asarray([fast_hash(t, value)], dtype=np.int64), k, bits)[0])


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
