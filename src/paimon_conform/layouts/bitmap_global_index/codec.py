"""The bitmap global index file (BGIX, Paimon 2.0): Java's key bytes, the writer, and the checks the spec
cannot make (key order by the column type, the bitmaps against each other, the index meta).

`encode(t, values)` writes what BitmapGlobalIndexWriter writes for a column's values in row order (row i
is relative row id i). `read(data)` parses with the spec; `check(index, t)` lists the findings beyond it.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import block_codec, structure
from paimon_conform.core.block_codec import NONE, var_int
from paimon_conform.core.errors import EncodeError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType
from paimon_conform.layouts.roaring64 import codec as roaring64
from paimon_conform.layouts.roaring64 import entry as roaring64_entry
from paimon_conform.layouts.sorted_index import (  # noqa: F401 - re-exported: the layout's key functions
    group_rows,
    index_meta,
    key_bytes,
    key_findings,
    order,
    read_index_meta,
    read_key,
    supported,
)

NAME = "bitmap_global_index"
MAGIC = 0x42474958
MAGIC_BYTES = MAGIC.to_bytes(4, "big")  # "BGIX", the file's last 4 bytes
VERSION = 1
FOOTER = 48
DEFAULT_BLOCK_SIZE = 16 * 1024  # bitmap-index.dictionary-block-size


def _var_size(value: int) -> int:
    """estimatedVarLenIntSize / estimatedVarLenLongSize."""
    return max(1, (value.bit_length() + 6) // 7)


def _entry_size(key: bytes, offset: int, length: int) -> int:
    """DictionaryEntry.estimatedSize (the same sum for an index-block entry)."""
    return _var_size(len(key)) + len(key) + _var_size(offset) + _var_size(length)


def block_content(entries: Sequence[tuple[bytes, int, int]]) -> bytes:
    """A dictionary or index block before compression: the count, then key length, key, offset, length."""
    parts = [var_int(len(entries))]
    for key, offset, length in entries:
        parts += [var_int(len(key)), key, var_int(offset, block_codec.MAX_LONG_BYTES), var_int(length)]
    return b"".join(parts)


def bitmap_bytes(rows: np.ndarray) -> bytes:
    """RoaringNavigableMap64.serialize: run-optimized, one bucket per high key in use."""
    highs = sorted({int(r) >> 32 for r in rows}) if rows.size else []
    return roaring64.encode_roaring64(rows, bucket_keys=highs)


def encode(t: DataType, values: Sequence[Any], block_size: int = DEFAULT_BLOCK_SIZE, compression: int = NONE) -> bytes:
    """The file BitmapGlobalIndexWriter writes for a column's values (row i is relative row id i)."""
    if not supported(t):
        raise EncodeError(f"{t} is not supported by Java's global index (KeySerializer)")
    if not values:
        raise EncodeError("Java writes no bitmap global index file for zero rows")
    if block_size <= 0:
        raise EncodeError("the dictionary block size must be greater than 0")
    keys, rows, nulls = group_rows(t, values)
    out: list[bytes] = []
    pos = 0
    blocks: list[tuple[bytes, int, int]] = []
    current: list[tuple[bytes, int, int]] = []
    current_size = 0

    def write(data: bytes) -> int:
        nonlocal pos
        at = pos
        out.append(data)
        pos += len(data)
        return at

    def compressible(content: bytes) -> tuple[int, int]:
        used, stored = block_codec.compress(compression, content)
        at = write(stored)
        write(block_codec.trailer(stored, used))
        return at, len(stored)

    def flush() -> None:
        nonlocal current, current_size
        if current:
            at, length = compressible(block_content(current))
            blocks.append((current[0][0], at, length))
            current, current_size = [], 0

    for key, ids in zip(keys, rows, strict=True):
        data = bitmap_bytes(ids)
        entry = (key, write(data), len(data))
        size = _entry_size(*entry)
        if current and _var_size(len(current) + 1) + current_size + size > block_size:
            flush()
        current.append(entry)
        current_size += size
    flush()
    null_data = bitmap_bytes(nulls)
    null_at = write(null_data)
    non_null = np.sort(np.concatenate(rows)) if rows else np.zeros(0, dtype=np.uint64)
    non_null_data = bitmap_bytes(non_null)
    non_null_at = write(non_null_data)
    index_at, index_len = compressible(block_content(blocks))
    footer = struct.pack(
        ">qiqiqiiiI",
        null_at,
        len(null_data),
        non_null_at,
        len(non_null_data),
        index_at,
        index_len,
        len(keys),
        VERSION,
        MAGIC,
    )
    return b"".join(out) + footer


@dataclass
class Index:
    """A parsed bitmap global index: its keys and bitmaps in file order, the null and non-null rows."""

    keys: list[bytes]
    bitmaps: list[BitMap64]
    null_rows: BitMap64
    non_null_rows: BitMap64
    num_values: int
    block_counts: list[int]
    compressions: list[int]
    obj: Any

    @property
    def all_rows(self) -> BitMap64:
        """Every row the index records, null or not."""
        return self.null_rows | self.non_null_rows


