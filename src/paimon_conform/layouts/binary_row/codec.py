"""Paimon's BinaryRow: the Java-exact writer and the reader over specs/binary_row.ksy.

Values are internal values (`types.to_internal`). The row is little-endian:
a null bit set whose first byte is the row kind, one 8-byte slot per field,
then a variable part padded to 8 bytes per item. Hashing and buckets are in
`bucketing`.
"""

from __future__ import annotations

import functools
import math
import struct
from collections.abc import Sequence
from typing import Any

from kaitaistruct import KaitaiStream

from paimon_conform.core import structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, unscaled_bytes

NAME = "binary_row"
SERIALIZED = "binary_row_serialized"
ROW_KINDS = {"+I": 0, "-U": 1, "+U": 2, "-D": 3}
ROW_KIND_NAMES = {v: k for k, v in ROW_KINDS.items()}
FIXED = {"TINYINT": "<b", "SMALLINT": "<h", "INT": "<i", "DATE": "<i", "TIME": "<i", "BIGINT": "<q"}
# binary_row.ksy enum slot_kind
SLOT_KINDS = {
    "BOOLEAN": 1,
    "TINYINT": 2,
    "SMALLINT": 3,
    "INT": 4,
    "DATE": 4,
    "TIME": 4,
    "BIGINT": 5,
    "FLOAT": 6,
    "DOUBLE": 7,
    "CHAR": 8,
    "VARCHAR": 8,
    "BINARY": 9,
    "VARBINARY": 9,
}
SLOT_INT64, SLOT_DECIMAL, SLOT_TIMESTAMP = 5, 10, 11


