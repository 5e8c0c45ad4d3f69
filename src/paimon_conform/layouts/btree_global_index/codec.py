"""The BTree global index file (PBTI, Paimon 1.4.1): the writer, and the checks the spec cannot make (the
SST block layout, key order by the column type, the posting lists against each other and the null rows).

`encode(t, values)` writes what BTreeIndexWriter writes for a column's values in row order (row i is
relative row id i). `read(data)` parses with the spec; `check(index, t)` lists the findings beyond it.
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import block_codec, budget, structure
from paimon_conform.core.block_codec import NONE, var_int
from paimon_conform.core.errors import EncodeError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_global_index.codec import bitmap_bytes
from paimon_conform.layouts.roaring64 import entry as roaring64_entry
from paimon_conform.layouts.sorted_index import group_rows, key_findings, supported

NAME = "btree_global_index"
MAGIC = 0x50425449
MAGIC_BYTES = struct.pack("<I", MAGIC)  # the footer's last 4 bytes, little-endian
VERSION = 1
FOOTER = 52
DEFAULT_BLOCK_SIZE = 64 * 1024  # btree-index.block-size
ALIGNED, UNALIGNED = 0, 1  # BlockAlignedType


class BlockWriter:
    """SST BlockWriter: entries, then the aligned record length or every entry's position and the count."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.positions: list[int] = []
        self.aligned_size = 0
        self.aligned = True

    def add(self, key: bytes, value: bytes) -> None:
        start = len(self.data)
        self.data += var_int(len(key)) + key + var_int(len(value)) + value
        self.positions.append(start)
        if self.aligned:
            size = len(self.data) - start
            if self.aligned_size == 0:
                self.aligned_size = size
            else:
                self.aligned = self.aligned_size == size

    def memory(self) -> int:
        """BlockWriter.memory: what the finished block would take."""
        return len(self.data) + 5 + (0 if self.aligned else 4 * len(self.positions))

    def finish(self) -> bytes:
        aligned = self.aligned and bool(self.positions)
        if aligned:
            tail = struct.pack("<i", self.aligned_size)
        else:
            tail = struct.pack(f"<{len(self.positions)}i", *self.positions) + struct.pack("<i", len(self.positions))
        return bytes(self.data) + tail + bytes([ALIGNED if aligned else UNALIGNED])


def posting_list(rows: np.ndarray) -> bytes:
    """BTreeIndexWriter.flush: the row count, then each row id as a var-long."""
    return var_int(len(rows)) + b"".join(var_int(int(r), block_codec.MAX_LONG_BYTES) for r in rows)


def encode(t: DataType, values: Sequence[Any], block_size: int = DEFAULT_BLOCK_SIZE, compression: int = NONE) -> bytes:
    """The file BTreeIndexWriter writes for a column's values (row i is relative row id i)."""
    if not supported(t):
        raise EncodeError(f"{t} is not supported by Java's global index (KeySerializer)")
    if not values:
        raise EncodeError("Java writes no btree index file for zero rows ('Should never write an empty btree index')")
    if block_size <= 0:
        raise EncodeError("the block size must be greater than 0")
    keys, rows, nulls = group_rows(t, values)
    out = bytearray()
    index = BlockWriter()
    data = BlockWriter()

    def write_block(block: BlockWriter) -> tuple[int, int]:
        used, stored = block_codec.compress(compression, block.finish())
        at = len(out)
        out.extend(stored + block_codec.trailer(stored, used))
        return at, len(stored)

    last = b""
    for key, ids in zip(keys, rows, strict=True):
        data.add(key, posting_list(ids))
        last = key
        if data.memory() > block_size:
            at, length = write_block(data)
            index.add(last, var_int(at, block_codec.MAX_LONG_BYTES) + var_int(length))
            data = BlockWriter()
    if data.positions:
        at, length = write_block(data)
        index.add(last, var_int(at, block_codec.MAX_LONG_BYTES) + var_int(length))
    null_at = null_len = 0
    if nulls.size:
        bitmap = bitmap_bytes(nulls)
        null_at, null_len = len(out), len(bitmap)
        out.extend(bitmap + struct.pack("<I", block_codec.crc32(bitmap)))
    index_at, index_len = write_block(index)
    footer = struct.pack("<qiqqiqiiI", 0, 0, 0, index_at, index_len, null_at, null_len, VERSION, MAGIC)
    return bytes(out) + footer


@dataclass
class Index:
    """A parsed BTree index: its keys and row ids in file order, the null rows, the blocks' codecs."""

    keys: list[bytes]
    rows: list[list[int]]
    null_rows: BitMap64
    block_counts: list[int]
    compressions: list[int]
    obj: Any

    @property
    def all_rows(self) -> BitMap64:
        """Every row the index records, null or not."""
        out = BitMap64(self.null_rows)
        for r in self.rows:
            out.update(r)
        return out


def read(data: bytes) -> Index:
    """The index as the spec's parser reads it; LayoutError on any fault it meets. The last two files read
    are kept, per memory budget (validating and inspecting one file parse its blocks once)."""
    return _read(bytes(data), budget.current().max_memory)


