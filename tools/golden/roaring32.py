"""Standalone 32-bit RoaringBitmaps: the cases Java writes, and the must-reject corpus."""

from __future__ import annotations

import struct
from pathlib import Path

from paimon_conform.layouts.roaring32 import codec as roaring

from .common import hx, raw_roaring, reject

ROARING_RUN_AND_ARRAY = hx("3b300100 01 0000 6300 0100 0000 0100 0000 6300 7011")


ROARING_EMPTY = hx("3a300000 00000000")


def java_cases() -> list[tuple[str, dict, str]]:
    """The bitmaps Java writes through the testee's encode (RoaringBitmap32.serialize): (stem, case, note)."""
    return [
        (
            "run-and-array",
            {"case_format": 1, "kind": "roaring32", "cardinality": 101, "ranges": [[0, 99], [70000, 70000]]},
            "the notes' §4.6 {0..99, 70000}: one run container and one array container; no offset header",
        ),
        ("empty", {"case_format": 1, "kind": "roaring32", "cardinality": 0, "ranges": []}, "the notes' empty bitmap"),
    ]


def write(out: Path) -> None:
    """The derived roaring32 goldens: must-reject/ (the valid ones are Java-written: java_cases)."""
    f = out / "roaring32" / "must-reject"
    reject(
        f,
        "bad-cookie",
        "roaring32",
        struct.pack("<II", 12348, 0),
        "ROARING_BAD_COOKIE",
        "cookie",
        0,
        "the cookie is neither 12346 nor 12347",
    )
    reject(
        f,
        "too-many-containers",
        "roaring32",
        struct.pack("<II", 12346, 65537),
        "ROARING_TOO_MANY_CONTAINERS",
        "num_containers_no_run",
        4,
        "more containers than 16-bit keys exist",
    )
    dup = raw_roaring([(3, 1), (3, 1)], [struct.pack("<H", 1), struct.pack("<H", 2)])
    reject(
        f,
        "duplicate-keys",
        "roaring32",
        dup,
        "ROARING_KEYS_NOT_ASCENDING",
        "descriptors[1].key",
        12,
        "two containers share a key",
    )
    reject(
        f,
        "trailing-bytes",
        "roaring32",
        roaring.encode_roaring32([1, 5]) + b"\x00",
        "ROARING_TRAILING_BYTES",
        "",
        20,
        "one byte after the bitmap",
    )
    reject(
        f,
        "truncated",
        "roaring32",
        roaring.encode_roaring32([1, 5])[:-1],
        "TRUNCATED",
        "containers[0].body.values[1]",
        18,
        "the file ends inside the last value",
    )
