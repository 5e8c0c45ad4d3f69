"""Paimon's bitmap file index, versions 1 and 2: Java-exact writer, reader, checks, queries.

Internal values come from `types.to_internal`; keys are what BitmapFileIndex
keys its map with (timestamps as millis or micros, floats by their bits).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyroaring import BitMap

from paimon_conform.core import structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.hashing import kernel_calls
from paimon_conform.core.hashing.fasthash import timestamp_from_long, timestamp_long
from paimon_conform.core.hashing.java import JavaHashMap, int32, long_hash
from paimon_conform.core.hashing.murmur import binary_string_hash
from paimon_conform.core.index_keys import java_longs
from paimon_conform.core.java_floats import double_bits, float_bits
from paimon_conform.core.types import DataType
from paimon_conform.layouts.roaring32 import codec as roaring

NAME = "bitmap_index"
DEFAULT_BLOCK_SIZE = 16 * 1024
KEY_KINDS = {
    "TINYINT": "i1",
    "SMALLINT": "i2",
    "INT": "i4",
    "DATE": "i4",
    "TIME": "i4",
    "BIGINT": "i8",
    "TIMESTAMP": "i8",
    "TIMESTAMP_LTZ": "i8",
    "FLOAT": "f4",
    "DOUBLE": "f8",
    "BOOLEAN": "boolean",
    "CHAR": "string",
    "VARCHAR": "string",
}
KIND_CODES = {"i1": 1, "i2": 2, "i4": 4, "i8": 8, "f4": 14, "f8": 18, "boolean": 21, "string": 99}
FIXED = {"i1": ">b", "i2": ">h", "i4": ">i", "i8": ">q", "f4": ">i", "f8": ">q", "boolean": ">B"}


def key_kind(t: DataType) -> str:
    """How keys of this column type are written; EncodeError where Java has no bitmap index."""
    kind = KEY_KINDS.get(t.root)
    if kind is None:
        raise EncodeError(f"the bitmap index does not support {t} (Java: unsupported type)")
    return kind


def map_key(t: DataType, v: Any) -> Any:
    """The key BitmapFileIndex uses for an internal value (equality as Java's equals)."""
    kind = key_kind(t)
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return timestamp_long(t, v)
    if kind == "f4":
        return float_bits(v)
    if kind == "f8":
        return double_bits(v)
    if kind == "string":
        return v.encode("utf-8")
    return v


def key_to_internal(t: DataType, key: Any) -> Any:
    """Inverse of map_key (also for range-bitmap keys): floats from their bits, strings decoded,
    timestamps from the stored millis or micros, DECIMAL from its unscaled long."""
    if t.root == "FLOAT":
        return struct.unpack(">f", struct.pack(">i", key))[0]
    if t.root == "DOUBLE":
        return struct.unpack(">d", struct.pack(">q", key))[0]
    if t.is_string:
        return key.decode("utf-8", errors="replace")
    if t.root == "BOOLEAN":
        return bool(key)
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return timestamp_from_long(t, key)
    if t.root == "DECIMAL":
        return (key, t.precision, t.scale)
    return key


def java_hash(kind: str, key: Any) -> int:
    """hashCode of the boxed key (Integer, Long, Float, Double, Boolean, BinaryString)."""
    if kind in ("i1", "i2", "i4", "f4"):
        return int32(key)
    if kind in ("i8", "f8"):
        return long_hash(key)
    if kind == "boolean":
        return 1231 if key else 1237
    return binary_string_hash(key)


def key_bytes(kind: str, key: Any) -> bytes:
    """A key as DataOutput writes it (floats by their canonical bits)."""
    if kind == "string":
        return struct.pack(">i", len(key)) + key
    return struct.pack(FIXED[kind], int(key))


def sort_key(kind: str, key: Any) -> Any:
    """Order of V2 entries: signed numbers, Float/Double.compare, false < true, unsigned bytes."""
    if kind == "f4":
        return key ^ ((key >> 31) & 0x7FFFFFFF)
    if kind == "f8":
        return key ^ ((key >> 63) & 0x7FFFFFFFFFFFFFFF)
    return key


def serialize(bitmap: BitMap) -> bytes:
    """RoaringBitmap32.serialize(): run-optimized portable bytes.

    CRoaring's run_optimize makes Java's container choices for a freshly built
    bitmap (conformance/test_roaring.py checks it on every example).
    """
    bm = BitMap(bitmap)
    bm.run_optimize()
    return bm.serialize()


def group_rows(t: DataType, values: Sequence[Any] | pa.Array) -> tuple[list[Any], list[np.ndarray], np.ndarray, int]:
    """Distinct map keys in first-occurrence order, the rows of each, the null rows, last non-null row.
    `values`: internal values (None = null), or an Arrow array of the column."""
    n = len(values)
    kind = key_kind(t)
    if kind != "string":  # map_key is the column's Java long (index_keys.java_longs); a BOOLEAN's is the bool
        rows, longs = java_longs(t, values)
        codes, distinct = kernel_calls.first_codes(longs)
        keys: list[Any] = [bool(k) for k in distinct.tolist()] if kind == "boolean" else distinct.tolist()
    elif isinstance(values, pa.ChunkedArray | pa.Array):
        rows, keys, codes = arrow_string_codes(values)
    else:
        rows = np.flatnonzero(np.fromiter((v is not None for v in values), dtype=bool, count=n))
        index: dict[Any, int] = {}
        codes = np.fromiter(
            (index.setdefault(map_key(t, values[i]), len(index)) for i in rows.tolist()),
            dtype=np.int64,
            count=rows.size,
        )
        keys = list(index)
    is_null = np.ones(n, dtype=bool)
    is_null[rows] = False
    nulls = np.flatnonzero(is_null)
    small = np.uint16 if len(keys) <= 0xFFFF else np.int64  # radix sort for narrow codes
    order = np.argsort(codes.astype(small), kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(keys) + 1))
    groups = [rows[order[bounds[i] : bounds[i + 1]]] for i in range(len(keys))]
    return keys, groups, nulls, int(rows[-1]) if rows.size else -1


