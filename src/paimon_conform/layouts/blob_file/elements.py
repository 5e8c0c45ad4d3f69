"""ARRAY<BLOB> and MAP<K, BLOB> rows of a `.blob` file (Paimon 2.0): the framing Java nests in a record's
payload (ArrayBlobElementSerializer, MapBlobElementSerializer), written byte-identical and read with the
checks Java's readers make, in their order, raising the LayoutError the spec (`elements` of a record)
raises for the same bytes. The payload is read through the file's Source: the header, the index lengths
and the indexes only, never the element data."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paimon_conform.core import budget, delta_varint
from paimon_conform.core.errors import EncodeError, InvariantError, UsageError
from paimon_conform.core.types import DataType, to_internal, to_json, unscaled_bytes
from paimon_conform.layouts.row_file import types as rtypes

NAME = "blob_file"
ARRAY_MAGIC = 1094861634  # ArrayBlobElementSerializer.MAGIC_NUMBER
MAP_MAGIC = 0x4D424342  # MapBlobElementSerializer.MAGIC_NUMBER (1296188226)
VERSION = 1
NULL = -1
HEADER = 9  # magic 4 + version 1 + count 4
MAX_KEY = 2**31 - 1
# MAP key types each Java reader can read (MapBlobElementSerializer.createKeySerializer)
KEYS_2_0 = frozenset({"TINYINT", "SMALLINT", "INT", "BIGINT", "CHAR", "VARCHAR"})
KEYS_AFTER_2_0 = KEYS_2_0 | {"BOOLEAN", "DECIMAL", "DATE", "TIME", "BINARY", "VARBINARY"}
KIND_CODES = {"blob": 0, "array": 1, "map": 2}  # the spec's element_kind enum
# fixed-width keys: little-endian as the KeySerializers write them (DATE, TIME: IntKeySerializer)
KEY_FORMATS = {"TINYINT": "<b", "SMALLINT": "<h", "INT": "<i", "DATE": "<i", "TIME": "<i", "BIGINT": "<q"}


@dataclass(frozen=True)
class ElementType:
    """What a `.blob` file's column holds: `blob` (raw payloads), `array` (ARRAY<BLOB>) or `map` (MAP<key, BLOB>)."""

    kind: str = "blob"
    key: DataType | None = None

    @property
    def key_width(self) -> int:
        """The byte width of every non-NULL map key, -1 for keys of any length (0 when not a map)."""
        if self.key is None:
            return 0
        root = self.key.root
        if root in KEY_FORMATS:
            return struct.calcsize(KEY_FORMATS[root])
        if root == "BOOLEAN":
            return 1
        if root == "DECIMAL" and (self.key.precision or 0) <= 18:
            return 8
        return -1  # any length: strings, binaries, wide decimals (and key types no reader takes)

    def spec_params(self) -> tuple[int, int]:
        """The spec's (element_kind, key_width) parameters."""
        return KIND_CODES[self.kind], self.key_width

    def __str__(self) -> str:
        return {"blob": "BLOB", "array": "ARRAY<BLOB>"}.get(self.kind) or f"MAP<{self.key}, BLOB>"


BLOB = ElementType()


def element_type(raw: Any) -> ElementType:
    """The element type of a BLOB column from its schema-file type JSON (or the row-file type parse gives);
    UsageError for a type Java never writes into a `.blob` file (BlobType.isBlobFileField)."""
    t = rtypes.parse(raw)
    if t.root == "BLOB":
        return BLOB
    if t.root == "ARRAY" and t.children[0].root == "BLOB":
        return ElementType("array")
    if t.root == "MAP" and t.children[1].root == "BLOB":
        key = t.children[0]
        if key.atomic is None:
            raise UsageError(f"MAP<{key}, BLOB>: no Java release reads a nested key (MapBlobElementSerializer)")
        return ElementType("map", key.atomic)
    raise UsageError(f"a .blob file holds BLOB, ARRAY<BLOB> or MAP<K, BLOB>, not {t}")


# --- encoding ---------------------------------------------------------------------------------------------


