"""Exact INT96 timestamps from a Parquet column chunk (what pyarrow cannot return).

Java writes TIMESTAMP(7..9) as INT96: 8 bytes of nanos-of-day (little-endian, signed: Java's
writer leaves it negative before 1970) and 4 bytes of Julian day. pyarrow hands the column over
as int64 nanoseconds, which wrap outside the years 1677-2262, and its coarser units are biased
by a negative nanos-of-day; neither gives back what Java reads. This module reads the chunk's
pages itself: Thrift-compact page headers, the kit's codecs (core.codecs), RLE / bit-packed definition levels
(top-level optional or required columns), PLAIN or dictionary-encoded values, data pages v1
and v2. Every length and count is checked against the bytes before use.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from paimon_conform.core import budget, codecs, varint
from paimon_conform.core.cursor import Cursor
from paimon_conform.core.errors import UsageError

JULIAN_EPOCH_DAY = 2440588
NANOS_PER_DAY = 86_400_000_000_000
# CompressionCodec -> core.codecs (LZ4, the deprecated Hadoop-framed codec, read as a raw block as before)
CODECS = {
    0: None,
    1: codecs.SNAPPY,
    2: codecs.GZIP,
    4: codecs.BROTLI,
    5: codecs.LZ4_BLOCK,
    6: codecs.ZSTD,
    7: codecs.LZ4_BLOCK,
}
MAX_PAGE = 1 << 31


def _header_past_chunk() -> UsageError:
    return UsageError("INT96 column: a page header runs past the column chunk")


class _Thrift(Cursor):
    """Just enough of the Thrift compact protocol to read a PageHeader."""

    __slots__ = ()

    def __init__(self, data: bytes, pos: int) -> None:
        super().__init__(data, pos, _header_past_chunk)

    def varint(self) -> int:
        try:
            out, self.pos = varint.read(self.buf, self.pos, max_bytes=10)
        except varint.VarintError as exc:
            if exc.kind == "ends":
                raise self.short() from None
            raise UsageError("INT96 column: a varint longer than 10 bytes") from None
        return out

    def zigzag(self) -> int:
        return varint.unzigzag(self.varint())

    def struct(self, depth: int = 0) -> dict[int, object]:
        """A struct as {field id: value}; nested structs as dicts, other values skipped or read."""
        if depth > 8:
            raise UsageError("INT96 column: page header nested too deep")
        out: dict[int, object] = {}
        fid = 0
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == 0:
                return out
            delta = head >> 4
            fid = fid + delta if delta else self.zigzag()
            out[fid] = self.value(kind, depth)

    def value(self, kind: int, depth: int) -> object:
        if kind in (1, 2):  # booleans live in the type nibble
            return kind == 1
        if kind == 3:
            return self.byte()
        if kind in (4, 5, 6):
            return self.zigzag()
        if kind == 7:
            self.skip(8)
            return None
        if kind == 8:
            n = self.varint()
            if n > self.left():
                raise UsageError("INT96 column: a binary field longer than the chunk")
            self.pos += n
            return None
        if kind in (9, 10):  # list / set
            head = self.byte()
            n = head >> 4 if head >> 4 != 15 else self.varint()
            if n > len(self.buf):
                raise UsageError("INT96 column: a list longer than the chunk")
            return [self.value(head & 0x0F, depth + 1) for _ in range(n)]
        if kind == 11:
            n = self.varint()
            if n:
                kinds = self.byte()
                for _ in range(min(n, len(self.buf))):
                    self.value(kinds >> 4, depth + 1)
                    self.value(kinds & 0x0F, depth + 1)
            return None
        if kind == 12:
            return self.struct(depth + 1)
        raise UsageError(f"INT96 column: unknown Thrift type {kind} in a page header")


def _hybrid(data: bytes, pos: int, end: int, width: int, count: int) -> list[int]:
    """RLE / bit-packed hybrid values (definition levels, dictionary indices)."""
    out: list[int] = []
    size = (width + 7) // 8
    while len(out) < count and pos < end:
        t = _Thrift(data, pos)
        header = t.varint()
        pos = t.pos
        if header & 1:  # bit-packed groups of 8
            groups = header >> 1
            nbytes = groups * width
            if pos + nbytes > end:
                raise UsageError("INT96 column: bit-packed run past the page")
            out.extend(_unpack(data[pos : pos + nbytes], width, groups * 8))
            pos += nbytes
        else:
            run = header >> 1
            if pos + size > end or run > count:
                raise UsageError("INT96 column: RLE run past the page")
            out.extend([int.from_bytes(data[pos : pos + size], "little")] * run)
            pos += size
    return out[:count]


def _unpack(packed: bytes, width: int, count: int) -> list[int]:
    """`count` bit-packed values, least significant bit first (8 per group)."""
    if width == 0:
        return [0] * count
    bits = np.unpackbits(np.frombuffer(packed, dtype=np.uint8), bitorder="little")
    values = bits[: len(bits) // width * width].reshape(-1, width).astype(np.int64)
    return (values << np.arange(width, dtype=np.int64)).sum(axis=1)[:count].tolist()


def _decompress(raw: bytes, codec: int, size: int) -> bytes:
    """A page's bytes decompressed to exactly the `size` its header states (core.codecs), within the budget."""
    name = CODECS.get(codec)
    if codec == 0:
        return raw
    if name is None or size < 0 or size > MAX_PAGE:
        raise UsageError(f"INT96 column: codec {codec} or page size {size} not readable")
    budget.reserve(size, "an INT96 page's decompressed bytes")
    try:
        return codecs.decompress(name, raw, size, exact=True)
    except codecs.CodecError as exc:
        raise UsageError(f"INT96 column: {exc}") from None


