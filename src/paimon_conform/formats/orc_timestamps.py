"""Java Paimon's values for the TIMESTAMP and TIMESTAMP_LTZ columns of an ORC file.

pyarrow's ORC reader (ORC C++) returns other values than Java Paimon's reader (ORC Java 1.9
under Paimon's OrcFileFormat) for Java-written timestamps:

* Java Paimon writes TIMESTAMP(p) as ORC `timestamp` and TIMESTAMP_LTZ(p) as ORC `timestamp
  with local time zone`, both from `Timestamp.toSQLTimestamp()` (the value as a wall clock in
  the writer JVM's default zone). The ORC writer stores seconds (`java.sql.Timestamp.getTime()
  / 1000`, truncated toward zero) minus 2015-01-01 00:00:00 in the writer zone (in UTC for the
  instant type) and the nanos with their trailing-zero code, and records the writer zone's ID
  in every stripe footer.
* ORC Java reads millis = secs * 1000 + nanos / 10^6, takes a second off when millis < 0 and
  nanos > 999,999 (undoing the truncation), moves `timestamp` values from the writer zone to
  the reader JVM's zone, and Paimon adds the reader JVM zone's offset (DateTimeUtils.toInternal)
  for both types. ORC C++ (pyarrow) reads in GMT, takes the second off only after moving the
  value to GMT (one second off near the epoch for writer zones east or west of UTC), never adds
  the zone offset to the instant type (TIMESTAMP_LTZ comes back shifted by the writer zone),
  overflows int64 nanoseconds outside 1677..2262 silently, and cannot open a file whose writer
  zone is a Java-only ID (`GMT+08:00`, `CTT`, `PST`).
* Arrow's own ORC writer stores a value before 1970 with a fractional second as truncated
  seconds and negative nanos; Java Paimon's reader throws on those (unless whole milliseconds).

This module decodes the seconds and nanos streams itself (postscript, footer and stripe
footers, PRESENT / DATA / SECONDARY streams, integer RLE v1 and v2, NONE / ZLIB / SNAPPY / LZ4 /
ZSTD compression) and computes what Java returns, as Paimon's internal value: epoch millis
plus nano-of-millisecond (for TIMESTAMP the wall clock as if in UTC, for TIMESTAMP_LTZ the
instant). By default the reader zone is each stripe's writer zone: what the writer meant, and
what a Java reader in that zone returns. Java's TimeZone offsets come from the IANA database
(zoneinfo) with Java's rules on top: before 1900 the zone's standard offset, Java's own IDs
(three-letter IDs, `GMT+hh:mm`), and GMT for an ID Java does not know.

Entry points: `read_timestamps` (the values of every top-level timestamp column),
`fix_table` (a pyarrow-read table with those columns replaced), `prepare_pyarrow` (lets pyarrow
open files whose writer zone it cannot load), `java_zone` / `java_offset_ms` (Java's zones).
Checked against Java Paimon 0.9.0 and 1.0-SNAPSHOT (ORC 1.9.2) by conformance/test_orc_timestamps.py.
"""

from __future__ import annotations

import atexit
import datetime as dt
import functools
import os
import re
import shutil
import tempfile
import zlib
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core import budget
from paimon_conform.core.block_codec import read_var_int
from paimon_conform.core.errors import UsageError


class OrcTimestampError(UsageError):
    """The file's timestamp columns cannot be decoded (damaged, or a feature this module lacks)."""


# ---------------------------------------------------------------- protobuf


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise OrcTimestampError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 70:
            raise OrcTimestampError("varint too long")


def _message(buf: bytes | int) -> dict[int, list]:
    """A protobuf message's fields: number -> values (ints for varints, bytes otherwise)."""
    buf = _text(buf)
    out: dict[int, list] = {}
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > len(buf):
                raise OrcTimestampError("truncated protobuf field")
            value, pos = buf[pos : pos + size], pos + size
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        else:
            raise OrcTimestampError(f"protobuf wire type {wire} not supported")
        out.setdefault(number, []).append(value)
    if pos != len(buf):
        raise OrcTimestampError("truncated protobuf message")
    return out


def _text(value: bytes | int) -> bytes:
    """A length-delimited field's bytes; OrcTimestampError when the file put a varint there (never bytes(n),
    which would allocate n bytes)."""
    if isinstance(value, int):
        raise OrcTimestampError("a protobuf varint where a length-delimited field belongs")
    return value


def _int(msg: dict, number: int, default: int = 0) -> int:
    values = msg.get(number)
    if not values:
        return default
    if not isinstance(values[-1], int):
        raise OrcTimestampError(f"protobuf field {number} is not a varint")
    return values[-1]


def _ints(msg: dict, number: int) -> list[int]:
    """A repeated integer field, packed or not."""
    out: list[int] = []
    for v in msg.get(number, []):
        if isinstance(v, int):
            out.append(v)
        else:
            pos = 0
            while pos < len(v):
                x, pos = _varint(v, pos)
                out.append(x)
    return out


# ---------------------------------------------------------------- file structure

SWITCHOVER_MS = -12219292800000  # 1582-10-15T00:00:00Z, where the Julian and Gregorian calendars meet
KIND_TIMESTAMP = 9
KIND_STRUCT = 12
KIND_TIMESTAMP_INSTANT = 18
CALENDAR_PROLEPTIC = 2
_INDEX_STREAMS = {4, 6, 7, 8}  # DICTIONARY_COUNT, ROW_INDEX, BLOOM_FILTER(_UTF8): ORC Java's index area
_PLACEHOLDER_STREAMS = {9, 10, 100, 101}  # encrypted placeholders, footer-area statistics


@dataclass(frozen=True)
class _Stripe:
    offset: int
    index_length: int
    data_length: int
    footer_length: int
    rows: int


