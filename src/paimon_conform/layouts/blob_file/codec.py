"""The `.blob` data file (Paimon 1.4+): encoder and fast reader, byte-identical to Java's BlobFormatWriter.

`encode(values)` writes a file from row values: bytes, None (a NULL row) or PLACEHOLDER (a data-evolution
placeholder, whose value lives in another file); for an ARRAY<BLOB> or MAP<K, BLOB> column (`etype`) a row
is its elements or (key, value) pairs, framed by `elements`. `load(source)` reads the footer and the length
index with the checks Java's BlobFileMeta makes, raising the LayoutError the spec's parser raises for the
same bytes; `record_faults` lists each record's faults: what Java's reader does not check (record magic,
repeated length, CRC) and the element framing it does. Both read through a Source (bytes in memory, or an
open file read piece by piece, so a file of large BLOBs is checked in bounded memory).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from zlib_ng.zlib_ng import crc32

from paimon_conform.core import budget, delta_varint
from paimon_conform.core.errors import EncodeError, InvariantError, LayoutError
from paimon_conform.layouts.blob_file import elements
from paimon_conform.layouts.blob_file.elements import BLOB, ElementType

NAME = "blob_file"
MAGIC = 1481511375  # BlobFormatWriter.MAGIC_NUMBER, written little-endian
MAGIC_BYTES = MAGIC.to_bytes(4, "little")
VERSION = 1
NULL_LENGTH = -1
PLACEHOLDER_LENGTH = -2
MIN_RECORD = 16  # magic 4 + length 8 + CRC 4
FOOTER = 5  # index length s4 + version u1
CHUNK = 1 << 20  # bytes read at a time when checking a record's CRC


class Source:
    """The bytes of a blob file, read by position: in memory or from an open file."""

    def __init__(self, data: bytes | None = None, file: BinaryIO | None = None, size: int = 0) -> None:
        self._data, self._file = data, file
        self.size = len(data) if data is not None else size

    def read(self, pos: int, n: int) -> bytes:
        """`n` bytes at `pos` (fewer only past the end)."""
        if self._data is not None:
            return self._data[pos : pos + n]
        assert self._file is not None
        self._file.seek(pos)
        return self._file.read(n)


def source(data: bytes | Source) -> Source:
    """A Source over bytes (a Source is returned as it is)."""
    return data if isinstance(data, Source) else Source(data)


class Placeholder:
    """The data-evolution placeholder row (length -2): its value is in another file of the same row ids."""

    def __repr__(self) -> str:
        return "PLACEHOLDER"


PLACEHOLDER = Placeholder()
Elements = list[bytes | None] | list[tuple[Any, bytes | None]]  # an ARRAY row's elements, a MAP row's pairs
Value = bytes | None | Placeholder | Elements


def record(payload: bytes) -> bytes:
    """One record: magic, payload, its own length (s8) and the CRC32 of all that."""
    body = MAGIC_BYTES + payload + struct.pack("<q", len(payload) + MIN_RECORD)
    return body + struct.pack("<I", crc32(body))


def payload(value: Value, etype: ElementType = BLOB) -> bytes:
    """A non-NULL row's payload: the bytes of a BLOB, the framed elements of an ARRAY or MAP row."""
    if etype.kind == "blob" and isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if etype.kind == "array" and isinstance(value, list):
        return elements.encode_array(value)
    if etype.kind == "map" and isinstance(value, list) and etype.key is not None:
        return elements.encode_map(value, etype.key)
    raise EncodeError(f"a {etype} row is {'bytes' if etype.kind == 'blob' else 'a list'}, None or PLACEHOLDER")


def encode(values: Sequence[Value], etype: ElementType = BLOB) -> bytes:
    """The bytes Java writes for these rows: records, the delta-varint length index, the footer."""
    parts: list[bytes] = []
    lengths: list[int] = []
    for v in values:
        if v is None:
            lengths.append(NULL_LENGTH)
        elif isinstance(v, Placeholder):
            lengths.append(PLACEHOLDER_LENGTH)
        else:
            parts.append(record(payload(v, etype)))
            lengths.append(len(parts[-1]))
    index = delta_varint.compress(lengths)
    return b"".join(parts) + index + struct.pack("<iB", len(index), VERSION)


class UnownedBytes(InvariantError):
    """BLOB_INDEX_MISMATCH: the records the index lists end before the data region does. `holds_record`: the
    bytes no row owns start a record (its magic and room for its framing), a row written and not indexed."""

    def __init__(self, offset: int, detail: str, holds_record: bool) -> None:
        super().__init__(NAME, "BLOB_INDEX_MISMATCH", "len_index", offset, detail)
        self.holds_record = holds_record


@dataclass(frozen=True)
class Row:
    """One row of the index: its record's offset and length (length -1 NULL, -2 placeholder)."""

    offset: int
    length: int

    @property
    def has_record(self) -> bool:
        """Whether the row has a record in the data region."""
        return self.length >= 0


