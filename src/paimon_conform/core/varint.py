"""The kit's one varint reader and writer: LEB128 groups (7 bits per byte, low group first, the high bit on
all but the last), ZigZag, and the widths and wrap rules of the Java readers whose bytes the kit reads.

Every format reads the same groups and differs in three rules, which `read` takes as arguments:

* how many bytes a value may take (`max_bytes`; None: any number, bounded by the bytes at hand),
* how a group is shifted (`shift_mod`: Java's `int << n` uses n mod 32, so BlockInput.readVarInt wraps),
* what value comes back (`bits`: masked to Java's int or long and read as signed; None: the unsigned value).

Callers turn a VarintError into their own error (field path, byte offset, finding code).
"""

from __future__ import annotations

INT, LONG = 32, 64


class VarintError(ValueError):
    """The bytes hold no varint under the caller's rules: it ends with the bytes (`ends`), or does not end
    within `max_bytes` (`too_long`); `at` is the index of the byte where that shows, `start` the first."""

    def __init__(self, kind: str, start: int, at: int) -> None:
        super().__init__(f"varint at byte {start}: " + ("the bytes end inside it" if kind == "ends" else "too long"))
        self.kind, self.start, self.at = kind, start, at


def read(
    data: bytes | bytearray | memoryview,
    pos: int,
    end: int | None = None,
    *,
    max_bytes: int | None = 10,
    bits: int | None = None,
    shift_mod: int | None = None,
) -> tuple[int, int]:
    """(value, position after it) of the LEB128 varint at `data[pos]`, never reading at or past `end`
    (default: the end of `data`). VarintError when the bytes end inside it or it takes more than `max_bytes`.
    """
    stop = len(data) if end is None else min(end, len(data))
    acc = 0
    i = 0
    while max_bytes is None or i < max_bytes:
        if pos + i >= stop:
            raise VarintError("ends", pos, pos + i)
        b = data[pos + i]
        shift = 7 * i if shift_mod is None else (7 * i) % shift_mod
        acc |= (b & 0x7F) << shift
        i += 1
        if not b & 0x80:
            return (acc if bits is None else signed(acc, bits)), pos + i
        if shift_mod is not None:
            acc &= (1 << shift_mod) - 1
    raise VarintError("too_long", pos, pos + i)


def signed(value: int, bits: int) -> int:
    """`value` masked to `bits` bits, read as two's complement (Java's int or long of it)."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def unzigzag(value: int) -> int:
    """The signed value a ZigZag-encoded unsigned value stands for (0, -1, 1, -2, ... from 0, 1, 2, 3, ...)."""
    return (value >> 1) ^ -(value & 1)


def zigzag(value: int, bits: int = LONG) -> int:
    """The unsigned ZigZag form of a signed `bits`-bit value."""
    return ((value << 1) ^ (value >> (bits - 1))) & ((1 << bits) - 1)


def write(value: int) -> bytes:
    """The unsigned LEB128 of a non-negative value."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
