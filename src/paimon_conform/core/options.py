"""Paimon option values as Java parses them."""

from __future__ import annotations

from typing import Any

from paimon_conform.core.errors import EncodeError

MEMORY_UNITS = {
    "": 1,
    "b": 1,
    "bytes": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "kibibytes": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "mebibytes": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
    "gibibytes": 1 << 30,
    "t": 1 << 40,
    "tb": 1 << 40,
    "tebibytes": 1 << 40,
}


def parse_memory_size(text: Any) -> int:
    """MemorySize.parseBytes: digits, optional blanks, an optional unit (case-insensitive)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    s = str(text).strip()
    digits = len(s) - len(s.lstrip("0123456789"))
    number, unit = s[:digits], s[digits:].strip().lower()
    if not number:
        raise EncodeError(f"memory size {text!r} does not start with a number")
    if unit not in MEMORY_UNITS:
        raise EncodeError(f"memory size unit {unit!r} of {text!r} is not one Paimon knows")
    value = int(number) * MEMORY_UNITS[unit]
    if int(number) >= 2**63 or value >= 2**63:
        raise EncodeError(f"memory size {text!r} does not fit a 64-bit number of bytes")
    return value