def bit_set_width(arity: int) -> int:
    """Bytes of the null bit set, header byte included: ((arity + 63 + 8) / 64) * 8."""
    return ((arity + 63 + 8) // 64) * 8


def fixed_size(arity: int) -> int:
    """Bytes before the variable part."""
    return bit_set_width(arity) + 8 * arity


def is_compact(t: DataType) -> bool:
    """Whether a value of this type lives in its 8-byte slot (DECIMAL p <= 18, TIMESTAMP p <= 3, ...)."""
    if t.root == "DECIMAL":
        return t.precision <= 18
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return t.timestamp_precision <= 3
    return True


def slot_kind(t: DataType) -> int:
    """The binary_row.ksy slot kind of a type."""
    if t.root == "DECIMAL":
        return SLOT_INT64 if is_compact(t) else SLOT_DECIMAL
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return SLOT_INT64 if is_compact(t) else SLOT_TIMESTAMP
    if t.root not in SLOT_KINDS:
        raise EncodeError(f"BinaryRow of {t} is not supported by the kit")
    return SLOT_KINDS[t.root]


def _pad8(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 8)


def _slot(t: DataType, v: Any) -> bytes | None:
    """The 8 slot bytes of a fixed-length value, or None for variable-length encodings."""
    root = t.root
    if root in FIXED:
        return struct.pack(FIXED[root], v).ljust(8, b"\0")
    if root == "BOOLEAN":
        return bytes([1 if v else 0]).ljust(8, b"\0")
    if root == "FLOAT":
        return struct.pack("<f", v).ljust(8, b"\0")
    if root == "DOUBLE":
        return struct.pack("<d", v)
    if root in ("DECIMAL", "TIMESTAMP", "TIMESTAMP_LTZ") and is_compact(t):
        return struct.pack("<q", v[0])
    return None


def _variable(t: DataType, v: Any, offset: int) -> tuple[bytes, bytes]:
    """(slot, variable-part bytes) of a value that is not fixed-length; v None = null."""
    if t.root == "DECIMAL":
        data = b"" if v is None else unscaled_bytes(v[0])
        if len(data) > 16:
            raise EncodeError(f"{t}: unscaled value {v[0]} needs more than 16 bytes")
        return struct.pack("<Q", (offset << 32) | len(data)), data.ljust(16, b"\0")
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        millis, nanos = (0, 0) if v is None else v
        return struct.pack("<Q", (offset << 32) | nanos), struct.pack("<q", millis)
    data = v.encode("utf-8") if t.is_string else bytes(v)
    if len(data) <= 7:
        return data.ljust(7, b"\0") + bytes([0x80 | len(data)]), b""
    return struct.pack("<Q", (offset << 32) | len(data)), _pad8(data)


def write(types: Sequence[DataType], values: Sequence[Any], kind: int = 0) -> bytes:
    """The BinaryRow Java's BinaryRowWriter produces for these internal values (None = null)."""
    if len(types) != len(values):
        raise EncodeError(f"{len(types)} types for {len(values)} values")
    if kind not in ROW_KIND_NAMES:
        raise EncodeError(f"row kind byte {kind} is not one of {sorted(ROW_KIND_NAMES)}")
    arity = len(types)
    head = bytearray(bit_set_width(arity))
    head[0] = kind
    slots = bytearray(8 * arity)
    var = bytearray()
    base = fixed_size(arity)
    for i, (t, v) in enumerate(zip(types, values, strict=True)):
        slot_kind(t)
        if v is None:
            head[(i + 8) >> 3] |= 1 << ((i + 8) & 7)
            if is_compact(t):
                continue  # setNullAt: bit set, slot zero
            # the generated writer calls writeDecimal / writeTimestamp with null: the space stays reserved
        slot = None if v is None else _slot(t, v)
        if slot is None:
            slot, data = _variable(t, v, base + len(var))
            var += data
        slots[8 * i : 8 * i + 8] = slot
    return bytes(head + slots + var)


def serialize_for_manifest(row: bytes, arity: int) -> bytes:
    """SerializationUtils.serializeBinaryRow: int32 BE arity, then the row bytes."""
    return struct.pack(">i", arity) + row


def parse(types: Sequence[DataType], data: bytes, serialized: bool = False) -> Any:
    """The binary_row (or binary_row_serialized) parse tree; LayoutError on bad bytes."""
    kinds = bytes(slot_kind(t) for t in types)
    layout = SERIALIZED if serialized else NAME
    cls, debug = structure.parser_class(layout), structure.parser_class(layout, debug=True)

    def make(stream: KaitaiStream) -> Any:
        return cls(kinds, stream)

    def make_debug(stream: KaitaiStream) -> Any:
        return debug(kinds, stream)

    obj = structure.parse(layout, data, make, make_debug)
    return obj.row if serialized else obj


def _field_value(t: DataType, field: Any, path: str, at: int) -> Any:
    """Internal value of one parsed non-null field."""
    slot = field.slot
    root = t.root
    if root == "BOOLEAN":
        return slot.value == 1
    if root == "FLOAT" or root == "DOUBLE":
        return float(slot.value)
    if root == "DECIMAL":
        if is_compact(t):
            return slot.value, t.precision, t.scale
        return int.from_bytes(slot.unscaled_be, "big", signed=True), t.precision, t.scale
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        if is_compact(t):
            return slot.value, 0
        return slot.epoch_millis, slot.nano_of_millisecond
    if t.is_string or t.is_binary:
        raw = slot.inline_data if slot.is_inline else slot.data
        if t.is_binary:
            return bytes(raw)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LayoutError(NAME, "BINARY_ROW_BAD_UTF8", path, at, f"string is not UTF-8: {exc.reason}") from None
    return slot.value


CACHED_ROW_BYTES = 1024  # rows up to this size are remembered (manifests repeat partitions and stats rows);
# with 4,096 kept at most, about 8 MiB at worst, outside the memory budget


def read(types: Sequence[DataType], data: bytes, serialized: bool = False) -> tuple[int, list[Any]]:
    """(row kind byte, internal values) of a row written with these field types."""
    if len(data) <= CACHED_ROW_BYTES:
        kind, values = _read_cached(tuple(types), bytes(data), serialized)
        return kind, list(values)
    return _read(types, data, serialized)


@functools.lru_cache(maxsize=4096)
def _read_cached(types: tuple[DataType, ...], data: bytes, serialized: bool) -> tuple[int, tuple[Any, ...]]:
    """read() of a small row, kept: its values are immutable (numbers, str, bytes, tuples); a LayoutError is
    raised again on every call, never kept."""
    kind, values = _read(types, data, serialized)
    return kind, tuple(values)


def _read(types: Sequence[DataType], data: bytes, serialized: bool) -> tuple[int, list[Any]]:
    row = parse(types, data, serialized)
    base = 4 if serialized else 0
    values = []
    for i, (t, field) in enumerate(zip(types, row.fields, strict=True)):
        at = base + bit_set_width(len(types)) + 8 * i
        values.append(None if field.is_null else _field_value(t, field, f"fields[{i}]", at))
    return int(row.row_kind), values


def read_as_java(types: Sequence[DataType], data: bytes, serialized: bool = False) -> tuple[int, list[Any]]:
    """(row kind byte, values) the way Java's BinaryRow getters read a row: the null bit first, then only the
    slot and variable part of non-null fields. Bytes Java never looks at (a null field's slot or reserved
    space, padding) are not checked here; `read` and `check` do that. LayoutError when a getter would fail.
    """
    try:
        return read(types, data, serialized)
    except LayoutError as err:
        strict = err
    try:
        return _read_getters(types, data, serialized)
    except (LayoutError, struct.error, IndexError, ValueError):
        raise strict from None


def _read_getters(types: Sequence[DataType], data: bytes, serialized: bool) -> tuple[int, list[Any]]:
    base = 4 if serialized else 0
    if serialized and (len(data) < 4 or int.from_bytes(data[:4], "big", signed=True) != len(types)):
        raise LayoutError(SERIALIZED, "BINARY_ROW_BAD_ARITY", "arity", 0, f"the arity is not {len(types)}")
    row = memoryview(data)[base:]
    width = bit_set_width(len(types))
    if len(row) < fixed_size(len(types)):
        raise LayoutError(NAME, "BINARY_ROW_BAD_SIZE", "", base, "shorter than the fixed part")
    values: list[Any] = []
    for i, t in enumerate(types):
        if row[(i + 8) >> 3] >> ((i + 8) & 7) & 1:
            values.append(None)
            continue
        at = width + 8 * i
        values.append(_getter(t, row, at, base, f"fields[{i}]"))
    return row[0], values


def _getter(t: DataType, row: memoryview, at: int, base: int, path: str) -> Any:
    """One non-null field as Java's typed getter reads it."""
    word = int.from_bytes(row[at : at + 8], "little")
    root = t.root
    if root in FIXED:
        return struct.unpack_from(FIXED[root], row, at)[0]
    if root == "BOOLEAN":
        return row[at] != 0
    if root == "FLOAT":
        return struct.unpack_from("<f", row, at)[0]
    if root == "DOUBLE":
        return struct.unpack_from("<d", row, at)[0]
    if root == "DECIMAL" and is_compact(t):
        return struct.unpack_from("<q", row, at)[0], t.precision, t.scale
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and is_compact(t):
        return struct.unpack_from("<q", row, at)[0], 0
    offset, low = word >> 32, word & 0xFFFFFFFF
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        _within(row, offset, 8, base, path)
        return struct.unpack_from("<q", row, offset)[0], low
    if root == "DECIMAL":
        _within(row, offset, low, base, path)
        return int.from_bytes(row[offset : offset + low], "big", signed=True), t.precision, t.scale
    if word >> 63:  # inline: up to 7 bytes, length in the high byte
        raw = bytes(row[at : at + ((word >> 56) & 0x7F)])
    else:
        _within(row, offset, low, base, path)
        raw = bytes(row[offset : offset + low])
    if t.is_binary:
        return raw
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LayoutError(NAME, "BINARY_ROW_BAD_UTF8", path, base + at, f"string is not UTF-8: {exc.reason}") from None


def _within(row: memoryview, offset: int, length: int, base: int, path: str) -> None:
    if offset + length > len(row):
        raise LayoutError(NAME, "BINARY_ROW_BAD_OFFSET", path, base, "the variable part lies outside the row")


def _nan_slots(types: Sequence[DataType], values: Sequence[Any]) -> list[int]:
    return [i for i, (t, v) in enumerate(zip(types, values, strict=True)) if isinstance(v, float) and math.isnan(v)]


def check(types: Sequence[DataType], data: bytes, serialized: bool = False) -> list[Finding]:
    """Findings: structure (must), then whether Java's writer produces exactly these bytes."""
    return read_checked(types, data, serialized)[0]


def read_checked(
    types: Sequence[DataType], data: bytes, serialized: bool = False
) -> tuple[list[Finding], tuple[int, list[Any]] | None]:
    """(findings, (row kind, values) or None when unreadable): `check` and `read` in one parse.

    A row that parses but differs from Java's bytes for the same values (a
    variable part out of field order, non-minimal decimal bytes, garbage in
    padding, bytes after the last item) hashes differently, so the key lands
    in another bucket than Java puts it: a must finding at the first byte
    that differs. NaN slots are taken as written (Java stores raw NaN bits).
    """
    try:
        kind, values = read(types, data, serialized)
    except LayoutError as err:
        return [Finding.from_error(err)], None
    base = 4 if serialized else 0
    try:
        expected = bytearray(write(types, values, kind))
    except EncodeError as exc:
        return [Finding("BINARY_ROW_BAD_VALUE", "must", "", None, str(exc))], (kind, values)
    row = data[base:]
    for i in _nan_slots(types, values):
        at = bit_set_width(len(types)) + 8 * i
        expected[at : at + 8] = row[at : at + 8]
    if bytes(expected) == row:
        return [], (kind, values)
    first = next(
        (j for j, (a, b) in enumerate(zip(expected, row, strict=False)) if a != b), min(len(expected), len(row))
    )
    finding = Finding(
        "BINARY_ROW_NOT_JAVA_LAYOUT",
        "must",
        _path_of(len(types), first),
        base + first,
        f"readable, but Java writes these values as {len(expected)} bytes that differ from row byte {first} on; "
        "the hash, and so the bucket, would differ",
    )
    return [finding], (kind, values)


def _path_of(arity: int, at: int) -> str:
    """Field path of a row byte offset: header, null bits, a slot, or the variable part."""
    if at == 0:
        return "row_kind"
    if at < bit_set_width(arity):
        return "null_bits"
    if at < fixed_size(arity):
        return f"fields[{(at - bit_set_width(arity)) // 8}].slot"
    return "variable_part"
