"""The bitmap global index file (BGIX, Paimon 2.0): Java's key bytes, the writer, and the checks the spec
cannot make (key order by the column type, the bitmaps against each other, the index meta).

`encode(t, values)` writes what BitmapGlobalIndexWriter writes for a column's values in row order (row i
is relative row id i). `read(data)` parses with the spec; `check(index, t)` lists the findings beyond it.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import block_codec, budget, structure
from paimon_conform.core.block_codec import NONE, var_int
from paimon_conform.core.errors import EncodeError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, java_order
from paimon_conform.layouts.roaring64 import codec as roaring64
from paimon_conform.layouts.roaring64 import entry as roaring64_entry

NAME = "bitmap_global_index"
MAGIC = 0x42474958
MAGIC_BYTES = MAGIC.to_bytes(4, "big")  # "BGIX", the file's last 4 bytes
VERSION = 1
FOOTER = 48
DEFAULT_BLOCK_SIZE = 16 * 1024  # bitmap-index.dictionary-block-size
ROW_BYTES = 48  # one row while the writer groups a column (value, row id, sort slot)
UNSUPPORTED = ("BINARY", "VARBINARY")  # KeySerializer: "not supported by global index now"


def supported(t: DataType) -> bool:
    """Whether Java's KeySerializer has a serializer for the column type."""
    return t.root not in UNSUPPORTED and t.root != "UNSUPPORTED"


def _utf8(v: str | bytes) -> bytes:
    """A string key's bytes (BinaryString: UTF-8; key bytes read back stay as they are)."""
    return v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass")


def _compact(t: DataType) -> bool:
    """Decimal.isCompact / Timestamp.isCompact: the 8-byte form."""
    return (t.precision or 0) <= 18 if t.root == "DECIMAL" else t.timestamp_precision <= 3


