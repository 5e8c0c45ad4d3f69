"""Layout `hash_index`: the dynamic-bucket HASH index file (BE int32 key hashes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.layouts.base import PARSE_BYTES, Layout, case_header, never_detected, parse_fits

NAME = "hash_index"
KIND = "hash-index"


def load(data: bytes) -> np.ndarray:
    """Fast path: the hashes as an int32 array, in file order."""
    if len(data) % 4:
        raise LayoutError(
            NAME,
            "HASH_SIZE_NOT_MULTIPLE_OF_4",
            "size_check",
            len(data) - len(data) % 4,
            f"{len(data)} bytes is not a whole number of 4-byte hashes",
        )
    return np.frombuffer(data, dtype=">i4").astype(np.int32)


def encode_hashes(hashes: Iterable[int] | np.ndarray) -> bytes:
    """Bytes of a HASH file holding the hashes in the given order."""
    arr = np.asarray(list(hashes) if not isinstance(hashes, np.ndarray) else hashes)
    if arr.size and (arr.dtype.kind not in "iu" or int(arr.min()) < -(2**31) or int(arr.max()) > 2**31 - 1):
        raise EncodeError("hashes must be signed 32-bit integers")
    return arr.astype(">i4").tobytes()


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes."""
    parse_fits(data, NAME)
    obj = structure.parse(NAME, data)
    return case_header(KIND) | {"count": len(obj.hashes), "hashes": [int(h) for h in obj.hashes]}


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes."""
    if "count" in case and case["count"] != len(case["hashes"]):
        raise CaseError(f"case says count {case['count']} but lists {len(case['hashes'])} hashes")
    return encode_hashes(case["hashes"])


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Findings: structure, and duplicate hashes (Java writes a set).

    The spec parser's tree takes ~80 bytes per input byte; a file too large for the budget (a bucket
    with millions of keys, valid in Java) is checked through the fast path alone, never refused.
    """
    if not budget.fits(PARSE_BYTES * len(data)):
        try:
            arr = load(data).astype(np.int64)
        except LayoutError as err:
            return [Finding.from_error(err)]
        return _duplicates(arr)
    try:
        obj = structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    arr = np.asarray(obj.hashes, dtype=np.int64)
    findings = _duplicates(arr)
    fast = load(data)
    if not np.array_equal(fast.astype(np.int64), arr):
        findings.append(Finding("HASH_DECODERS_DISAGREE", "must", "hashes", 0, "spec parser and fast path differ"))
    return findings


def _duplicates(arr: np.ndarray) -> list[Finding]:
    findings = []
    uniq, counts = np.unique(arr, return_counts=True)
    if (counts > 1).any():
        dup = int(uniq[counts > 1][0])
        where = [int(i) for i in np.flatnonzero(arr == dup)[:2]]
        findings.append(
            Finding(
                "HASH_DUPLICATE",
                "should",
                f"hashes[{where[1]}]",
                4 * where[1],
                f"hash {dup} appears more than once (first at hashes[{where[0]}]); Java writes each key hash once",
            )
        )
    return findings


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    parse_fits(data, NAME)
    obj = structure.parse(NAME, data)
    shown = ", ".join(str(h) for h in obj.hashes[:8])
    more = ", ..." if len(obj.hashes) > 8 else ""
    return f"hash_index: {len(obj.hashes)} hash(es): [{shown}{more}]"


LAYOUT = Layout(NAME, KIND, "Dynamic-bucket HASH index file", never_detected, inspect, encode, validate, describe)
