"""Paimon's range-bitmap file index: Java-exact writer, reader, checks and queries.

The writer sorts the distinct non-null keys (code = rank), packs them into a
chunked dictionary and bit-slices each row's code. Queries follow
RangeBitmap / BitSliceIndexBitmap step by step, min/max shortcuts and top-k
tie trimming included, so their answers are Java's.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.index_keys import java_longs
from paimon_conform.core.options import parse_memory_size
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bitmap_index.codec import KIND_CODES, key_bytes, key_to_internal, map_key, sort_key
from paimon_conform.layouts.roaring32 import codec as roaring

NAME = "range_bitmap"
VERSION = 1
KEY_KINDS = bitmap.KEY_KINDS | {"DECIMAL": "i8"}  # the bitmap index's key kinds, plus compact DECIMAL
KEY_SIZES = {"i1": 1, "i2": 2, "i4": 4, "i8": 8, "f4": 4, "f8": 8, "boolean": 1}
NUMPY_KEYS = {"i1": ">i1", "i2": ">i2", "i4": ">i4", "i8": ">i8", "f4": ">i4", "f8": ">i8", "boolean": ">u1"}
UNCHUNKED = ("i1", "i2", "boolean")  # KeyFactory.defaultChunkSize() "0b": one key per chunk
DEFAULT_CHUNK_SIZE = "16kb"
MAX_LISTED_ROWS = 1_000_000
ROW_BYTES = 64  # one listed row: its number, its code, and its value once listed in a case


def key_kind(t: DataType) -> str:
    """How keys of this column type are written; EncodeError where Java has no range-bitmap."""
    kind = KEY_KINDS.get(t.root)
    if kind is None:
        raise EncodeError(f"the range-bitmap index does not support {t} (Java: unsupported type)")
    if t.root == "DECIMAL" and t.precision > 18:
        raise EncodeError(f"the range-bitmap index needs DECIMAL precision <= 18, not {t}")
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ") and t.timestamp_precision > 6:
        raise EncodeError(f"the range-bitmap index needs TIMESTAMP precision <= 6, not {t}")
    return kind


def default_chunk_size(t: DataType) -> str:
    """KeyFactory.defaultChunkSize() for the column type."""
    return "0b" if key_kind(t) in UNCHUNKED else DEFAULT_CHUNK_SIZE


def chunk_size_bytes(t: DataType, option: Any = None) -> int:
    """The `chunk-size` option (MemorySize text) in bytes, as the writer's (int) cast takes it."""
    size = parse_memory_size(default_chunk_size(t) if option is None else option)
    if size > 2**31 - 1:
        raise EncodeError(f"chunk-size {option!r} does not fit Java's int cast ({size} bytes)")
    return size


def to_key(t: DataType, v: Any) -> Any:
    """The dictionary key for an internal value: the bitmap index's key, DECIMAL as its unscaled long."""
    key_kind(t)
    if v is None:
        return None
    return v[0] if t.root == "DECIMAL" else map_key(t, v)


def codes_of(t: DataType, values: Sequence[Any] | pa.Array) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """Sorted distinct keys, the non-null rows, and each such row's code (= the key's rank). `values`: internal
    values (None = null), or an Arrow array of the column."""
    kind = key_kind(t)
    if kind == "string":
        return _string_codes(t, values)
    rows, longs = java_longs(t, values)  # to_key: the bitmap index's key, DECIMAL its unscaled long
    if kind == "f4":  # sort_key, column-wise: Float.compare / Double.compare order of the bits
        order = longs ^ ((longs >> 31) & 0x7FFFFFFF)
    elif kind == "f8":
        order = longs ^ ((longs >> 63) & 0x7FFFFFFFFFFFFFFF)
    else:
        order = longs
    uniq, first, codes = np.unique(order, return_index=True, return_inverse=True)
    if kind in ("f4", "f8"):
        distinct = longs[first].tolist()
    elif kind == "boolean":
        distinct = [bool(o) for o in uniq.tolist()]
    else:
        distinct = uniq.tolist()
    return distinct, rows, codes.reshape(-1).astype(np.int64)


