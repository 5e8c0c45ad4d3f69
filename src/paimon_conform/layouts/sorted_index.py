"""Java's KeySerializer and SortedIndexFileMeta, shared by the sorted global indexes (layouts
`bitmap_global_index` and `btree_global_index`): the key bytes of each column type, the comparator's
order, the `_INDEX_META` bytes, grouping a column's rows by key, and the checks of a file's keys.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from paimon_conform.core import block_codec, budget, varint
from paimon_conform.core.block_codec import var_int
from paimon_conform.core.errors import CaseError, EncodeError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_floats import double_bits, float_bits
from paimon_conform.core.types import DataType, java_order
from paimon_conform.layouts.base import parse_fits

UNSUPPORTED = ("BINARY", "VARBINARY")  # KeySerializer: "not supported by global index now"
ROW_BYTES = 48  # one row while the writer groups a column (value, row id, sort slot)
CASE_ROW_BYTES = 64  # one row listed in a case


def supported(t: DataType) -> bool:
    """Whether Java's KeySerializer has a serializer for the column type."""
    return t.root not in UNSUPPORTED and t.root != "UNSUPPORTED"


def _utf8(v: str | bytes) -> bytes:
    """A string key's bytes (BinaryString: UTF-8; key bytes read back stay as they are)."""
    return v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass")


def _compact(t: DataType) -> bool:
    """Decimal.isCompact / Timestamp.isCompact: the 8-byte form."""
    return (t.precision or 0) <= 18 if t.root == "DECIMAL" else t.timestamp_precision <= 3


