"""Predicates over one global-index file (BTree, or 2.0's BGIX bitmap), answered as Java's GlobalIndexEvaluator does.

Both readers answer every leaf from the file's keys and rows: `=`, `IN` the rows of the matching keys; `!=`,
`NOT IN` the non-null rows without them; `<`, `<=`, `>`, `>=`, `BETWEEN` (inclusive, none when the bounds are
reversed) by the column type's key comparator (KeySerializer: NaN above every number, -0.0 below 0.0, strings
byte by byte); `IS NULL` the null rows, `IS NOT NULL` the others (run: Java 1.4.2 and 2.0.0 on the goldens, the
query cases of the Java testees). Rows are the file's relative row ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pyroaring import BitMap, BitMap64

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_global_index import codec as bgix_codec
from paimon_conform.layouts.btree_global_index import codec as btree_codec
from paimon_conform.layouts.sorted_index import index_meta, order, read_key

KINDS = ("btree-global-index", "bitmap-global-index")
MAX_ROW = 2**32 - 1  # the query results are 32-bit row sets


def key_rows(kind: str, data: bytes) -> tuple[list[bytes], list[Iterable[int]], BitMap64]:
    """(keys in file order, each key's rows, the null rows) of a BTree or BGIX global-index file."""
    if kind == "btree-global-index":
        tree = btree_codec.read(data)
        return tree.keys, tree.rows, tree.null_rows
    index = bgix_codec.read(data)
    return index.keys, index.bitmaps, index.null_rows


def _rows(rows: Iterable[int]) -> BitMap:
    out = BitMap64(rows)
    if out and out.max() > MAX_ROW:
        raise UsageError(f"row {out.max()} is past the {MAX_ROW} a query answer holds")
    return BitMap(out)


def file_meta(kind: str, data: bytes, t: DataType) -> bytes:
    """The file's `_INDEX_META` as Java's writer records it (first and last key, whether there are nulls)."""
    keys, _, nulls = key_rows(kind, data)
    sort = order(t)
    ordered = sorted(keys, key=lambda k: sort(read_key(t, k)))
    return index_meta(ordered[0] if ordered else None, ordered[-1] if ordered else None, bool(nulls))


def reader(kind: str, data: bytes, t: DataType) -> Callable[[str, list[Any]], BitMap]:
    """The leaf answers of one file: op and internal literal values -> the rows that match."""
    keys, rows, nulls = key_rows(kind, data)
    sort = order(t)
    try:
        entries = [(sort(read_key(t, k)), _rows(r)) for k, r in zip(keys, rows, strict=True)]
    except ValueError as exc:
        raise UsageError(f"a key of the {kind} file does not read as {t}: {exc}") from None
    null_rows = _rows(nulls)
    non_null = BitMap().union(*(r for _, r in entries)) if entries else BitMap()

    def where(test: Callable[[Any], bool]) -> BitMap:
        return BitMap().union(*(r for k, r in entries if test(k))) if entries else BitMap()

    def visit(op: str, values: list[Any]) -> BitMap:
        bounds = [sort(v) for v in values]
        if op == "is_null":
            return BitMap(null_rows)
        if op == "is_not_null":
            return BitMap(non_null)
        if op in ("eq", "in", "not_eq", "not_in"):
            hit = where(lambda k: k in bounds)
            return hit if op in ("eq", "in") else non_null - hit
        tests = {
            "lt": lambda k: k < bounds[0],
            "lte": lambda k: k <= bounds[0],
            "gt": lambda k: k > bounds[0],
            "gte": lambda k: k >= bounds[0],
            "between": lambda k: bounds[0] <= k <= bounds[1],
        }
        if op not in tests:
            raise UsageError(f"a global index answers no {op!r}")
        return where(tests[op])

    return visit
