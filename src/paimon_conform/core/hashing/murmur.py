"""Murmur3 x86_32 as Paimon's MurmurHashUtils runs it (seed 42): BinaryRow.hashCode (hashBytesByWords over the
row's little-endian words, one row or many rows at once over numpy words) and BinaryString.hashCode (hashBytes,
each tail byte a full round); the bucket functions and the bitmap index's keys build on them."""

from __future__ import annotations

import struct
from collections.abc import Sequence

import mmh3
import numpy as np

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing.java import int32

SEED = 42
M32 = 0xFFFFFFFF
C1, C2 = 0xCC9E2D51, 0x1B873593


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & M32


def mix_k1(k: int) -> int:
    """Murmur3 x86_32 mixing of one 32-bit word."""
    return (_rotl((k * C1) & M32, 15) * C2) & M32


def mix_h1(h: int, k: int) -> int:
    """Murmur3 x86_32 state update with a mixed word."""
    return (_rotl(h ^ k, 13) * 5 + 0xE6546B64) & M32


def _fmix(h: int, length: int) -> int:
    h ^= length
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M32
    return h ^ (h >> 16)


def binary_string_hash(data: bytes) -> int:
    """BinaryString.hashCode: MurmurHashUtils.hashBytes, seed 42, each tail byte a full round."""
    h = SEED
    aligned = len(data) - len(data) % 4
    for (word,) in struct.iter_unpack("<I", data[:aligned]):
        h = mix_h1(h, mix_k1(word))
    for b in data[aligned:]:
        h = mix_h1(h, mix_k1((b - 256 if b > 127 else b) & M32))
    return int32(_fmix(h, len(data)))


def hash_code(row: bytes) -> int:
    """BinaryRow.hashCode(): Murmur3 x86_32 over the row's LE words, seed 42, signed."""
    if len(row) % 4:
        raise EncodeError(f"hashByWords needs a multiple of 4 bytes, not {len(row)}")
    return mmh3.hash(row, SEED, signed=True)


def murmur_words(words: Sequence[int | np.ndarray], n: int) -> np.ndarray:
    """hashBytesByWords over n rows given word by word: each word an int (same in every row) or a uint32 array.

    Leading words that are the same in every row (the row kind and null bits
    of a column without nulls) are mixed once, as scalars.
    """
    h: int | np.ndarray = SEED
    k = np.empty(n, dtype=np.uint32)
    t = np.empty(n, dtype=np.uint32)
    with np.errstate(over="ignore"):
        for w in words:
            if isinstance(h, int) and isinstance(w, int):
                h = mix_h1(h, mix_k1(w))
                continue
            if isinstance(h, int):
                h = np.full(n, h, dtype=np.uint32)
            if isinstance(w, int):
                h ^= np.uint32(mix_k1(w))
            else:
                np.multiply(w, np.uint32(C1), out=k)
                np.left_shift(k, np.uint32(15), out=t)
                k >>= np.uint32(17)
                k |= t
                k *= np.uint32(C2)
                h ^= k
            np.left_shift(h, np.uint32(13), out=t)
            h >>= np.uint32(19)
            h |= t
            h *= np.uint32(5)
            h += np.uint32(0xE6546B64)
        if isinstance(h, int):
            h = np.full(n, h, dtype=np.uint32)
        h ^= np.uint32(4 * len(words))
        h ^= h >> np.uint32(16)
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> np.uint32(13)
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> np.uint32(16)
    return h.view(np.int32)


def hash_rows(rows: np.ndarray) -> np.ndarray:
    """hashCode of many rows of one size: `rows` is (n, size) uint8, size a multiple of 4; int32 out."""
    n, size = rows.shape
    if size % 4:
        raise EncodeError(f"hashByWords needs a multiple of 4 bytes, not {size}")
    words = np.ascontiguousarray(rows).view("<u4")
    return murmur_words([np.ascontiguousarray(words[:, j]) for j in range(size // 4)], n)
