"""The `.row` data file of Paimon 2.0: encoder byte-identical to Java's RowFormatWriter, and a reader that
checks what the spec (specs/row_file.ksy) checks, in the same order, raising the same LayoutError.

Values are the kit's internal forms (core.types) for atomic columns; VARIANT is (value, metadata) bytes,
BLOB bytes, ARRAY and VECTOR a list, MAP and MULTISET a list of (key, value) pairs, ROW a list.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from paimon_layouts import processors

from paimon_conform.core import budget, delta_varint, varint
from paimon_conform.core.block_codec import zstd_stream
from paimon_conform.core.codecs import zstd_exact
from paimon_conform.core.errors import EncodeError, InvariantError, LayoutError, TruncatedError
from paimon_conform.core.types import unscaled_bytes
from paimon_conform.layouts.row_file.types import RowFieldType, entry_types

NAME = "row_file"
MAGIC = 0x524F5753  # RowFileFooter.MAGIC, "ROWS" as an int: the file ends in b"SWOR"
MAGIC_BYTES = MAGIC.to_bytes(4, "little")
VERSION = 1
FOOTER = 32
DEFAULT_BLOCK_SIZE = 65536  # RowFileFormat.DEFAULT_BLOCK_SIZE (file.block-size)
DEFAULT_ZSTD_LEVEL = 1  # file.compression.zstd-level
FOOTER_FORMAT = "<qiqiB3sI"

# field_kind of the spec: how an atomic column's bytes are laid out
NESTED, BOOLEAN, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64, BYTES, TIMESTAMP_NANOS, VARIANT = range(11)
_FIXED = {"BOOLEAN": BOOLEAN, "TINYINT": INT8, "SMALLINT": INT16, "INT": INT32, "DATE": INT32, "TIME": INT32}
_FIXED |= {"BIGINT": INT64, "FLOAT": FLOAT32, "DOUBLE": FLOAT64}
_FIXED |= {r: BYTES for r in ("CHAR", "VARCHAR", "BINARY", "VARBINARY", "BLOB")}
_STRUCT = {BOOLEAN: "<B", INT8: "<b", INT16: "<h", INT32: "<i", INT64: "<q", FLOAT32: "<f", FLOAT64: "<d"}


def field_kind(t: RowFieldType) -> int:
    """The spec's field_kind of a column type (NESTED for what the spec does not read)."""
    if t.root in _FIXED:
        return _FIXED[t.root]
    if t.root == "DECIMAL":
        return INT64 if t.atomic.precision <= 18 else BYTES  # Decimal.isCompact
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return INT64 if t.atomic.timestamp_precision <= 3 else TIMESTAMP_NANOS  # Timestamp.isCompact
    if t.root == "VARIANT":
        return VARIANT
    return NESTED


# ---------------------------------------------------------------------------------------------- encoding


def _var_int(value: int) -> bytes:
    """BlockOutput.writeVarInt: LEB128 of the value's 32-bit pattern."""
    if not -(2**31) <= value < 2**31:
        raise EncodeError(f"{value} does not fit in an int")
    return varint.write(value & 0xFFFF_FFFF)


def _len_bytes(data: bytes) -> bytes:
    return _var_int(len(data)) + data