@functools.lru_cache(maxsize=2)
def _read(data: bytes, max_memory: int) -> Index:
    obj = structure.parse(NAME, data)
    slots = obj.data_blocks
    null_rows = roaring64_entry.bitmap(obj.null_rows) if obj.footer.has_null_rows else BitMap64()
    return Index(
        [e.key for s in slots for e in s.block.content.entries_region.entries],
        [[r.value for r in e.value.row_ids] for s in slots for e in s.block.content.entries_region.entries],
        null_rows,
        [len(s.block.content.entries_region.entries) for s in slots],
        [int(s.block.trailer.compression) for s in slots] + [int(obj.index.trailer.compression)],
        obj,
    )


def _block_findings(path: str, block: Any) -> list[Finding]:
    """The SST layout footer of one block against its entries: Java seeks entry i by it."""
    content = block.content
    entries = content.entries_region.entries
    starts, at = [], 0
    for e in entries:
        starts.append(at)
        at += len(e.len_key.groups) + len(e.key) + len(e.len_value.groups) + len(e._raw_value)
    sizes = [b - a for a, b in pairwise([*starts, at])]
    if content.is_aligned:
        if any(s != content.stated_int for s in sizes):
            msg = f"the block says every entry takes {content.stated_int} bytes, but entries take {sorted(set(sizes))}"
            return [Finding("SST_BAD_LAYOUT", "must", f"{path}.content.layout_int", None, msg)]
    elif list(content.positions) != starts:
        msg = "the positions the block lists are not where its entries start: Java's binary search reads other bytes"
        return [Finding("SST_BAD_LAYOUT", "must", f"{path}.content.positions", None, msg)]
    return []


def _row_findings(index: Index) -> list[Finding]:
    """Each row holds one value or is null: posting lists do not meet each other or the null rows."""
    out: list[Finding] = []
    seen = BitMap64()
    for i, rows in enumerate(index.rows):
        bm = BitMap64(rows)
        path = f"keys[{i}]"
        if len(bm) != len(rows):
            out.append(Finding("BTREE_DUPLICATE_ROW", "should", path, None, "a row id listed twice for one key"))
        if any(b < a for a, b in pairwise(rows)):
            msg = "the key's row ids are not ascending; Java's writer lists them in row order"
            out.append(Finding("BTREE_ROW_ORDER", "should", path, None, msg))
        if any(r < 0 for r in rows):
            msg = "a negative row id (a var-long past 63 bits); no row has it"
            out.append(Finding("BTREE_BAD_ROW", "must", path, None, msg))
            continue
        if seen.intersection_cardinality(bm):
            msg = "rows of this key are listed for an earlier key too: a row holds one value"
            out.append(Finding("BTREE_ROWS_OVERLAP", "must", path, None, msg))
        seen |= bm
    if index.null_rows.intersection_cardinality(seen):
        msg = "rows are both NULL and listed for a key: IS NULL and = both select them"
        out.append(Finding("BTREE_ROWS_OVERLAP", "must", "null_rows", None, msg))
    return out


def check(index: Index, t: DataType | None) -> list[Finding]:
    """The findings beyond the spec for a parsed index (keys need the column type)."""
    obj = index.obj
    out = _block_findings("index", obj.index)
    for i, s in enumerate(obj.data_blocks):
        out += _block_findings(f"data_blocks[{i}].block", s.block)
    if obj.footer.has_null_rows:
        at = obj.footer.ofs_null_rows
        out += [f for f in roaring64_entry.check(obj.null_rows, "null_rows", at) if f.code != "ROARING64_NOT_DENSE"]
        if obj.null_rows_crc != obj.computed_null_rows_crc.value:
            msg = "the null-rows bitmap's CRC-32 does not match ('Crc check failure during decoding null bitmap')"
            out.append(Finding("BTREE_NULL_ROWS_CRC", "must", "null_rows_crc", at + obj.footer.len_null_rows, msg))
    if any(f.severity == "must" for f in out):
        return out
    if not index.keys and not index.null_rows:
        msg = "no key and no null row: Java never writes an empty btree index file"
        out.append(Finding("BTREE_EMPTY", "should", "", None, msg))
    if t is not None:
        out += key_findings(index.keys, t, "BTREE")
    return out + _row_findings(index)


def block_size_of(index: Index) -> int | None:
    """A `btree-index.block-size` for which Java's writer splits the data blocks as this file does: the default
    when it does, else the smallest; None when no size does (a block flushed after each add past the size)."""
    low, high = 1, None
    blocks = index.obj.data_blocks
    for i, slot in enumerate(blocks):
        writer = BlockWriter()
        entries = slot.block.content.entries_region.entries
        for k, e in enumerate(entries):
            writer.add(e.key, e._raw_value)
            if k < len(entries) - 1:  # the block did not flush after this entry
                low = max(low, writer.memory())
            elif i < len(blocks) - 1:  # it flushed after its last entry
                high = writer.memory() - 1 if high is None else min(high, writer.memory() - 1)
    if high is not None and low > high:
        return None
    return DEFAULT_BLOCK_SIZE if low <= DEFAULT_BLOCK_SIZE and (high is None or high >= DEFAULT_BLOCK_SIZE) else low
