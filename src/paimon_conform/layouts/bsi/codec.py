"""Paimon's BSI (bit-sliced index) file index: Java-exact writer, reader and checks.

Queries over the index come with the range-bitmap work (issue 4).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from pyroaring import BitMap

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.hashing.fasthash import timestamp_long
from paimon_conform.core.index_keys import java_longs
from paimon_conform.core.types import DataType
from paimon_conform.layouts.bitmap_index.codec import serialize
from paimon_conform.layouts.roaring32 import codec as roaring

NAME = "bsi"
LONG_MIN = -(2**63)
MAX_LISTED_ROWS = 1_000_000
SUPPORTED = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "DECIMAL")


def check_type(t: DataType) -> None:
    """EncodeError unless Java's BSI index takes columns of this type."""
    if t.root not in SUPPORTED:
        raise EncodeError(f"the bsi index does not support {t} (Java: unsupported type)")


def to_long(t: DataType, v: Any) -> int | None:
    """The long BitSliceIndexBitmapFileIndex maps an internal value to."""
    if v is None:
        return None
    check_type(t)
    if t.root == "DECIMAL":  # Decimal.toUnscaledLong() for every precision; only the value must fit a long
        if not -(2**63) <= v[0] < 2**63:
            raise EncodeError(f"{t}: the unscaled value {v[0]} does not fit a long (Java's write fails)")
        return v[0]
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return timestamp_long(t, v)
    return int(v)


def _half(rows: np.ndarray, values: np.ndarray) -> bytes:
    """One BitSliceIndexRoaringBitmap.Appender: min 0, max, existence, slices (rows and their values >= 0)."""
    top = int(values.max()) if values.size else 0
    out = struct.pack(">Bqq", 1, 0, top)
    arr = values.astype(np.uint64)
    rows_arr = rows.astype(np.uint32)
    out += serialize(roaring.bitmap_of(rows_arr))
    out += struct.pack(">i", top.bit_length())
    for i in range(top.bit_length()):
        out += serialize(roaring.bitmap_of(rows_arr[(arr >> np.uint64(i)) & np.uint64(1) == 1]))
    return out


def build(t: DataType, values: Sequence[Any] | pa.Array) -> bytes:
    """Payload the Java writer produces for these internal values (None = null), or for the column as Arrow."""
    check_type(t)
    rows, longs = java_longs(t, values)  # to_long of every value, column-wise
    if (longs == LONG_MIN).any():
        raise EncodeError("Long.MIN_VALUE cannot be written to a bsi index (Java throws)")
    out = struct.pack(">Bi", 1, len(values))
    negative = longs < 0
    for half, sign in ((~negative, 1), (negative, -1)):
        out += struct.pack(">B", 1 if half.any() else 0)
        if half.any():
            out += _half(rows[half], sign * longs[half])
    return out


@dataclass
class Index:
    """A parsed BSI: each row's long value (None for null) and the parser object."""

    num_rows: int
    values: list[int | None]
    obj: Any


ROW_BYTES = 128  # one row's entry in a row -> value dict
LISTED_ROW_BYTES = 48  # one row's value in a list (the slot and the value)


def _half_values(half) -> dict[int, int]:
    """Row -> value of one half (refused when listing its rows would pass the memory budget)."""
    ebm = roaring.structure_bitmap(half.existence)
    budget.reserve(ROW_BYTES * len(ebm), f"the values of {len(ebm)} rows of a bsi index")
    value = dict.fromkeys(ebm, half.min)
    for i, sl in enumerate(half.slices):
        for r in roaring.structure_bitmap(sl) & ebm:
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
    budget.reserve(LISTED_ROW_BYTES * obj.num_rows, f"a list of {obj.num_rows} rows of a bsi index")
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
        ebm = roaring.structure_bitmap(half.existence)
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
            rows = roaring.structure_bitmap(sl)
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


# ---------------------------------------------------------------------------------------------- queries


