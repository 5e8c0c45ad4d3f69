"""Compiled loops (numba) for the per-value work of hashing and index building: one pass over column
buffers with no Python call and no temporary per value.

Each kernel is the loop Java runs, over Arrow offsets / data / values:
* `murmur_one_var`: BinaryRow.hashCode of rows with one variable-length field (MurmurHashUtils.hashBytesByWords
  over the fixed part's words, the field's slot, then its bytes padded to 8);
* `xxh64_values`: XXH64 (seed 0) of each value of a binary column (FastHash of CHAR / VARCHAR / BINARY);
* `wang64_values`: Thomas Wang's 64-bit hash (FastHash of the integer-like types);
* `bloom_bits`: BloomFilter64.addHash of every hash into a bit set (bytes, bit p at byte p >> 3, bit p & 7);
* `first_codes`: each value's rank in first-occurrence order (the keys of a bitmap index, in the order
  Java's HashMap.computeIfAbsent first sees them), with the distinct values.

All arithmetic is on uint64 with explicit masks, so numba's integer promotion cannot change a result. The
scalar paths (mmh3, the xxhash library, `hashing.wang64`, plain Python) are their references in the tests.
Compiled on first use and cached next to this file (`cache=True`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

U = np.uint64
M32 = U(0xFFFFFFFF)
# shift and rotate amounts as uint64 (a plain int would make numba mix signed and unsigned)
S1, S2, S3, S4, S7, S8, S11, S12 = U(1), U(2), U(3), U(4), U(7), U(8), U(11), U(12)
S13, S14, S15, S16, S18 = U(13), U(14), U(15), U(16), U(18)
S21, S23, S24, S27, S28, S29, S31, S32, S33 = U(21), U(23), U(24), U(27), U(28), U(29), U(31), U(32), U(33)

# Murmur3 x86_32 (Paimon's MurmurHashUtils)
C1, C2, SEED = U(0xCC9E2D51), U(0x1B873593), U(42)
M5, N1 = U(5), U(0xE6546B64)
F1, F2 = U(0x85EBCA6B), U(0xC2B2AE35)

# XXH64 primes
P1, P2, P3 = U(11400714785074694791), U(14029467366897019727), U(1609587929392839161)
P4, P5 = U(9650029242287828579), U(2870177450012600261)
SIGN = U(0x8000000000000000)


@njit(inline="always")
def _rotl32(x: int, r: int) -> int:
    return ((x << r) | (x >> (U(32) - r))) & M32


@njit(inline="always")
def _mix(h: int, word: int) -> int:
    k = (word * C1) & M32
    k = (_rotl32(k, S15) * C2) & M32
    h ^= k
    return (_rotl32(h, S13) * M5 + N1) & M32


@njit(inline="always")
def _fmix32(h: int, length: int) -> int:
    h ^= length
    h ^= h >> S16
    h = (h * F1) & M32
    h ^= h >> S13
    h = (h * F2) & M32
    return h ^ (h >> S16)


@njit(inline="always")
def _le(data: np.ndarray, at: int, count: int) -> int:
    """The `count` (0..8) bytes at `at` as a little-endian unsigned number."""
    w = U(0)
    for b in range(count):
        w |= U(data[at + b]) << U(8 * b)
    return w


@njit(cache=True, nogil=True)
def murmur_one_var(
    words: np.ndarray,
    slot: int,
    data: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    nulls: np.ndarray,
    fixed: int,
) -> np.ndarray:
    """hashCode of n rows: `words` (k, n) uint32 are the fixed part's words, the variable-length field's two slot
    words at `slot` (filled here); its bytes at data[starts[i]:starts[i] + lengths[i]], null where `nulls`;
    `fixed` is the fixed part's size in bytes (the offset of a value stored after it)."""
    k, n = words.shape
    out = np.empty(n, dtype=np.int32)
    for i in range(n):
        ln = lengths[i]
        st = starts[i]
        if nulls[i]:
            low, high = U(0), U(0)
        elif ln <= 7:  # inline: the bytes in the slot, 0x80 | length in its last byte
            low = _le(data, st, min(ln, 4))
            high = _le(data, st + 4, max(ln - 4, 0)) | (U(0x80 | ln) << S24)
        else:  # (offset << 32) | length, the bytes after the fixed part
            low, high = U(ln), U(fixed)
        h = SEED
        for j in range(k):
            if j == slot:
                w = low
            elif j == slot + 1:
                w = high
            else:
                w = U(words[j, i])
            h = _mix(h, w)
        total = 4 * k
        if not nulls[i] and ln > 7:
            padded = (ln + 7) // 8 * 8
            for at in range(0, padded, 4):
                h = _mix(h, _le(data, st + at, min(max(ln - at, 0), 4)))
            total += padded
        out[i] = _signed32(_fmix32(h, U(total)))
    return out