def arrow_string_codes(
    values: pa.Array | pa.ChunkedArray, ordered: bool = False
) -> tuple[np.ndarray, list[bytes], np.ndarray]:
    """(non-null rows, the distinct UTF-8 keys, each row's key number) of an Arrow string column: keys in
    first-occurrence order (the bitmap index's), or `ordered` as unsigned bytes (the range-bitmap's ranks)."""
    arr = values.combine_chunks() if isinstance(values, pa.ChunkedArray) else values
    rows = np.flatnonzero(np.asarray(arr.is_valid(), dtype=bool)) if arr.null_count else np.arange(len(arr))
    present = arr.drop_null().cast(pa.large_binary())
    distinct = pc.unique(present)  # in first-occurrence order
    if ordered:
        distinct = distinct.take(pc.sort_indices(distinct))  # memcmp order: Python's bytes order
    codes = np.asarray(pc.index_in(present, value_set=distinct).to_numpy(zero_copy_only=False), dtype=np.int64)
    return rows.astype(np.int64), distinct.to_pylist(), codes


def build(
    t: DataType, values: Sequence[Any] | pa.Array, version: int = 2, block_size: int = DEFAULT_BLOCK_SIZE
) -> bytes:
    """Payload BitmapFileIndex writes for these internal values (None = null), or for the column as Arrow.

    Java calls computeIfAbsent once per non-null row; only insertions change the
    map, and a resize (checked at the start of each call) happens before the
    next insertion either way, so replaying the distinct keys in first-occurrence
    order gives Java's order, plus the one resize a later repeated key triggers.
    """
    if version not in (1, 2):
        raise EncodeError(f"invalid version: {version}")
    kind = key_kind(t)
    keys, groups, null_rows, last_row = group_rows(t, values)
    id2bitmap = JavaHashMap()
    for key, rows in zip(keys, groups, strict=True):
        id2bitmap.compute_if_absent(key, java_hash(kind, key), lambda rows=rows: rows)
    if keys and int(groups[-1][0]) < last_row:
        id2bitmap.touch()
    nulls = roaring.bitmap_of(null_rows)
    null_bytes = serialize(nulls)
    body = [null_bytes] if len(nulls) > 1 else []
    offset = len(null_bytes) if len(nulls) > 1 else 0
    entries: list[tuple[Any, int]] = []  # (key, offset) in HashMap order
    for key, rows in id2bitmap.items():
        if len(rows) == 1:
            entries.append((key, -1 - int(rows[0])))
        else:
            data = serialize(roaring.bitmap_of(rows))
            entries.append((key, offset))
            body.append(data)
            offset += len(data)
    null_offset = (-1 - nulls[0]) if len(nulls) == 1 else 0
    head = struct.pack(">Bii", version, len(values), len(entries)) + struct.pack(">B", 1 if nulls else 0)
    if nulls:
        head += struct.pack(">i", null_offset)
    if version == 1:
        head += b"".join(key_bytes(kind, k) + struct.pack(">i", o) for k, o in entries)
    else:
        if nulls:
            head += struct.pack(">i", len(null_bytes))
        head += _v2_index(kind, entries, offset, block_size)
    return head + b"".join(body)


