"""Which bucket a row goes to: BinaryRow.hashCode and the bucket functions, one row or whole columns.

* `hash_code`: MurmurHashUtils.hashBytesByWords, seed 42, over all row bytes
  (standard MurmurHash3 x86_32 for these 8-aligned inputs, so `mmh3`).
* bucket functions (`bucket-function.type`): `default` = Math.abs(hash % n),
  `mod` = Math.floorMod over one INT/BIGINT key, `hive` = Hive's
  31-polynomial over the field values (HiveBucketFunction, HiveHasher).
* `bucket_key_fields`: the bucket key of a table (`bucket-key` option in its
  written order, else the primary key minus the partition fields).
* `hash_columns`: the same hash over whole columns (numpy / Arrow), equal to
  the scalar path on every input.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Context, Decimal, localcontext
from typing import Any

import numpy as np
import pyarrow as pa

from paimon_conform.core import budget
from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.hashing import fasthash, java, kernel_calls
from paimon_conform.core.hashing.murmur import hash_code, hash_rows, murmur_words
from paimon_conform.core.java_floats import double_bits, float_bits
from paimon_conform.core.types import DataType, to_internal
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.binary_row import codec as binary_row

BUCKET_FUNCTIONS = ("default", "mod", "hive")
HIVE_MAX_DIGITS = 38


def _check_buckets(num_buckets: int) -> None:
    if num_buckets <= 0:
        raise EncodeError(f"the bucket count must be positive, not {num_buckets}")


def default_bucket(hash_code_: int | np.ndarray, num_buckets: int) -> int | np.ndarray:
    """DefaultBucketFunction: Math.abs(hash % numBuckets) (Java's % truncates)."""
    _check_buckets(num_buckets)
    if isinstance(hash_code_, np.ndarray):
        if num_buckets > 2**31 - 1:
            raise EncodeError(f"the bucket count {num_buckets} does not fit a Java int")
        return np.abs(np.fmod(hash_code_.astype(np.int32, copy=False), np.int32(num_buckets)))
    return abs(int(hash_code_)) % num_buckets


def mod_bucket(value: int | np.ndarray, num_buckets: int) -> int | np.ndarray:
    """ModBucketFunction: Math.floorMod(value, numBuckets) over one INT or BIGINT key."""
    _check_buckets(num_buckets)
    if isinstance(value, np.ndarray):
        return np.mod(value.astype(np.int64), num_buckets).astype(np.int32)
    return int(value) % num_buckets


def _bytes_hash(data: bytes) -> int:
    """HiveHasher.hashBytes: h = 31 * h + (signed byte)."""
    h = 0
    for b in data:
        h = (31 * h + (b - 256 if b > 127 else b)) & 0xFFFFFFFF
    return java.int32(h)


def _big_integer_hash(n: int) -> int:
    """java.math.BigInteger.hashCode: 31-polynomial over the magnitude's BE int words, times the sign."""
    mag = abs(n)
    h = 0
    for (word,) in struct.iter_unpack(">I", mag.to_bytes(-(-mag.bit_length() // 32) * 4, "big")):
        h = (31 * h + word) & 0xFFFFFFFF
    return java.int32(h * (1 if n > 0 else -1 if n < 0 else 0))


def normalize_decimal(value: Decimal) -> Decimal | None:
    """HiveHasher.normalizeDecimal: trailing zeros stripped, scale >= 0, at most 38 digits, HALF_UP."""

    def trim(d: Decimal) -> Decimal:
        if d == 0:
            return Decimal(0)
        d = d.normalize()
        return d.quantize(Decimal(1)) if d.as_tuple().exponent > 0 else d

    d = trim(value)
    scale = -d.as_tuple().exponent
    int_digits = len(d.as_tuple().digits) - scale
    if int_digits > HIVE_MAX_DIGITS:
        return None
    max_scale = min(HIVE_MAX_DIGITS, min(HIVE_MAX_DIGITS - int_digits, scale))
    if scale > max_scale:
        d = trim(d.quantize(Decimal(1).scaleb(-max_scale), rounding=ROUND_HALF_UP))
    return d


def big_decimal_hash(d: Decimal | None) -> int:
    """java.math.BigDecimal.hashCode: 31 * unscaledValue.hashCode() + scale (0 for null)."""
    if d is None:
        return 0
    sign, digits, exponent = d.as_tuple()
    unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    return java.int32(31 * _big_integer_hash(unscaled) - exponent)


HIVE_ROOTS = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "DATE", "TIME", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL")


def check_hive_types(types: Sequence[DataType]) -> None:
    """EncodeError for a bucket-key type HiveBucketFunction has no hash for (Java throws on the first row)."""
    for t in types:
        if not (t.root in HIVE_ROOTS or t.is_string or t.is_binary):
            raise EncodeError(
                f"the hive bucket function does not support {t} (Java throws UnsupportedOperationException)"
            )


def hive_field_hash(t: DataType, v: Any) -> int:
    """HiveBucketFunction.computeHash of one internal value."""
    if v is None:
        return 0
    root = t.root
    if root == "BOOLEAN":
        return 1 if v else 0
    if root in ("TINYINT", "SMALLINT", "INT", "DATE", "TIME"):
        return int(v)
    if root == "BIGINT":
        return java.long_hash(v)
    if root == "FLOAT":
        return 0 if v == 0.0 else float_bits(v)
    if root == "DOUBLE":
        return java.long_hash(0 if v == 0.0 else double_bits(v))
    if t.is_string:
        return _bytes_hash(v.encode("utf-8"))
    if t.is_binary:
        return _bytes_hash(bytes(v))
    if root == "DECIMAL":
        unscaled, _, scale = v
        with localcontext(Context(prec=100)):
            return big_decimal_hash(normalize_decimal(Decimal(unscaled).scaleb(-scale)))
    check_hive_types([t])
    raise AssertionError(t)  # check_hive_types raised


def hive_hash(types: Sequence[DataType], values: Sequence[Any]) -> int:
    """The int HiveBucketFunction builds over the bucket-key fields: h = 31 * h + fieldHash."""
    h = 0
    for t, v in zip(types, values, strict=True):
        h = (31 * h + hive_field_hash(t, v)) & 0xFFFFFFFF
    return java.int32(h)


def hive_bucket(types: Sequence[DataType], values: Sequence[Any], num_buckets: int) -> int:
    """HiveBucketFunction.bucket: (hash & Integer.MAX_VALUE) % numBuckets."""
    _check_buckets(num_buckets)
    return (hive_hash(types, values) & 0x7FFFFFFF) % num_buckets


def _check_mod(types: Sequence[DataType]) -> None:
    """ModBucketFunction's precondition: exactly one INT or BIGINT bucket-key field."""
    if len(types) != 1 or types[0].root not in ("INT", "BIGINT"):
        raise UsageError("the mod bucket function takes exactly one INT or BIGINT bucket key")


def bucket(
    function: str, types: Sequence[DataType], values: Sequence[Any], num_buckets: int, row: bytes | None = None
) -> int:
    """The bucket of one bucket-key row (internal values) under a `bucket-function.type`."""
    if function == "default":
        return default_bucket(hash_code(row if row is not None else binary_row.write(types, values)), num_buckets)
    if function == "mod":
        _check_mod(types)
        # a null key's slot is zero, and Java's row.getInt / getLong reads that 0
        return mod_bucket(0 if values[0] is None else values[0], num_buckets)
    if function == "hive":
        return hive_bucket(types, values, num_buckets)
    raise UsageError(f"unknown bucket function {function!r}; known: {', '.join(BUCKET_FUNCTIONS)}")


def key_buckets(
    types: Sequence[DataType], logical: Sequence[Any], counts: Sequence[int], function: str = "default"
) -> tuple[bytes, int, dict[str, int]]:
    """A key given in the logical JSON form: its BinaryRow bytes, hashCode, and bucket per count (as a string)."""
    values = [to_internal(t, v) for t, v in zip(types, logical, strict=True)]
    row = binary_row.write(types, values)
    return row, hash_code(row), {str(n): bucket(function, types, values, n, row) for n in counts}


def split_option(text: str | None) -> list[str]:
    """A comma-separated key option as Java splits it: no trimming, empty means none."""
    return [] if not text else text.split(",")


def bucket_key_fields(
    primary_keys: Sequence[str],
    partition_keys: Sequence[str],
    options: Mapping[str, str],
    fields: Sequence[str] | None = None,
) -> list[str]:
    """TableSchema.bucketKeys(): `bucket-key` in written order, else the primary key minus partition fields.

    Raises UsageError for the combinations SchemaValidation rejects (a bucket
    key in the partition, outside the primary key, or unknown; `bucket-key`
    with `bucket = -1`).
    """
    keys = split_option(options.get("bucket-key"))
    if keys and str(options.get("bucket", "")).strip() == "-1":
        raise UsageError("bucket-key cannot be set when bucket = -1 (dynamic bucket mode)")
    if not keys:
        return [k for k in primary_keys if k not in partition_keys]
    if fields is not None and (unknown := [k for k in keys if k not in fields]):
        raise UsageError(f"bucket-key {unknown} is not a table field")
    if clash := [k for k in keys if k in partition_keys]:
        raise UsageError(f"bucket-key {clash} must not contain partition fields")
    if primary_keys and (outside := [k for k in keys if k not in primary_keys]):
        raise UsageError(f"bucket-key {outside} must be a subset of the primary key {list(primary_keys)}")
    return keys


# --- whole columns ---------------------------------------------------------------------------

VECTOR_ROOTS = frozenset(
    {"BOOLEAN", "TINYINT", "SMALLINT", "INT", "DATE", "TIME", "BIGINT", "FLOAT", "DOUBLE"}
    | {"CHAR", "VARCHAR", "BINARY", "VARBINARY"}
)
NUMPY_TYPES = {
    "BOOLEAN": "<u1",
    "TINYINT": "<i1",
    "SMALLINT": "<i2",
    "INT": "<i4",
    "DATE": "<i4",
    "TIME": "<i4",
    "BIGINT": "<i8",
    "FLOAT": "<f4",
    "DOUBLE": "<f8",
    "DECIMAL": "<i8",
    "TIMESTAMP": "<i8",
    "TIMESTAMP_LTZ": "<i8",
}


def _vectorizable(t: DataType) -> bool:
    return t.root in VECTOR_ROOTS or (t.root in NUMPY_TYPES and binary_row.is_compact(t))


def _arrow(column: Any, t: DataType) -> pa.Array:
    """A column as one Arrow array whose buffers hold the internal values."""
    try:
        return _arrow_internal(column, t)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise EncodeError(f"{t}: cannot take the column as {t} values: {exc}") from None


def _arrow_internal(column: Any, t: DataType) -> pa.Array:
    arr = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not isinstance(arr, pa.Array):
        arr = pa.array(arr)
    if t.is_string or t.is_binary:
        return arr.cast(pa.large_binary()) if not pa.types.is_large_binary(arr.type) else arr
    if pa.types.is_decimal(arr.type) and t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):  # exact INT96 nanoseconds
        millis = [None if v is None else v[0] for v in paimon_columns.internal_values(arr, t)]
        return pa.array(millis, pa.int64())
    if pa.types.is_decimal(arr.type):
        arr = arr.cast(pa.decimal128(38, t.scale))
        low = np.frombuffer(arr.buffers()[1], dtype="<i8", count=2 * (len(arr) + arr.offset))[0::2][arr.offset :]
        return pa.array(low, mask=np.asarray(arr.is_null()))
    if pa.types.is_timestamp(arr.type):
        return arr.cast(pa.timestamp("ms")).cast(pa.int64())
    if pa.types.is_time32(arr.type) or pa.types.is_time64(arr.type):
        arr = arr.cast(pa.time32("ms"))
    if pa.types.is_date32(arr.type) or pa.types.is_time32(arr.type):
        return arr.cast(pa.int32())
    if t.root == "BOOLEAN":
        return arr.cast(pa.uint8())
    return arr.cast(pa.from_numpy_dtype(np.dtype(NUMPY_TYPES[t.root])))


def _arrays(types: Sequence[DataType], columns: Sequence[Any]) -> tuple[list[pa.Array], int]:
    """The columns as Arrow arrays of internal values, and their common length."""
    arrays = [_arrow(c, t) for c, t in zip(columns, types, strict=True)]
    n = len(arrays[0]) if arrays else 0
    if any(len(a) != n for a in arrays):
        raise EncodeError("columns differ in length")
    return arrays, n


def _nulls(arr: pa.Array) -> np.ndarray:
    return np.asarray(arr.is_null(), dtype=bool) if arr.null_count else np.zeros(len(arr), dtype=bool)


def _string_parts(arr: pa.Array, nulls: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(starts, lengths, data) of a large_binary array, lengths 0 where null."""
    offsets, data = fasthash.binary_buffers(arr)
    starts = offsets[:-1]
    lengths = np.diff(offsets)
    lengths[nulls] = 0
    return starts, lengths, data


def _gather(starts: np.ndarray, lengths: np.ndarray, dest: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flat (source, destination) byte indices copying each [start, start + length) to dest onward."""
    total = int(lengths.sum())
    row_of = np.repeat(np.arange(len(lengths)), lengths)
    within = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return starts[row_of] + within, dest[row_of] + within


def rows_of_columns(types: Sequence[DataType], columns: Sequence[Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The BinaryRows of whole columns, grouped by row size: [(row indices, (m, size) uint8 rows)].

    Columns hold internal values (integers for INT, DATE, TIME, BIGINT;
    unscaled integers for compact DECIMAL; epoch millis for TIMESTAMP(p <= 3))
    or Arrow arrays of the matching Arrow types; nulls as Arrow nulls or None.
    Types without a vectorized slot (DECIMAL p > 18, TIMESTAMP p > 3) go
    through the scalar writer.
    """
    if len(types) != len(columns):
        raise EncodeError(f"{len(types)} types for {len(columns)} columns")
    if not all(_vectorizable(t) for t in types):
        return _scalar_rows(types, columns)
    arrays, n = _arrays(types, columns)
    arity = len(types)
    width, fixed = binary_row.bit_set_width(arity), binary_row.fixed_size(arity)
    head = np.zeros((n, fixed), dtype=np.uint8)
    strings: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
    var_len = np.zeros(n, dtype=np.int64)
    for i, (t, arr) in enumerate(zip(types, arrays, strict=True)):
        nulls = _nulls(arr)
        head[nulls, (i + 8) >> 3] |= np.uint8(1 << ((i + 8) & 7))
        at = width + 8 * i
        if not (t.is_string or t.is_binary):
            slot = head[:, at : at + 8].view("<u4")
            slot[:, 0], slot[:, 1] = _slot_words(arr, t)
            continue
        starts, lengths, data = _string_parts(arr, nulls)
        inline = (lengths <= 7) & ~nulls
        src, dst = _gather(starts[inline], lengths[inline], np.flatnonzero(inline) * fixed + at)
        head.reshape(-1)[dst] = data[src]
        head[inline, at + 7] = (0x80 | lengths[inline]).astype(np.uint8)
        outside = lengths > 7
        strings.append((at, starts, np.where(outside, lengths, 0), data))
        var_len += (np.where(outside, lengths, 0) + 7) // 8 * 8
    if not strings:
        return [(np.arange(n), head)]
    out = []
    for size_ in np.unique(var_len):
        idx = np.flatnonzero(var_len == size_)
        size = fixed + int(size_)
        rows = np.zeros((len(idx), size), dtype=np.uint8)
        rows[:, :fixed] = head[idx]
        cursor = np.full(len(idx), fixed, dtype=np.int64)
        for at, starts, lengths, data in strings:
            ln = lengths[idx]
            has = ln > 0
            slot = (cursor[has].astype(np.uint64) << np.uint64(32)) | ln[has].astype(np.uint64)
            rows[np.flatnonzero(has)[:, None], at + np.arange(8)] = slot.astype("<u8").view(np.uint8).reshape(-1, 8)
            base = np.arange(len(idx)) * size + cursor
            src, dst = _gather(starts[idx][has], ln[has], base[has])
            rows.reshape(-1)[dst] = data[src]
            cursor += (ln + 7) // 8 * 8
        out.append((idx, rows))
    return out


def _internal_lists(types: Sequence[DataType], columns: Sequence[Any]) -> list[list[Any]]:
    """Each column as a Python list of internal values (Arrow columns converted by their Arrow type)."""
    out = []
    for t, c in zip(types, columns, strict=True):
        if isinstance(c, pa.Array | pa.ChunkedArray):
            try:
                out.append(paimon_columns.internal_values(c, t))
            except MemoryError:
                raise  # never a fault of the input (errors.OutOfMemory)
            except (pa.ArrowException, TypeError, ValueError, UsageError) as exc:
                raise EncodeError(f"{t}: cannot take the column as {t} values: {exc}") from None
        else:
            out.append(list(c))
    return out


def _scalar_rows(types: Sequence[DataType], columns: Sequence[Any]) -> list[tuple[np.ndarray, np.ndarray]]:
    rows = [binary_row.write(types, list(r)) for r in zip(*_internal_lists(types, columns), strict=True)]
    sizes = np.array([len(r) for r in rows], dtype=np.int64)
    out = []
    for size in np.unique(sizes):
        idx = np.flatnonzero(sizes == size)
        out.append((idx, np.frombuffer(b"".join(rows[i] for i in idx), dtype=np.uint8).reshape(len(idx), -1)))
    return out


def _slot_words(arr: pa.Array, t: DataType) -> tuple[int | np.ndarray, int | np.ndarray]:
    """The two LE words of a fixed-width column's slots (zero where null)."""
    dtype = np.dtype(NUMPY_TYPES[t.root])
    values = np.asarray(arr.fill_null(0) if arr.null_count else arr, dtype=dtype)
    if t.root == "BOOLEAN":
        values = (values != 0).astype(np.uint8)
    if dtype.itemsize == 8:
        pairs = values.view("<u4").reshape(-1, 2)
        return np.ascontiguousarray(pairs[:, 0]), np.ascontiguousarray(pairs[:, 1])
    unsigned = values.view(f"<u{dtype.itemsize}")
    return unsigned.astype(np.uint32), 0


def _null_words(arrays: Sequence[pa.Array], n: int) -> list[int | np.ndarray]:
    """The bit-set words (row kind 0): bit i + 8 set where field i is null."""
    words: list[int | np.ndarray] = [0] * (binary_row.bit_set_width(len(arrays)) // 4)
    for i, arr in enumerate(arrays):
        if arr.null_count:
            j, bit = divmod(i + 8, 32)
            word = words[j] if isinstance(words[j], np.ndarray) else np.zeros(n, dtype=np.uint32)
            word |= _nulls(arr).astype(np.uint32) << np.uint32(bit)
            words[j] = word
    return words


def hash_columns(types: Sequence[DataType], columns: Sequence[Any]) -> np.ndarray:
    """BinaryRow.hashCode of every row of whole columns (int32), equal to the scalar path.

    Fixed-width keys, and keys with one STRING / BINARY field among them, are
    hashed word by word straight from the column buffers; keys with more
    variable-length fields build the row bytes, grouped by row size.
    """
    var = [i for i, t in enumerate(types) if t.is_string or t.is_binary]
    if all(_vectorizable(t) for t in types) and len(var) <= 1:
        arrays, n = _arrays(types, columns)
        words = _null_words(arrays, n)
        slot = len(words) + 2 * var[0] if var else 0  # where the variable-length field's slot words go
        for t, arr in zip(types, arrays, strict=True):
            words.extend((0, 0) if t.is_string or t.is_binary else _slot_words(arr, t))
        if not var:
            return murmur_words(words, n)
        return _hash_one_var(words, slot, arrays[var[0]], binary_row.fixed_size(len(types)), n)
    groups = rows_of_columns(types, columns)
    n = sum(len(idx) for idx, _ in groups)
    out = np.empty(n, dtype=np.int32)
    for idx, rows in groups:
        out[idx] = hash_rows(rows)
    return out


def _hash_one_var(words: list[int | np.ndarray], slot: int, arr: pa.Array, fixed: int, n: int) -> np.ndarray:
    """hashCode of rows whose only variable-length field is `arr` (its slot at words[slot:slot + 2]), row by row
    in a compiled loop over the fixed words and the column's offsets and data, without building the rows."""
    nulls = _nulls(arr)
    starts, lengths, data = _string_parts(arr, nulls)
    budget.reserve(4 * len(words) * n, f"the fixed-part words of {n} keys")
    table = np.empty((len(words), n), dtype=np.uint32)
    for j, w in enumerate(words):
        table[j] = w
    return kernel_calls.compiled().murmur_one_var(table, slot, data, starts, lengths, nulls, fixed)


def bucket_columns(
    types: Sequence[DataType], columns: Sequence[Any], num_buckets: int, function: str = "default"
) -> np.ndarray:
    """The bucket of every row of whole columns under a bucket function."""
    if function == "default":
        return default_bucket(hash_columns(types, columns), num_buckets)
    if function == "mod":
        _check_mod(types)
        arr = _arrow(columns[0], types[0])
        return mod_bucket(np.asarray(arr.fill_null(0), dtype=np.int64), num_buckets)  # null reads as 0
    if function == "hive":
        rows = zip(*_internal_lists(types, columns), strict=True)
        return np.array([hive_bucket(types, list(r), num_buckets) for r in rows], dtype=np.int32)
    raise UsageError(f"unknown bucket function {function!r}; known: {', '.join(BUCKET_FUNCTIONS)}")
