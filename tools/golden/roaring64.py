"""Standalone 64-bit RoaringBitmaps: reference-encoder files and the must-reject corpus."""

from __future__ import annotations

import struct
from pathlib import Path

from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.layouts.roaring64 import codec as roaring64

from .common import encoder_prov, reject, write_pair


def write(out: Path) -> None:
    """Every roaring64 golden: encoder/ and must-reject/."""
    r64 = out / "roaring64" / "encoder"
    two = [[5, 5], [2 * 2**32 + 7, 2 * 2**32 + 7]]
    for stem, ranges, note in [
        ("empty", [], "No bucket at all: an 8-byte zero count."),
        ("gap-bucket", two, "{5, 2*2^32+7}: Paimon writes 3 buckets, key 1 empty (notes §4.6)."),
        ("runs-in-two-buckets", [[0, 99999], [2**32, 2**32 + 70000]], "Run containers in buckets 0 and 1."),
    ]:
        data = roaring64.encode_roaring64(roaring.from_ranges(ranges))
        write_pair(
            r64,
            stem,
            data,
            {
                "case_format": 1,
                "kind": "roaring64",
                "cardinality": sum(b - a + 1 for a, b in ranges),
                "ranges": ranges,
                "provenance": encoder_prov("layouts.roaring64.codec.encode_roaring64"),
                "notes": note,
            },
        )
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