INT96 = np.dtype([("nod", "<i8"), ("day", "<i4")])
SAFE_DAYS = (2**63 - 1) // NANOS_PER_DAY - 1  # beyond it the nanoseconds leave int64


def _nanos(values: bytes) -> list[int]:
    """Nanoseconds since the epoch of consecutive 12-byte INT96 values (exact Python ints)."""
    arr = np.frombuffer(values, dtype=INT96)
    days = arr["day"].astype(np.int64) - JULIAN_EPOCH_DAY
    inside = np.abs(days) <= SAFE_DAYS
    out = (np.where(inside, days, 0) * NANOS_PER_DAY + np.where(inside, arr["nod"], 0)).tolist()
    for i in np.flatnonzero(~inside).tolist():
        out[i] = int(days[i]) * NANOS_PER_DAY + int(arr["nod"][i])
    return out


def read_int96(path: str | Path, column: str, row_groups: list[int] | None = None) -> list[int | None]:
    """Nanoseconds since the epoch of every row of a top-level INT96 column (None for null), exactly; of the
    rows of `row_groups` only when given."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    meta = pf.metadata
    index = next((i for i in range(meta.num_columns) if pf.schema.column(i).path == column), None)
    if index is None or pf.schema.column(index).physical_type != "INT96":
        raise UsageError(f"{path}: no INT96 column {column!r}")
    optional = pf.schema.column(index).max_definition_level > 0
    out: list[int | None] = []
    with open(path, "rb") as f:
        for g in range(meta.num_row_groups) if row_groups is None else row_groups:
            chunk = meta.row_group(g).column(index)
            start = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
            size = chunk.total_compressed_size
            if start is None or start < 0 or size < 0 or size > MAX_PAGE:
                raise UsageError(f"{path}: INT96 column chunk offsets out of range")
            f.seek(start)
            data = f.read(size)
            out += _chunk(data, chunk.num_values, optional, _codec_id(chunk.compression))
    return out


def _codec_id(name: str) -> int:
    names = {"UNCOMPRESSED": 0, "SNAPPY": 1, "GZIP": 2, "LZO": 3, "BROTLI": 4, "LZ4": 5, "ZSTD": 6, "LZ4_RAW": 7}
    if name not in names:
        raise UsageError(f"INT96 column: unknown codec {name}")
    return names[name]


def _chunk(data: bytes, num_values: int, optional: bool, codec: int) -> list[int | None]:
    dictionary: list[int] = []
    out: list[int | None] = []
    pos = 0
    while len(out) < num_values and pos < len(data):
        t = _Thrift(data, pos)
        header = t.struct()
        pos = t.pos
        page_type, plain, packed = header.get(1), header.get(2), header.get(3)
        if not isinstance(plain, int) or not isinstance(packed, int) or packed < 0 or pos + packed > len(data):
            raise UsageError("INT96 column: a page header with bad sizes")
        body = data[pos : pos + packed]
        pos += packed
        if page_type == 2:  # dictionary page: PLAIN values
            raw = _decompress(body, codec, plain)
            dictionary = _nanos(raw[: len(raw) - len(raw) % 12])
            continue
        if page_type == 0:  # data page v1
            dph = header.get(5)
            raw = _decompress(body, codec, plain)
            out += _page_v1(raw, dph, optional, dictionary)
        elif page_type == 3:  # data page v2
            out += _page_v2(body, header.get(8), optional, dictionary, codec, plain)
    return out


def _values(raw: bytes, at: int, encoding: int, present: int, dictionary: list[int]) -> list[int]:
    if encoding == 0:  # PLAIN
        if at + 12 * present > len(raw):
            raise UsageError("INT96 column: fewer values than the page says")
        return _nanos(raw[at : at + 12 * present])
    if encoding in (2, 8):  # PLAIN_DICTIONARY, RLE_DICTIONARY
        if at >= len(raw):
            return [] if present == 0 else _missing()
        width = raw[at]
        indices = _hybrid(raw, at + 1, len(raw), width, present)
        if any(i >= len(dictionary) for i in indices) or len(indices) < present:
            raise UsageError("INT96 column: a dictionary index out of range")
        return [dictionary[i] for i in indices]
    raise UsageError(f"INT96 column: value encoding {encoding} not readable")


def _missing() -> list[int]:
    raise UsageError("INT96 column: values missing from a page")


def _merge(levels: list[int] | None, values: list[int], n: int) -> list[int | None]:
    if levels is None:
        return list(values[:n])
    it = iter(values)
    return [next(it, None) if lv else None for lv in levels]


def _page_v1(raw: bytes, dph: object, optional: bool, dictionary: list[int]) -> list[int | None]:
    if not isinstance(dph, dict):
        raise UsageError("INT96 column: a data page without its header")
    n, encoding = dph.get(1), dph.get(2)
    if not isinstance(n, int) or n < 0 or n > len(raw) * 8 + 8:
        raise UsageError("INT96 column: a data page with a bad value count")
    at, levels = 0, None
    if optional:
        if len(raw) < 4:
            raise UsageError("INT96 column: definition levels missing")
        (length,) = struct.unpack_from("<i", raw, 0)
        if length < 0 or 4 + length > len(raw):
            raise UsageError("INT96 column: definition levels past the page")
        levels = _hybrid(raw, 4, 4 + length, 1, n)
        at = 4 + length
    present = n if levels is None else sum(levels)
    return _merge(levels, _values(raw, at, int(encoding or 0), present, dictionary), n)


def _page_v2(
    body: bytes, dph: object, optional: bool, dictionary: list[int], codec: int, plain: int
) -> list[int | None]:
    if not isinstance(dph, dict):
        raise UsageError("INT96 column: a data page v2 without its header")
    n, nulls, encoding = dph.get(1), dph.get(2), dph.get(4)
    def_len, rep_len = dph.get(5), dph.get(6)
    compressed = dph.get(7, True)
    if not all(isinstance(x, int) and x >= 0 for x in (n, nulls, def_len, rep_len)) or def_len + rep_len > len(body):
        raise UsageError("INT96 column: a data page v2 with bad sizes")
    levels = _hybrid(body, rep_len, rep_len + def_len, 1, n) if optional and def_len else None
    rest = body[rep_len + def_len :]
    raw = _decompress(rest, codec if compressed else 0, plain - rep_len - def_len)
    present = n if levels is None else sum(levels)
    return _merge(levels, _values(raw, 0, int(encoding or 0), present, dictionary), n)
