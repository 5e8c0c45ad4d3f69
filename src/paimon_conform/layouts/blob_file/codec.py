"""The `.blob` data file (Paimon 1.4+): encoder and fast reader, byte-identical to Java's BlobFormatWriter.

`encode(values)` writes a file from row values: bytes, None (a NULL row) or PLACEHOLDER (a data-evolution
placeholder, whose value lives in another file). `load(source)` reads the footer and the length index with
the checks Java's BlobFileMeta makes, raising the LayoutError the spec's parser raises for the same bytes;
`record_faults` lists what Java's reader does not check (record magic, repeated length, CRC). Both read
through a Source (bytes in memory, or an open file read piece by piece, so a file of large BLOBs is
checked in bounded memory).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import BinaryIO

from zlib_ng.zlib_ng import crc32

from paimon_conform.core import budget, delta_varint
from paimon_conform.core.errors import EncodeError, InvariantError, LayoutError

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
Value = bytes | None | Placeholder


def record(payload: bytes) -> bytes:
    """One record: magic, payload, its own length (s8) and the CRC32 of all that."""
    body = MAGIC_BYTES + payload + struct.pack("<q", len(payload) + MIN_RECORD)
    return body + struct.pack("<I", crc32(body))


def encode(values: Sequence[Value]) -> bytes:
    """The bytes Java writes for these rows: records, the delta-varint length index, the footer."""
    parts: list[bytes] = []
    lengths: list[int] = []
    for v in values:
        if v is None:
            lengths.append(NULL_LENGTH)
        elif isinstance(v, Placeholder):
            lengths.append(PLACEHOLDER_LENGTH)
        elif isinstance(v, bytes | bytearray | memoryview):
            parts.append(record(bytes(v)))
            lengths.append(len(parts[-1]))
        else:
            raise EncodeError(f"a BLOB row is bytes, None or PLACEHOLDER, not {type(v).__name__}")
    index = delta_varint.compress(lengths)
    return b"".join(parts) + index + struct.pack("<iB", len(index), VERSION)


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
        raise InvariantError(NAME, "BLOB_INDEX_MISMATCH", "len_index", size - FOOTER, msg)
    return rows


def _crc(src: Source, start: int, end: int) -> int:
    """CRC32 of src[start:end], read a chunk at a time."""
    value = 0
    for at in range(start, end, CHUNK):
        value = crc32(src.read(at, min(CHUNK, end - at)), value)
    return value


def record_faults(data: bytes | Source, rows: list[Row]) -> list[LayoutError]:
    """Record magic, repeated length and CRC of every row, which Java's reader does not check."""
    src = source(data)
    out: list[LayoutError] = []
    for i, row in enumerate(rows):
        if not row.has_record:
            continue
        at, end, path = row.offset, row.offset + row.length, f"records[{i}].record"
        magic = src.read(at, 4)
        if magic != MAGIC_BYTES:
            msg = f"record magic {magic.hex()}, not cf114e58"
            out.append(InvariantError(NAME, "BLOB_BAD_MAGIC", f"{path}.magic", at, msg))
            continue
        stored, crc = struct.unpack("<qI", src.read(end - 12, 12))
        if stored != row.length:
            msg = f"the record says its length is {stored}; the index says {row.length}"
            out.append(InvariantError(NAME, "BLOB_RECORD_LENGTH_MISMATCH", f"{path}.len_record", end - 12, msg))
            continue
        if crc != _crc(src, at, end - 4):
            msg = f"stored CRC 0x{crc:08x} differs from the CRC32 of the record"
            out.append(InvariantError(NAME, "BLOB_CRC_MISMATCH", f"{path}.crc", end - 4, msg))
    return out


def values(data: bytes, rows: list[Row]) -> list[Value]:
    """Each row's value as Java reads it: the payload at (offset + 4, length - 16), None or PLACEHOLDER."""
    out: list[Value] = []
    for row in rows:
        if row.length == NULL_LENGTH:
            out.append(None)
        elif row.length == PLACEHOLDER_LENGTH:
            out.append(PLACEHOLDER)
        else:
            out.append(data[row.offset + 4 : row.offset + row.length - 12])
    return out
