"""Bitmap global-index files (`index/bitmap-global-index-<uuid>.index`) against their index-manifest entries.

Java 1.4.1 writes a bitmap global index as a bitmap file-index payload (BitmapGlobalIndex wraps
BitmapFileIndex): layout `bitmap_index`, row i of the payload being row id `_ROW_RANGE_START + i`.
Java 2.0.0 replaced it with its own layout, footer magic `BGIX` (BitmapGlobalIndexFormat,
apache/paimon#8276, layout `bitmap_global_index`), and reads only that one: a filtered scan that evaluates
the index (`global-index.enabled`, default true) fails on 1.4's files, which have no `_INDEX_META`
(run: a NullPointerException in SortedIndexFileMeta.deserialize); 1.4 in turn reads BGIX files as
payloads and finds no row in them (run, silently). A BGIX file is also checked against its entry's
`_INDEX_META` (SortedIndexFileMeta: first and last key, whether there are nulls), by which Java
2.0 skips whole files.

BTree global indexes (`btree`, Java 1.4.1 on, one layout in 1.4.1 and 2.0.0: `btree_global_index`)
are checked the same way; Java 1.4.1 already skips files by their `_INDEX_META` (BTreeIndexMeta,
the same bytes without 2.0's two trailing flag bytes; BTreeFileMetaSelector). The other global
index types (vector and full-text indexes) are not checked; features.recognized names them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pyroaring import BitMap64

from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_global_index import codec as bgix_codec
from paimon_conform.layouts.bitmap_global_index import entry as bgix
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.btree_global_index import entry as btree
from paimon_conform.layouts.sorted_index import order, read_index_meta, read_key
from paimon_conform.table.metadata import GlobalIndexMeta, IndexManifestEntry, ManifestEntry
from paimon_conform.table.schema import TableSchema

BITMAP_TYPE = "bitmap"
BTREE_TYPE = "btree"  # BTreeGlobalIndexerFactory.IDENTIFIER
ONLY_BGIX = ("2.0",)  # releases whose reader takes the BGIX layout only
PAYLOAD_READERS = ("1.4",)  # releases whose reader takes the 1.4 layout (a bitmap file-index payload)
BTREE_READERS = ("1.4", "2.0")  # BTreeGlobalIndexer since 1.4.1; both prune files by _INDEX_META
PAYLOAD_IN_2_0 = (
    "a bitmap global index in Java 1.4's layout (a bitmap file-index payload, no _INDEX_META): Java 2.0 reads "
    "bitmap global indexes only as BGIX files with their SortedIndexFileMeta (apache/paimon#8276), and its filtered "
    "scans of the column fail while global-index.enabled is true (run: Java 2.0.0 on a table Java 1.4.2 wrote "
    "throws a NullPointerException in SortedIndexFileMeta.deserialize); rebuild the index with 2.0 or turn the "
    "option off"
)
BGIX_IN_1_4 = (
    "a bitmap global index in Java 2.0's BGIX layout: Java 1.4 reads bitmap global indexes as bitmap file-index "
    "payloads, and its filtered scans of the column silently return no row while global-index.enabled is true "
    "(run: Java 1.4.2 on a table Java 2.0.0 wrote finds none of the matching rows, NULL included)"
)


def is_bgix(data: bytes) -> bool:
    """A bitmap global index in Java 2.0's layout (BitmapGlobalIndexFormat's footer)."""
    return data[-4:] == bgix_codec.MAGIC_BYTES


def field_types(schema: TableSchema) -> dict[int, DataType]:
    """The table's columns by field id, for global indexes' `_INDEX_FIELD_ID` (modelled types only)."""
    return {f.id: f.type for f in schema.fields if f.type.root != "UNSUPPORTED"}


def live_row_ids(entries: Iterable[ManifestEntry]) -> BitMap64:
    """The row ids the live data files hold (their _FIRST_ROW_ID ranges): the rows a filtered scan can miss."""
    ids = BitMap64()
    for e in entries:
        first, n = e.file.first_row_id, e.file.row_count
        if first is not None and first >= 0 and n > 0:
            ids.add_range(first, first + n)
    return ids


def check_global_file(
    rel: str, data: bytes, e: IndexManifestEntry, owner: str, types: dict[int, DataType], live: BitMap64
) -> list:
    """Findings for one live bitmap global-index file, in the 1.4 or the 2.0 layout (others are left); `live`
    holds the row ids of the live data files."""
    meta = e.global_index
    if meta is None or e.index_type not in (BITMAP_TYPE, BTREE_TYPE):
        return []
    t = types.get(meta.index_field_id)
    if t is None:
        return []  # a dropped column (Java then never opens the index) or a type the kit does not model
    if e.index_type == BTREE_TYPE:
        found, rows = _sorted(btree.findings(data, t), t, meta, owner, BTREE_READERS)
        for f in found:
            f.file = f.file or rel
        return found if rows is None else found + _row_range(rows, e, owner, live, BTREE_READERS)
    if is_bgix(data):
        found, rows = _sorted(bgix.findings(data, t), t, meta, owner, ONLY_BGIX)
        readers, unread_by, msg = ONLY_BGIX, PAYLOAD_READERS, BGIX_IN_1_4
    else:
        found, tree = bitmap.check_tree(data, t)
        rows = None if any(f.severity == "must" for f in found) else _range(tree.num_rows)
        readers, unread_by, msg = PAYLOAD_READERS, ONLY_BGIX, PAYLOAD_IN_2_0
    for f in found:
        f.file = f.file or rel
    if rows is None:
        return found
    found += _row_range(rows, e, owner, live, readers)
    found.append(Finding("GLOBAL_INDEX_LAYOUT", "must", "", None, msg, rel, java_releases=unread_by, otherwise=None))
    return found


def _range(n: int) -> BitMap64:
    """Rows 0..n-1 (a 1.4 payload's rows are its positions)."""
    rows = BitMap64()
    rows.add_range(0, n)
    return rows


def _row_range(
    rows: BitMap64, e: IndexManifestEntry, owner: str, live: BitMap64, readers: tuple[str, ...]
) -> list[Finding]:
    """The relative rows the index records against the entry's row range, the live rows and the row count. Java
    maps the index's row i to row id _ROW_RANGE_START + i and takes the range as indexed: a live row of the range
    the index does not hold is missed by filtered scans (a must for the index's readers, run: 1.4.2 and 2.0.0);
    a range past the live rows, or index rows past the range's end, are not (Java reads every row)."""
    meta = e.global_index
    assert meta is not None
    span = meta.row_range_end - meta.row_range_start + 1
    at = f"entries[{e.index}]._GLOBAL_INDEX"
    out = []
    if len(rows) != span or (rows and rows.max() >= span):
        covered = BitMap64()
        covered.add_range(meta.row_range_start, meta.row_range_end + 1)
        held = BitMap64(r + meta.row_range_start for r in rows if r < span)
        missed = (covered & live) - held
        msg = (
            f"the index records {len(rows)} row(s) (relative ids up to {rows.max() if rows else '-'}), the entry's row "
            f"range {meta.row_range_start}..{meta.row_range_end} has {span}"
        )
        if missed:
            shown = ", ".join(str(r) for r in list(missed)[:5]) + (", ..." if len(missed) > 5 else "")
            msg += (
                f": {len(missed)} live row(s) of the range are not in the index (row ids {shown}); Java takes the "
                "range as indexed and filtered scans miss them"
            )
            out.append(Finding("GLOBAL_INDEX_ROW_RANGE", "must", at, None, msg, owner, java_releases=readers))
        else:
            msg += ": every live row of the range is in the index (Java reads the rest without it)"
            out.append(Finding("GLOBAL_INDEX_ROW_RANGE", "should", at, None, msg, owner))
    if e.row_count != span:
        msg = f"_ROW_COUNT is {e.row_count}, the entry's row range has {span} row(s)"
        out.append(Finding("INDEX_MANIFEST_ROW_COUNT", "should", f"entries[{e.index}]._ROW_COUNT", None, msg, owner))
    return out


def _sorted(
    found_index: tuple[list[Finding], Any], t: DataType, meta: GlobalIndexMeta, owner: str, readers: tuple[str, ...]
) -> tuple[list[Finding], BitMap64 | None]:
    """A sorted global index (BGIX or BTree): the layout's findings, its rows (None when unreadable), and the
    _INDEX_META check for the releases that prune files by it."""
    found, index = found_index
    if index is None or any(f.severity == "must" for f in found):
        return found, None
    if meta.index_meta is not None:
        found += _index_meta(meta.index_meta, index.keys, index.null_rows, t, owner, readers)
    return found, index.all_rows


def _index_meta(
    raw: bytes, keys: list[bytes], null_rows: BitMap64, t: DataType, owner: str, readers: tuple[str, ...]
) -> list[Finding]:
    """_INDEX_META (SortedIndexFileMeta) against the file: Java prunes files by its keys and null flag."""
    at = "_GLOBAL_INDEX._INDEX_META"
    try:
        first, last, has_nulls = read_index_meta(raw)
    except ValueError as exc:
        msg = f"SortedIndexFileMeta.deserialize fails ({exc}): Java cannot plan a scan with this index"
        return [Finding("GLOBAL_INDEX_META", "must", at, None, msg, owner, java_releases=readers, otherwise=None)]
    actual = (keys[0] if keys else None, keys[-1] if keys else None, bool(null_rows))
    if (first, last, has_nulls) == actual:
        return []
    sort = order(t)
    try:
        narrower = (
            (actual[0] is not None and (first is None or sort(read_key(t, first)) > sort(read_key(t, actual[0]))))
            or (actual[1] is not None and (last is None or sort(read_key(t, last)) < sort(read_key(t, actual[1]))))
            or (actual[2] and not has_nulls)
        )
    except ValueError:
        narrower = True
    msg = (
        f"_INDEX_META says keys {_hex(first)}..{_hex(last)}, nulls {has_nulls}; the file holds {_hex(actual[0])}.."
        f"{_hex(actual[1])}, nulls {actual[2]}"
    )
    if narrower:
        msg += ": Java skips the file for values (or nulls) it does hold, and filtered scans miss rows"
        return [Finding("GLOBAL_INDEX_META", "must", at, None, msg, owner, java_releases=readers, otherwise=None)]
    return [Finding("GLOBAL_INDEX_META", "should", at, None, msg + ": wider than the file (no row is missed)", owner)]


def _hex(key: bytes | None) -> str:
    return "null" if key is None else key.hex() or "''"