def encode_array(elements: Sequence[bytes | None]) -> bytes:
    """The payload ArrayBlobElementSerializer.Writer writes for one row."""
    lengths = [NULL if e is None else len(e) for e in elements]
    index = delta_varint.compress(lengths)
    head = struct.pack("<iBi", ARRAY_MAGIC, VERSION, len(elements))
    return head + b"".join(e for e in elements if e is not None) + index + struct.pack("<i", len(index))


def key_bytes(key: DataType, value: Any) -> bytes:
    """A map key as MapBlobElementSerializer's KeySerializer writes it (`value` in core.types' internal form)."""
    root = key.root
    if root == "BOOLEAN":
        return b"\x01" if value else b"\x00"
    if root in KEY_FORMATS:
        return struct.pack(KEY_FORMATS[root], value)
    if key.is_string:
        return value.encode("utf-8")
    if key.is_binary:
        return bytes(value)
    if root == "DECIMAL":
        unscaled = value[0]
        if (key.precision or 0) <= 18:
            return struct.pack("<q", unscaled)
        return unscaled_bytes(unscaled)
    raise EncodeError(f"MAP<{key}, BLOB>: no Java release writes this key type")


def encode_map(entries: Sequence[tuple[Any, bytes | None]], key: DataType) -> bytes:
    """The payload MapBlobElementSerializer.Writer writes for one row (keys in internal form, None is NULL)."""
    keys = [None if k is None else key_bytes(key, k) for k, _ in entries]
    klen = [NULL if k is None else len(k) for k in keys]
    vlen = [NULL if v is None else len(v) for _, v in entries]
    kindex, vindex = delta_varint.compress(klen), delta_varint.compress(vlen)
    head = struct.pack("<iBi", MAP_MAGIC, VERSION, len(entries))
    data = b"".join(k for k in keys if k is not None) + b"".join(v for _, v in entries if v is not None)
    return head + data + kindex + vindex + struct.pack("<ii", len(kindex), len(vindex))


# --- reading ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Element:
    """One element (or map value) of a row: where its bytes start in the file and their length (-1 NULL)."""

    offset: int
    length: int


@dataclass(frozen=True)
class Framed:
    """A row's elements as Java reads them; `keys` (a map's) are the keys' (offset, length) pairs."""

    values: list[Element]
    keys: list[Element] | None = None


class _Payload:
    """One record's payload in the file: reads by payload position, errors with the spec's path and offset."""

    def __init__(self, src: Any, start: int, size: int, path: str) -> None:
        self.src, self.start, self.size, self.path = src, start, size, path

    def read(self, pos: int, n: int) -> bytes:
        return self.src.read(self.start + pos, n)

    def fault(self, code: str, field: str, pos: int | None, msg: str) -> InvariantError:
        return InvariantError(NAME, code, f"{self.path}.{field}", None if pos is None else self.start + pos, msg)

    def index(self, field: str, pos: int, n: int) -> list[int]:
        """A delta-varint index of `n` bytes at `pos` (DeltaVarintCompressor.decompress)."""
        budget.reserve(64 * n, f"a {n}-byte element index of a .blob record")
        return delta_varint.decompress(NAME, self.read(pos, n), 0, n, self.start + pos, f"{self.path}.{field}")


def _header(p: _Payload, minimum: int, magic: int, what: str) -> int:
    """Size, magic, version and count checks of either framing; the count."""
    prefix = what.lower()
    if p.size < minimum:
        msg = f"a {p.size}-byte payload; {prefix} framing needs {minimum}"
        raise p.fault(f"BLOB_{what}_TOO_SHORT", "size_check", 0, msg)
    head = p.read(0, HEADER)
    if head[:4] != struct.pack("<i", magic):
        msg = f"{prefix} payload magic {head[:4].hex()}, not {struct.pack('<i', magic).hex()}"
        raise p.fault(f"BLOB_{what}_BAD_MAGIC", "magic", 0, msg)
    if head[4] != VERSION:
        raise p.fault(f"BLOB_{what}_BAD_VERSION", "version", 4, f"{prefix} payload version {head[4]}; Java knows 1")
    (count,) = struct.unpack("<i", head[5:9])
    if count < 0:
        field = "num_elements" if what == "ARRAY" else "num_entries"
        raise p.fault(f"BLOB_{what}_BAD_COUNT", field, 5, f"count {count}")
    return count


