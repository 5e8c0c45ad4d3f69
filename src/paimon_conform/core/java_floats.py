"""Java's float and double bit rules, in one place: Float.floatToIntBits and Double.doubleToLongBits give every
NaN one canonical pattern (the index keys, hash codes and sort keys of FLOAT / DOUBLE values use them)."""

from __future__ import annotations

import math
import struct

FLOAT_NAN_BITS = 0x7FC00000
DOUBLE_NAN_BITS = 0x7FF8000000000000


def float_bits(v: float) -> int:
    """Float.floatToIntBits (canonical NaN), as Java's signed int."""
    if math.isnan(v):
        return FLOAT_NAN_BITS
    return struct.unpack(">i", struct.pack(">f", v))[0]


def double_bits(v: float) -> int:
    """Double.doubleToLongBits (canonical NaN), as Java's signed long."""
    if math.isnan(v):
        return DOUBLE_NAN_BITS
    return struct.unpack(">q", struct.pack(">d", v))[0]