@dataclass(frozen=True)
class _Tail:
    compression: int
    block_size: int
    stripes: list[_Stripe]
    kinds: list[int]
    subtypes: list[list[int]]
    names: list[list[str]]
    calendar: int
    encrypted: bool


class _FileBytes:
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
def _opened(path: str | Path) -> Iterator[_FileBytes]:
    with open(path, "rb") as f:
        yield _FileBytes(f)


def _tail(data: bytes | _FileBytes) -> _Tail:
    if len(data) < 4 or data[:3] != b"ORC":
        raise OrcTimestampError("not an ORC file")
    ps_len = data[-1]
    if ps_len == 0 or ps_len + 1 > len(data):
        raise OrcTimestampError("bad postscript length")
    ps = _message(data[-1 - ps_len : -1])
    footer_len = _int(ps, 1)
    compression = _int(ps, 2)
    block_size = _int(ps, 3, 256 * 1024)
    start = len(data) - 1 - ps_len - footer_len
    if start < 3:
        raise OrcTimestampError("bad footer length")
    footer = _message(_decompress(compression, block_size, data[start : start + footer_len]))
    stripes = []
    for raw in footer.get(3, []):
        s = _message(raw)
        stripes.append(_Stripe(_int(s, 1), _int(s, 2), _int(s, 3), _int(s, 4), _int(s, 5)))
    kinds, subtypes, names = [], [], []
    for raw in footer.get(4, []):
        t = _message(raw)
        kinds.append(_int(t, 1))
        subtypes.append(_ints(t, 2))
        names.append([_text(n).decode("utf-8", "replace") for n in t.get(3, [])])
    return _Tail(compression, block_size, stripes, kinds, subtypes, names, _int(footer, 11), 10 in footer)


def _decompress(codec: int, block_size: int, raw: bytes) -> bytes:
    """A stream's bytes without ORC's compression chunks; no chunk gives more than the tail's block size, and a
    block size beyond the memory budget is refused before any chunk is decompressed."""
    if codec == 0:
        return bytes(raw)
    if block_size < 0 or not budget.fits(block_size + 1):
        raise OrcTimestampError(f"compression block size {block_size} is beyond the memory budget")
    out = bytearray()
    pos = 0
    while pos < len(raw):
        if pos + 3 > len(raw):
            raise OrcTimestampError("truncated compression chunk header")
        header = raw[pos] | raw[pos + 1] << 8 | raw[pos + 2] << 16
        size = header >> 1
        pos += 3
        chunk = bytes(raw[pos : pos + size])
        if len(chunk) != size:
            raise OrcTimestampError("truncated compression chunk")
        pos += size
        if header & 1:
            out += chunk
            continue
        try:
            out += _codec_decompress(codec, block_size, chunk)
        except (OrcTimestampError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - codecs raise many kinds on damaged input
            raise OrcTimestampError(f"cannot decompress a chunk: {exc}") from None
    return bytes(out)


def _codec_decompress(codec: int, block_size: int, chunk: bytes) -> bytes:
    if codec == 1:  # ZLIB: raw deflate
        d = zlib.decompressobj(-15)
        result = d.decompress(chunk, block_size + 1)
        if len(result) > block_size:
            raise OrcTimestampError("a ZLIB chunk is larger than the compression block size")
        return result
    import cramjam

    if codec == 2:  # SNAPPY raw: the length it states comes first, checked before anything is built
        stated = read_var_int(chunk, 0)
        if stated is None or not 0 <= stated[0] <= block_size:
            said = "no length" if stated is None else f"{stated[0] & 0xFFFFFFFF} bytes"
            raise OrcTimestampError(f"a SNAPPY chunk states {said}, more than the compression block size {block_size}")
        return bytes(cramjam.snappy.decompress_raw(chunk))
    if codec == 4:
        return bytes(cramjam.lz4.decompress_block(chunk, output_len=block_size))
    if codec == 5:  # ZSTD: into a buffer one byte past the block size, so that a larger chunk is seen, never built
        into = bytearray(block_size + 1)
        try:
            got = cramjam.zstd.decompress_into(chunk, into)
        except cramjam.DecompressionError as exc:
            if "whole buffer" not in str(exc):
                raise
            got = block_size + 1
        if got > block_size:
            raise OrcTimestampError("a ZSTD chunk is larger than the compression block size")
        return bytes(into[:got])
    raise OrcTimestampError(f"ORC compression kind {codec} is not supported")


# ---------------------------------------------------------------- run-length encodings


class _Bytes:
    __slots__ = ("buf", "pos")

    def __init__(self, buf: bytes):
        self.buf = buf
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.buf):
            raise OrcTimestampError("read past the end of a stream")
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.buf):
            raise OrcTimestampError("read past the end of a stream")
        out = self.buf[self.pos : self.pos + n]
        self.pos += n
        return out

    def uvarint(self) -> int:
        v, self.pos = _varint(self.buf, self.pos)
        return v

    def svarint(self) -> int:
        v = self.uvarint()
        return (v >> 1) ^ -(v & 1)


def _byte_rle(buf: bytes, count: int) -> np.ndarray:
    r = _Bytes(buf)
    out = bytearray()
    while len(out) < count:
        control = r.byte()
        if control < 0x80:
            out += bytes([r.byte()]) * (control + 3)
        else:
            out += r.take(0x100 - control)
    return np.frombuffer(bytes(out[:count]), dtype=np.uint8)


