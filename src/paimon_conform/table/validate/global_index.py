"""Bitmap global-index files (`index/bitmap-global-index-<uuid>.index`) against their index-manifest entries.

Java 1.4.1 writes a bitmap global index as a bitmap file-index payload (BitmapGlobalIndex wraps
BitmapFileIndex): layout `bitmap_index`, row i of the payload being row id `_ROW_RANGE_START + i`.
Java 2.0.0 replaced it with its own layout, footer magic `BGIX` (BitmapGlobalIndexFormat,
apache/paimon#8276), and reads only that one: `readFooter` refuses the 1.4 bytes ('bad footer
magic') when a filtered scan evaluates the index (`global-index.enabled`, default true). The
BGIX bytes and the other global index types (btree, vector and full-text indexes) are not
checked; features.recognized names them.
"""

from __future__ import annotations

from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.table.metadata import IndexManifestEntry
from paimon_conform.table.schema import TableSchema

BITMAP_TYPE = "bitmap"
BGIX_MAGIC = b"BGIX"  # 0x42474958, the last 4 bytes of a 2.0 bitmap global index (big-endian int)
ONLY_BGIX = ("2.0",)  # releases whose reader takes the BGIX layout only


def is_bgix(data: bytes) -> bool:
    """A bitmap global index in Java 2.0's layout (BitmapGlobalIndexFormat's footer)."""
    return data[-4:] == BGIX_MAGIC


def field_types(schema: TableSchema) -> dict[int, DataType]:
    """The table's columns by field id, for global indexes' `_INDEX_FIELD_ID` (modelled types only)."""
    return {f.id: f.type for f in schema.fields if f.type.root != "UNSUPPORTED"}


def check_global_file(rel: str, data: bytes, e: IndexManifestEntry, owner: str, types: dict[int, DataType]) -> list:
    """Findings for one live global-index file (a bitmap index in the 1.4 layout; others are left)."""
    meta = e.global_index
    if meta is None or e.index_type != BITMAP_TYPE or is_bgix(data):
        return []
    t = types.get(meta.index_field_id)
    if t is None:
        return []  # a dropped column (Java then never opens the index) or a type the kit does not model
    found, tree = bitmap.check_tree(data, t)
    for f in found:
        f.file = rel
    if any(f.severity == "must" for f in found):
        return found
    rows = tree.num_rows
    span = meta.row_range_end - meta.row_range_start + 1
    at = f"entries[{e.index}]._GLOBAL_INDEX"
    if rows != span:
        msg = (
            f"the bitmap indexes {rows} row(s), the entry's row range {meta.row_range_start}..{meta.row_range_end} "
            f"has {span}: Java maps the index's row i to row id {meta.row_range_start} + i, so filtered scans "
            "select other rows than the index was built from"
        )
        found.append(Finding("GLOBAL_INDEX_ROW_RANGE", "must", at, None, msg, owner))
    if e.row_count != span:
        msg = f"_ROW_COUNT is {e.row_count}, the entry's row range has {span} row(s)"
        found.append(Finding("INDEX_MANIFEST_ROW_COUNT", "should", f"entries[{e.index}]._ROW_COUNT", None, msg, owner))
    msg = (
        "a bitmap global index in Java 1.4's layout (a bitmap file-index payload): Java 2.0.0 reads only its new "
        "BGIX layout (apache/paimon#8276) and fails filtered scans of the column ('bad footer magic') while "
        "global-index.enabled is true; rebuild the index with 2.0 or turn the option off"
    )
    found.append(Finding("GLOBAL_INDEX_LAYOUT", "must", "", None, msg, rel, java_releases=ONLY_BGIX, otherwise=None))
    return found
