"""Layout `roaring32`: a 32-bit portable RoaringBitmap on its own."""

from __future__ import annotations

from typing import Any

from paimon_conform.core import structure
from paimon_conform.core.errors import CaseError, LayoutError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.layouts.base import Layout, case_header
from paimon_conform.layouts.roaring32 import codec as roaring

NAME = "roaring32"
KIND = "roaring32"


def detect(data: bytes) -> bool:
    """Whether the bytes start like a 32-bit portable bitmap (either cookie)."""
    return len(data) >= 8 and (data[:4] == b"\x3a\x30\x00\x00" or data[:2] == b"\x3b\x30")


def bitmap_layout(obj) -> dict[str, Any] | None:
    """The `layout` override a case needs to reproduce a non-canonical bitmap, or None."""
    kinds = roaring.container_kinds(obj)
    out: dict[str, Any] = {}
    if kinds != roaring.java_kinds(obj):
        out["containers"] = kinds
    if obj.has_run and roaring.RUN not in kinds:
        out["run_cookie"] = True
    return out or None


def must_findings(obj, path: str, base: int) -> list[Finding]:
    """Library checks of a parsed bitmap, must-level only."""
    return [f for f in roaring.check_roaring32(obj, path, base) if f.severity == "must"]


def parse(data: bytes):
    """Structural parse plus the must-level library checks; raises LayoutError."""
    obj = structure.parse(NAME, data)
    findings = must_findings(obj, "", 0)
    end = roaring.end_offset(obj, 0)
    findings += roaring.trailing_bytes(end, len(data))
    raise_first_must(NAME, findings)
    return obj


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes."""
    obj = parse(data)
    ranges = roaring.pairs(*roaring.structure_runs(obj))  # from the runs: a run's values are never listed
    case = case_header(KIND) | {"cardinality": roaring.structure_cardinality(obj), "ranges": ranges}
    layout = bitmap_layout(obj)
    if layout:
        case["layout"] = layout
    return case


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes (Java's, unless `layout` says otherwise)."""
    values = roaring.from_ranges(case["ranges"], roaring.MAX_U32)
    layout = case.get("layout") or {}
    data = roaring.encode_roaring32(values, layout.get("containers"), layout.get("run_cookie"))
    if "cardinality" in case and case["cardinality"] != values.size:
        raise CaseError(f"case says cardinality {case['cardinality']}, its ranges hold {values.size}")
    return data


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a standalone 32-bit bitmap."""
    try:
        obj = structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    findings = roaring.check_roaring32(obj, "", 0)
    end = roaring.end_offset(obj, 0)
    findings += roaring.trailing_bytes(end, len(data))
    if not any(f.severity == "must" for f in findings):
        blob = data[:end]
        findings += roaring.cross_check(
            roaring.structure_bitmap(obj), lambda: roaring.load_roaring32(blob, NAME), "", 0
        )
    return findings


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable structure summary."""
    obj = structure.parse(NAME, data)
    lines = [
        f"roaring32: cookie {int(obj.cookie)}, {obj.num_containers} container(s), "
        f"offset header {'yes' if obj.has_offsets else 'no'}"
    ]
    for i, (c, kind) in enumerate(zip(obj.containers, roaring.container_kinds(obj), strict=True)):
        lines.append(f"  containers[{i}] key {c.key} ({c.key << 16}..): {kind}, cardinality {c.cardinality}")
    return "\n".join(lines)


LAYOUT = Layout(NAME, KIND, "RoaringBitmap 32-bit portable", detect, inspect, encode, validate, describe)