@njit(inline="always")
def _signed32(x: int) -> int:
    v = np.int64(x)
    return np.int32(v - 0x100000000 if v >= 0x80000000 else v)


@njit(inline="always")
def _rotl64(x: int, r: int) -> int:
    return (x << r) | (x >> (U(64) - r))


@njit(inline="always")
def _round(acc: int, lane: int) -> int:
    return _rotl64(acc + lane * P2, S31) * P1


@njit(inline="always")
def _xxh64(data: np.ndarray, st: int, ln: int) -> int:
    end = st + ln
    p = st
    if ln >= 32:
        v1, v2, v3, v4 = P1 + P2, P2, U(0), U(0) - P1
        while p + 32 <= end:
            v1 = _round(v1, _le(data, p, 8))
            v2 = _round(v2, _le(data, p + 8, 8))
            v3 = _round(v3, _le(data, p + 16, 8))
            v4 = _round(v4, _le(data, p + 24, 8))
            p += 32
        h = _rotl64(v1, S1) + _rotl64(v2, S7) + _rotl64(v3, S12) + _rotl64(v4, S18)
        for v in (v1, v2, v3, v4):
            h = (h ^ _round(U(0), v)) * P1 + P4
    else:
        h = P5
    h += U(ln)
    while p + 8 <= end:
        h = _rotl64(h ^ _round(U(0), _le(data, p, 8)), S27) * P1 + P4
        p += 8
    if p + 4 <= end:
        h = _rotl64(h ^ (_le(data, p, 4) * P1), S23) * P2 + P3
        p += 4
    while p < end:
        h = _rotl64(h ^ (U(data[p]) * P5), S11) * P1
        p += 1
    h ^= h >> S33
    h *= P2
    h ^= h >> S29
    h *= P3
    return h ^ (h >> S32)


@njit(cache=True, nogil=True)
def xxh64_values(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    """XXH64 (seed 0) of each value data[offsets[i]:offsets[i + 1]], as uint64."""
    n = len(offsets) - 1
    out = np.empty(n, dtype=np.uint64)
    for i in range(n):
        out[i] = _xxh64(data, offsets[i], offsets[i + 1] - offsets[i])
    return out


@njit(inline="always")
def _sar(x: int, r: int) -> int:
    """Arithmetic shift right of a 64-bit pattern."""
    shifted = x >> r
    if x & SIGN:
        shifted |= ~(U(0xFFFFFFFFFFFFFFFF) >> r)
    return shifted


@njit(inline="always")
def _wang64(k: int) -> int:
    k = ~k + (k << S21)
    k ^= _sar(k, S24)
    k = k + (k << S3) + (k << S8)
    k ^= _sar(k, S14)
    k = k + (k << S2) + (k << S4)
    k ^= _sar(k, S28)
    return k + (k << S31)


@njit(cache=True, nogil=True)
def wang64_values(values: np.ndarray) -> np.ndarray:
    """Thomas Wang's 64-bit hash of each uint64 pattern, as uint64."""
    out = np.empty(len(values), dtype=np.uint64)
    for i in range(len(values)):
        out[i] = _wang64(values[i])
    return out


@njit(cache=True, nogil=True)
def bloom_bits(hashes: np.ndarray, k: int, num_bits: int) -> np.ndarray:
    """The bit set (ceil(num_bits / 8) bytes) after BloomFilter64.addHash of each uint64 hash: for i in 1..k,
    the int32 h1 + i * h2 (h1 the low, h2 the high half), ~ if negative, mod num_bits."""
    bits = np.zeros((num_bits + 7) // 8, dtype=np.uint8)
    for h in hashes:
        h1 = np.int64(h & M32)
        h2 = np.int64(h >> S32)
        for i in range(1, k + 1):
            c = (h1 + i * h2) & 0xFFFFFFFF  # int32 arithmetic: the low 32 bits, then the sign
            if c >= 0x80000000:
                c = 0xFFFFFFFF - c  # ~c of the negative int
            p = c % num_bits
            bits[p >> 3] |= np.uint8(1 << (p & 7))
    return bits


@njit(cache=True, nogil=True)
def first_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(codes, distinct): codes[i] is the rank of values[i] among the distinct values in first-occurrence order;
    an open-addressing table sized to twice the values, so every probe ends."""
    n = len(values)
    size = 1
    while size < 2 * n + 2:
        size *= 2
    slots = np.full(size, -1, dtype=np.int64)  # slot -> code
    codes = np.empty(n, dtype=np.int64)
    distinct = np.empty(n, dtype=values.dtype)
    count = 0
    mask = size - 1
    for i in range(n):
        v = values[i]
        s = np.int64(_wang64(U(v)) & U(mask))
        while True:
            c = slots[s]
            if c == -1:
                slots[s] = count
                distinct[count] = v
                codes[i] = count
                count += 1
                break
            if distinct[c] == v:
                codes[i] = c
                break
            s = (s + 1) & mask
    return codes, distinct[:count].copy()
