"""Paimon's BSI (bit-sliced index) file index: Java-exact writer, reader and checks.

Queries over the index come with the range-bitmap work (issue 4).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pyroaring import BitMap

from . import roaring, structure
from .bitmap import serialize
from .errors import EncodeError, LayoutError
from .findings import Finding
from .hashing import timestamp_long
from .types import DataType

NAME = "bsi"
LONG_MIN = -(2**63)
MAX_LISTED_ROWS = 1_000_000
SUPPORTED = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "DECIMAL")


def to_long(t: DataType, v: Any) -> int | None:
    """The long BitSliceIndexBitmapFileIndex maps an internal value to."""
    if v is None:
        return None
    if t.root not in SUPPORTED:
        raise EncodeError(f"the bsi index does not support {t} (Java: unsupported type)")
    if t.root == "DECIMAL":
        if t.precision > 18:
            raise EncodeError(f"the bsi index needs DECIMAL precision <= 18, not {t}")
        return v[0]
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return timestamp_long(t, v)
    return int(v)


def _half(rows: list[int], values: list[int]) -> bytes:
    """One BitSliceIndexRoaringBitmap.Appender: min 0, max, existence, slices."""
    top = max(values, default=0)
    out = struct.pack(">Bqq", 1, 0, top)
    out += serialize(BitMap(rows))
    arr = np.asarray(values, dtype=np.uint64)
    rows_arr = np.asarray(rows, dtype=np.uint32)
    out += struct.pack(">i", top.bit_length())
    for i in range(top.bit_length()):
        out += serialize(BitMap(rows_arr[(arr >> np.uint64(i)) & np.uint64(1) == 1]))
    return out


def build(t: DataType, values: Sequence[Any]) -> bytes:
    """Payload the Java writer produces for these internal values (None = null)."""
    longs = [to_long(t, v) for v in values]
    if LONG_MIN in longs:
        raise EncodeError("Long.MIN_VALUE cannot be written to a bsi index (Java throws)")
    pos = [(i, v) for i, v in enumerate(longs) if v is not None and v >= 0]
    neg = [(i, -v) for i, v in enumerate(longs) if v is not None and v < 0]
    out = struct.pack(">Bi", 1, len(values))
    for half in (pos, neg):
        out += struct.pack(">B", 1 if half else 0)
        if half:
            out += _half([r for r, _ in half], [v for _, v in half])
    return out


@dataclass
class Index:
    """A parsed BSI: each row's long value (None for null) and the parser object."""

    num_rows: int
    values: list[int | None]
    obj: Any


def _half_values(half) -> dict[int, int]:
    rows = roaring.structure_values(half.existence).tolist()
    value = dict.fromkeys(rows, half.min)
    for i, sl in enumerate(half.slices):
        for r in roaring.structure_values(sl).tolist():
            if r in value:
                value[r] += 1 << i
    return value


def read(data: bytes) -> Index:
    """Parse and decode a payload (LayoutError on structural faults)."""
    obj = structure.parse(NAME, data)
    found: dict[int, int] = {}
    if obj.has_positive:
        found |= _half_values(obj.positive)
    if obj.has_negative:
        found |= {r: -v for r, v in _half_values(obj.negative).items()}
    if any(r >= obj.num_rows for r in found):
        raise LayoutError(NAME, "BSI_ROW_OUT_OF_RANGE", "", None, f"a row is not below the row count {obj.num_rows}")
    if obj.num_rows > MAX_LISTED_ROWS + 64 * len(data):  # nulls are implicit: never list an unchecked count
        raise LayoutError(
            NAME,
            "BSI_TOO_MANY_ROWS_TO_LIST",
            "num_rows",
            1,
            f"{obj.num_rows} rows for a {len(data)}-byte payload are too many to list row by row",
        )
    values = [found.get(r) for r in range(obj.num_rows)]
    return Index(obj.num_rows, values, obj)


def check(data: bytes) -> list[Finding]:
    """Every finding for a BSI payload."""
    try:
        obj = structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    findings: list[Finding] = []
    seen = BitMap()
    for name in ("positive", "negative"):
        half = getattr(obj, name, None)
        if half is None:
            continue
        ebm = BitMap(roaring.structure_values(half.existence).tolist())
        if ebm and ebm.max() >= obj.num_rows:
            findings.append(
                Finding(
                    "BSI_ROW_OUT_OF_RANGE",
                    "must",
                    f"{name}.existence",
                    None,
                    f"row {ebm.max()} is not below the row count {obj.num_rows}",
                )
            )
        if not ebm:
            findings.append(
                Finding(
                    "BSI_EMPTY_HALF",
                    "should",
                    name,
                    None,
                    "an empty half is written; Java writes has_" + name + " = 0 instead",
                )
            )
        if seen & ebm:
            findings.append(
                Finding("BSI_ROW_TWICE", "must", f"{name}.existence", None, f"row {min(seen & ebm)} is in both halves")
            )
        seen |= ebm
        for i, sl in enumerate(half.slices):
            rows = BitMap(roaring.structure_values(sl).tolist())
            if not rows <= ebm:
                findings.append(
                    Finding(
                        "BSI_SLICE_OUTSIDE_EXISTENCE",
                        "must",
                        f"{name}.slices[{i}]",
                        None,
                        "a slice holds rows the existence bitmap does not",
                    )
                )
        if not any(f.severity == "must" for f in findings):
            top = max(_half_values(half).values(), default=0)
            if half.min != 0 or half.max != top or len(half.slices) != (top - half.min).bit_length():
                findings.append(
                    Finding(
                        "BSI_NOT_JAVA_LAYOUT",
                        "should",
                        name,
                        None,
                        "Java writes min 0, max = the largest value, and one slice per bit of max",
                    )
                )
    return findings
