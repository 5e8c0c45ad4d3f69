"""Answers of a range-bitmap index, as RangeBitmap and BitSliceIndexBitmap give them.

Every function takes a loaded `range_bitmap.Index` and keys in the writer's
form (`range_bitmap.to_key`), and returns the rows as a pyroaring BitMap.
Java's shortcuts are kept, so the answers are Java's even where they differ
from a plain scan (an index with no keys answers top-k and IS NULL with
every row).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyroaring import BitMap

from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.range_bitmap.codec import Index

NULLS_FIRST = "nulls_first"
NULLS_LAST = "nulls_last"


def _all_rows(index: Index) -> BitMap:
    return BitMap(range(index.num_rows)) if index.num_rows > 0 else BitMap()


def _not(index: Index, rows: BitMap) -> BitMap:
    """flip(0, rowCount) & not-null: complements never hold null rows."""
    return (_all_rows(index) ^ rows) & index.ebm


def is_not_null(index: Index) -> BitMap:
    """Rows with a value."""
    return BitMap() if not index.keys else BitMap(index.ebm)


def is_null(index: Index, found: BitMap | None = None) -> BitMap:
    """Null rows (every row when the index has no keys, whatever `found` says)."""
    if not index.keys:
        return _all_rows(index)
    if found is not None and not found:
        return BitMap(found)
    rows = _all_rows(index) - index.ebm
    return rows & found if found is not None else rows


# BitSliceIndexBitmap on codes


def code_eq(index: Index, code: int) -> BitMap:
    """Rows whose code equals `code`."""
    state = BitMap(index.ebm)
    for i, s in enumerate(index.slices):
        if (code >> i) & 1:
            state &= s
        else:
            state -= s
    return state


def code_gt(index: Index, code: int) -> BitMap:
    """Rows whose code is above `code` (O'Neil, skipping the run of low one-bits)."""
    if code < 0:
        return BitMap(index.ebm)
    if not index.ebm:
        return BitMap()
    start = ((~code) & -(~code)).bit_length() - 1  # numberOfTrailingZeros(~code)
    state: BitMap | None = None
    for i in range(start, len(index.slices)):
        if state is None:
            state = BitMap(index.slices[i])
        elif (code >> i) & 1:
            state &= index.slices[i]
        else:
            state |= index.slices[i]
    return BitMap() if state is None else state & index.ebm


def code_gte(index: Index, code: int) -> BitMap:
    """Rows whose code is at least `code`."""
    return code_gt(index, code - 1)


# RangeBitmap on keys


def eq(index: Index, key: Any) -> BitMap:
    """Rows equal to `key`."""
    if not index.keys:
        return BitMap()
    lo, hi = index.compare(key, index.min_key), index.compare(key, index.max_key)
    if lo == 0 and hi == 0:
        return is_not_null(index)
    if lo < 0 or hi > 0:
        return BitMap()
    code = index.find(key)
    return BitMap() if code < 0 else code_eq(index, code)


def not_eq(index: Index, key: Any) -> BitMap:
    """Non-null rows not equal to `key`."""
    return BitMap() if not index.keys else _not(index, eq(index, key))


def gt(index: Index, key: Any) -> BitMap:
    """Rows above `key`."""
    if not index.keys:
        return BitMap()
    if index.compare(key, index.min_key) < 0:
        return is_not_null(index)
    if index.compare(key, index.max_key) >= 0:
        return BitMap()
    code = index.find(key)
    return code_gte(index, -code - 1) if code < 0 else code_gt(index, code)


def gte(index: Index, key: Any) -> BitMap:
    """Rows at or above `key`."""
    if not index.keys:
        return BitMap()
    if index.compare(key, index.min_key) <= 0:
        return is_not_null(index)
    if index.compare(key, index.max_key) > 0:
        return BitMap()
    code = index.find(key)
    return code_gte(index, -code - 1 if code < 0 else code)


def lt(index: Index, key: Any) -> BitMap:
    """Rows below `key`."""
    if not index.keys:
        return BitMap()
    if index.compare(key, index.max_key) > 0:
        return is_not_null(index)
    if index.compare(key, index.min_key) <= 0:
        return BitMap()
    return _not(index, gte(index, key))


def lte(index: Index, key: Any) -> BitMap:
    """Rows at or below `key`."""
    if not index.keys:
        return BitMap()
    if index.compare(key, index.max_key) >= 0:
        return is_not_null(index)
    if index.compare(key, index.min_key) < 0:
        return BitMap()
    return _not(index, gt(index, key))


def in_(index: Index, keys: Sequence[Any]) -> BitMap:
    """Rows equal to any of `keys`."""
    out = BitMap()
    for k in keys if index.keys else ():
        out |= eq(index, k)
    return out


def not_in(index: Index, keys: Sequence[Any]) -> BitMap:
    """Non-null rows equal to none of `keys`."""
    return BitMap() if not index.keys else _not(index, in_(index, keys))


def between(index: Index, low: Any, high: Any) -> BitMap:
    """Rows in [low, high] (RangeBitmapFileIndex: gte & lte)."""
    return gte(index, low) & lte(index, high)


def _k_extreme(index: Index, k: int, found: BitMap | None, strict: bool, largest: bool) -> BitMap:
    """BitSliceIndexBitmap.topK / bottomK: O'Neil's algorithm 4.1 over the code slices."""
    if k == 0 or (found is not None and not found):
        return BitMap()
    if k < 0:
        raise UsageError(f"k must not be negative, got {k}")
    g = BitMap()
    e = BitMap(index.ebm) if found is None else index.ebm & found
    if len(e) <= k:
        return e
    for s in reversed(index.slices):
        pick = e & s if largest else e - s
        x = g | pick
        if len(x) > k:
            e = pick
        elif len(x) < k:
            g = x
            e = e - s if largest else e & s
        else:
            e = pick
            break
    f = g | e
    surplus = len(f) - k
    if strict and surplus > 0:
        f -= e[:surplus]  # ties: the lowest row ids go
    return f


def top_k(index: Index, k: int, nulls: str = NULLS_LAST, found: BitMap | None = None, strict: bool = True) -> BitMap:
    """Rows of the k largest values (descending sort), with nulls placed as asked."""
    return _fill_nulls(index, k, nulls, found, strict, largest=True)


def bottom_k(index: Index, k: int, nulls: str = NULLS_LAST, found: BitMap | None = None, strict: bool = True) -> BitMap:
    """Rows of the k smallest values (ascending sort), with nulls placed as asked."""
    return _fill_nulls(index, k, nulls, found, strict, largest=False)


def _fill_nulls(index: Index, k: int, nulls: str, found: BitMap | None, strict: bool, largest: bool) -> BitMap:
    """RangeBitmap.fillNulls: nulls before or after the k values, strict or keeping ties."""
    if nulls not in (NULLS_FIRST, NULLS_LAST):
        raise UsageError(f"null ordering is {NULLS_FIRST!r} or {NULLS_LAST!r}, not {nulls!r}")
    if not index.keys:
        return _all_rows(index)
    if nulls == NULLS_LAST:
        rows = _k_extreme(index, k, found, strict, largest)
        if len(rows) >= k:
            return rows
        null_rows = is_null(index, found)
        return rows | (null_rows[: k - len(rows)] if strict else null_rows)
    rows = is_null(index, found)
    if len(rows) >= k:
        return rows[:k] if strict else rows
    return rows | _k_extreme(index, k - len(rows), found, strict, largest)


OPERATORS = {
    "eq": lambda ix, lits: eq(ix, lits[0]),
    "not_eq": lambda ix, lits: not_eq(ix, lits[0]),
    "lt": lambda ix, lits: lt(ix, lits[0]),
    "lte": lambda ix, lits: lte(ix, lits[0]),
    "gt": lambda ix, lits: gt(ix, lits[0]),
    "gte": lambda ix, lits: gte(ix, lits[0]),
    "in": in_,
    "not_in": not_in,
    "between": lambda ix, lits: between(ix, lits[0], lits[1]),
    "is_null": lambda ix, lits: is_null(ix),
    "is_not_null": lambda ix, lits: is_not_null(ix),
}


def evaluate(index: Index, op: str, keys: Sequence[Any]) -> BitMap:
    """Rows a predicate selects; `keys` in the writer's key form."""
    if op not in OPERATORS:
        raise UsageError(f"the range-bitmap index does not answer {op!r}")
    return OPERATORS[op](index, list(keys))
