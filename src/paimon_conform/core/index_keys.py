"""The Java long each value of a fixed-width column is keyed by in Paimon's file indexes, for a whole column at
once: integers, DATE and TIME as themselves, TIMESTAMP as milliseconds (precision <= 3) or microseconds
(Timestamp.toMillis / toMicros), FLOAT and DOUBLE by floatToIntBits / doubleToLongBits (one canonical NaN,
sign-extended), BOOLEAN as 0 / 1, DECIMAL as its unscaled value. The scalar forms (hashing.fasthash.integer_key,
bitmap_index.codec.map_key, bsi.codec.to_long) stay the references these equal, value by value.

A column comes as internal values (None = null) or as an Arrow array of the types the kit's readers and
writers give (ints, date32, time32 / time64, timestamp of any unit, float32 / float64, bool, decimal128 at
the type's scale); another Arrow type is refused (formats.paimon_columns.internal_values reads it as values)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.java_floats import DOUBLE_NAN_BITS, FLOAT_NAN_BITS
from paimon_conform.core.types import DataType

INTEGER_ROOTS = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME")
ROOTS = (*INTEGER_ROOTS, "TIMESTAMP", "TIMESTAMP_LTZ", "FLOAT", "DOUBLE", "BOOLEAN", "DECIMAL")
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
MICROS_MILLIS_MIN, MICROS_MILLIS_MAX = -(2**63 // 1000), (2**63 - 1) // 1000  # millis whose * 1000 fits a long
UNIT_NANOS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def java_longs(t: DataType, values: Sequence[Any] | pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """(the rows holding a value, each one's long) of a column of type `t` (a root of ROOTS)."""
    _check_root(t)
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if not isinstance(values, pa.Array):
        return _listed(t, values)
    if not values.null_count:
        return np.arange(len(values), dtype=np.int64), _arrow(t, values)
    valid = values.is_valid()
    return np.flatnonzero(np.asarray(valid, dtype=bool)), _arrow(t, values.filter(valid))


def present_longs(t: DataType, values: Sequence[Any] | pa.Array) -> np.ndarray:
    """The longs of a column's values, nulls left out, without their rows (what a bloom filter hashes)."""
    _check_root(t)
    if isinstance(values, pa.Array):
        return _arrow(t, values.drop_null() if values.null_count else values)
    return _listed(t, values)[1]


def _check_root(t: DataType) -> None:
    if t.root not in ROOTS:
        raise EncodeError(f"{t} has no long key in Paimon's file indexes")


def _arrow(t: DataType, present: pa.Array) -> np.ndarray:
    """The longs of an Arrow array without nulls; EncodeError for an Arrow type not read here."""
    at = present.type
    root = t.root
    if root in ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE") and (
        (pa.types.is_integer(at) and not pa.types.is_unsigned_integer(at)) or pa.types.is_date32(at)
    ):
        raw = present.cast(pa.int32()) if pa.types.is_date32(at) else present
        return np.asarray(raw.to_numpy(zero_copy_only=False), dtype=np.int64)
    if root == "TIME" and pa.types.is_time(at):
        raw = present.cast(pa.int32() if pa.types.is_time32(at) else pa.int64())
        ints = np.asarray(raw.to_numpy(zero_copy_only=False), dtype=np.int64)
        nanos = UNIT_NANOS[at.unit]
        return ints * (nanos // 1_000_000) if nanos >= 1_000_000 else ints // (1_000_000 // nanos)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and pa.types.is_timestamp(at):
        raw = np.asarray(present.cast(pa.int64()).to_numpy(zero_copy_only=False), dtype=np.int64)
        return _timestamp_longs(t, raw, at.unit)
    if root in ("FLOAT", "DOUBLE") and pa.types.is_floating(at) and not pa.types.is_float16(at):
        return _float_bits(root, np.asarray(present.to_numpy(zero_copy_only=False)))
    if root == "BOOLEAN" and pa.types.is_boolean(at):
        return np.asarray(present.to_numpy(zero_copy_only=False), dtype=np.int64)
    if root == "DECIMAL" and pa.types.is_decimal128(at) and at.scale == t.scale:
        return _unscaled(t, present)
    raise EncodeError(f"{t}: an Arrow column of {at} is not read here; give the internal values")


def _timestamp_longs(t: DataType, raw: np.ndarray, unit: str) -> np.ndarray:
    """Milliseconds (precision <= 3) or microseconds of timestamps held as `raw` counts of `unit`."""
    if unit == "ns":
        return raw // (1_000_000 if t.timestamp_precision <= 3 else 1_000)
    if unit == "us":
        if t.timestamp_precision <= 3:
            return raw // 1_000
        _check_micros(t, raw // 1_000)  # only the very first microseconds of a long: toMicros throws there too
        return raw
    if unit == "s":
        if raw.size and (raw.min() < LONG_MIN // 1000 or raw.max() > LONG_MAX // 1000):
            raise EncodeError(f"{t}: a timestamp's milliseconds overflow a long")
        raw = raw * 1000
    if t.timestamp_precision <= 3:
        return raw  # milliseconds
    _check_micros(t, raw)
    return raw * 1000


def _check_micros(t: DataType, millis: np.ndarray) -> None:
    """EncodeError where Timestamp.toMicros (Math.multiplyExact(millis, 1000)) throws."""
    if millis.size and (millis.min() < MICROS_MILLIS_MIN or millis.max() > MICROS_MILLIS_MAX):
        bad = int(millis[(millis < MICROS_MILLIS_MIN) | (millis > MICROS_MILLIS_MAX)][0])
        raise EncodeError(f"{t}: {bad} ms in microseconds overflows a long (Java's Timestamp.toMicros throws)")


def _float_bits(root: str, values: np.ndarray) -> np.ndarray:
    """floatToIntBits (sign-extended) or doubleToLongBits of floats, NaN canonical."""
    if root == "FLOAT":
        with np.errstate(over="ignore"):  # (refused just below)
            narrow = values.astype(np.float32)
        if np.any(np.isinf(narrow) & ~np.isinf(values)):
            raise EncodeError("a FLOAT value beyond Java's float range")
        bits = narrow.view(np.int32).astype(np.int64)
        bits[np.isnan(narrow)] = FLOAT_NAN_BITS
        return bits
    wide = values.astype(np.float64)
    bits = wide.view(np.int64).copy()
    bits[np.isnan(wide)] = DOUBLE_NAN_BITS
    return bits


def _unscaled(t: DataType, arr: pa.Array) -> np.ndarray:
    """The unscaled values of a decimal128 array (no nulls); EncodeError for one that does not fit a long."""
    n = len(arr)
    words = np.frombuffer(arr.buffers()[1], dtype="<i8", count=2 * (n + arr.offset))[2 * arr.offset :]
    low, high = words[0::2], words[1::2]
    if np.any(high != (low >> 63)):
        raise EncodeError(f"{t}: an unscaled value does not fit a long (Java's write fails)")
    return low.astype(np.int64)


def _listed(t: DataType, values: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """java_longs of internal values (None = null)."""
    n = len(values)
    is_null = np.fromiter((v is None for v in values), dtype=bool, count=n)
    rows = np.flatnonzero(~is_null)
    present = [values[i] for i in rows.tolist()] if rows.size < n else list(values)
    root = t.root
    try:
        if root in INTEGER_ROOTS or root == "BOOLEAN":
            return rows, np.array(present, dtype=np.int64).reshape(-1)
        if root in ("FLOAT", "DOUBLE"):
            return rows, _float_bits(root, np.array(present, dtype=np.float64).reshape(-1))
        if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            pairs = np.array(present, dtype=np.int64).reshape(-1, 2)
            millis, nanos = pairs[:, 0], pairs[:, 1]
            if t.timestamp_precision <= 3:
                return rows, millis.copy()
            _check_micros(t, millis)
            return rows, millis * 1000 + nanos // 1000
        unscaled = [v[0] for v in present]  # DECIMAL
        if any(not LONG_MIN <= u <= LONG_MAX for u in unscaled):
            raise EncodeError(f"{t}: an unscaled value does not fit a long (Java's write fails)")
        return rows, np.array(unscaled, dtype=np.int64).reshape(-1)
    except (OverflowError, TypeError, ValueError) as exc:
        raise EncodeError(f"{t}: values that are not its internal form: {exc}") from None