def _string_codes(t: DataType, values: Sequence[Any] | pa.Array) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """codes_of a string column: keys its UTF-8 bytes, sorted as unsigned bytes."""
    if isinstance(values, pa.ChunkedArray | pa.Array):
        rows, keys, codes = bitmap.arrow_string_codes(values, ordered=True)
        return keys, rows, codes
    keys = [to_key(t, v) for v in values]
    rows = np.fromiter((i for i, k in enumerate(keys) if k is not None), dtype=np.int64)
    present = [keys[i] for i in rows.tolist()]
    ordered = sorted(set(present))
    index = {k: i for i, k in enumerate(ordered)}
    return ordered, rows, np.fromiter((index[k] for k in present), dtype=np.int64, count=len(present))


def _fixed_chunks(kind: str, keys: list[Any], chunk_size: int) -> list[tuple[int, int]]:
    """(first index, number of extra keys) per chunk: floor(chunk_size / key size) extras each."""
    per = chunk_size // KEY_SIZES[kind]
    step = per + 1
    return [(i, min(per, len(keys) - i - 1)) for i in range(0, len(keys), step)]


def _string_chunks(keys: list[bytes], chunk_size: int) -> list[tuple[int, int]]:
    """Greedy: extra keys (4 + len bytes each) and their 4-byte offsets must each fit."""
    out = []
    i = 0
    while i < len(keys):
        used = 0
        extra = 0
        j = i + 1
        while j < len(keys) and used + 4 + len(keys[j]) <= chunk_size and 4 * (extra + 1) <= chunk_size:
            used += 4 + len(keys[j])
            extra += 1
            j += 1
        out.append((i, extra))
        i = j
    return out


def dictionary(kind: str, keys: list[Any], chunk_size: int) -> bytes:
    """ChunkedDictionary.Appender.serialize() for the sorted keys."""
    spans = _string_chunks(keys, chunk_size) if kind == "string" else _fixed_chunks(kind, keys, chunk_size)
    offsets = bytearray()
    chunks = bytearray()
    blocks = bytearray()
    for first, extra in spans:
        extras = keys[first + 1 : first + 1 + extra]
        if kind == "string":
            encoded = [key_bytes(kind, k) for k in extras]
            starts = np.cumsum([0] + [len(e) for e in encoded[:-1]], dtype=np.int64) if encoded else []
            key_offsets = struct.pack(f">{len(encoded)}i", *(int(s) for s in starts))
            key_data = b"".join(encoded)
            block = key_offsets + key_data
            tail = struct.pack(">iii", extra, len(key_offsets), len(key_data))
        else:
            key_data = np.asarray(extras, dtype=np.int64).astype(NUMPY_KEYS[kind]).tobytes()
            block = key_data
            tail = struct.pack(">iii", extra, len(key_data), KEY_SIZES[kind])
        offsets += struct.pack(">i", len(chunks))
        chunks += b"\x01" + key_bytes(kind, keys[first]) + struct.pack(">ii", first, len(blocks)) + tail
        blocks += block
    head = struct.pack(">iBiii", 13, VERSION, len(spans), len(offsets), len(chunks))
    return head + bytes(offsets) + bytes(chunks) + bytes(blocks)


def num_slices(num_keys: int) -> int:
    """Slices BitSliceIndexBitmap.Appender makes: bit length of the long (num_keys - 1), at least 1."""
    return 64 if num_keys == 0 else max((num_keys - 1).bit_length(), 1)


def code_bsi(rows: np.ndarray, codes: np.ndarray, num_keys: int) -> bytes:
    """BitSliceIndexBitmap.Appender.serialize(): header, existence bitmap, one bitmap per code bit."""
    from paimon_conform.layouts.bitmap_index.codec import serialize

    rows32 = rows.astype(np.uint32)
    ebm = serialize(roaring.bitmap_of(rows32))
    slices = [serialize(roaring.bitmap_of(rows32[(codes >> i) & 1 == 1])) for i in range(num_slices(num_keys))]
    refs = bytearray()
    at = 0
    for s in slices:
        refs += struct.pack(">ii", at, len(s))
        at += len(s)
    head = struct.pack(">BBii", VERSION, len(slices), len(ebm), len(refs)) + refs
    return struct.pack(">i", len(head)) + head + ebm + b"".join(slices)


