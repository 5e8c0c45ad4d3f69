"""The dynamic-bucket HASH index: the must-reject corpus."""

from __future__ import annotations

from pathlib import Path

from .common import reject


def write(out: Path) -> None:
    """Every hash_index golden: must-reject/."""
    f = out / "hash_index" / "must-reject"
    reject(
        f,
        "size-not-multiple-of-4",
        "hash-index",
        b"\x00\x00\x00\x01\x00",
        "HASH_SIZE_NOT_MULTIPLE_OF_4",
        "size_check",
        0,
        "five bytes cannot hold whole 4-byte hashes",
    )
