"""Layout `roaring64`: the portable 64-bit RoaringBitmap on its own."""

from __future__ import annotations

from typing import Any

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, LayoutError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.layouts.base import Layout, case_header
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.layouts.roaring32.entry import bitmap_layout
from paimon_conform.layouts.roaring64 import codec as roaring64

NAME = "roaring64"
KIND = "roaring64"


def detect(data: bytes) -> bool:
    """Whether the bytes look like a non-empty portable 64-bit bitmap."""
    if len(data) < 20:
        return False
    count = int.from_bytes(data[:8], "little")
    return 0 < count <= len(data) // 12 and (data[12:16] == b"\x3a\x30\x00\x00" or data[12:14] == b"\x3b\x30")


def bucket_bases(obj, base: int) -> list[int]:
    """Absolute offset of each bucket's 32-bit bitmap (after its high key)."""
    out = []
    pos = base + 8
    for b in obj.buckets:
        out.append(pos + 4)
        pos = roaring.end_offset(b.bitmap, pos + 4)
    return out


def end_offset(obj, base: int) -> int:
    """Offset just past the last bucket."""
    bases = bucket_bases(obj, base)
    return roaring.end_offset(obj.buckets[-1].bitmap, bases[-1]) if bases else base + 8


def cardinality(obj) -> int:
    """The values a parsed roaring64 object holds, counted without listing them."""
    return sum(roaring.structure_cardinality(b.bitmap) for b in obj.buckets)


def runs(obj) -> tuple[np.ndarray, np.ndarray]:
    """Starts and inclusive ends of the runs of a parsed roaring64 object, never listing a run's values."""
    parts = [roaring.structure_runs(b.bitmap, b.high_key << 32) for b in obj.buckets]
    return roaring.merge_runs([a for a, _ in parts], [b for _, b in parts])


def ranges(obj) -> list[list[int]]:
    """A parsed roaring64 object's values as a case's inclusive [first, last] ranges."""
    return roaring.pairs(*runs(obj))


def bitmap(obj) -> BitMap64:
    """A parsed roaring64 object as a pyroaring BitMap64 (a run added as a range, never listed)."""
    bm = BitMap64()
    for b in obj.buckets:
        for c in b.bitmap.containers:
            base = (b.high_key << 32) + (c.key << 16)
            if c.is_run:
                for r in c.body.runs:
                    bm.add_range(base + r.start, base + r.last + 1)
            else:
                bm.update(roaring.container_values(c) + np.uint64(base))
    return bm


def values(obj) -> np.ndarray:
    """All 64-bit values of a parsed roaring64 object (refused past the memory budget)."""
    total = cardinality(obj)
    budget.reserve(roaring.VALUE_BYTES * total, f"the {total} values of a 64-bit bitmap")
    parts = [roaring.structure_values(b.bitmap) + (np.uint64(b.high_key) << np.uint64(32)) for b in obj.buckets]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def check(obj, path: str, base: int) -> list[Finding]:
    """Library findings for every bucket, plus Paimon's canonical-key rule."""
    findings: list[Finding] = []
    for i, (b, bb) in enumerate(zip(obj.buckets, bucket_bases(obj, base), strict=True)):
        findings += roaring.check_roaring32(b.bitmap, f"{path}.buckets[{i}].bitmap", bb)
    keys = [b.high_key for b in obj.buckets]
    if keys != list(range(len(keys))) or (keys and obj.buckets[-1].bitmap.num_containers == 0):
        findings.append(
            Finding(
                "ROARING64_NOT_DENSE",
                "should",
                f"{path}.num_buckets".lstrip("."),
                base,
                "Paimon writes one bucket for every high key from 0 to the highest used one",
            )
        )
    return findings


def layout_of(obj) -> dict[str, Any] | None:
    """The case `layout` override reproducing a non-canonical 64-bit bitmap, or None."""
    keys = [b.high_key for b in obj.buckets]
    lasts = runs(obj)[1]
    highest = int(lasts[-1] >> np.uint64(32)) if lasts.size else -1
    out: dict[str, Any] = {}
    if len(keys) != highest + 1 or any(k != i for i, k in enumerate(keys)):  # never range(highest): up to 2^32
        out["bucket_keys"] = keys
    per_bucket = [bitmap_layout(b.bitmap) for b in obj.buckets]
    if any(per_bucket):
        out["containers"] = [p.get("containers") if p else None for p in per_bucket]
        if any(p and p.get("run_cookie") for p in per_bucket):
            raise CaseError("a 64-bit bucket with a run cookie but no run container cannot be described")
        if "bucket_keys" not in out:
            out["bucket_keys"] = keys
    return out or None


def encode_values(vals: np.ndarray, layout: dict[str, Any] | None) -> bytes:
    """Encode 64-bit values with an optional layout override."""
    layout = layout or {}
    return roaring64.encode_roaring64(vals, layout.get("bucket_keys"), layout.get("containers"))


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes."""
    obj = structure.parse(NAME, data)
    findings = check(obj, "", 0)
    end = end_offset(obj, 0)
    findings += roaring.trailing_bytes(end, len(data))
    raise_first_must(NAME, findings)
    case = case_header(KIND) | {"cardinality": cardinality(obj), "ranges": ranges(obj)}  # never listed value by value
    layout = layout_of(obj)
    if layout:
        case["layout"] = layout
    return case


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes."""
    vals = roaring.from_ranges(case["ranges"], roaring.MAX_U64)
    if "cardinality" in case and case["cardinality"] != vals.size:
        raise CaseError(f"case says cardinality {case['cardinality']}, its ranges hold {vals.size}")
    return encode_values(vals, case.get("layout"))


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a standalone 64-bit bitmap."""
    try:
        obj = structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    findings = check(obj, "", 0)
    end = end_offset(obj, 0)
    findings += roaring.trailing_bytes(end, len(data))
    if not any(f.severity == "must" for f in findings):
        blob = data[:end]
        findings += roaring.cross_check(bitmap(obj), lambda: roaring64.load_roaring64(blob, NAME), "", 0)
    return findings


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable structure summary."""
    obj = structure.parse(NAME, data)
    lines = [f"roaring64: {obj.num_buckets} bucket(s)"]
    for i, b in enumerate(obj.buckets):
        card = sum(c.cardinality for c in b.bitmap.containers)
        lines.append(
            f"  buckets[{i}] high key {b.high_key}: {b.bitmap.num_containers} container(s), cardinality {card}"
        )
    return "\n".join(lines)


LAYOUT = Layout(NAME, KIND, "RoaringBitmap 64-bit portable", detect, inspect, encode, validate, describe)
