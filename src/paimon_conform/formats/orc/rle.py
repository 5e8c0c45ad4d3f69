"""ORC's run-length encodings: byte RLE (PRESENT streams), integer RLE v1 and v2 (the four run kinds of
v2), with Java's 64-bit wrap-around."""

from __future__ import annotations

import numpy as np

from paimon_conform.core import varint
from paimon_conform.core.cursor import Cursor
from paimon_conform.formats.orc.errors import OrcError
from paimon_conform.formats.orc.protobuf import uvarint


def _past_end() -> OrcError:
    return OrcError("read past the end of a stream")


class _Bytes(Cursor):
    """A stream's bytes with ORC's varints."""

    __slots__ = ()

    def __init__(self, buf: bytes):
        super().__init__(buf, 0, _past_end)

    def uvarint(self) -> int:
        v, self.pos = uvarint(self.buf, self.pos)
        return v

    def svarint(self) -> int:
        return varint.unzigzag(self.uvarint())


def byte_rle(buf: bytes, count: int) -> np.ndarray:
    r = _Bytes(buf)
    out = bytearray()
    while len(out) < count:
        control = r.byte()
        if control < 0x80:
            out += bytes([r.byte()]) * (control + 3)
        else:
            out += r.take(0x100 - control)
    return np.frombuffer(bytes(out[:count]), dtype=np.uint8)


def booleans(buf: bytes, count: int) -> np.ndarray:
    """A PRESENT stream: bits over byte RLE, most significant bit first."""
    data = byte_rle(buf, (count + 7) // 8)
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


def ints_v1(buf: bytes, count: int, signed: bool) -> np.ndarray:
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


def ints_v2(buf: bytes, count: int, signed: bool) -> np.ndarray:
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
        raise OrcError("corrupt PATCHED_BASE run")
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
