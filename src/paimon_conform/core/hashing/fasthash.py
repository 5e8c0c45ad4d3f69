"""Paimon's 64-bit value hashes for bloom filters (FastHash), scalar and vectorized.

* integer-like values (TINYINT, SMALLINT, INT, DATE, TIME, BIGINT, timestamps as
  millis or micros, FLOAT/DOUBLE bit patterns): Thomas Wang's 64-bit integer
  hash with arithmetic right shifts, all mod 2^64;
* CHAR/VARCHAR (UTF-8 bytes) and BINARY/VARBINARY: XXH64 with seed 0.
Results are signed 64-bit, like Java's long.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa
import xxhash

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing import kernel_calls
from paimon_conform.core.java_floats import double_bits, float_bits
from paimon_conform.core.types import DataType

MASK64 = (1 << 64) - 1


def signed64(x: int) -> int:
    """Two's-complement reinterpretation of a 64-bit pattern."""
    x &= MASK64
    return x - (1 << 64) if x >> 63 else x


def wang64(key: int) -> int:
    """Thomas Wang's 64-bit integer hash as Paimon's FastHash computes it."""
    k = key & MASK64

    def sar(v: int, n: int) -> int:  # arithmetic shift right of a 64-bit pattern
        return (signed64(v) >> n) & MASK64

    k = (~k + (k << 21)) & MASK64
    k ^= sar(k, 24)
    k = (k + (k << 3) + (k << 8)) & MASK64
    k ^= sar(k, 14)
    k = (k + (k << 2) + (k << 4)) & MASK64
    k ^= sar(k, 28)
    k = (k + (k << 31)) & MASK64
    return signed64(k)


def wang64_array(keys: np.ndarray) -> np.ndarray:
    """wang64 over an int64 array (compiled loop; same results as wang64)."""
    return kernel_calls.wang64_values(np.ascontiguousarray(keys, dtype=np.int64).view(np.uint64)).view(np.int64)


def xxh64(data: bytes) -> int:
    """XXH64, seed 0, as a signed long (net.openhft LongHashFunction.xx())."""
    return signed64(xxhash.xxh64_intdigest(data, seed=0))


def binary_buffers(arr: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, data) of a large_string / large_binary array as numpy views: n + 1 int64 offsets (the
    array's own slice) and the data bytes (empty when the array has none)."""
    offsets = np.frombuffer(arr.buffers()[1], dtype="<i8", count=len(arr) + arr.offset + 1)[arr.offset :]
    data = arr.buffers()[2]
    return offsets, np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)


def xxh64_column(offsets: np.ndarray, data: np.ndarray) -> np.ndarray:
    """XXH64 (seed 0, signed) of every value of a binary column given by its offsets (n + 1) and data bytes."""
    return kernel_calls.xxh64_values(np.ascontiguousarray(offsets, dtype=np.int64), data).view(np.int64)


def timestamp_long(t: DataType, v: tuple[int, int]) -> int:
    """A timestamp as Paimon's indexes use it: millis (p <= 3) or micros."""
    millis, nano = v
    if t.timestamp_precision <= 3:
        return millis
    if not -(2**63) <= millis * 1000 < 2**63:  # Timestamp.toMicros: Math.multiplyExact
        raise EncodeError(f"{t}: {millis} ms in microseconds overflows a long (Java's Timestamp.toMicros throws)")
    return millis * 1000 + nano // 1000


def timestamp_from_long(t: DataType, v: int) -> tuple[int, int]:
    """Inverse of timestamp_long: (epoch millis, nano of milli) from millis or micros."""
    return (v, 0) if t.timestamp_precision <= 3 else (v // 1000, (v % 1000) * 1000)


def integer_key(t: DataType, v: Any) -> int:
    """The 64-bit integer FastHash feeds to wang64 for non-byte types."""
    if t.root in ("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME"):
        return int(v)
    if t.root == "FLOAT":
        return float_bits(v)
    if t.root == "DOUBLE":
        return double_bits(v)
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return timestamp_long(t, v)
    raise EncodeError(f"the bloom-filter index does not support {t} (Java: unsupported type)")


BLOOM_INTEGER_ROOTS = (
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "DATE",
    "TIME",
    "FLOAT",
    "DOUBLE",
    "TIMESTAMP",
    "TIMESTAMP_LTZ",
)


def check_bloom_type(t: DataType) -> None:
    """EncodeError unless Java's bloom-filter index takes columns of this type (FastHash has a case for it)."""
    if not (t.is_string or t.is_binary or t.root in BLOOM_INTEGER_ROOTS):
        raise EncodeError(f"the bloom-filter index does not support {t} (Java: unsupported type)")


def fast_hash(t: DataType, v: Any) -> int:
    """Paimon's FastHash of one non-null internal value."""
    if t.is_string:
        return xxh64(v.encode("utf-8"))
    if t.is_binary:
        return xxh64(bytes(v))
    return wang64(integer_key(t, v))


def fast_hash_many(t: DataType, values: Sequence[Any] | pa.Array) -> np.ndarray:
    """FastHash of many non-null internal values (a list, or an Arrow array of the column's values)."""
    if t.is_string or t.is_binary:
        large = pa.large_string() if t.is_string else pa.large_binary()
        try:
            arr = values.cast(large) if isinstance(values, pa.Array) else pa.array(values, type=large)
        except MemoryError:
            raise  # never a fault of the input (errors.OutOfMemory)
        except (pa.ArrowException, TypeError, ValueError) as exc:
            raise EncodeError(f"{t}: values that are not {'text' if t.is_string else 'bytes'}: {exc}") from None
        return xxh64_column(*binary_buffers(arr))
    check_bloom_type(t)
    from paimon_conform.core.index_keys import present_longs

    return wang64_array(present_longs(t, values))  # integer_key of every value, column-wise