def _write(out: bytearray, t: RowFieldType, v: Any) -> None:
    """Append one non-null value (RowBlockWriter's field writer for the type)."""
    kind = field_kind(t)
    try:
        if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            millis, nanos = v
            out += struct.pack("<q", millis)
            if kind == TIMESTAMP_NANOS:
                out += _var_int(nanos)
        elif t.root == "DECIMAL":
            unscaled = v[0]
            out += struct.pack("<q", unscaled) if kind == INT64 else _len_bytes(unscaled_bytes(unscaled))
        elif kind in _STRUCT:
            out += struct.pack(_STRUCT[kind], int(v) if kind == BOOLEAN else v)
        elif kind == BYTES:
            out += _len_bytes(v.encode("utf-8") if isinstance(v, str) else bytes(v))
        elif kind == VARIANT:
            out += _len_bytes(bytes(v[0])) + _len_bytes(bytes(v[1]))
        elif t.root == "VECTOR":
            out += _var_int(len(v))
            for e in v:
                _write(out, t.children[0], e)
        elif t.root == "ARRAY":
            _write_array(out, t.children[0], v)
        elif t.root in ("MAP", "MULTISET"):
            key_t, value_t = entry_types(t)
            _write_array(out, key_t, [k for k, _ in v])
            _write_array(out, value_t, [x for _, x in v])
        elif t.root == "ROW":
            _write_row(out, t.children, v)
        else:
            raise EncodeError(f"Java's row format has no encoding for {t}")
    except (struct.error, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise EncodeError(f"{t}: cannot write {v!r} ({exc})") from None


def _null_bitmap(values: Sequence[Any]) -> bytearray:
    bits = bytearray((len(values) + 7) // 8)
    for i, v in enumerate(values):
        if v is None:
            bits[i // 8] |= 1 << (i % 8)
    return bits


def _write_array(out: bytearray, element: RowFieldType, values: Sequence[Any]) -> None:
    out += _var_int(len(values)) + _null_bitmap(values)
    for v in values:
        if v is not None:
            _write(out, element, v)


def _write_row(out: bytearray, types: Sequence[RowFieldType], values: Sequence[Any]) -> None:
    if len(values) != len(types):
        raise EncodeError(f"a row of {len(values)} values for {len(types)} columns")
    out += _null_bitmap(values)
    for t, v in zip(types, values, strict=True):
        if v is not None:
            _write(out, t, v)


def row_bytes(types: Sequence[RowFieldType], values: Sequence[Any]) -> bytes:
    """One row as RowBlockWriter.writeRow serializes it."""
    out = bytearray()
    _write_row(out, types, values)
    return bytes(out)


def delta_array(values: Sequence[int]) -> bytes:
    """DeltaVarintCompressor.compress, with its varint byte length first (RowBlockIndex.writeArray)."""
    body = delta_varint.compress(values)
    return varint.write(len(body)) + body


def encode(
    types: Sequence[RowFieldType],
    rows: Sequence[Sequence[Any]],
    block_size: int = DEFAULT_BLOCK_SIZE,
    zstd_level: int = DEFAULT_ZSTD_LEVEL,
) -> bytes:
    """The bytes RowFormatWriter writes for these rows (a block is flushed once its rows, offsets and
    count reach `block_size`)."""
    if block_size <= 0:
        raise EncodeError(f"block size {block_size}: Java's writer needs a positive one")
    contents: list[bytes] = []
    body, offsets = bytearray(), []

    def flush() -> None:
        if offsets:
            contents.append(block_content(bytes(body), offsets))
            body.clear()
            offsets.clear()

    for values in rows:
        offsets.append(len(body))
        _write_row(body, types, values)
        if len(body) + 4 * len(offsets) + 4 >= block_size:  # RowBlockWriter.estimatedSize
            flush()
    flush()
    return assemble(contents, zstd_level)


def block_content(rows: bytes, offsets: Sequence[int]) -> bytes:
    """A block before compression (RowBlockWriter.finish): the rows, their offsets, their count."""
    return rows + struct.pack(f"<{len(offsets)}i", *offsets) + struct.pack("<i", len(offsets))


def assemble(contents: Sequence[bytes], zstd_level: int = DEFAULT_ZSTD_LEVEL, **override: Any) -> bytes:
    """A row file of these block contents, as RowFormatWriter.close lays it out.

    `override` replaces what the writer would state, to build faulty files: `stored` (the compressed
    blocks), `compressed`, `uncompressed`, `row_starts` (lists), `num_rows`, `num_blocks`, `reserved`,
    `version`, `magic`, `gap` (bytes between the blocks and the index), `index` (its bytes).
    """
    counts = [struct.unpack_from("<i", c, len(c) - 4)[0] if len(c) >= 4 else 0 for c in contents]
    stored = override.get("stored") or [zstd_stream(c, zstd_level) for c in contents]
    starts = [sum(counts[:i]) for i in range(len(counts))]
    arrays = [
        override.get("compressed", [len(s) for s in stored]),
        override.get("uncompressed", [len(c) for c in contents]),
        override.get("row_starts", starts),
    ]
    data = b"".join(stored) + override.get("gap", b"")
    index = override.get("index", b"".join(delta_array(a) for a in arrays))
    footer = struct.pack(
        FOOTER_FORMAT,
        override.get("num_rows", sum(counts)),
        override.get("num_blocks", len(contents)),
        len(data),
        len(index),
        override.get("version", VERSION),
        override.get("reserved", bytes(3)),
        override.get("magic", MAGIC),
    )
    return data + index + footer


# ---------------------------------------------------------------------------------------------- reading


@dataclass
class Block:
    """One data block as the index describes it, and its rows once read."""

    offset: int
    compressed: int
    uncompressed: int
    row_start: int
    rows: list[list[Any]] = field(default_factory=list)
    num_rows: int = 0


@dataclass
class RowFile:
    """A read row file: footer fields, blocks with their rows, and the faults no Java reader meets."""

    num_rows: int
    num_blocks: int
    ofs_index: int
    len_index: int
    reserved: bytes
    blocks: list[Block]
    soft: list[LayoutError] = field(default_factory=list)

    @property
    def rows(self) -> list[list[Any]]:
        """Every row, in file order."""
        return [r for b in self.blocks for r in b.rows]


def _bad(code: str, path: str, offset: int | None, msg: str) -> InvariantError:
    return InvariantError(NAME, code, path, offset, msg)


class _Cursor:
    """Reads `data` up to `end`. For the index, `data` is the input's bytes from file offset `at` and a fault's
    offset is `at` plus its position. In a block (`inside` "block"), `data` is the decompressed content,
    whose positions are not input offsets: a fault's offset is `at`, where the block's stored bytes start in
    the file (as the spec's parser locates a field of a processed stream), and the message names the
    position in the block."""

    def __init__(self, data: bytes, end: int, at: int, path: str, inside: str | None = "block") -> None:
        self.data, self.end, self.pos, self.at, self.path, self.inside = data, end, 0, at, path, inside

    def _where(self, offset: int) -> str:
        return f" ({self.inside} byte {offset})" if self.inside else ""

    def offset(self, position: int) -> int:
        """The input offset of a position in `data`."""
        return self.at if self.inside else self.at + position

    def fault(self, code: str, where: str, offset: int, msg: str) -> InvariantError:
        return _bad(code, f"{self.path}.{where}", self.offset(offset), msg + self._where(offset))

    def take(self, n: int, where: str) -> bytes:
        if self.pos + n > self.end:
            msg = f"input ends inside this field: {n} byte(s) needed, {self.end - self.pos} available"
            raise TruncatedError(
                NAME, "TRUNCATED", f"{self.path}.{where}", self.offset(self.pos), msg + self._where(self.pos)
            )
        out = self.data[self.pos : self.pos + n]
        self.pos += n
        return out

    def var_int(self, where: str) -> int:
        """VarLengthIntUtils-style int as the spec reads it (var_len_int(5)): Java's signed value."""
        start = self.pos
        try:
            value, self.pos = varint.read(self.data, start, self.end, max_bytes=5, bits=varint.INT)
        except varint.VarintError as exc:
            if exc.kind == "too_long":
                msg = "the varint does not end within 5 bytes"
                raise self.fault("VARINT_MALFORMED", f"{where}.groups", start, msg) from None
            self.pos = exc.at
            self.take(1, f"{where}.groups[{exc.at - start}].b")  # raises: the bytes end here
            raise
        return value

    def block_var_int(self, where: str, soft: list[LayoutError]) -> int:
        """A row's varint as Java's BlockInput.readVarInt reads it: bytes until one without the high bit, however
        many, each group shifted by 7 more bits (Java's int shift wraps at 32), the value Java's int. More than
        the 5 bytes Java's writer uses is a should (ROW_FILE_VARINT_OVERLONG): Java reads it, run on 2.0.0."""
        start = self.pos
        try:
            value, self.pos = varint.read(self.data, start, self.end, max_bytes=None, bits=varint.INT, shift_mod=32)
        except varint.VarintError as exc:
            self.pos = exc.at
            self.take(1, f"{where}.groups[{exc.at - start}].b")  # raises: the bytes end here
            raise
        i = self.pos - start
        if i > 5:
            msg = f"a varint of {i} bytes: Java's writer uses at most 5, its reader takes any"
            soft.append(self.fault("ROW_FILE_VARINT_OVERLONG", f"{where}.groups", start, msg))
        return value

    def var_bytes(self, where: str, soft: list[LayoutError]) -> bytes:
        start = self.pos
        n = self.block_var_int(f"{where}.len_data", soft)
        if n < 0:
            raise self.fault("ROW_FILE_BAD_LENGTH", f"{where}.len_data", start, f"length {n}")
        return self.take(n, f"{where}.data")


def _read(cur: _Cursor, t: RowFieldType, where: str, soft: list[LayoutError]) -> Any:
    """One non-null value of type `t` at the cursor."""
    kind = field_kind(t)
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        (millis,) = struct.unpack("<q", cur.take(8, where if kind == INT64 else f"{where}.millis"))
        if kind == INT64:
            return (millis, 0)
        start = cur.pos
        nanos = cur.block_var_int(f"{where}.nano_of_milli", soft)
        if not 0 <= nanos <= 999_999:
            msg = f"nanosecond of the millisecond {nanos}: Timestamp refuses values outside 0..999999"
            raise cur.fault("ROW_FILE_BAD_NANOS", f"{where}.nano_of_milli", start, msg)
        return (millis, nanos)
    if t.root == "DECIMAL":
        if kind == INT64:
            return (struct.unpack("<q", cur.take(8, where))[0], t.atomic.precision, t.atomic.scale)
        raw = cur.var_bytes(where, soft)
        budget.reserve(len(raw), "a DECIMAL value")
        return (int.from_bytes(raw, "big", signed=True) if raw else 0, t.atomic.precision, t.atomic.scale)
    if kind in _STRUCT:
        (v,) = struct.unpack(_STRUCT[kind], cur.take(struct.calcsize(_STRUCT[kind]), where))
        return v != 0 if kind == BOOLEAN else v
    if kind == BYTES:
        raw = cur.var_bytes(where, soft)
        if t.atomic is not None and t.atomic.is_string:
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError as err:
                msg = (
                    f"a {t} value is not UTF-8 (byte {err.start}); Java keeps the bytes, readers decode them as U+FFFD"
                )
                soft.append(cur.fault("ROW_FILE_BAD_UTF8", where, cur.pos - len(raw), msg))
                return raw.decode("utf-8", errors="replace")
        return raw
    if kind == VARIANT:
        return (cur.var_bytes(f"{where}.value", soft), cur.var_bytes(f"{where}.metadata", soft))
    return _read_nested(cur, t, where, soft)


def _read_nested(cur: _Cursor, t: RowFieldType, where: str, soft: list[LayoutError]) -> Any:
    if t.root == "VECTOR":
        n = _count(cur, where, soft)
        return [_read(cur, t.children[0], f"{where}.elements[{i}]", soft) for i in range(n)]
    if t.root == "ARRAY":
        return _read_array(cur, t.children[0], where, soft)
    if t.root in ("MAP", "MULTISET"):
        key_t, value_t = entry_types(t)
        keys = _read_array(cur, key_t, f"{where}.keys", soft)
        values = _read_array(cur, value_t, f"{where}.values", soft)
        if len(keys) != len(values):
            msg = f"{len(keys)} keys and {len(values)} values; Java's reader indexes the values by the keys"
            raise cur.fault("ROW_FILE_BAD_MAP", where, cur.pos, msg)
        return list(zip(keys, values, strict=True))
    if t.root == "ROW":
        return _read_row(cur, t.children, where, soft)
    raise cur.fault("ROW_FILE_UNSUPPORTED_TYPE", where, cur.pos, f"Java's row format cannot read {t}")


def _count(cur: _Cursor, where: str, soft: list[LayoutError], bits: bool = False) -> int:
    """An element count, checked against the bytes left (each element takes a byte, or a bitmap bit)."""
    start = cur.pos
    n = cur.block_var_int(f"{where}.num_elements", soft)
    if n < 0 or (((n + 7) // 8) if bits else n) > cur.end - cur.pos:
        raise cur.fault(
            "ROW_FILE_BAD_LENGTH", f"{where}.num_elements", start, f"{n} elements, {cur.end - cur.pos} bytes left"
        )
    return n


def _read_array(cur: _Cursor, element: RowFieldType, where: str, soft: list[LayoutError]) -> list[Any]:
    n = _count(cur, where, soft, bits=True)
    bits = cur.take((n + 7) // 8, f"{where}.null_bits")
    return [
        None if bits[i // 8] >> (i % 8) & 1 else _read(cur, element, f"{where}.elements[{i}]", soft) for i in range(n)
    ]


def _read_row(cur: _Cursor, types: Sequence[RowFieldType], where: str, soft: list[LayoutError]) -> list[Any]:
    prefix = f"{where}." if where else ""
    bits = cur.take((len(types) + 7) // 8, f"{prefix}null_bits")
    return [
        None if bits[i // 8] >> (i % 8) & 1 else _read(cur, t, f"{prefix}fields[{i}].value", soft)
        for i, t in enumerate(types)
    ]


def _index(index: bytes, base: int) -> list[list[int]]:
    """RowBlockIndex.readFrom: three length-prefixed delta arrays."""
    arrays, pos = [], 0
    for name in ("compressed_sizes", "uncompressed_sizes", "row_starts"):
        cur = _Cursor(index, len(index), base, f"index.{name}", inside=None)
        cur.pos = pos
        n = cur.var_int("len_values")
        if not 0 <= n <= len(index) - cur.pos:
            msg = f"array length {n} with {len(index) - cur.pos} index bytes left"
            raise _bad("ROW_FILE_BAD_INDEX_RANGE", f"index.{name}.len_values", base + pos, msg)
        needed = len(_var_int(n))  # RowBlockIndex.varIntSize: the bytes the writer's varint of the value takes
        if cur.pos - pos != needed:
            msg = (
                f"array length {n} in {cur.pos - pos} varint bytes: Java steps over the {needed} the value "
                "needs (RowBlockIndex.varIntSize) and reads the rest as the array (run: 2.0.0 fails)"
            )
            raise _bad("ROW_FILE_BAD_INDEX_VARINT", f"index.{name}.len_values", base + pos, msg)
        arrays.append(delta_varint.decompress(NAME, index, cur.pos, cur.pos + n, base, f"index.{name}.deltas"))
        pos = cur.pos + n
    return arrays


def load(data: bytes, types: Sequence[RowFieldType] | None) -> RowFile:
    """Every row of a row file, checked as the spec checks it; LayoutError at the first fault. Without the
    column types the rows are not read (the blocks keep their row counts only)."""
    size = len(data)
    if size < FOOTER:
        raise _bad("ROW_FILE_TOO_SHORT", "size_check", 0, f"{size} bytes cannot hold the 32-byte footer")
    at = size - FOOTER
    num_rows, num_blocks, ofs_index, len_index, version, reserved, magic = struct.unpack_from(FOOTER_FORMAT, data, at)
    if magic != MAGIC:
        raise _bad(
            "ROW_FILE_BAD_MAGIC", "footer", at, f"magic 0x{magic:08X}, not 0x{MAGIC:08X} (Invalid row file magic)"
        )
    if version != VERSION:
        raise _bad("ROW_FILE_BAD_VERSION", "footer", at, f"version {version}, Java knows 1")
    if not (0 <= ofs_index <= at and 0 <= len_index <= at - ofs_index):
        msg = f"index at {ofs_index}, {len_index} bytes: not between the start of the file and the footer at {at}"
        raise _bad("ROW_FILE_BAD_INDEX_RANGE", "footer", at, msg)
    budget.reserve(64 * len_index, f"the {len_index}-byte block index of a row file")
    compressed, uncompressed, starts = _index(data[ofs_index : ofs_index + len_index], ofs_index)
    counts = f"{len(compressed)} compressed sizes, {len(uncompressed)} uncompressed sizes, {len(starts)} row starts"
    if len(uncompressed) < len(compressed) or len(starts) < len(compressed):
        raise _bad("ROW_FILE_INDEX_MISMATCH", "index", ofs_index, f"{counts}: Java indexes each by the block")
    out = RowFile(num_rows, num_blocks, ofs_index, len_index, reserved, [])
    if len(uncompressed) > len(compressed) or len(starts) > len(compressed):
        msg = f"{counts}: Java reads one of each per compressed size and never the rest (run: 2.0.0)"
        out.soft.append(_bad("ROW_FILE_INDEX_EXTRA", "index", ofs_index, msg))
    pos = rows_before = 0
    for i in range(len(compressed)):
        block = Block(pos, compressed[i], uncompressed[i], starts[i])
        _check_slot(block, i, ofs_index, rows_before)
        _read_block(data, block, i, types, out.soft)
        out.blocks.append(block)
        pos += block.compressed
        rows_before = block.row_start + block.num_rows
    if rows_before != num_rows:
        msg = f"the footer states {num_rows} rows, the blocks hold {rows_before}"
        raise _bad("ROW_FILE_BAD_ROW_COUNT", "footer", at, msg)
    _soft_footer(out, pos, at)
    return out


def _check_slot(block: Block, i: int, ofs_index: int, rows_before: int) -> None:
    path = f"blocks[{i}]"
    if not (0 < block.compressed <= ofs_index - block.offset and 0 <= block.uncompressed <= 0x7FFF_FFFF):
        msg = (
            f"block {i} at {block.offset}: {block.compressed} compressed bytes ({block.uncompressed} uncompressed) "
            f"with the index at {ofs_index}"
        )
        raise _bad("ROW_FILE_BLOCK_PAST_INDEX", f"{path}.len_compressed", 0, msg)  # 0: where the spec's check stands
    if block.row_start != rows_before:
        msg = f"block {i} starts at row {block.row_start}; the blocks before it hold {rows_before} rows"
        raise _bad("ROW_FILE_BAD_ROW_START", f"{path}.row_start", 0, msg)


def _read_block(
    data: bytes, block: Block, i: int, types: Sequence[RowFieldType] | None, soft: list[LayoutError]
) -> None:
    path = f"blocks[{i}].content"
    try:
        content = zstd_exact(data[block.offset : block.offset + block.compressed], block.uncompressed)
    except processors.ProcessError as err:
        raise _bad("ROW_FILE_BLOCK_DECOMPRESS", path, block.offset, str(err)) from None
    n = len(content)
    at = block.offset
    if n < 4:
        raise _bad("ROW_FILE_BAD_BLOCK", f"{path}.size_check", at, f"a {n}-byte block has no row count")
    (count,) = struct.unpack_from("<i", content, n - 4)
    if not 0 <= count <= (n - 4) // 4:
        msg = f"{count} rows in a {n}-byte block (block byte {n - 4})"
        raise _bad("ROW_FILE_BAD_BLOCK", f"{path}.num_rows", at, msg)
    region = n - 4 - 4 * count
    offsets = struct.unpack_from(f"<{count}i", content, region)
    block.num_rows = count
    if types is None:
        return
    budget.reserve(64 * (len(types) + 1) * count, f"{count} rows of a row file block")
    ends = []
    for r, ofs in enumerate(offsets):
        where = f"{path}.rows[{r}]"
        if not (ofs >= 0 and ofs + (len(types) + 7) // 8 <= region):
            msg = f"row {r} starts at block byte {ofs}; the rows take {region} bytes"
            raise _bad("ROW_FILE_BAD_ROW_OFFSET", f"{where}.ofs_row", at, msg)
        cur = _Cursor(content, region, block.offset, f"{where}.row")
        cur.pos = ofs
        block.rows.append(_read_row(cur, types, "", soft))
        ends.append(cur.pos)
    if not offsets:
        if region:
            msg = f"a block of no rows holds {region} bytes of rows; Java's writer leaves no gap"
            soft.append(_bad("ROW_FILE_ROW_GAP", f"{path}.rows", at, msg))
        return
    starts = [*offsets[1:], region]
    for r, (end, nxt) in enumerate(zip(ends, starts, strict=True)):
        if end != nxt or (r == 0 and offsets[0] != 0):
            msg = (
                f"row {r} ends at block byte {end}, the next row (or the offsets) at {nxt}; Java's writer leaves no gap"
            )
            soft.append(_bad("ROW_FILE_ROW_GAP", f"{path}.rows[{r}]", at, msg))
            break


def _soft_footer(out: RowFile, blocks_end: int, at: int) -> None:
    """Faults in bytes Java's reader never uses, in the spec's order."""
    if blocks_end != out.ofs_index:
        msg = f"the blocks end at {blocks_end}, the index starts at {out.ofs_index}: bytes no reader uses"
        out.soft.append(_bad("ROW_FILE_BLOCK_GAP", "footer", at, msg))
    if out.num_blocks != len(out.blocks):
        msg = f"the footer states {out.num_blocks} blocks, the index lists {len(out.blocks)}"
        out.soft.append(_bad("ROW_FILE_BLOCK_COUNT", "footer", at, msg))
    if out.reserved != bytes(3):
        out.soft.append(_bad("ROW_FILE_RESERVED", "footer", at, f"reserved bytes {out.reserved.hex()}, not zero"))