def build(t: DataType, values: Sequence[Any] | pa.Array, chunk_size: Any = None) -> bytes:
    """Payload RangeBitmapFileIndex writes for these internal values (None = null), or for the column as Arrow."""
    kind = key_kind(t)
    size = chunk_size_bytes(t, chunk_size)
    keys, rows, codes = codes_of(t, values)
    if len(values) > 2**31 - 1:
        raise EncodeError("more rows than Java's int row counter holds")
    header = struct.pack(">Bii", VERSION, len(values), len(keys))
    if keys:
        header += key_bytes(kind, keys[0]) + key_bytes(kind, keys[-1])
    dict_bytes = dictionary(kind, keys, size)
    header += struct.pack(">i", len(dict_bytes))
    return struct.pack(">i", len(header)) + header + dict_bytes + code_bsi(rows, codes, len(keys))


# ---------------------------------------------------------------------------------------------- reading


def parse_structure(data: bytes, t: DataType):
    """The generated parser's view of a payload (LayoutError on failure)."""
    from paimon_layouts.debug.range_bitmap import RangeBitmap as Debug
    from paimon_layouts.range_bitmap import RangeBitmap
    from paimon_layouts.typed_key import TypedKey

    code = TypedKey.Kind(KIND_CODES[key_kind(t)])
    return structure.parse(NAME, data, lambda io: RangeBitmap(code, io), lambda io: Debug(code, io))


def _key(kind: str, obj) -> Any:
    """A parsed typed_key back to the writer's key form."""
    v = obj.value
    if kind == "string":
        return bytes(v.value)
    if kind == "boolean":
        return v.value == 1
    if kind == "f4":
        return struct.unpack(">i", struct.pack(">f", v))[0]
    if kind == "f8":
        return struct.unpack(">q", struct.pack(">d", v))[0]
    return v


@dataclass
class Offsets:
    """Absolute byte offsets of the code BSI's parts."""

    codes: int
    existence: int
    slices: list[int]


def offsets(obj) -> Offsets:
    """Where the existence bitmap and each slice start in the payload."""
    start = 4 + obj.len_header + obj.header.len_dictionary
    ebm = start + 4 + obj.codes.len_header
    body = ebm + obj.codes.header.len_existence
    return Offsets(start, ebm, [body + r.ofs_slice for r in obj.codes.header.slice_refs])


def _values(bm: BitMap) -> np.ndarray:
    return np.frombuffer(bm.to_array(), dtype=np.uint32).astype(np.int64)


