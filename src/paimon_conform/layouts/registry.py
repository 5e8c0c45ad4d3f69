"""The layout registry: one entry per binary layout the kit knows."""

from __future__ import annotations

from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.base import Layout
from paimon_conform.layouts.binary_row import entry as binary_row
from paimon_conform.layouts.binary_row_serialized import entry as binary_row_serialized
from paimon_conform.layouts.bitmap_global_index import entry as bitmap_global_index
from paimon_conform.layouts.bitmap_index import entry as bitmap_index
from paimon_conform.layouts.blob_descriptor import entry as blob_descriptor
from paimon_conform.layouts.blob_file import entry as blob_file
from paimon_conform.layouts.bloom_filter import entry as bloom_filter
from paimon_conform.layouts.bsi import entry as bsi
from paimon_conform.layouts.btree_global_index import entry as btree_global_index
from paimon_conform.layouts.deletion_vectors import entry as deletion_vectors
from paimon_conform.layouts.file_index import entry as file_index
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.layouts.range_bitmap import entry as range_bitmap
from paimon_conform.layouts.roaring32 import entry as roaring32
from paimon_conform.layouts.roaring64 import entry as roaring64
from paimon_conform.layouts.row_file import entry as row_file

LAYOUTS: dict[str, Layout] = {
    m.LAYOUT.kind: m.LAYOUT
    for m in (
        roaring32,
        roaring64,
        deletion_vectors,
        hash_index,
        file_index,
        bloom_filter,
        bitmap_index,
        range_bitmap,
        bsi,
        binary_row,
        binary_row_serialized,
        blob_file,
        blob_descriptor,
        bitmap_global_index,
        btree_global_index,
        row_file,
    )
}
BY_NAME: dict[str, Layout] = {layout.name: layout for layout in LAYOUTS.values()}
DETECT_ORDER = (
    "file-index",
    "deletion-vectors",
    "bitmap-global-index",  # before the bitmaps: a BGIX file starts with one (its magic is at the end)
    "btree-global-index",  # its magic is at the end too
    "row-file",  # so is this one's
    "roaring32",
    "roaring64",
    "blob-file",
    "blob-descriptor",
)


def get(kind: str) -> Layout:
    """The layout for a CLI/case kind (`deletion-vectors`) or a layout name (`deletion_vectors`)."""
    layout = LAYOUTS.get(kind) or BY_NAME.get(kind)
    if layout is None:
        raise UsageError(f"unknown kind {kind!r}; known kinds: {', '.join(sorted(LAYOUTS))}")
    return layout


def detect(data: bytes) -> Layout | None:
    """The layout the bytes announce, or None when they do not say."""
    for kind in DETECT_ORDER:
        if LAYOUTS[kind].detect(data):
            return LAYOUTS[kind]
    return None
