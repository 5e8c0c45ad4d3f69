"""Standalone 64-bit RoaringBitmaps: the cases Java writes, and the must-reject corpus."""

from __future__ import annotations

import struct
from pathlib import Path

from paimon_conform.layouts.roaring32 import codec as roaring

from .common import reject


def java_cases() -> list[tuple[str, dict, str]]:
    """The bitmaps Java 1.2.0 and 2.0.0 write through the testee's encode (OptimizedRoaringBitmap64, run-length
    encoded and serialized as a 64-bit deletion vector's bitmap): (stem, case, note)."""
    two = [[5, 5], [2 * 2**32 + 7, 2 * 2**32 + 7]]
    return [
        (stem, {"case_format": 1, "kind": "roaring64", "cardinality": sum(b - a + 1 for a, b in r), "ranges": r}, note)
        for stem, r, note in [
            ("empty", [], "No bucket at all: an 8-byte zero count."),
            ("gap-bucket", two, "{5, 2*2^32+7}: Paimon writes 3 buckets, key 1 empty (notes §4.6)."),
            ("runs-in-two-buckets", [[0, 99999], [2**32, 2**32 + 70000]], "Run containers in buckets 0 and 1."),
        ]
    ]


def write(out: Path) -> None:
    """The derived roaring64 goldens: must-reject/ (the valid ones are Java-written: java_cases)."""
    f = out / "roaring64" / "must-reject"
    one5, one7 = roaring.encode_roaring32([5]), roaring.encode_roaring32([7])
    body = struct.pack("<Q", 2) + struct.pack("<I", 4) + one5 + struct.pack("<I", 4) + one7
    reject(
        f,
        "duplicate-keys",
        "roaring64",
        body,
        "ROARING64_KEYS_NOT_ASCENDING",
        "buckets[1].high_key",
        8 + 4 + len(one5),
        "two buckets share high key 4",
        "apache/paimon-rust#785",
    )