def _v2_index(kind: str, entries: list[tuple[Any, int]], final_offset: int, block_size: int) -> bytes:
    lengths = {}
    stored = [(k, o) for k, o in entries if o >= 0]
    ends = [o for _, o in stored[1:]] + [final_offset]
    for (k, o), end in zip(stored, ends[: len(stored)], strict=True):
        lengths[k] = end - o
    blocks: list[list[bytes]] = []
    firsts: list[Any] = []
    sizes: list[int] = []
    for key, off in sorted(entries, key=lambda e: sort_key(kind, e[0])):
        kb = key_bytes(kind, key)
        entry = kb + struct.pack(">ii", off, lengths.get(key, -1) if off >= 0 else -1)
        if 4 + len(entry) > block_size:
            raise EncodeError(f"an entry of {len(entry)} bytes does not fit an index block of {block_size} bytes")
        if not blocks or sizes[-1] + len(entry) > block_size:
            blocks.append([])
            firsts.append(kb)
            sizes.append(4)
        blocks[-1].append(entry)
        sizes[-1] += len(entry)
    out = bytearray(struct.pack(">i", len(blocks)))
    pos = 0
    for first, size in zip(firsts, sizes, strict=True):
        out += first + struct.pack(">i", pos)
        pos += size
    out += struct.pack(">i", pos)
    for block in blocks:
        out += struct.pack(">i", len(block)) + b"".join(block)
    return bytes(out)


# ---------------------------------------------------------------------------
# Reading


@dataclass
class Index:
    """A parsed bitmap index: the rows of each key and of null."""

    version: int
    num_rows: int
    kind: str
    rows: dict[Any, BitMap]  # map key -> rows, in header order
    nulls: BitMap
    obj: Any  # the generated parser's object


def parse_structure(data: bytes, t: DataType):
    """The generated parser's view of a payload (LayoutError on failure)."""
    from paimon_layouts.bitmap_index import BitmapIndex

    kind = key_kind(t)
    code = BitmapIndex.KeyKind(KIND_CODES[kind])
    return structure.parse(NAME, data, lambda io: BitmapIndex(code, io), lambda io: _debug_class()(code, io))


def _debug_class():
    from paimon_layouts.debug.bitmap_index import BitmapIndex

    return BitmapIndex


def _key_value(kind: str, key_obj) -> Any:
    v = key_obj.value
    if kind == "string":
        return bytes(v.value)
    if kind == "f4":
        return float_bits(v)
    if kind == "f8":
        return double_bits(v)
    return v


def body_start(data: bytes, obj) -> int:
    """Offset of the body within the payload."""
    return len(data) - len(obj.body)