def load(data: bytes | Source) -> list[Row]:
    """The rows of a blob file, checked as Java's BlobFileMeta checks them; LayoutError otherwise."""
    src = source(data)
    size = src.size
    if size < FOOTER:
        raise InvariantError(NAME, "BLOB_TOO_SHORT", "size_check", 0, f"{size} bytes cannot hold the 5-byte footer")
    footer = src.read(size - FOOTER, FOOTER)
    len_index, version = struct.unpack("<iB", footer)
    if version != VERSION:
        raise InvariantError(NAME, "BLOB_BAD_VERSION", "version", size - 1, f"version {version}, Java knows 1")
    if not 0 <= len_index <= size - FOOTER:
        msg = f"index length {len_index} does not fit in {size - FOOTER} bytes before the footer"
        raise InvariantError(NAME, "BLOB_BAD_INDEX_LENGTH", "len_index", size - FOOTER, msg)
    ofs_index = size - FOOTER - len_index
    budget.reserve(64 * len_index, f"the {len_index}-byte length index of a blob file")  # a Row per index byte, at most
    index = src.read(ofs_index, len_index)
    rows: list[Row] = []
    pos, length, offset = 0, 0, 0
    while pos < len_index:
        start = pos
        path = f"index.entries[{len(rows)}].delta"
        delta, pos = delta_varint.read_zigzag(NAME, index, pos, len_index, ofs_index, path)
        length += delta
        if length not in (NULL_LENGTH, PLACEHOLDER_LENGTH) and not MIN_RECORD <= length <= ofs_index - offset:
            msg = f"row {len(rows)} has length {length}: not -1, -2, or 16 to {ofs_index - offset} bytes"
            raise InvariantError(NAME, "BLOB_BAD_RECORD_LENGTH", path, ofs_index + start, msg)
        rows.append(Row(offset, length))
        offset += max(length, 0)
    if offset != ofs_index:
        msg = f"indexed records use {offset} bytes, but the data region holds {ofs_index}"
        holds = ofs_index - offset >= MIN_RECORD and src.read(offset, 4) == MAGIC_BYTES
        if holds:
            msg += f"; the bytes at {offset} start a record no row indexes"
        raise UnownedBytes(size - FOOTER, msg, holds)
    return rows


def _crc(src: Source, start: int, end: int) -> int:
    """CRC32 of src[start:end], read a chunk at a time."""
    value = 0
    for at in range(start, end, CHUNK):
        value = crc32(src.read(at, min(CHUNK, end - at)), value)
    return value


def _frame_fault(src: Source, row: Row, path: str) -> LayoutError | None:
    """The first fault of a record's own framing (magic, repeated length, CRC), which Java does not check."""
    at, end = row.offset, row.offset + row.length
    magic = src.read(at, 4)
    if magic != MAGIC_BYTES:
        return InvariantError(NAME, "BLOB_BAD_MAGIC", f"{path}.magic", at, f"record magic {magic.hex()}, not cf114e58")
    stored, crc = struct.unpack("<qI", src.read(end - 12, 12))
    if stored != row.length:
        msg = f"the record says its length is {stored}; the index says {row.length}"
        return InvariantError(NAME, "BLOB_RECORD_LENGTH_MISMATCH", f"{path}.len_record", end - 12, msg)
    if crc != _crc(src, at, end - 4):
        msg = f"stored CRC 0x{crc:08x} differs from the CRC32 of the record"
        return InvariantError(NAME, "BLOB_CRC_MISMATCH", f"{path}.crc", end - 4, msg)
    return None


def record_faults(data: bytes | Source, rows: list[Row], etype: ElementType = BLOB) -> list[LayoutError]:
    """Each record's faults in the spec's order: the first of its magic, repeated length and CRC (which Java's
    reader does not check), then, for ARRAY/MAP columns, the first of its element framing (which it does)."""
    src = source(data)
    out: list[LayoutError] = []
    for i, row in enumerate(rows):
        if not row.has_record:
            continue
        path = f"records[{i}].record"
        if (fault := _frame_fault(src, row, path)) is not None:
            out.append(fault)
        try:
            framed = elements.read(src, etype, row.offset + 4, row.length - MIN_RECORD, path)
        except LayoutError as err:
            out.append(err)
            continue
        if framed is not None and etype.key is not None:
            out += elements.key_faults(src, framed, etype.key, f"{path}.elements")
    return out


def values(data: bytes, rows: list[Row], etype: ElementType = BLOB) -> list[Value]:
    """Each row's value as Java reads it: the payload at (offset + 4, length - 16), None or PLACEHOLDER; an
    ARRAY row's elements, a MAP row's (key, value) pairs (keys in core.types' internal form). LayoutError for
    broken element framing, and for a key that is no value of its type (a string key that is not UTF-8: Java
    keeps its bytes, which no str holds; entry.validate reports it as a should)."""
    out: list[Value] = []
    for i, row in enumerate(rows):
        if row.length == NULL_LENGTH:
            out.append(None)
        elif row.length == PLACEHOLDER_LENGTH:
            out.append(PLACEHOLDER)
        else:
            out.append(_value(data, row, etype, f"records[{i}].record"))
    return out


def _value(data: bytes, row: Row, etype: ElementType, path: str) -> Value:
    """One row's value (LayoutError when its element framing is broken)."""
    framed = elements.read(Source(data), etype, row.offset + 4, row.length - MIN_RECORD, path)
    if framed is None:
        return data[row.offset + 4 : row.offset + row.length - 12]
    blobs = [None if e.length == NULL_LENGTH else data[e.offset : e.offset + e.length] for e in framed.values]
    if framed.keys is None or etype.key is None:
        return blobs
    keys = [_key(data, k, i, etype, path) for i, k in enumerate(framed.keys)]
    return list(zip(keys, blobs, strict=True))


def _key(data: bytes, k: elements.Element, i: int, etype: ElementType, path: str) -> Any:
    """One map key's value; InvariantError (at the key's offset) for bytes that are no value of the key type."""
    if k.length == NULL_LENGTH:
        return None
    try:
        return elements.key_value(etype.key, data[k.offset : k.offset + k.length])
    except (ValueError, struct.error) as exc:  # UnicodeDecodeError included
        code = "BLOB_MAP_KEY_NOT_UTF8" if etype.key.is_string else "BLOB_MAP_BAD_KEY"
        raise InvariantError(NAME, code, f"{path}.elements.keys[{i}]", k.offset, f"key {i}: {exc}") from None
