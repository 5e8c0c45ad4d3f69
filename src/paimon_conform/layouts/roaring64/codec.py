"""The portable 64-bit RoaringBitmap (Paimon's RoaringBitmap64 / the Iceberg-compatible form): the
Java-exact encoder, built of the 32-bit containers of `roaring32.codec`, and the fast decoder
(CRoaring validates the bytes)."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from itertools import pairwise

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import budget
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.layouts.roaring32.codec import (
    MAX_U32,
    MAX_U64,
    as_sorted_unique,
    plan_containers,
    serialize_containers,
)

BUCKET_BYTES = 160  # one bucket of a 64-bit bitmap while it is encoded (its key, its bytes, list slots)


def encode_roaring64(
    values: Iterable[int] | np.ndarray,
    bucket_keys: Sequence[int] | None = None,
    kinds: Sequence[Sequence[str] | None] | None = None,
) -> bytes:
    """Bytes of the portable 64-bit layout as Paimon writes it.

    Paimon writes a bucket for every high key from 0 to the highest one,
    empty ones included. `bucket_keys` (strictly ascending, covering every
    high key in use) and per-bucket `kinds` reproduce other writers' files.
    """
    arr = as_sorted_unique(values, MAX_U64)
    highs = (arr >> np.uint64(32)).astype(np.uint64)
    used = np.unique(highs)
    if bucket_keys is None:
        dense = int(used[-1]) + 1 if used.size else 0
        budget.reserve(BUCKET_BYTES * dense, f"{dense} buckets (one per high key up to the highest, as Paimon writes)")
        keys = list(range(dense))
    else:
        keys = [int(k) for k in bucket_keys]
        if any(b <= a for a, b in pairwise(keys)):
            raise EncodeError("bucket keys must be strictly ascending")
        missing = set(int(h) for h in used) - set(keys)
        if missing:
            raise EncodeError(f"bucket keys miss high keys in use: {sorted(missing)[:5]}")
    if kinds is not None and len(kinds) != len(keys):
        raise EncodeError(f"{len(kinds)} kind lists given for {len(keys)} buckets")
    out = [struct.pack("<Q", len(keys))]
    starts = np.searchsorted(highs, np.asarray(keys, dtype=np.uint64), side="left")
    ends = np.searchsorted(highs, np.asarray(keys, dtype=np.uint64), side="right")
    for i, key in enumerate(keys):
        low = arr[starts[i] : ends[i]] & np.uint64(MAX_U32)
        out.append(struct.pack("<I", key))
        out.append(serialize_containers(plan_containers(low, kinds[i] if kinds else None)))
    return b"".join(out)


def load_roaring64(data: bytes, layout: str = "roaring64", path: str = "", offset: int = 0) -> BitMap64:
    """Fast path for the 64-bit portable layout (CRoaring validates it)."""
    if len(data) == 0:
        raise LayoutError(layout, "TRUNCATED", path, offset, "an empty bitmap: not even a bucket count")
    try:
        return BitMap64.deserialize(data)
    except ValueError as exc:
        raise LayoutError(layout, "ROARING_REJECTED", path, offset, f"CRoaring rejects the bitmap: {exc}") from None
