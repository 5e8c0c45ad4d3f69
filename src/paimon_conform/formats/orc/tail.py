"""An ORC file's structure as the kit reads it itself: the postscript, footer and stripe footers (never the
whole file: the tail and one stripe's streams are read where they lie), the streams' placement, compression
chunks (through core.codecs, none past the tail's block size), and the columns of a kind.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from paimon_conform.core import budget, codecs
from paimon_conform.formats.orc.errors import OrcError
from paimon_conform.formats.orc.protobuf import int_field, int_list, message, text

SWITCHOVER_MS = -12219292800000  # 1582-10-15T00:00:00Z, where the Julian and Gregorian calendars meet
KIND_TIMESTAMP = 9
KIND_STRUCT = 12
KIND_TIMESTAMP_INSTANT = 18
CALENDAR_PROLEPTIC = 2
_INDEX_STREAMS = {4, 6, 7, 8}  # DICTIONARY_COUNT, ROW_INDEX, BLOOM_FILTER(_UTF8): ORC Java's index area
_PLACEHOLDER_STREAMS = {9, 10, 100, 101}  # encrypted placeholders, footer-area statistics
NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD = range(6)  # CompressionKind
CODEC_NAMES = {ZLIB: "ZLIB", SNAPPY: "SNAPPY", LZO: "LZO", LZ4: "LZ4", ZSTD: "ZSTD"}
# ORC Java's codecs: ZLIB is raw deflate, its inflater stopping where the chunk's bytes run out
CODECS = {ZLIB: codecs.DEFLATE_UNTERMINATED, SNAPPY: codecs.SNAPPY, LZ4: codecs.LZ4_BLOCK, ZSTD: codecs.ZSTD}


@dataclass(frozen=True)
class Stripe:
    offset: int
    index_length: int
    data_length: int
    footer_length: int
    rows: int


@dataclass(frozen=True)
class Tail:
    compression: int
    block_size: int
    stripes: list[Stripe]
    kinds: list[int]
    subtypes: list[list[int]]
    names: list[list[str]]
    calendar: int
    encrypted: bool


class FileBytes:
    """An open file's bytes, read where indexed or sliced: the tail and one stripe's streams are read, never
    the whole file. A slice reaching past the end stops at the end, as a slice of bytes does (so a length
    field of the file never sizes a read beyond the file)."""

    def __init__(self, f: BinaryIO) -> None:
        self._f = f
        self._size = os.fstat(f.fileno()).st_size

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, key: int | slice) -> Any:
        if isinstance(key, int):
            at = key + self._size if key < 0 else key
            if not 0 <= at < self._size:
                raise IndexError("index past the end of the file")
            self._f.seek(at)
            return self._f.read(1)[0]
        start, stop, step = key.indices(self._size)
        if step != 1:
            raise ValueError("only contiguous slices")
        if stop <= start:
            return b""
        self._f.seek(start)
        return self._f.read(stop - start)


@contextmanager
def opened(path: str | Path) -> Iterator[FileBytes]:
    with open(path, "rb") as f:
        yield FileBytes(f)


def read_tail(data: bytes | FileBytes) -> Tail:
    if len(data) < 4 or data[:3] != b"ORC":
        raise OrcError("not an ORC file")
    ps_len = data[-1]
    if ps_len == 0 or ps_len + 1 > len(data):
        raise OrcError("bad postscript length")
    ps = message(data[-1 - ps_len : -1])
    footer_len = int_field(ps, 1)
    compression = int_field(ps, 2)
    block_size = int_field(ps, 3, 256 * 1024)
    start = len(data) - 1 - ps_len - footer_len
    if start < 3:
        raise OrcError("bad footer length")
    footer = message(decompress_stream(compression, block_size, data[start : start + footer_len]))
    stripes = []
    for raw in footer.get(3, []):
        s = message(raw)
        stripes.append(Stripe(int_field(s, 1), int_field(s, 2), int_field(s, 3), int_field(s, 4), int_field(s, 5)))
    kinds, subtypes, names = [], [], []
    for raw in footer.get(4, []):
        t = message(raw)
        kinds.append(int_field(t, 1))
        subtypes.append(int_list(t, 2))
        names.append([text(n).decode("utf-8", "replace") for n in t.get(3, [])])
    return Tail(compression, block_size, stripes, kinds, subtypes, names, int_field(footer, 11), 10 in footer)


def decompress_stream(codec: int, block_size: int, raw: bytes) -> bytes:
    """A stream's bytes without ORC's compression chunks; no chunk gives more than the tail's block size, and a
    block size beyond the memory budget is refused before any chunk is decompressed."""
    if codec == NONE:
        return bytes(raw)
    if block_size < 0 or not budget.fits(block_size + 1):
        raise OrcError(f"compression block size {block_size} is beyond the memory budget")
    out = bytearray()
    pos = 0
    while pos < len(raw):
        if pos + 3 > len(raw):
            raise OrcError("truncated compression chunk header")
        header = raw[pos] | raw[pos + 1] << 8 | raw[pos + 2] << 16
        size = header >> 1
        pos += 3
        chunk = bytes(raw[pos : pos + size])
        if len(chunk) != size:
            raise OrcError("truncated compression chunk")
        pos += size
        if header & 1:
            out += chunk
            continue
        out += _chunk(codec, block_size, chunk)
    return bytes(out)


def _chunk(codec: int, block_size: int, chunk: bytes) -> bytes:
    """One compressed chunk, at most the block size (core.codecs); OrcError for a larger or damaged one."""
    name = CODEC_NAMES.get(codec)
    if codec not in CODECS:
        raise OrcError(f"ORC compression kind {codec} is not supported")
    try:
        return codecs.decompress(CODECS[codec], chunk, block_size)
    except codecs.CodecError as exc:
        if exc.needed is None:
            raise OrcError(f"cannot decompress a chunk: {exc}") from None
        if codec == SNAPPY:
            msg = f"states {exc.needed} bytes, more than the compression block size {block_size}"
        else:
            msg = "is larger than the compression block size"
        raise OrcError(f"a {name} chunk {msg}") from None


def stripe_footer(data: bytes | FileBytes, tail: Tail, stripe: Stripe) -> dict:
    start = stripe.offset + stripe.index_length + stripe.data_length
    raw = data[start : start + stripe.footer_length]
    if len(raw) != stripe.footer_length:
        raise OrcError("a stripe footer lies past the end of the file")
    return message(decompress_stream(tail.compression, tail.block_size, raw))


def stream_places(footer: dict, stripe: Stripe) -> dict[tuple[int, int], tuple[int, int]]:
    """(column, kind) -> (file offset, length), placed as ORC Java does: index area, then data."""
    parsed = []
    for raw in footer.get(1, []):
        s = message(raw)
        parsed.append((int_field(s, 1), int_field(s, 2), int_field(s, 3)))
    out = {}
    offset = stripe.offset
    for index_area in (True, False):
        for kind, column, length in parsed:
            if kind in _PLACEHOLDER_STREAMS or (kind in _INDEX_STREAMS) != index_area:
                continue
            out[(column, kind)] = (offset, length)
            offset += length
    return out


def timestamp_columns(tail: Tail) -> list[tuple[str, int, bool]]:
    """(name, ORC column id, instant type) of the top-level timestamp columns."""
    if not tail.kinds or tail.kinds[0] != KIND_STRUCT:
        return []
    out = []
    for name, column in zip(tail.names[0], tail.subtypes[0], strict=False):
        if column < len(tail.kinds) and tail.kinds[column] in (KIND_TIMESTAMP, KIND_TIMESTAMP_INSTANT):
            out.append((name, column, tail.kinds[column] == KIND_TIMESTAMP_INSTANT))
    return out


STRIPE_EXPANSION = 4  # a compressed stripe's bytes in Arrow memory, estimated: this many times its bytes on disk


def stripe_estimates(path: str | Path) -> list[tuple[int, int]]:
    """(rows, estimated Arrow bytes) of each stripe, from the file's tail alone. ORC records no uncompressed
    size: the estimate is 8 bytes per row and top-level column plus the stripe's bytes on disk (times
    STRIPE_EXPANSION when compressed). OrcError when the tail cannot be decoded."""
    try:
        with opened(path) as data:
            tail = read_tail(data)
    except OrcError:
        raise
    except (IndexError, KeyError, OverflowError, UnicodeError, ValueError) as exc:
        raise OrcError(f"damaged ORC structure: {exc.__class__.__name__}: {exc}") from None
    width = 8 * max(len(tail.subtypes[0]) if tail.subtypes else 1, 1)
    factor = 1 if tail.compression == 0 else STRIPE_EXPANSION
    return [(s.rows, s.rows * width + (s.index_length + s.data_length) * factor) for s in tail.stripes]


KIND_CHAR = 17


def char_columns(path: str | Path) -> list[str]:
    """Top-level CHAR(n) columns: ORC pads them, and Java's reader returns them right-trimmed."""
    with opened(path) as data:
        tail = read_tail(data)
    if not tail.kinds or tail.kinds[0] != KIND_STRUCT:
        return []
    return [
        name
        for name, column in zip(tail.names[0], tail.subtypes[0], strict=False)
        if column < len(tail.kinds) and tail.kinds[column] == KIND_CHAR
    ]