@dataclass
class Index:
    """A loaded range-bitmap: sorted keys, the existence bitmap and the code slices."""

    kind: str
    num_rows: int
    keys: list[Any]
    min_key: Any
    max_key: Any
    ebm: BitMap
    slices: list[BitMap]
    size: int = 0
    obj: Any = None

    def __post_init__(self) -> None:
        self.order = [sort_key(self.kind, k) for k in self.keys]

    def compare(self, a: Any, b: Any) -> int:
        """Java's comparator on two keys: -1, 0 or 1."""
        x, y = sort_key(self.kind, a), sort_key(self.kind, b)
        return (x > y) - (x < y)

    def find(self, key: Any) -> int:
        """ChunkedDictionary.find: the key's code, or -(insertion code) - 1."""
        o = sort_key(self.kind, key)
        i = bisect.bisect_left(self.order, o)
        if i < len(self.order) and self.order[i] == o:
            return i
        return -i - 1

    def code_of_row(self, row: int) -> int | None:
        """The row's code (None for null), read bit by bit from the slices."""
        if row not in self.ebm:
            return None
        return sum(1 << i for i, s in enumerate(self.slices) if row in s)

    def present_codes(self) -> tuple[np.ndarray, np.ndarray]:
        """The non-null rows and their codes, without trusting the row count.

        LayoutError when a slice holds a row the existence bitmap lacks, or the
        rows are too many to list for the payload's size. Codes are ints in
        Java, so a bit at slice 31 or above gives a code no dictionary holds.
        """
        if len(self.ebm) > MAX_LISTED_ROWS + 64 * self.size:
            msg = f"{len(self.ebm)} rows for a {self.size}-byte payload are too many to list row by row"
            raise LayoutError(NAME, "RANGE_BITMAP_TOO_MANY_ROWS_TO_LIST", "codes.existence", None, msg)
        budget.reserve(ROW_BYTES * len(self.ebm), f"the codes of {len(self.ebm)} rows of a range-bitmap index")
        rows = _values(self.ebm)
        codes = np.zeros(rows.size, dtype=np.int64)
        for i, s in enumerate(self.slices):
            if not s <= self.ebm:
                msg = "a slice holds rows the existence bitmap does not"
                raise LayoutError(NAME, "RANGE_BITMAP_SLICE_OUTSIDE_EXISTENCE", f"codes.slices.slices[{i}]", None, msg)
            codes[np.searchsorted(rows, _values(s))] += 1 << min(i, 31)
        return rows, codes

    def row_codes(self) -> np.ndarray:
        """Every row's code, -1 for null rows (LayoutError if the row count cannot be listed)."""
        rows, codes = self.present_codes()
        if self.num_rows > MAX_LISTED_ROWS + 64 * self.size or (rows.size and rows[-1] >= self.num_rows):
            msg = f"{self.num_rows} rows (highest non-null row {rows[-1] if rows.size else None}) cannot be listed"
            raise LayoutError(NAME, "RANGE_BITMAP_TOO_MANY_ROWS_TO_LIST", "header.num_rows", 5, msg)
        budget.reserve(ROW_BYTES * self.num_rows, f"the codes of {self.num_rows} rows of a range-bitmap index")
        out = np.full(self.num_rows, -1, dtype=np.int64)
        out[rows] = codes
        return out


def read(data: bytes, t: DataType) -> Index:
    """Parse and load a payload (LayoutError on structural faults)."""
    kind = key_kind(t)
    obj = parse_structure(data, t)
    keys: list[Any] = []
    for chunk in obj.dictionary.chunks.chunks:
        keys.append(_key(kind, chunk.first_key))
        keys += [_key(kind, k.key) for k in chunk.block.keys.keys]
    at = offsets(obj)
    ebm = roaring.load_roaring32(bytes(data[at.existence : at.slices[0] if at.slices else len(data)]), NAME)
    slices = [
        roaring.load_roaring32(data[o : o + r.len_slice], NAME, f"codes.slices.slices[{i}]", o)
        for i, (o, r) in enumerate(zip(at.slices, obj.codes.header.slice_refs, strict=True))
    ]
    header = obj.header
    lo = _key(kind, header.min_key) if header.num_keys else None
    hi = _key(kind, header.max_key) if header.num_keys else None
    return Index(kind, header.num_rows, keys, lo, hi, ebm, slices, len(data), obj)


def _must(code: str, path: str, offset: int | None, message: str) -> Finding:
    return Finding(code, "must", path, offset, message)


def _bitmap_findings(obj, at: Offsets) -> list[Finding]:
    """Each roaring bitmap's own checks, and that it fills its stated length."""
    parts = [("codes.existence", at.existence, obj.codes.existence)]
    for i, (o, s) in enumerate(zip(at.slices, obj.codes.slices.slices, strict=True)):
        parts.append((f"codes.slices.slices[{i}].bitmap", o, s.bitmap))
    out: list[Finding] = []
    for path, base, bm in parts:
        out += roaring.check_roaring32(bm, path, base)
        left = bm._io.size() - roaring.end_offset(bm, 0)
        if left:
            out.append(_must("RANGE_BITMAP_BITMAP_LENGTH", path, base, f"{left} byte(s) follow the bitmap inside it"))
    return out


