"""Avro's long (zigzag varint) written and read by hand: the suite builds and picks apart Avro bytes without the
kit's codec, so a test of the kit's Avro reader does not rest on the kit."""

from __future__ import annotations


def zigzag(n: int) -> bytes:
    """Avro's long encoding of n."""
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        if z < 0x80:
            return bytes(out + bytes([z]))
        out.append(z & 0x7F | 0x80)
        z >>= 7


def read_long(data: bytes, at: int) -> tuple[int, int]:
    """Avro's long at `at`: (value, the offset after it)."""
    shift = value = 0
    while True:
        b = data[at]
        value |= (b & 0x7F) << shift
        at += 1
        if not b & 0x80:
            return (value >> 1) ^ -(value & 1), at
        shift += 7
