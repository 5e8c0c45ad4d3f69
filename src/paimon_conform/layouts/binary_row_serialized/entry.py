"""Layout `binary_row_serialized`: a BinaryRow behind the 4-byte arity prefix Java's
SerializationUtils.serializeBinaryRow writes, as the manifests store partitions and key ranges. The row
itself is `binary_row`'s: same codec (layouts/binary_row/codec.py), same case, bytes after the prefix."""

from __future__ import annotations

from paimon_conform.layouts.binary_row.entry import row_layout

LAYOUT = row_layout(
    "binary_row_serialized", "binary-row-serialized", "BinaryRow with the manifests' arity prefix", True
)