def read(data: bytes) -> Index:
    """The index as the spec's parser reads it; LayoutError on any fault it meets."""
    obj = structure.parse(NAME, data)
    slots = obj.dictionary_blocks
    return Index(
        [e.key for s in slots for e in s.block.content.entries],
        [roaring64_entry.bitmap(b.bitmap) for s in slots for b in s.bitmaps],
        roaring64_entry.bitmap(obj.null_rows),
        roaring64_entry.bitmap(obj.non_null_rows),
        obj.footer.num_values,
        [s.block.content.num_entries.value for s in slots],
        [int(s.block.trailer.compression) for s in slots] + [int(obj.index.trailer.compression)],
        obj,
    )


def _bitmap_findings(obj: Any) -> list[Finding]:
    """The roaring library's findings and trailing bytes for every bitmap of the file."""
    out: list[Finding] = []
    named = [("null_rows", obj.null_rows, obj.footer.ofs_null_rows, obj.footer.len_null_rows)]
    named.append(("non_null_rows", obj.non_null_rows, obj.footer.ofs_non_null_rows, obj.footer.len_non_null_rows))
    for i, s in enumerate(obj.dictionary_blocks):
        for j, b in enumerate(s.bitmaps):
            path = f"dictionary_blocks[{i}].bitmaps[{j}].bitmap"
            named.append((path, b.bitmap, b.entry.ofs_block.value, b.entry.len_block.value))
    for path, bm, at, length in named:  # Roaring64NavigableMap writes only the buckets in use: no density rule
        out += [f for f in roaring64_entry.check(bm, path, at) if f.code != "ROARING64_NOT_DENSE"]
        end = roaring64_entry.end_offset(bm, 0)
        if end != length:
            msg = f"{length - end} byte(s) after the bitmap inside its block; Java's reader ignores them"
            out.append(Finding("BGIX_TRAILING_BYTES", "should", path, at + end, msg))
    return out


def _row_findings(index: Index) -> list[Finding]:
    """The value bitmaps partition the non-null rows, which do not meet the null rows."""
    out: list[Finding] = []
    seen = BitMap64()
    for i, bm in enumerate(index.bitmaps):
        path = f"keys[{i}]"
        if not bm:
            out.append(
                Finding("BGIX_EMPTY_BITMAP", "should", path, None, "a value without rows; Java never writes one")
            )
        if seen.intersection_cardinality(bm):
            msg = "rows of this value's bitmap are in an earlier value's bitmap too: a row holds one value"
            out.append(Finding("BGIX_ROWS_OVERLAP", "must", path, None, msg))
        seen |= bm
    if index.null_rows.intersection_cardinality(index.non_null_rows):
        msg = "rows are in both the null-rows and the non-null-rows bitmap: IS NULL and IS NOT NULL both select them"
        out.append(Finding("BGIX_ROWS_OVERLAP", "must", "null_rows", None, msg))
    if seen != index.non_null_rows:
        msg = (
            f"the value bitmaps hold {len(seen)} row(s), the non-null-rows bitmap {len(index.non_null_rows)} "
            f"({len(seen ^ index.non_null_rows)} differ): Java answers = and IS NOT NULL / != from different sets"
        )
        out.append(Finding("BGIX_NON_NULL_ROWS", "must", "non_null_rows", None, msg))
    if index.num_values != len(index.keys):
        msg = f"the footer counts {index.num_values} value(s), the dictionary blocks list {len(index.keys)}"
        out.append(Finding("BGIX_VALUE_COUNT", "should", "footer.num_values", None, msg))
    return out


def check(index: Index, t: DataType | None) -> list[Finding]:
    """The findings beyond the spec for a parsed index (keys need the column type)."""
    out = _bitmap_findings(index.obj)
    if any(f.severity == "must" for f in out):
        return out
    if t is not None:
        out += key_findings(index.keys, t, "BGIX")
    return out + _row_findings(index)


def block_size_range(index: Index) -> tuple[int, int | None]:
    """The dictionary block sizes for which Java's writer splits the entries as this file does: [low, high]."""
    entries = [
        (e.key, e.ofs_block.value, e.len_block.value)
        for s in index.obj.dictionary_blocks
        for e in s.block.content.entries
    ]
    low, high, at = 1, None, 0
    for n in index.block_counts:
        block = entries[at : at + n]
        sizes = [_entry_size(*e) for e in block]
        for k in range(1, n):  # entry k joined a block of k entries
            low = max(low, _var_size(k + 1) + sum(sizes[: k + 1]))
        if at + n < len(entries):  # the next entry did not fit
            after = _var_size(n + 1) + sum(sizes) + _entry_size(*entries[at + n])
            high = after - 1 if high is None else min(high, after - 1)
        at += n
    return low, high
