"""Where the kit calls the compiled kernels (core/hashing/kernels.py): inputs of fewer than COMPILED_FROM values take
a numpy / plain Python path instead, so that a process checking only small files (the golden corpus, a
table's manifests) never imports numba nor loads a kernel (about 0.4 s of CPU a process, paid again by
every worker the corpus check forks). Each small path returns what its kernel returns, dtype included;
conformance/test_kernels.py checks the two against each other on the same inputs. (The bloom filter's bit set
dispatches the same way, in bloom_filter/codec.py, where Java's positions are spelled out.)
"""

from __future__ import annotations

from itertools import pairwise
from types import ModuleType

import numpy as np
import xxhash

COMPILED_FROM = 4096  # values; below this the small paths are faster than loading a kernel


def compiled() -> ModuleType:
    """The kernels module (numba imported on the first call)."""
    from paimon_conform.core.hashing import kernels

    return kernels


def xxh64_values(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    """XXH64 (seed 0) of each value data[offsets[i]:offsets[i + 1]], as uint64 (kernels.xxh64_values)."""
    if len(offsets) - 1 >= COMPILED_FROM:
        return compiled().xxh64_values(offsets, data)
    raw = memoryview(np.ascontiguousarray(data, dtype=np.uint8))  # no copy: the values are read in place
    digest = xxhash.xxh64_intdigest
    pairs = pairwise(offsets.tolist())
    return np.fromiter((digest(raw[a:b], seed=0) for a, b in pairs), dtype=np.uint64, count=max(len(offsets) - 1, 0))


def wang64_values(values: np.ndarray) -> np.ndarray:
    """Thomas Wang's 64-bit hash of each uint64 pattern, as uint64 (kernels.wang64_values)."""
    if len(values) >= COMPILED_FROM:
        return compiled().wang64_values(values)
    return wang64_numpy(values)


def wang64_numpy(values: np.ndarray) -> np.ndarray:
    """wang64 with numpy's uint64 operations (which wrap modulo 2^64, as Java's long arithmetic does); the
    arithmetic shifts are done on the int64 view."""
    k = np.asarray(values, dtype=np.uint64)

    def sar(x: np.ndarray, r: int) -> np.ndarray:
        return (x.view(np.int64) >> np.int64(r)).view(np.uint64)

    with np.errstate(over="ignore"):
        k = ~k + (k << np.uint64(21))
        k = k ^ sar(k, 24)
        k = k + (k << np.uint64(3)) + (k << np.uint64(8))
        k = k ^ sar(k, 14)
        k = k + (k << np.uint64(2)) + (k << np.uint64(4))
        k = k ^ sar(k, 28)
        return k + (k << np.uint64(31))


def first_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(codes, distinct): each value's rank among the distinct values in first-occurrence order, as int64, and
    the distinct values in that order (kernels.first_codes)."""
    if len(values) >= COMPILED_FROM:
        return compiled().first_codes(values)
    uniques, first, inverse = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")  # the distinct values by where each first occurs
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size, dtype=np.int64)
    return rank[inverse.reshape(-1)], uniques[order]