def _lengths(p: _Payload, lengths: list[int], room: int, field: str, key_width: int | None = None) -> int:
    """Each element's (or, given `key_width`, each key's) length NULL or fitting the data left (and the key
    type's width, -1 for any); the bytes they take."""
    code, name = ("BLOB_ELEMENT_BAD_LENGTH", "len_element")
    if key_width is not None:
        code, name = "BLOB_MAP_BAD_KEY_LENGTH", "len_key"
    used = 0
    for i, n in enumerate(lengths):
        if n == NULL:
            continue
        wrong_width = key_width is not None and (n > MAX_KEY or 0 <= key_width != n)
        if n < 0 or n > room - used or wrong_width:
            why = f"a key of width {key_width}" if wrong_width and n >= 0 else f"{room - used} data byte(s) left"
            msg = f"{field} {i} has length {n}: not -1 (NULL) nor a length that fits ({why})"
            raise p.fault(code, f"{field}[{i}].{name}", HEADER, msg)  # the spec's zero-width check: at the data
        used += n
    return used


def read_array(src: Any, start: int, size: int, path: str) -> Framed:
    """The elements of an ARRAY<BLOB> payload, checked as ArrayBlobElementSerializer.Reader checks them."""
    p = _Payload(src, start, size, path)
    count = _header(p, HEADER + 4, ARRAY_MAGIC, "ARRAY")
    (len_index,) = struct.unpack("<i", p.read(size - 4, 4))
    if not 0 <= len_index <= size - HEADER - 4:
        msg = f"element index length {len_index} does not fit in {size - HEADER - 4} bytes"
        raise p.fault("BLOB_ARRAY_BAD_INDEX_LENGTH", "len_index", size - 4, msg)
    if count > len_index:
        msg = f"{count} elements cannot be listed in a {len_index}-byte index"
        raise p.fault("BLOB_ARRAY_COUNT_MISMATCH", "num_elements", 5, msg)
    ofs_index = size - 4 - len_index
    lengths = p.index("index", ofs_index, len_index)
    if len(lengths) != count:
        msg = f"the header counts {count} elements, the index lists {len(lengths)}"
        raise p.fault("BLOB_ARRAY_COUNT_MISMATCH", "num_elements", 5, msg)
    room = ofs_index - HEADER
    used = _lengths(p, lengths, room, "element_checks")
    if used != room:
        msg = f"the elements take {used} byte(s); the payload holds {room} between header and index"
        raise p.fault("BLOB_ARRAY_LENGTH_MISMATCH", "len_index", size - 4, msg)
    return Framed(_place(start + HEADER, lengths))


def read_map(src: Any, start: int, size: int, path: str, key_width: int) -> Framed:
    """The keys and values of a MAP<K, BLOB> payload, checked as MapBlobElementSerializer.Reader checks them."""
    p = _Payload(src, start, size, path)
    count = _header(p, HEADER + 8, MAP_MAGIC, "MAP")
    len_keys, len_values = struct.unpack("<ii", p.read(size - 8, 8))
    room = size - HEADER - 8
    if not (0 <= len_keys <= room and 0 <= len_values <= room and len_keys + len_values <= room):
        msg = f"index lengths {len_keys} (keys) and {len_values} (values) do not fit in {room} bytes"
        raise p.fault("BLOB_MAP_BAD_INDEX_LENGTH", "len_key_index", size - 8, msg)
    if count > len_keys or count > len_values:
        msg = f"{count} entries cannot be listed in indexes of {len_keys} and {len_values} bytes"
        raise p.fault("BLOB_MAP_COUNT_MISMATCH", "num_entries", 5, msg)
    ofs_values = size - 8 - len_values
    ofs_keys = ofs_values - len_keys
    klens = p.index("key_index", ofs_keys, len_keys)
    vlens = p.index("value_index", ofs_values, len_values)
    data = ofs_keys - HEADER
    if len(klens) != count:
        msg = f"the header counts {count} entries, the key index lists {len(klens)}"
        raise p.fault("BLOB_MAP_COUNT_MISMATCH", "num_entries", 5, msg)
    key_bytes_used = _lengths(p, klens, data, "key_checks", key_width)
    if len(vlens) != count:
        msg = f"the header counts {count} entries, the value index lists {len(vlens)}"
        raise p.fault("BLOB_MAP_COUNT_MISMATCH", "num_entries", 5, msg)
    used = _lengths(p, vlens, data - key_bytes_used, "value_checks")
    if used != data - key_bytes_used:
        msg = f"keys and values take {key_bytes_used + used} byte(s); the payload holds {data} before the indexes"
        raise p.fault("BLOB_MAP_LENGTH_MISMATCH", "len_key_index", size - 8, msg)
    return Framed(_place(start + HEADER + key_bytes_used, vlens), _place(start + HEADER, klens))