def _booleans(buf: bytes, count: int) -> np.ndarray:
    """A PRESENT stream: bits over byte RLE, most significant bit first."""
    data = _byte_rle(buf, (count + 7) // 8)
    return np.unpackbits(data)[:count].astype(bool)


_WIDTHS = [*range(1, 25), 26, 28, 30, 32, 40, 48, 56, 64]


def _closest_fixed_bits(n: int) -> int:
    if n == 0:
        return 1
    for w in _WIDTHS:
        if w >= n:
            return w
    return 64


def _unpack(r: _Bytes, count: int, width: int) -> np.ndarray:
    """`count` big-endian bit-packed unsigned values of `width` bits (uint64)."""
    nbytes = (count * width + 7) // 8
    bits = np.unpackbits(np.frombuffer(r.take(nbytes), dtype=np.uint8))[: count * width]
    padded = np.zeros((count, 64), dtype=np.uint8)
    padded[:, 64 - width :] = bits.reshape(count, width)
    return np.packbits(padded, axis=1).view(">u8").reshape(count).astype(np.uint64)


def _zigzag(u: np.ndarray) -> np.ndarray:
    u = u.astype(np.uint64)
    return ((u >> np.uint64(1)) ^ (np.uint64(0) - (u & np.uint64(1)))).view(np.int64)


_M64 = (1 << 64) - 1


def _to_signed64(v: int) -> int:
    v &= _M64
    return v - (1 << 64) if v >= 1 << 63 else v


def _wrapping(values: list[int]) -> np.ndarray:
    """Python ints as int64 with Java's two's-complement wrap-around."""
    return np.array([v & _M64 for v in values], dtype=np.uint64).view(np.int64)


def _ints_v1(buf: bytes, count: int, signed: bool) -> np.ndarray:
    r = _Bytes(buf)
    parts: list[np.ndarray] = []
    n = 0
    read = r.svarint if signed else r.uvarint
    while n < count:
        control = r.byte()
        if control < 0x80:  # a run: base, base + delta, ...
            length = control + 3
            delta = r.byte()
            delta = delta - 256 if delta > 127 else delta
            base = read()
            steps = np.arange(length, dtype=np.uint64) * np.uint64(delta & _M64)
            run = (steps + np.uint64(base & _M64)).view(np.int64)
        else:
            run = _wrapping([read() for _ in range(0x100 - control)])
        parts.append(run)
        n += len(run)
    return np.concatenate(parts)[:count] if parts else np.zeros(0, dtype=np.int64)


def _ints_v2(buf: bytes, count: int, signed: bool) -> np.ndarray:
    r = _Bytes(buf)
    parts: list[np.ndarray] = []
    n = 0
    while n < count:
        first = r.byte()
        run = _RUNS[first >> 6](r, first, signed)
        parts.append(run)
        n += len(run)
    return np.concatenate(parts)[:count] if parts else np.zeros(0, dtype=np.int64)


def _short_repeat(r: _Bytes, first: int, signed: bool) -> np.ndarray:
    size = ((first >> 3) & 7) + 1
    length = (first & 7) + 3
    v = int.from_bytes(r.take(size), "big")
    if signed:
        v = (v >> 1) ^ -(v & 1)
    return np.full(length, _to_signed64(v), dtype=np.int64)


def _direct(r: _Bytes, first: int, signed: bool) -> np.ndarray:
    width = _WIDTHS[(first >> 1) & 0x1F]
    length = ((first & 1) << 8 | r.byte()) + 1
    u = _unpack(r, length, width)
    return _zigzag(u) if signed else u.view(np.int64)


def _patched_base(r: _Bytes, first: int, signed: bool) -> np.ndarray:
    del signed  # the base is sign-magnitude and the packed values are unsigned either way
    width = _WIDTHS[(first >> 1) & 0x1F]
    length = ((first & 1) << 8 | r.byte()) + 1
    third = r.byte()
    base_width = ((third >> 5) & 7) + 1
    patch_width = _WIDTHS[third & 0x1F]
    fourth = r.byte()
    gap_width = ((fourth >> 5) & 7) + 1
    patch_count = fourth & 0x1F
    base = int.from_bytes(r.take(base_width), "big")
    mask = 1 << (base_width * 8 - 1)
    if base & mask:
        base = -(base & ~mask)
    values = _unpack(r, length, width)
    if patch_width + gap_width > 64:
        raise OrcTimestampError("corrupt PATCHED_BASE run")
    entries = [int(x) for x in _unpack(r, patch_count, _closest_fixed_bits(patch_width + gap_width))]
    patch_mask = (1 << patch_width) - 1
    index = 0  # as ORC Java's RunLengthIntegerReaderV2.readPatchedBaseValues walks the patch list

    def next_gap() -> tuple[int, int]:
        nonlocal index
        gap_sum = 0
        gap, patch = entries[index] >> patch_width, entries[index] & patch_mask
        while gap == 255 and patch == 0:  # a gap over 255 spans several entries
            gap_sum += 255
            index += 1
            gap, patch = entries[index] >> patch_width, entries[index] & patch_mask
        return gap_sum + gap, patch

    if patch_count:
        position, patch = next_gap()
        while position < length:  # Java applies no patch past the run's end
            values[position] |= np.uint64((patch << width) & _M64)
            index += 1
            if index >= patch_count:
                break
            gap, patch = next_gap()
            position += gap
    return (values + np.uint64(base & _M64)).view(np.int64)


def _delta(r: _Bytes, first: int, signed: bool) -> np.ndarray:
    code = (first >> 1) & 0x1F
    width = _WIDTHS[code] if code else 0
    length = (first & 1) << 8 | r.byte()
    first_value = r.svarint() if signed else r.uvarint()
    if width == 0:  # a fixed delta
        step = r.svarint()
        steps = np.arange(length + 1, dtype=np.uint64) * np.uint64(step & _M64)
        return (steps + np.uint64(first_value & _M64)).view(np.int64)
    delta_base = r.svarint()
    deltas = _unpack(r, length - 1, width) if length > 1 else np.zeros(0, dtype=np.uint64)
    if delta_base < 0:  # a decreasing run: the packed deltas are magnitudes
        deltas = np.uint64(0) - deltas
    head = np.array([first_value & _M64, delta_base & _M64], dtype=np.uint64)
    return np.cumsum(np.concatenate([head, deltas]), dtype=np.uint64).view(np.int64)


_RUNS = {
    0: lambda r, first, signed: _short_repeat(r, first, signed),
    1: lambda r, first, signed: _direct(r, first, signed),
    2: lambda r, first, signed: _patched_base(r, first, signed),
    3: lambda r, first, signed: _delta(r, first, signed),
}  # ORC's integer RLE v2 run kinds, by the first byte's top two bits (looked up at call time)


def _decode_nanos(encoded: np.ndarray) -> np.ndarray:
    """The SECONDARY stream's values: nanos << 3 | code, code z > 0 meaning z + 1 trailing zeros.

    In ORC Java's int arithmetic (TimestampTreeReader.parseNanos): the shifted value and the
    product wrap at 32 bits. Valid files hold 0..999,999,999; ORC C++ as pyarrow drives it
    writes negative nanos for values before 1970 with a fractional second, which this keeps.
    """
    u = encoded.view(np.uint64)
    zeros = (u & np.uint64(7)).astype(np.int64)
    value = (u >> np.uint64(3)).astype(np.uint32).view(np.int32).astype(np.int64)
    scale = np.where(zeros == 0, 1, 10 ** (zeros + 1))
    return ((value * scale) & 0xFFFFFFFF).astype(np.uint32).view(np.int32).astype(np.int64)


def _java_div(a: np.ndarray, b: int) -> np.ndarray:
    """Java's integer division (truncating toward zero)."""
    q = np.abs(a) // b
    return np.where(a < 0, -q, q)


# ---------------------------------------------------------------- Java's time zones

UTC1900_MS = -2208988800000  # ZoneInfo has no transitions before 1900: the raw offset applies
_CYCLE_SECONDS = 146097 * 86400  # 400 Gregorian years: rules after the last transition repeat
_MAX_SECONDS = 253402214400  # 9999-12-31T00:00:00Z, inside datetime's range in every zone
# Java's old three-letter IDs (sun.util.calendar.ZoneInfoFile, sun.timezone.ids.oldmapping=false)
JAVA_OLD_IDS = {
    "ACT": "Australia/Darwin",
    "AET": "Australia/Sydney",
    "AGT": "America/Argentina/Buenos_Aires",
    "ART": "Africa/Cairo",
    "AST": "America/Anchorage",
    "BET": "America/Sao_Paulo",
    "BST": "Asia/Dhaka",
    "CAT": "Africa/Harare",
    "CNT": "America/St_Johns",
    "CST": "America/Chicago",
    "CTT": "Asia/Shanghai",
    "EAT": "Africa/Addis_Ababa",
    "ECT": "Europe/Paris",
    "IET": "America/Indiana/Indianapolis",
    "IST": "Asia/Kolkata",
    "JST": "Asia/Tokyo",
    "MIT": "Pacific/Apia",
    "NET": "Asia/Yerevan",
    "NST": "Pacific/Auckland",
    "PLT": "Asia/Karachi",
    "PNT": "America/Phoenix",
    "PRT": "America/Puerto_Rico",
    "PST": "America/Los_Angeles",
    "SST": "Pacific/Guadalcanal",
    "VST": "Asia/Ho_Chi_Minh",
}
JAVA_FIXED_IDS = {"EST": -5 * 3600, "MST": -7 * 3600, "HST": -10 * 3600}
_CUSTOM_ID = re.compile(r"GMT([+-])(\d{1,2})(?::?(\d{2}))?")
_ETC_ID = re.compile(r"Etc/GMT([+-])(\d{1,2})")
_UTC_IDS = {"UTC", "GMT", "UCT", "Universal", "Zulu", "Greenwich", "GMT0", "GMT+0", "GMT-0"}
_UTC_IDS |= {f"Etc/{z}" for z in (*_UTC_IDS, "GMT+0", "GMT-0")}


@dataclass(frozen=True)
class JavaZone:
    """A java.util.TimeZone as Java resolves an ID: IANA rules, or a fixed offset."""

    id: str
    tz: dt.tzinfo
    raw_seconds: int  # getRawOffset(): the offset Java applies before 1900

    def offset_ms(self, millis: np.ndarray) -> np.ndarray:
        """TimeZone.getOffset(millis) for every value (int64 ms)."""
        millis = np.asarray(millis, dtype=np.int64)
        out = np.full(millis.shape, self.raw_seconds * 1000, dtype=np.int64)
        if isinstance(self.tz, dt.timezone) or not millis.size:
            return out
        late = millis >= UTC1900_MS
        secs = np.floor_divide(millis[late], 1000)
        hours = np.floor_divide(secs, 3600)
        uniq, inverse = np.unique(hours, return_inverse=True)
        starts = np.array([self._offset_s(int(h) * 3600) for h in uniq], dtype=np.int64)
        ends = np.array([self._offset_s(int(h) * 3600 + 3599) for h in uniq], dtype=np.int64)
        result = starts[inverse]
        mixed = np.flatnonzero((starts != ends)[inverse])  # a transition inside that hour
        for i in mixed:
            result[i] = self._offset_s(int(secs[i]))
        out[late] = result * 1000
        return out

    def _offset_s(self, secs: int) -> int:
        if secs > _MAX_SECONDS:  # past the last transition the rules repeat every 400 years
            secs -= -(-(secs - _MAX_SECONDS) // _CYCLE_SECONDS) * _CYCLE_SECONDS
        off = dt.datetime.fromtimestamp(secs, self.tz).utcoffset()
        return int(off.total_seconds()) if off is not None else 0


def _fixed(zone_id: str, seconds: int) -> JavaZone:
    return JavaZone(zone_id, dt.timezone(dt.timedelta(seconds=seconds)), seconds)


@functools.cache
def java_zone(zone_id: str) -> JavaZone:
    """The zone `TimeZone.getTimeZone(zone_id)` gives (GMT for an ID Java does not know)."""
    if zone_id in JAVA_FIXED_IDS:
        return _fixed(zone_id, JAVA_FIXED_IDS[zone_id])
    m = _CUSTOM_ID.fullmatch(zone_id)
    if m:
        hours, minutes = int(m.group(2)), int(m.group(3) or 0)
        if hours <= 23 and minutes <= 59:
            return _fixed(zone_id, (1 if m.group(1) == "+" else -1) * (hours * 3600 + minutes * 60))
        return _fixed("GMT", 0)
    key = JAVA_OLD_IDS.get(zone_id, zone_id)
    if key in _UTC_IDS:
        return _fixed(zone_id, 0)
    m = _ETC_ID.fullmatch(key)
    if m and int(m.group(2)) <= 14:  # POSIX signs: Etc/GMT-8 is eight hours east
        return _fixed(zone_id, (-1 if m.group(1) == "+" else 1) * int(m.group(2)) * 3600)
    try:
        tz = zoneinfo.ZoneInfo(key)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        if not _have_tz_database():
            raise OrcTimestampError(
                f"no IANA time zone database to resolve {zone_id!r}: install the tzdata package"
            ) from None
        return _fixed("GMT", 0)
    jan = dt.datetime(2100, 1, 15, tzinfo=dt.UTC).astimezone(tz).utcoffset()
    jul = dt.datetime(2100, 7, 15, tzinfo=dt.UTC).astimezone(tz).utcoffset()
    raw = int(min(jan, jul).total_seconds()) if jan is not None and jul is not None else 0
    return JavaZone(zone_id, tz, raw)


@functools.cache
def _have_tz_database() -> bool:
    try:
        zoneinfo.ZoneInfo("America/New_York")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def java_offset_ms(zone_id: str, millis: np.ndarray) -> np.ndarray:
    """Java's `TimeZone.getTimeZone(zone_id).getOffset(millis)` for every value."""
    return java_zone(zone_id).offset_ms(millis)


def _orc_epoch(zone: JavaZone) -> int:
    """ORC's base: 2015-01-01 00:00:00 in the zone, as epoch seconds."""
    local = 1420070400
    guess = local - int(zone.offset_ms(np.array([local * 1000]))[0] // 1000)
    return local - int(zone.offset_ms(np.array([guess * 1000]))[0] // 1000)


def _convert_between(writer: JavaZone, reader: JavaZone, millis: np.ndarray) -> np.ndarray:
    """ORC's SerializationUtils.convertBetweenTimezones: the shift from writer to reader wall clock."""
    w = writer.offset_ms(millis)
    adjusted = millis + w - reader.offset_ms(millis)
    return w - reader.offset_ms(adjusted)


# ---------------------------------------------------------------- reading


@dataclass(frozen=True)
class TimestampColumn:
    """One top-level timestamp column as Java Paimon reads it."""

    name: str
    instant: bool  # ORC `timestamp with local time zone` (Paimon TIMESTAMP_LTZ)
    millis: np.ndarray  # int64: Paimon Timestamp.getMillisecond() (0 where null)
    nanos: np.ndarray  # int64: getNanoOfMillisecond(), 0..999999
    valid: np.ndarray  # bool: False where the value is null
    # bool: Java Paimon's reader throws on the value (negative nanos, as Arrow's ORC writer stores
    # values before 1970 with a fractional second); millis / nanos hold the value the writer meant
    unreadable: np.ndarray

    def check_readable(self) -> None:
        """OrcTimestampError when Java Paimon cannot read the column (so not the file)."""
        bad = np.flatnonzero(self.unreadable)
        if bad.size:
            raise OrcTimestampError(
                f"column {self.name!r}: {bad.size} value(s) hold negative nanoseconds (first at row "
                f"{int(bad[0])}); Java Paimon's reader throws on them (Timestamp.fromEpochMillis: "
                "IllegalArgumentException)"
            )

    def internal_values(self, unreadable: str = "raise") -> list[tuple[int, int] | None]:
        """The kit's internal form: (millis, nano-of-milli), None for null. `unreadable`: "raise"
        (OrcTimestampError, as check_readable) or "keep" (the values the writer meant)."""
        if unreadable == "raise":
            self.check_readable()
        return [
            (int(m), int(n)) if v else None
            for m, n, v in zip(self.millis.tolist(), self.nanos.tolist(), self.valid.tolist(), strict=True)
        ]


@dataclass(frozen=True)
class _Raw:
    seconds: np.ndarray  # DATA: seconds relative to ORC's 2015 base
    nanos: np.ndarray  # decoded nanos
    valid: np.ndarray


def _stripe_footer(data: bytes | _FileBytes, tail: _Tail, stripe: _Stripe) -> dict:
    start = stripe.offset + stripe.index_length + stripe.data_length
    raw = data[start : start + stripe.footer_length]
    if len(raw) != stripe.footer_length:
        raise OrcTimestampError("a stripe footer lies past the end of the file")
    return _message(_decompress(tail.compression, tail.block_size, raw))


def _streams(footer: dict, stripe: _Stripe) -> dict[tuple[int, int], tuple[int, int]]:
    """(column, kind) -> (file offset, length), placed as ORC Java does: index area, then data."""
    parsed = []
    for raw in footer.get(1, []):
        s = _message(raw)
        parsed.append((_int(s, 1), _int(s, 2), _int(s, 3)))
    out = {}
    offset = stripe.offset
    for index_area in (True, False):
        for kind, column, length in parsed:
            if kind in _PLACEHOLDER_STREAMS or (kind in _INDEX_STREAMS) != index_area:
                continue
            out[(column, kind)] = (offset, length)
            offset += length
    return out


def _read_column(data: bytes | _FileBytes, tail: _Tail, footer: dict, stripe: _Stripe, column: int) -> _Raw:
    streams = _streams(footer, stripe)
    if (0, 0) in streams:
        raise OrcTimestampError("the file has null rows (a PRESENT stream on its root struct)")
    encodings = [_message(raw) for raw in footer.get(2, [])]
    kind = _int(encodings[column], 1) if column < len(encodings) else 0
    if kind not in (0, 2):
        raise OrcTimestampError(f"timestamp column {column} has encoding kind {kind}")

    def stream(k: int) -> bytes | None:
        where = streams.get((column, k))
        if where is None:
            return None
        raw = data[where[0] : where[0] + where[1]]
        if len(raw) != where[1]:
            raise OrcTimestampError("a stream lies past the end of the file")
        return _decompress(tail.compression, tail.block_size, raw)

    present = stream(0)
    valid = _booleans(present, stripe.rows) if present is not None else np.ones(stripe.rows, dtype=bool)
    count = int(valid.sum())
    ints = _ints_v2 if kind == 2 else _ints_v1
    seconds = ints(stream(1) or b"", count, True) if count else np.zeros(0, dtype=np.int64)
    nanos = ints(stream(5) or b"", count, False) if count else np.zeros(0, dtype=np.int64)
    if len(seconds) != count or len(nanos) != count:
        raise OrcTimestampError("a timestamp stream holds fewer values than the column")
    return _Raw(seconds, _decode_nanos(nanos), valid)


def _columns(tail: _Tail) -> list[tuple[str, int, bool]]:
    """(name, ORC column id, instant type) of the top-level timestamp columns."""
    if not tail.kinds or tail.kinds[0] != KIND_STRUCT:
        return []
    out = []
    for name, column in zip(tail.names[0], tail.subtypes[0], strict=False):
        if column < len(tail.kinds) and tail.kinds[column] in (KIND_TIMESTAMP, KIND_TIMESTAMP_INSTANT):
            out.append((name, column, tail.kinds[column] == KIND_TIMESTAMP_INSTANT))
    return out


def _java_values(
    raw: _Raw, instant: bool, writer: JavaZone, reader: JavaZone, proleptic: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(millis, nano-of-milli, unreadable) of the non-null values of one stripe: what Java Paimon
    returns; where Java throws (negative nanos: `unreadable`), the value the writer meant."""
    base = 1420070400 if instant else _orc_epoch(writer)
    nanos = raw.nanos
    unreadable = (nanos - _java_div(nanos, 1_000_000) * 1_000_000) < 0  # Java's % is negative there
    # Java's int division; where Java throws, floor division gives secs * 10^9 + nanos as meant
    whole = np.where(unreadable, np.floor_divide(nanos, 1_000_000), _java_div(nanos, 1_000_000))
    millis = (raw.seconds + base) * 1000 + whole
    millis = np.where((millis < 0) & (nanos > 999_999), millis - 1000, millis)  # TimestampTreeReader
    if not instant:
        millis = millis + _convert_between(writer, reader, millis)
    if proleptic and (millis < SWITCHOVER_MS).any():
        # ORC Java would move these to the Julian calendar (TimestampColumnVector.changeCalendar)
        raise OrcTimestampError("values before 1582-10-15 in a file written with the proleptic Gregorian calendar")
    millis = millis + reader.offset_ms(millis)  # DateTimeUtils.toInternal
    return millis, nanos - whole * 1_000_000, unreadable


def writer_zones(path: str | Path) -> list[str]:
    """The writer time zone every stripe footer records ('' when absent)."""
    with _opened(path) as data:
        tail = _tail(data)
        out = []
        for stripe in tail.stripes:
            zone = _stripe_footer(data, tail, stripe).get(3)
            out.append(_text(zone[-1]).decode("utf-8", "replace") if zone else "")
    return out


def read_timestamps(
    path: str | Path, columns: set[str] | None = None, reader_zone: str | None = None, stripes: range | None = None
) -> dict[str, TimestampColumn]:
    """Java Paimon's values of the file's top-level timestamp columns, by name.

    `reader_zone` is the zone Java's reader JVM runs in; None (the default) reads every stripe
    in the zone its writer ran in. `stripes`: those stripes only (their rows, in order), else every
    stripe; only their streams are read. OrcTimestampError when the file cannot be decoded; values
    Java's reader throws on are marked `unreadable` (see TimestampColumn.check_readable).
    """
    try:
        with _opened(path) as data:
            tail = _tail(data)
            wanted = [c for c in _columns(tail) if columns is None or c[0] in columns]
            if not wanted:
                return {}
            if tail.encrypted:
                raise OrcTimestampError("encrypted ORC files are not supported")
            chosen = tail.stripes if stripes is None else [tail.stripes[i] for i in stripes]
            parts: dict[str, list] = {name: [] for name, _, _ in wanted}
            for stripe in chosen:
                footer = _stripe_footer(data, tail, stripe)
                zone = _text(footer[3][-1]).decode("utf-8", "replace") if footer.get(3) else ""
                # ORC Java: no writer zone recorded -> the reader JVM's zone
                writer = java_zone(zone or reader_zone or "UTC")
                reader = java_zone(reader_zone) if reader_zone is not None else writer
                for name, column, instant in wanted:
                    raw = _read_column(data, tail, footer, stripe, column)
                    values = _java_values(raw, instant, writer, reader, tail.calendar == CALENDAR_PROLEPTIC)
                    parts[name].append((*values, raw.valid))
    except OrcTimestampError:
        raise
    except (IndexError, KeyError, OverflowError, UnicodeError, ValueError) as exc:
        raise OrcTimestampError(f"damaged ORC structure: {exc.__class__.__name__}: {exc}") from None
    out = {}
    for name, _, instant in wanted:
        chunks = parts[name]
        valid = np.concatenate([c[3] for c in chunks]) if chunks else np.zeros(0, dtype=bool)
        millis = np.zeros(valid.shape, dtype=np.int64)
        nanos = np.zeros(valid.shape, dtype=np.int64)
        unreadable = np.zeros(valid.shape, dtype=bool)
        if chunks:
            millis[valid] = np.concatenate([c[0] for c in chunks])
            nanos[valid] = np.concatenate([c[1] for c in chunks])
            unreadable[valid] = np.concatenate([c[2] for c in chunks])
        out[name] = TimestampColumn(name, instant, millis, nanos, valid, unreadable)
    return out


STRIPE_EXPANSION = 4  # a compressed stripe's bytes in Arrow memory, estimated: this many times its bytes on disk


def stripe_estimates(path: str | Path) -> list[tuple[int, int]]:
    """(rows, estimated Arrow bytes) of each stripe, from the file's tail alone. ORC records no uncompressed
    size: the estimate is 8 bytes per row and top-level column plus the stripe's bytes on disk (times
    STRIPE_EXPANSION when compressed). OrcTimestampError when the tail cannot be decoded."""
    try:
        with _opened(path) as data:
            tail = _tail(data)
    except OrcTimestampError:
        raise
    except (IndexError, KeyError, OverflowError, UnicodeError, ValueError) as exc:
        raise OrcTimestampError(f"damaged ORC structure: {exc.__class__.__name__}: {exc}") from None
    width = 8 * max(len(tail.subtypes[0]) if tail.subtypes else 1, 1)
    factor = 1 if tail.compression == 0 else STRIPE_EXPANSION
    return [(s.rows, s.rows * width + (s.index_length + s.data_length) * factor) for s in tail.stripes]


def arrow_array(col: TimestampColumn, arrow_type: pa.TimestampType | None = None, exact: bool = False) -> pa.Array:
    """The column as an Arrow timestamp array (tz UTC for the instant type unless `arrow_type` says).

    The unit is `arrow_type`'s (pyarrow reads ORC as ns) when it holds every value exactly;
    else the finest unit that holds them all exactly; else (int64 nanoseconds span only
    1677..2262, Java's values 0001..9999, and some have sub-microsecond digits) exact
    decimal128(38, 0) nanoseconds since the epoch, as datafile.read_parquet gives for INT96.
    `exact`: that decimal form whatever the values (the windows of one file then agree on the type).
    """
    tz = arrow_type.tz if arrow_type is not None else ("UTC" if col.instant else None)
    m, n = col.millis[col.valid], col.nanos[col.valid]
    units = ([arrow_type.unit] if arrow_type is not None else []) + ["ns", "us", "ms", "s"]
    chosen = None if exact else next((u for u in units if _holds(u, m, n)), None)
    if chosen is None:  # millis * 10^6 + nanos in decimal arithmetic (at most 28 digits)
        millis = pa.array(col.millis).cast(pa.decimal128(19, 0))
        scaled = pc.multiply(millis, pa.scalar(Decimal(1_000_000), pa.decimal128(7, 0)))
        total = pc.add(scaled, pa.array(col.nanos).cast(pa.decimal128(19, 0))).cast(pa.decimal128(38, 0))
        return pc.if_else(pa.array(col.valid), total, pa.scalar(None, pa.decimal128(38, 0)))
    values = np.zeros(col.valid.shape, dtype=np.int64)
    if chosen == "ns":
        values[col.valid] = m * 1_000_000 + n
    elif chosen == "us":
        values[col.valid] = m * 1000 + n // 1000
    elif chosen == "ms":
        values[col.valid] = m
    else:
        values[col.valid] = m // 1000
    return pa.array(values, type=pa.timestamp(chosen, tz=tz), mask=~col.valid)


def _holds(unit: str, m: np.ndarray, n: np.ndarray) -> bool:
    """Whether int64 `unit`s hold every (millis, nano-of-milli) exactly."""
    if not m.size:
        return True
    if unit == "ns":  # (m, n) sort as m * 10^6 + n does: the extremes decide
        lo = int(m.min()) * 1_000_000 + int(n[m == m.min()].min())
        hi = int(m.max()) * 1_000_000 + int(n[m == m.max()].max())
        return lo >= -(2**63) and hi < 2**63
    if unit == "us":
        return bool((n % 1000 == 0).all())
    if unit == "ms":
        return bool((n == 0).all())
    return bool(((n == 0) & (m % 1000 == 0)).all())


def fix_table(
    path: str | Path,
    table: pa.Table,
    reader_zone: str | None = None,
    unreadable: str = "raise",
    stripes: range | None = None,
    exact: bool = False,
) -> pa.Table:
    """`table` (the file's rows as pyarrow read them; `stripes`: those stripes' rows) with every top-level
    timestamp column replaced by Java Paimon's values (see arrow_array for the unit; `exact`: always exact
    decimal nanoseconds). OrcTimestampError when the file cannot be decoded, or (`unreadable="raise"`) when
    Java's reader throws on a value (TimestampColumn.check_readable); `unreadable="keep"` keeps the values
    the writer meant there (report them from read_timestamps(...)[name].unreadable)."""
    names = {f.name for f in table.schema if pa.types.is_timestamp(f.type)}
    if not names:
        return table
    values = read_timestamps(path, names, reader_zone, stripes)
    for name, col in values.items():
        i = table.schema.get_field_index(name)
        if i < 0:
            continue
        if unreadable == "raise":
            col.check_readable()
        if len(col.valid) != table.num_rows:
            raise OrcTimestampError(f"column {name!r}: {len(col.valid)} values for {table.num_rows} rows")
        field = table.schema.field(i)
        array = arrow_array(col, field.type, exact)
        if pa.types.is_decimal(array.type):  # beyond int64 nanoseconds: exact decimal nanoseconds, marked
            from paimon_conform.formats.exact_ns import exact_ns_field

            table = table.set_column(i, exact_ns_field(name), array)
        else:
            table = table.set_column(i, field.with_type(array.type), array)
    return table


# ---------------------------------------------------------------- pyarrow's time zone database

_TZDIR: Path | None = None
_TZDIR_OWNER: int | None = None  # the process that made it (a forked one inherits the variable, not the directory)
_TZDIR_BEFORE: str | None = None  # TZDIR before it pointed there


def _system_zoneinfo() -> Path | None:
    for candidate in (os.environ.get("TZDIR"), "/usr/share/zoneinfo"):
        if candidate and Path(candidate, "UTC").is_file():
            return Path(candidate)
    try:
        import importlib.resources

        root = Path(str(importlib.resources.files("tzdata") / "zoneinfo"))
        return root if (root / "UTC").is_file() else None
    except (ImportError, ModuleNotFoundError, TypeError):
        return None


def _tzif_fixed(seconds: int) -> bytes:
    """A TZif (version 2) file for a fixed offset with no transitions."""
    import struct

    abbr = b"GMT\x00"
    header = b"TZif2" + b"\x00" * 15
    counts = struct.pack(">6l", 0, 0, 0, 0, 1, len(abbr))
    body = struct.pack(">lBB", seconds, 0, 0) + abbr
    sign = "-" if seconds > 0 else "+"  # POSIX TZ strings count west of Greenwich as positive
    h, rest = divmod(abs(seconds), 3600)
    footer = f"\n<GMT{'+' if seconds >= 0 else '-'}{h:02d}{rest // 60:02d}>{sign}{h}:{rest // 60:02d}\n".encode()
    return header + counts + body + header + counts + body + footer


def drop_private_tzdir() -> None:
    """Remove the private zone directory prepare_pyarrow made in this process, if any (a process that leaves
    by os._exit runs no exit handler); one a forked process inherited belongs to its parent and stays."""
    if _TZDIR is not None and os.getpid() == _TZDIR_OWNER:
        shutil.rmtree(_TZDIR, ignore_errors=True)
    _forget_tzdir()


def _forget_tzdir() -> None:
    """Stop using the private zone directory: TZDIR back to what it was before it."""
    global _TZDIR
    if _TZDIR is not None and os.environ.get("TZDIR") == str(_TZDIR):
        if _TZDIR_BEFORE is None:
            os.environ.pop("TZDIR", None)
        else:
            os.environ["TZDIR"] = _TZDIR_BEFORE
    _TZDIR = None


def prepare_pyarrow(path: str | Path) -> None:
    """Let pyarrow open `path` although a stripe's writer zone is no IANA name ('GMT+08:00', 'CTT').

    ORC C++ loads every stripe's writer zone from $TZDIR (default /usr/share/zoneinfo) and
    fails the whole read when it is missing. The first call points TZDIR at a private
    directory mirroring the system's zone files (or the tzdata package's); every call adds
    files for the IDs of `path` that are missing there (the zone Java means, or GMT).
    Call it before pyarrow opens the file, in a process of its own (it sets os.environ).
    pyarrow's timestamp values for those stripes still need `fix_table`.
    """
    global _TZDIR, _TZDIR_OWNER, _TZDIR_BEFORE
    if _TZDIR is not None and os.getpid() != _TZDIR_OWNER:
        _forget_tzdir()  # forked: the directory is the parent's, which may remove it; this process makes its own
    if _TZDIR is not None and os.environ.get("TZDIR") != str(_TZDIR):
        os.environ["TZDIR"] = str(_TZDIR)
    try:
        zones = {z for z in writer_zones(path) if z}
    except (OrcTimestampError, OSError):
        return
    if not zones:
        return
    if _TZDIR is None:
        source = _system_zoneinfo()
        if source is None:
            return
        target = Path(tempfile.mkdtemp(prefix="paimon-conform-tzdir-"))
        atexit.register(shutil.rmtree, target, True)
        for entry in source.iterdir():
            (target / entry.name).symlink_to(entry)
        _TZDIR_BEFORE = os.environ.get("TZDIR")
        os.environ["TZDIR"] = str(target)
        _TZDIR, _TZDIR_OWNER = target, os.getpid()
    for zone in zones:
        if not _SAFE_ZONE_ID.fullmatch(zone) or (_TZDIR / zone).exists() or (_TZDIR / zone).is_symlink():
            continue
        parent = _TZDIR
        for part in zone.split("/")[:-1]:  # never write through a link into the system's directory
            parent = parent / part
            if parent.is_symlink():
                linked = parent.resolve()
                parent.unlink()
                parent.mkdir()
                if linked.is_dir():
                    for entry in linked.iterdir():
                        (parent / entry.name).symlink_to(entry)
            parent.mkdir(exist_ok=True)
        target_id = JAVA_OLD_IDS.get(zone)
        alias = _TZDIR / target_id if target_id else None
        jz = java_zone(zone)
        if alias is not None and alias.is_file():
            (_TZDIR / zone).write_bytes(alias.read_bytes())
        else:
            (_TZDIR / zone).write_bytes(_tzif_fixed(jz.raw_seconds if isinstance(jz.tz, dt.timezone) else 0))


_SAFE_ZONE_ID = re.compile(r"[A-Za-z0-9_+\-:]+(/[A-Za-z0-9_+\-:]+)*")


KIND_CHAR = 17


def char_columns(path: str | Path) -> list[str]:
    """Top-level CHAR(n) columns: ORC pads them, and Java's reader returns them right-trimmed."""
    with _opened(path) as data:
        tail = _tail(data)
    if not tail.kinds or tail.kinds[0] != KIND_STRUCT:
        return []
    return [
        name
        for name, column in zip(tail.names[0], tail.subtypes[0], strict=False)
        if column < len(tail.kinds) and tail.kinds[column] == KIND_CHAR
    ]