def key_bytes(t: DataType, v: Any) -> bytes:
    """KeySerializer.serialize of an internal value (numbers in the platform's little-endian order)."""
    root = t.root
    if t.is_string:
        return _utf8(v)
    if root == "BOOLEAN":
        return b"\x01" if v else b"\x00"
    if root == "TINYINT":
        return struct.pack("<b", v)
    if root == "SMALLINT":
        return struct.pack("<h", v)
    if root in ("INT", "DATE", "TIME"):
        return struct.pack("<i", v)
    if root == "BIGINT":
        return struct.pack("<q", v)
    if root == "FLOAT":  # Float.floatToIntBits: one NaN pattern
        return struct.pack("<I", 0x7FC00000) if math.isnan(v) else struct.pack("<f", v)
    if root == "DOUBLE":
        return struct.pack("<Q", 0x7FF8000000000000) if math.isnan(v) else struct.pack("<d", v)
    if root == "DECIMAL":
        unscaled = v[0]
        if _compact(t):
            return struct.pack("<q", unscaled)
        return unscaled.to_bytes(max(1, (unscaled + (unscaled < 0)).bit_length() // 8 + 1), "big", signed=True)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        millis, nanos = v
        return struct.pack("<q", millis) + (b"" if _compact(t) else var_int(nanos))
    raise EncodeError(f"{t} is not supported by Java's global index (KeySerializer)")


_WIDTH = {"BOOLEAN": 1, "TINYINT": 1, "SMALLINT": 2, "INT": 4, "DATE": 4, "TIME": 4, "BIGINT": 8, "FLOAT": 4}
_WIDTH |= {"DOUBLE": 8}


def read_key(t: DataType, raw: bytes) -> Any:
    """KeySerializer.deserialize: the internal value Java reads from key bytes; ValueError where it fails."""
    root = t.root
    if t.is_string:
        return raw  # BinaryString.fromBytes: no UTF-8 check, compared byte by byte
    if root == "DECIMAL" and not _compact(t):
        if not raw:
            raise ValueError("an empty unscaled value")
        return (int.from_bytes(raw, "big", signed=True), t.precision, t.scale)
    width = 8 if root in ("DECIMAL", "TIMESTAMP", "TIMESTAMP_LTZ") else _WIDTH[root]
    if len(raw) < width:
        raise ValueError(f"{len(raw)} byte(s), a {t} key reads {width}")
    if root == "BOOLEAN":
        return raw[0] == 1
    fmt = {1: "<b", 2: "<h", 4: "<i", 8: "<q"}[width]
    if root == "FLOAT":
        fmt = "<f"
    elif root == "DOUBLE":
        fmt = "<d"
    (n,) = struct.unpack_from(fmt, raw)
    if root == "DECIMAL":
        return (n, t.precision, t.scale)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        if _compact(t):
            return (n, 0)
        got = block_codec.read_var_int(raw, 8)
        if got is None or got[0] < 0:
            raise ValueError("the nanos of the milli are missing or negative")
        return (n, got[0])
    return n


def order(t: DataType) -> Callable[[Any], Any]:
    """The sort key of KeySerializer.createComparator (strings: bytes, unsigned)."""
    return _utf8 if t.is_string else java_order(t)


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


def group_rows(t: DataType, values: Sequence[Any]) -> tuple[list[bytes], list[np.ndarray], np.ndarray]:
    """Distinct keys in the comparator's order (as key bytes), each one's row ids, and the null rows."""
    budget.reserve(ROW_BYTES * len(values), f"the {len(values)} rows of a global index")
    sort = order(t)
    by_key: dict[bytes, list[int]] = {}
    sample: dict[bytes, Any] = {}
    nulls = []
    for row, v in enumerate(values):
        if v is None:
            nulls.append(row)
            continue
        k = key_bytes(t, v)
        by_key.setdefault(k, []).append(row)
        sample.setdefault(k, v)
    keys = sorted(by_key, key=lambda k: sort(sample[k]))
    return keys, [np.asarray(by_key[k], dtype=np.uint64) for k in keys], np.asarray(nulls, dtype=np.uint64)


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


def index_meta(first: bytes | None, last: bytes | None, has_nulls: bool) -> bytes:
    """SortedIndexFileMeta.serialize: the `_INDEX_META` bytes of the index-manifest entry."""
    flags = (first is None) | ((last is None) << 1)
    parts = [struct.pack("<i", len(first or b"")), first or b"", struct.pack("<i", len(last or b"")), last or b""]
    return b"".join(parts) + bytes([int(has_nulls), 1, flags])


def read_index_meta(data: bytes) -> tuple[bytes | None, bytes | None, bool]:
    """SortedIndexFileMeta.deserialize: (first key, last key, has nulls); ValueError where Java fails."""
    pos = 0
    keys = []
    for _ in range(2):
        if len(data) < pos + 4:
            raise ValueError(f"the meta ends at byte {len(data)}, inside a key length")
        (n,) = struct.unpack_from("<i", data, pos)
        if n < 0 or len(data) < pos + 4 + n:
            raise ValueError(f"key length {n} at byte {pos} does not fit the {len(data)}-byte meta")
        keys.append(data[pos + 4 : pos + 4 + n])
        pos += 4 + n
    if len(data) <= pos:
        raise ValueError("the meta ends before its has-nulls byte")
    has_nulls = data[pos] == 1
    first, last = keys
    rest = data[pos + 1 :]
    if len(rest) >= 2:
        if rest[0] == 1:
            return (None if rest[1] & 1 else first), (None if rest[1] & 2 else last), has_nulls
        return first, last, has_nulls
    if not first and not last and has_nulls:
        return None, None, has_nulls
    return first, last, has_nulls


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
    def rows(self) -> BitMap64:
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


def _key_findings(index: Index, t: DataType) -> list[Finding]:
    """Keys Java cannot read, keys out of the comparator's order, and key bytes Java would not write."""
    if not supported(t):
        msg = f"the index is on a {t} column, which Java's KeySerializer does not support: no reader opens it"
        return [Finding("BGIX_BAD_KEY", "must", "", None, msg)]
    out: list[Finding] = []
    sort = order(t)
    prev = None
    for i, raw in enumerate(index.keys):
        path = f"keys[{i}]"
        try:
            value = read_key(t, raw)
        except ValueError as exc:
            out.append(Finding("BGIX_BAD_KEY", "must", path, None, f"Java cannot read it as a {t} key: {exc}"))
            return out
        if prev is not None and not sort(prev) < sort(value):
            msg = (
                f"key {i} does not sort after key {i - 1} by the {t} comparator: the writer refuses keys out of "
                "order, and the reader's binary search and early stop miss values"
            )
            out.append(Finding("BGIX_KEY_ORDER", "must", path, None, msg))
        if key_bytes(t, value) != raw:
            msg = f"key bytes {raw.hex()} are not the ones Java writes for the value they read as"
            out.append(Finding("BGIX_KEY_NOT_CANONICAL", "should", path, None, msg))
        prev = value
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
        out += _key_findings(index, t)
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