def _place(offset: int, lengths: list[int]) -> list[Element]:
    """Elements laid back to back from `offset` (NULLs take no bytes)."""
    out = []
    for n in lengths:
        out.append(Element(offset, n))
        offset += max(n, 0)
    return out


def read(src: Any, etype: ElementType, start: int, size: int, path: str) -> Framed | None:
    """A payload's framing for the column's element type (None for a plain BLOB column)."""
    if etype.kind == "array":
        return read_array(src, start, size, f"{path}.elements")
    if etype.kind == "map":
        return read_map(src, start, size, f"{path}.elements", etype.key_width)
    return None


# --- keys -----------------------------------------------------------------------------------------------------


def key_value(key: DataType, raw: bytes) -> Any:
    """A map key's value in core.types' internal form; ValueError for bytes no Java reader accepts."""
    root = key.root
    if root == "BOOLEAN":
        if raw not in (b"\x00", b"\x01"):
            raise ValueError(f"boolean key byte {raw.hex()}, not 00 or 01")
        return raw == b"\x01"
    if root in KEY_FORMATS:
        return struct.unpack(KEY_FORMATS[root], raw)[0]
    if key.is_string:
        return raw.decode("utf-8")  # Java keeps any bytes; a reader in another language needs UTF-8
    if key.is_binary:
        return raw
    if root == "DECIMAL":
        precision = key.precision or 0
        if precision <= 18:
            unscaled = struct.unpack("<q", raw)[0]
        else:
            if not raw:
                raise ValueError("an empty wide DECIMAL key")
            unscaled = int.from_bytes(raw, "big", signed=True)
            if len(str(abs(unscaled))) > precision:
                raise ValueError(f"decimal key {unscaled} has more than {precision} digits")
        return unscaled, precision, key.scale or 0
    raise ValueError(f"no Java release reads {key} keys")


def key_json(key: DataType, raw: bytes) -> Any:
    """A map key as the case's JSON (core.types' logical form); ValueError as key_value."""
    return to_json(key, key_value(key, raw))


def key_from_json(key: DataType, value: Any) -> Any:
    """A case's JSON key in internal form (None is NULL)."""
    return None if value is None else to_internal(key, value)


def key_faults(src: Any, framed: Framed, key: DataType, path: str) -> list[InvariantError]:
    """Map keys no reader takes as written, beyond the framing: bytes that are no value of the key type (a
    BOOLEAN byte not 0 or 1, a wide DECIMAL over its precision, a string that is not UTF-8), and a key twice."""
    out: list[InvariantError] = []
    if key.root not in KEYS_AFTER_2_0:
        return out  # no reader takes the column at all: the entry's key-type finding says so
    seen: dict[bytes | None, int] = {}
    for i, k in enumerate(framed.keys or []):
        raw = None
        if k.length != NULL:
            budget.reserve(k.length, f"key {i} of a MAP<{key}, BLOB> row")
            raw = bytes(src.read(k.offset, k.length))
            try:
                key_value(key, raw)
            except ValueError as exc:  # UnicodeDecodeError included
                code = "BLOB_MAP_KEY_NOT_UTF8" if key.is_string else "BLOB_MAP_BAD_KEY"
                out.append(InvariantError(NAME, code, f"{path}.keys[{i}]", k.offset, f"key {i}: {exc}"))
        if raw in seen:
            msg = f"key {i} repeats key {seen[raw]} ({'NULL' if raw is None else raw.hex()})"
            out.append(InvariantError(NAME, "BLOB_MAP_DUPLICATE_KEY", f"{path}.keys[{i}]", k.offset, msg))
        seen.setdefault(raw, i)
    return out