def _key_findings(index: Index) -> list[Finding]:
    """Dictionary order, and the header's min and max against it."""
    out = []
    order = index.order
    bad = next((i for i in range(1, len(order)) if not order[i - 1] < order[i]), None)
    if bad is not None:
        msg = f"dictionary key {bad} is not above key {bad - 1}; lookups binary-search the keys"
        out.append(_must("RANGE_BITMAP_KEYS_UNSORTED", "dictionary", None, msg))
    if index.keys and (index.compare(index.min_key, index.keys[0]) or index.compare(index.max_key, index.keys[-1])):
        above = index.compare(index.min_key, index.max_key) > 0
        msg = "the header's min and max are not the dictionary's first and last key; readers answer from them"
        out.append(_must("RANGE_BITMAP_MIN_ABOVE_MAX" if above else "RANGE_BITMAP_MIN_MAX_WRONG", "header", 4, msg))
    return out


def _row_findings(index: Index, at: Offsets) -> list[Finding]:
    """Rows within the row count, slices within the existence bitmap, enough slices."""
    out = []
    ebm = index.ebm
    if ebm and ebm.max() >= index.num_rows:
        msg = f"row {ebm.max()} is not below the row count {index.num_rows}"
        out.append(_must("RANGE_BITMAP_ROW_OUT_OF_RANGE", "codes.existence", at.existence, msg))
    for i, s in enumerate(index.slices):
        if not s <= ebm:
            msg = "a slice holds rows the existence bitmap does not"
            out.append(_must("RANGE_BITMAP_SLICE_OUTSIDE_EXISTENCE", f"codes.slices.slices[{i}]", at.slices[i], msg))
    needed = num_slices(len(index.keys))
    if len(index.slices) < needed:
        msg = f"{len(index.slices)} slices cannot hold codes up to {len(index.keys) - 1}"
        out.append(_must("RANGE_BITMAP_SLICE_COUNT", "codes.header.num_slices", at.codes + 5, msg))
    if out:
        return out
    try:
        _, codes = index.present_codes()
    except LayoutError as err:
        return [Finding.from_error(err)]
    top = int(codes.max(initial=-1))
    if top >= len(index.keys):
        msg = f"a row has code {top}, the dictionary holds {len(index.keys)} keys"
        out.append(_must("RANGE_BITMAP_CODE_OUT_OF_RANGE", "codes", at.codes, msg))
    elif len(np.unique(codes)) != len(index.keys):
        msg = "a dictionary key is held by no row; Java keeps only the column's values"
        out.append(Finding("RANGE_BITMAP_UNUSED_KEY", "should", "dictionary", None, msg))
    elif len(index.slices) != needed:
        msg = f"{len(index.slices)} slices; Java writes {needed} for {len(index.keys)} keys"
        out.append(Finding("RANGE_BITMAP_NOT_JAVA_LAYOUT", "should", "codes.header.num_slices", at.codes + 5, msg))
    return out


def check(data: bytes, t: DataType) -> list[Finding]:
    """Every finding for a range-bitmap payload."""
    try:
        index = read(data, t)
    except LayoutError as err:
        return [Finding.from_error(err)]
    return check_index(index)


def check_index(index: Index) -> list[Finding]:
    """The findings of a payload `read` already parsed: bitmaps, key order, rows and codes."""
    at = offsets(index.obj)
    findings = _bitmap_findings(index.obj, at) + _key_findings(index)
    if any(f.severity == "must" for f in findings):
        return findings
    return _row_findings(index, at)


def from_key(t: DataType, key: Any) -> Any:
    """Back from a dictionary key to an internal value (timestamps in the stored unit)."""
    key_kind(t)
    return key_to_internal(t, key)


def row_values(index: Index, t: DataType) -> list[Any]:
    """The column, row by row, as internal values rebuilt from a checked index."""
    values = [from_key(t, k) for k in index.keys]
    return [None if c < 0 else values[c] for c in index.row_codes().tolist()]


def inferred_chunk_size(index: Index) -> int:
    """The smallest chunk size for which Java's greedy chunking gives these chunks."""
    chunks = index.obj.dictionary.chunks.chunks
    if index.kind != "string":
        return max((c.num_extra_keys for c in chunks), default=0) * KEY_SIZES[index.kind]
    return max((max(c.len_keys, c.len_key_offsets) for c in chunks), default=0)