@dataclass
class Half:
    """One BitSliceIndexRoaringBitmap: min, max, existence bitmap, slices of (value - min)."""

    min: int
    max: int
    ebm: BitMap
    slices: list[BitMap]


EMPTY_HALF = Half(0, 0, BitMap(), [])


def _load_half(half) -> Half:
    bm = [roaring.structure_bitmap(s) for s in half.slices]
    return Half(half.min, half.max, roaring.structure_bitmap(half.existence), bm)


def load(data: bytes) -> tuple[int, Half, Half]:
    """Row count and the two halves (an absent half reads as an empty one)."""
    obj = structure.parse(NAME, data)
    pos = _load_half(obj.positive) if obj.has_positive else EMPTY_HALF
    neg = _load_half(obj.negative) if obj.has_negative else EMPTY_HALF
    return obj.num_rows, pos, neg


def compare(half: Half, op: str, predicate: int) -> BitMap:
    """BitSliceIndexRoaringBitmap.compare: min/max shortcuts, then O'Neil on predicate - min."""
    everything, nothing = BitMap(half.ebm), BitMap()
    lo, hi = half.min, half.max
    shortcut = {
        "eq": everything if lo == hi == predicate else nothing if predicate < lo or predicate > hi else None,
        "gte": everything if predicate <= lo else nothing if predicate > hi else None,
        "gt": everything if predicate < lo else nothing if predicate >= hi else None,
        "lte": everything if predicate >= hi else nothing if predicate < lo else None,
        "lt": everything if predicate > hi else nothing if predicate <= lo else None,
    }[op]
    if shortcut is not None:
        return shortcut
    p = predicate - lo
    greater, less, equal = BitMap(), BitMap(), BitMap(half.ebm)
    for i in range(len(half.slices) - 1, -1, -1):
        if (p >> i) & 1:
            less |= equal - half.slices[i]
            equal &= half.slices[i]
        else:
            greater |= equal & half.slices[i]
            equal -= half.slices[i]
    return {
        "eq": equal,
        "gt": greater & half.ebm,
        "lt": less & half.ebm,
        "lte": (less | equal) & half.ebm,
        "gte": (greater | equal) & half.ebm,
    }[op]


def _eq_any(pos: Half, neg: Half, literals: Sequence[int]) -> BitMap:
    out = BitMap()
    for v in literals:
        if v != LONG_MIN:
            out |= compare(neg, "eq", -v) if v < 0 else compare(pos, "eq", v)
    return out


def evaluate(num_rows: int, pos: Half, neg: Half, op: str, literals: Sequence[int]) -> BitMap:
    """Rows BitSliceIndexBitmapFileIndex.Reader selects; literals already mapped to longs."""
    present = pos.ebm | neg.ebm
    if op == "is_null":
        return BitMap(range(num_rows)) - present if num_rows > 0 else BitMap()
    if op == "is_not_null":
        return present
    if op in ("eq", "in"):
        return _eq_any(pos, neg, literals[:1] if op == "eq" else literals)
    if op in ("not_eq", "not_in"):
        return present - _eq_any(pos, neg, literals[:1] if op == "not_eq" else literals)
    if op == "between":
        return evaluate(num_rows, pos, neg, "gte", literals[:1]) & evaluate(num_rows, pos, neg, "lte", literals[1:2])
    if op not in ("lt", "lte", "gt", "gte"):
        raise EncodeError(f"the bsi index does not answer {op!r}")
    v = literals[0]
    if v == LONG_MIN:
        return BitMap() if op in ("lt", "lte") else present
    if v < 0:
        mirrored = {"lt": "gt", "lte": "gte", "gt": "lt", "gte": "lte"}[op]
        rows = compare(neg, mirrored, -v)
        return rows if op in ("lt", "lte") else pos.ebm | rows
    rows = compare(pos, op, v)
    return rows | neg.ebm if op in ("lt", "lte") else rows