def entries(obj, kind: str) -> list[tuple[Any, int, int | None]]:
    """(key, offset, stored length or None) in header order (V2: block order)."""
    if int(obj.version) == 1:
        return [(_key_value(kind, e.key), e.ofs_bitmap, None) for e in obj.entries_v1]
    return [(_key_value(kind, e.key), e.ofs_bitmap, e.len_bitmap) for b in obj.index_blocks.blocks for e in b.entries]


def _bitmap_at(data: bytes, start: int, offset: int, path: str) -> tuple[BitMap, int]:
    if not 0 <= offset < len(data) - start:
        raise LayoutError(
            NAME,
            "BITMAP_OFFSET_OUT_OF_RANGE",
            path,
            None,
            f"bitmap offset {offset} is outside the {len(data) - start}-byte body",
        )
    sub = data[start + offset :]
    try:
        parsed = structure.parse("roaring32", sub)
    except LayoutError as err:
        raise LayoutError(
            NAME,
            err.code,
            f"{path}.{err.path}".rstrip("."),
            None if err.offset is None else start + offset + err.offset,
            err.detail,
        ) from None
    length = roaring.end_offset(parsed, 0)
    return roaring.structure_bitmap(parsed), length


def read(data: bytes, t: DataType) -> Index:
    """Parse and decode a payload (LayoutError on structural faults)."""
    obj = parse_structure(data, t)
    kind = key_kind(t)
    start = body_start(data, obj)
    rows: dict[Any, BitMap] = {}
    for i, (key, off, _) in enumerate(entries(obj, kind)):
        rows[key] = BitMap([-1 - off]) if off < 0 else _bitmap_at(data, start, off, f"entries[{i}]")[0]
    nulls = BitMap()
    if obj.has_nulls:
        off = obj.ofs_null_bitmap
        nulls = BitMap([-1 - off]) if off < 0 else _bitmap_at(data, start, off, "ofs_null_bitmap")[0]
    return Index(int(obj.version), obj.num_rows, kind, rows, nulls, obj)


def check(data: bytes, t: DataType) -> list[Finding]:
    """Every finding for a bitmap payload of a column of type t."""
    return check_tree(data, t)[0]


def check_tree(data: bytes, t: DataType) -> tuple[list[Finding], Any]:
    """Every finding for a bitmap payload, and the spec parser's tree (None when the payload does not parse)."""
    try:
        obj = parse_structure(data, t)
    except LayoutError as err:
        return [Finding.from_error(err)], None
    kind = key_kind(t)
    start = body_start(data, obj)
    findings: list[Finding] = []
    seen = BitMap()
    spans: list[tuple[int, int, str]] = []
    listed = entries(obj, kind)
    items = [(f"entries[{i}]", key, off, length) for i, (key, off, length) in enumerate(listed)]
    if obj.has_nulls:
        items.insert(
            0, ("ofs_null_bitmap", None, obj.ofs_null_bitmap, obj.len_null_bitmap if int(obj.version) == 2 else None)
        )
    for path, _key, off, length in items:
        if off < 0:
            row = -1 - off
            got, real = BitMap([row]), None
        else:
            try:
                got, real = _bitmap_at(data, start, off, path)
            except LayoutError as err:
                findings.append(Finding.from_error(err))
                continue
            spans.append((off, off + real, path))
            if len(got) < 2:
                findings.append(
                    Finding(
                        "BITMAP_SINGLE_ROW_STORED",
                        "should",
                        path,
                        None,
                        "a value held by one row is stored as a bitmap; Java writes -1 - row",
                    )
                )
        if got and got.max() >= obj.num_rows:
            findings.append(
                Finding(
                    "BITMAP_ROW_OUT_OF_RANGE",
                    "must",
                    path,
                    None,
                    f"row {got.max()} is not below the row count {obj.num_rows}",
                )
            )
        if seen & got:
            findings.append(
                Finding("BITMAP_ROW_TWICE", "must", path, None, f"row {min(seen & got)} is listed under two values")
            )
        seen |= got
        if length is not None and length != -1 and real is not None and length != real and path != "ofs_null_bitmap":
            findings.append(
                Finding(
                    "BITMAP_LENGTH_MISMATCH",
                    "must",
                    path,
                    None,
                    f"stored length {length}, the bitmap takes {real} bytes",
                )
            )
        if path == "ofs_null_bitmap" and length is not None:
            want = len(serialize(got))
            if length != want:
                findings.append(
                    Finding(
                        "BITMAP_LENGTH_MISMATCH",
                        "must",
                        "len_null_bitmap",
                        None,
                        f"null bitmap length {length}, its serialization takes {want} bytes",
                    )
                )
    if int(obj.version) == 1 and not any(f.severity == "must" for f in findings):
        findings += _v1_order(items, spans)
    if int(obj.version) == 2:
        findings += _v2_checks(obj, kind, listed)
    if not any(f.severity == "must" for f in findings) and len(seen) != obj.num_rows:
        findings.append(
            Finding(
                "BITMAP_ROWS_NOT_COVERED",
                "must",
                "num_rows",
                1,
                f"the row count says {obj.num_rows} rows, the bitmaps cover {len(seen)}; "
                "every row is either null or holds a value",
            )
        )
    if obj.num_values != len(listed):
        findings.append(
            Finding(
                "BITMAP_BAD_COUNT",
                "must",
                "num_values",
                None,
                f"header says {obj.num_values} values, the index lists {len(listed)}",
            )
        )
    return findings, obj