def key_bytes(t: DataType, v: Any) -> bytes:
    """KeySerializer.serialize of an internal value (numbers in the platform's little-endian order)."""
    root = t.root
    if t.is_string:
        return _utf8(v)
    if root == "BOOLEAN":
        return b"\x01" if v else b"\x00"
    if root == "TINYINT":
        return struct.pack("<b", v)
    if root == "SMALLINT":
        return struct.pack("<h", v)
    if root in ("INT", "DATE", "TIME"):
        return struct.pack("<i", v)
    if root == "BIGINT":
        return struct.pack("<q", v)
    if root == "FLOAT":  # Float.floatToIntBits: one NaN pattern
        return struct.pack("<i", float_bits(v))
    if root == "DOUBLE":
        return struct.pack("<q", double_bits(v))
    if root == "DECIMAL":
        unscaled = v[0]
        if _compact(t):
            return struct.pack("<q", unscaled)
        return unscaled.to_bytes(max(1, (unscaled + (unscaled < 0)).bit_length() // 8 + 1), "big", signed=True)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        millis, nanos = v
        return struct.pack("<q", millis) + (b"" if _compact(t) else var_int(nanos))
    raise EncodeError(f"{t} is not supported by Java's global index (KeySerializer)")


_WIDTH = {"BOOLEAN": 1, "TINYINT": 1, "SMALLINT": 2, "INT": 4, "DATE": 4, "TIME": 4, "BIGINT": 8, "FLOAT": 4}
_WIDTH |= {"DOUBLE": 8}


def read_key(t: DataType, raw: bytes) -> Any:
    """KeySerializer.deserialize: the internal value Java reads from key bytes; ValueError where it fails."""
    root = t.root
    if t.is_string:
        return raw  # BinaryString.fromBytes: no UTF-8 check, compared byte by byte
    if root == "DECIMAL" and not _compact(t):
        if not raw:
            raise ValueError("an empty unscaled value")
        return (int.from_bytes(raw, "big", signed=True), t.precision, t.scale)
    width = 8 if root in ("DECIMAL", "TIMESTAMP", "TIMESTAMP_LTZ") else _WIDTH[root]
    if len(raw) < width:
        raise ValueError(f"{len(raw)} byte(s), a {t} key reads {width}")
    if root == "BOOLEAN":
        return raw[0] == 1
    fmt = {1: "<b", 2: "<h", 4: "<i", 8: "<q"}[width]
    if root == "FLOAT":
        fmt = "<f"
    elif root == "DOUBLE":
        fmt = "<d"
    (n,) = struct.unpack_from(fmt, raw)
    if root == "DECIMAL":
        return (n, t.precision, t.scale)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        if _compact(t):
            return (n, 0)
        try:
            nanos, _ = block_codec.read_var_int(raw, 8)
        except varint.VarintError as exc:
            if exc.kind == "too_long":
                raise ValueError("Malformed") from None
            nanos = -1
        if nanos < 0:
            raise ValueError("the nanos of the milli are missing or negative")
        return (n, nanos)
    return n


def order(t: DataType) -> Callable[[Any], Any]:
    """The sort key of KeySerializer.createComparator (strings: bytes, unsigned)."""
    return _utf8 if t.is_string else java_order(t)


def index_meta(first: bytes | None, last: bytes | None, has_nulls: bool) -> bytes:
    """SortedIndexFileMeta.serialize: the `_INDEX_META` bytes of the index-manifest entry."""
    flags = (first is None) | ((last is None) << 1)
    parts = [struct.pack("<i", len(first or b"")), first or b"", struct.pack("<i", len(last or b"")), last or b""]
    return b"".join(parts) + bytes([int(has_nulls), 1, flags])


def read_index_meta(data: bytes) -> tuple[bytes | None, bytes | None, bool]:
    """SortedIndexFileMeta.deserialize: (first key, last key, has nulls); ValueError where Java fails."""
    pos = 0
    keys = []
    for _ in range(2):
        if len(data) < pos + 4:
            raise ValueError(f"the meta ends at byte {len(data)}, inside a key length")
        (n,) = struct.unpack_from("<i", data, pos)
        if n < 0 or len(data) < pos + 4 + n:
            raise ValueError(f"key length {n} at byte {pos} does not fit the {len(data)}-byte meta")
        keys.append(data[pos + 4 : pos + 4 + n])
        pos += 4 + n
    if len(data) <= pos:
        raise ValueError("the meta ends before its has-nulls byte")
    has_nulls = data[pos] == 1
    first, last = keys
    rest = data[pos + 1 :]
    if len(rest) >= 2:
        if rest[0] == 1:
            return (None if rest[1] & 1 else first), (None if rest[1] & 2 else last), has_nulls
        return first, last, has_nulls
    if not first and not last and has_nulls:
        return None, None, has_nulls
    return first, last, has_nulls


def group_rows(t: DataType, values: Sequence[Any]) -> tuple[list[bytes], list[np.ndarray], np.ndarray]:
    """Distinct keys in the comparator's order (as key bytes), each one's row ids, and the null rows."""
    budget.reserve(ROW_BYTES * len(values), f"the {len(values)} rows of a global index")
    sort = order(t)
    by_key: dict[bytes, list[int]] = {}
    sample: dict[bytes, Any] = {}
    nulls = []
    for row, v in enumerate(values):
        if v is None:
            nulls.append(row)
            continue
        k = key_bytes(t, v)
        by_key.setdefault(k, []).append(row)
        sample.setdefault(k, v)
    keys = sorted(by_key, key=lambda k: sort(sample[k]))
    return keys, [np.asarray(by_key[k], dtype=np.uint64) for k in keys], np.asarray(nulls, dtype=np.uint64)


def key_findings(keys: list[bytes], t: DataType, prefix: str) -> list[Finding]:
    """Keys Java cannot read, keys out of the comparator's order, and key bytes Java would not write (codes
    <prefix>_BAD_KEY, _KEY_ORDER: must; _KEY_NOT_CANONICAL: should)."""
    if not supported(t):
        msg = f"the index is on a {t} column, which Java's KeySerializer does not support: no reader opens it"
        return [Finding(f"{prefix}_BAD_KEY", "must", "", None, msg)]
    out: list[Finding] = []
    sort = order(t)
    prev = None
    for i, raw in enumerate(keys):
        path = f"keys[{i}]"
        try:
            value = read_key(t, raw)
        except ValueError as exc:
            out.append(Finding(f"{prefix}_BAD_KEY", "must", path, None, f"Java cannot read it as a {t} key: {exc}"))
            return out
        if prev is not None and not sort(prev) < sort(value):
            msg = (
                f"key {i} does not sort after key {i - 1} by the {t} comparator: the writer refuses keys out of "
                "order, and the reader's binary search and early stop miss values"
            )
            out.append(Finding(f"{prefix}_KEY_ORDER", "must", path, None, msg))
        if key_bytes(t, value) != raw:
            msg = f"key bytes {raw.hex()} are not the ones Java writes for the value they read as"
            out.append(Finding(f"{prefix}_KEY_NOT_CANONICAL", "should", path, None, msg))
        prev = value
    return out


def file_findings(
    name: str,
    prefix: str,
    readers: tuple[str, ...],
    read: Callable[[bytes], Any],
    check: Callable[[Any, DataType | None], list[Finding]],
    data: bytes,
    t: DataType | None,
) -> tuple[list[Finding], Any]:
    """Every finding for a sorted global index file and the parsed index when its structure holds: the spec's
    faults and the layout's musts for the releases that read it, an LZO block as a warning (its CRC checked,
    its content not), and a warning when the keys went unchecked for want of the column type."""
    parse_fits(data, name)
    try:
        index = read(data)
    except LayoutError as err:
        if err.code == "BLOCK_NOT_DECODED":
            return [Finding(err.code, "warning", err.path, err.offset, err.detail)], None
        f = Finding.from_error(err)
        f.java_releases, f.otherwise = readers, None
        return [f], None
    found = check(index, t)
    for f in found:
        if f.severity == "must":
            f.java_releases, f.otherwise = readers, None
    if t is None:
        msg = "keys not checked: their order and bytes need the column type (--type)"
        found.append(Finding(f"{prefix}_KEYS_NOT_CHECKED", "warning", "", None, msg))
    return found, index


def case_rows(pairs: Sequence[tuple[bytes, Sequence[int]]], rows: Any, t: DataType, what: str) -> list[Any]:
    """The column's values row by row (internal form) from each key's rows, `rows` being every row the index
    records (null or not): a case lists rows 0..n-1, so the index must record exactly those."""
    num_rows = len(rows)
    if num_rows and rows.max() != num_rows - 1:
        raise CaseError(f"the index records {num_rows} rows but not rows 0..{num_rows - 1}: a case lists every row")
    budget.reserve(CASE_ROW_BYTES * num_rows, f"the {num_rows} rows of a {what} case")
    out: list[Any] = [None] * num_rows
    for raw, rows in pairs:
        value = read_key(t, raw)
        if t.is_string:
            try:
                value = value.decode("utf-8")
            except UnicodeDecodeError:
                raise CaseError(f"key {raw.hex()} is not UTF-8, which a case's string cannot hold") from None
        for row in rows:
            out[row] = value
    return out