def _v1_order(items, spans) -> list[Finding]:
    """V1 readers take a bitmap's length from the next offset in header order."""
    stored = [(off, path) for path, _, off, _ in items if off >= 0]
    real = {p: b - a for a, b, p in spans}
    for (off, path), (next_off, _) in pairwise(stored):  # the last bitmap is read by streaming
        if next_off - off != real.get(path, next_off - off):
            return [
                Finding(
                    "BITMAP_V1_BODY_ORDER",
                    "must",
                    path,
                    None,
                    "the body does not follow header order: a V1 reader misreads this bitmap's length",
                )
            ]
    return []


def _v2_checks(obj, kind: str, listed) -> list[Finding]:
    keys = [sort_key(kind, k) for k, _, _ in listed]
    out = []
    if any(b <= a for a, b in pairwise(keys)):
        out.append(
            Finding(
                "BITMAP_V2_KEYS_NOT_SORTED",
                "must",
                "index_blocks",
                None,
                "V2 entries must be sorted by key (readers binary-search them)",
            )
        )
    for i, (ref, block) in enumerate(zip(obj.block_refs, obj.index_blocks.blocks, strict=True)):
        if block.entries and _key_value(kind, ref.first_key) != _key_value(kind, block.entries[0].key):
            out.append(
                Finding(
                    "BITMAP_V2_BLOCK_KEY_MISMATCH",
                    "must",
                    f"block_refs[{i}].first_key",
                    None,
                    "a block's directory key is not the block's first key",
                )
            )
    return out


def inferred_block_size(obj) -> int | None:
    """The smallest index block size that makes Java's greedy packing give these V2 blocks."""
    blocks = obj.index_blocks.blocks
    if len(blocks) < 2:
        return None
    sizes = [b2.ofs_block - b1.ofs_block for b1, b2 in pairwise(obj.block_refs)]
    sizes.append(obj.len_index_blocks - obj.block_refs[-1].ofs_block)
    return max(sizes)


def evaluate(index: Index, t: DataType, op: str, literals: Sequence[Any]) -> BitMap:
    """Rows a predicate selects, as Java's reader answers it."""
    every = BitMap(range(index.num_rows))

    def rows_of(v):
        return index.nulls if v is None else index.rows.get(map_key(t, v), BitMap())

    if op == "is_null":
        return BitMap(index.nulls)
    if op == "is_not_null":
        return every - index.nulls
    chosen = BitMap()
    for v in literals[:1] if op in ("eq", "not_eq") else literals:
        chosen |= rows_of(v)
    if op in ("eq", "in"):
        return chosen
    if op in ("not_eq", "not_in"):
        return every - chosen  # flip(0, rowCount): null rows are included
    raise EncodeError(f"the bitmap index does not answer {op!r}")
