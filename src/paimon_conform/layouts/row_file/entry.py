"""Layout `row_file`: the `.row` data file of Paimon 2.0 (RowFormatWriter; footer magic ROWS).

A row file does not record its column types, so reading its rows needs them in column order (`--types
a=INT,b=STRING`, or a case's `fields` with schema-file type JSON for nested types). Without them the
footer, the index and the blocks are checked and a warning says the rows were not. The case lists the
fields, the rows, and the writer's options when not the defaults (`block_size`, `zstd_level`).
"""

from __future__ import annotations

from typing import Any

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, LayoutError, UsageError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import DataType, to_internal, to_json
from paimon_conform.layouts.base import PARSE_BYTES, Layout, case_header, fault_key
from paimon_conform.layouts.row_file import codec
from paimon_conform.layouts.row_file import types as rtypes
from paimon_conform.layouts.row_file.types import RowFieldType

NAME = "row_file"
KIND = "row-file"
READERS = between("2.0")  # RowFileFormat arrived in 2.0.0 (apache/paimon#7934)
# Bytes Java's reader never looks at, or reads without failing: a writer fault, not a failed read.
UNREAD_BY_JAVA = frozenset(
    {
        "ROW_FILE_RESERVED",
        "ROW_FILE_BLOCK_COUNT",
        "ROW_FILE_BLOCK_GAP",
        "ROW_FILE_ROW_GAP",
        "ROW_FILE_BAD_UTF8",
        "ROW_FILE_INDEX_EXTRA",
        "ROW_FILE_VARINT_OVERLONG",
    }
)
# what Kaitai cannot say
CODEC_ONLY = frozenset({"ROW_FILE_ROW_GAP", "ROW_FILE_BAD_UTF8", "ROW_FILE_INDEX_EXTRA", "ROW_FILE_VARINT_OVERLONG"})
MAX_ZSTD_LEVEL = 22
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
# The window log of the frame a zstd stream (no pledged size, as zstd-jni's ZstdOutputStream) states at each
# level, and the memory its compressor takes there, in MiB (both measured: test_row_file.test_zstd_level_table)
ZSTD_WINDOW_LOG = {1: 19, 2: 20, 3: 21, 4: 21, 5: 21, 6: 21, 7: 21, 8: 21, 9: 22, 10: 22, 11: 22}
ZSTD_WINDOW_LOG |= {12: 22, 13: 22, 14: 22, 15: 22, 16: 22, 17: 23, 18: 23, 19: 23, 20: 25, 21: 26, 22: 27}
ZSTD_LEVEL_MIB = {1: 2, 2: 4, 3: 6, 4: 8, 5: 8, 6: 8, 7: 12, 8: 12, 9: 16, 10: 28, 11: 28, 12: 48, 13: 40}
ZSTD_LEVEL_MIB |= {14: 56, 15: 72, 16: 40, 17: 56, 18: 56, 19: 96, 20: 176, 21: 352, 22: 768}


def detect(data: bytes) -> bool:
    """The footer's magic, 0x524F5753 little-endian (`SWOR`), in the last four bytes."""
    return len(data) >= codec.FOOTER and data[-4:] == codec.MAGIC_BYTES


def field_types(types: Any) -> list[RowFieldType] | None:
    """Column types in order from a list or an ordered {name: type} dict (None: not given)."""
    if types is None:
        return None
    if isinstance(types, DataType | RowFieldType | str):
        types = [types]
    if isinstance(types, dict):
        types = list(types.values())
    if not isinstance(types, list | tuple):
        raise UsageError(
            "a row file's rows are read by their column types: pass them in order (--types a=INT,b=STRING)"
        )
    return [rtypes.parse(t) for t in types]


def finding(err: LayoutError, file: str = "") -> Finding:
    """A finding for a fault: must for Java 2.0's readers, should for bytes they never use."""
    f = Finding.from_error(err, file)
    f.java_releases, f.otherwise = READERS, None  # older releases know no row format
    if err.code in UNREAD_BY_JAVA:
        f.severity = "should"
        f.message += "; Java's reader does not use or check it, and Java's writer never writes it"
    return f


def _spec_reads_rows(types: list[RowFieldType] | None) -> bool:
    """Whether the spec's parser reads the rows too (the types given, every column atomic)."""
    return types is not None and all(codec.field_kind(t) != codec.NESTED for t in types)


def _spec(data: bytes, types: list[RowFieldType] | None) -> Any:
    """The spec's parse tree (LayoutError at its first fault)."""
    from paimon_layouts.debug.row_file import RowFile as Debug
    from paimon_layouts.row_file import RowFile as Parser

    kinds = bytes(codec.field_kind(t) for t in types or [])
    decode = _spec_reads_rows(types)
    return structure.parse(NAME, data, lambda io: Parser(kinds, decode, io), lambda io: Debug(kinds, decode, io))


def read(data: bytes, types: list[RowFieldType] | None) -> tuple[codec.RowFile | None, list[LayoutError]]:
    """The read file (None when a fault stops the read) and every fault, first the one that stopped it."""
    try:
        rf = codec.load(data, types)
    except LayoutError as err:
        return None, [err]
    return rf, list(rf.soft)


def findings(data: bytes, types: list[RowFieldType] | None) -> tuple[list[Finding], codec.RowFile | None]:
    """Every finding for the bytes; the spec's parser, when the file fits the budget, must meet the same first
    fault as the codec (bar what only the codec checks, and the rows the spec does not read)."""
    rf, errs = read(data, types)
    found = [finding(e) for e in errs]
    if types is None:
        msg = "rows not read: a row file does not record its column types (--types)"
        found.append(Finding("ROW_FILE_ROWS_NOT_CHECKED", "warning", "", None, msg))
    if not budget.fits(PARSE_BYTES * len(data)):
        return found, rf
    ours = next((e for e in errs if e.code not in CODEC_ONLY), None)
    if ours is not None and not _spec_reads_rows(types) and ".rows[" in ours.path:
        return found, rf  # a fault in a row the spec does not read (nested columns)
    try:
        _spec(data, types)
        first = None
    except LayoutError as err:
        first = err
    if fault_key(first) != fault_key(ours):
        msg = f"the spec's parser meets {fault_key(first)}, the codec {fault_key(ours)}"
        found.append(Finding("ROW_FILE_DECODERS_DISAGREE", "must", "", None, msg))
    return found, rf


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a row file (rows read when the column types are given)."""
    return findings(data, field_types(types))[0]


# ---------------------------------------------------------------------------------------------- cases


def value_json(t: RowFieldType, v: Any) -> Any:
    """The case's JSON form of a value (atomic: the kit's logical form; docs/case-format.md: Values)."""
    if v is None:
        return None
    if t.atomic is not None:
        return to_json(t.atomic, v)
    if t.root == "VARIANT":
        return {"value": v[0].hex(), "metadata": v[1].hex()}
    if t.root == "BLOB":
        return v.hex()
    if t.root in ("ARRAY", "VECTOR"):
        return [value_json(t.children[0], e) for e in v]
    if t.root in ("MAP", "MULTISET"):
        key_t, value_t = rtypes.entry_types(t)
        return [[value_json(key_t, k), value_json(value_t, x)] for k, x in v]
    return [value_json(c, x) for c, x in zip(t.children, v, strict=True)]


def value_internal(t: RowFieldType, v: Any) -> Any:
    """The value a case's JSON form stands for (inverse of value_json)."""
    if v is None:
        return None
    try:
        if t.atomic is not None:
            return to_internal(t.atomic, v)
        if t.root == "VARIANT":
            return (bytes.fromhex(v["value"]), bytes.fromhex(v["metadata"]))
        if t.root == "BLOB":
            return bytes.fromhex(v)
        if t.root in ("ARRAY", "VECTOR"):
            return [value_internal(t.children[0], e) for e in v]
        if t.root in ("MAP", "MULTISET"):
            key_t, value_t = rtypes.entry_types(t)
            return [(value_internal(key_t, k), value_internal(value_t, x)) for k, x in v]
        if len(v) != len(t.children):
            raise CaseError(f"a {t} value of {len(v)} fields")
        return [value_internal(c, x) for c, x in zip(t.children, v, strict=True)]
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise CaseError(f"{t}: {v!r} is not a value of the type ({exc})") from None


def case_types(case: dict[str, Any]) -> dict[str, RowFieldType]:
    """The column types a case states, by name in column order."""
    return {f["name"]: rtypes.parse(f["type"]) for f in case["fields"]}


def block_size_of(rf: codec.RowFile, types: list[RowFieldType]) -> int | None:
    """A `file.block-size` that splits the rows into these blocks (the default when it does), else None."""
    low, high = 1, 2**31 - 1
    for i, block in enumerate(rf.blocks):
        sizes = [len(codec.row_bytes(types, r)) for r in block.rows]
        est = [sum(sizes[: k + 1]) + 4 * (k + 1) + 4 for k in range(len(sizes))]  # RowBlockWriter.estimatedSize
        if len(est) > 1:
            low = max(low, max(est[:-1]) + 1)
        if i < len(rf.blocks) - 1 and est:
            high = min(high, est[-1])
    if low > high:
        return None
    return codec.DEFAULT_BLOCK_SIZE if low <= codec.DEFAULT_BLOCK_SIZE <= high else low


def frame_window_log(stored: bytes) -> int | None:
    """The window log a stored block's zstd frame states, or None when its header is not the one a zstd stream
    without a pledged size writes (no content size, not single-segment, no checksum, no dictionary)."""
    if len(stored) < 6 or stored[:4] != ZSTD_MAGIC or stored[4] & 0b1110_0111 or stored[5] & 0b111:
        return None
    return 10 + (stored[5] >> 3)


def candidate_levels(data: bytes, rf: codec.RowFile) -> list[int]:
    """The zstd levels whose streamed frames state the window log the file's blocks state (CaseError when a
    block's frame header is not one Java's writer writes, or the blocks state different ones)."""
    logs = {frame_window_log(data[b.offset : b.offset + b.compressed]) for b in rf.blocks}
    if None in logs or len(logs) > 1:
        raise CaseError("a block's zstd frame header is not the one Java's writer (a zstd stream) writes")
    return [level for level, log in ZSTD_WINDOW_LOG.items() if not logs or log in logs]


def _options(data: bytes, rf: codec.RowFile, types: list[RowFieldType]) -> dict[str, int]:
    """The writer options (beyond the defaults) under which the encoder writes exactly these bytes; each zstd
    level tried is charged to the budget (BudgetExceeded past it)."""
    size = block_size_of(rf, types)
    if size is None:
        raise CaseError("the rows are split into blocks as no file.block-size of Java's writer splits them")
    for level in candidate_levels(data, rf):
        budget.reserve((ZSTD_LEVEL_MIB[level] << 20) + 2 * len(data), f"re-encoding the rows at zstd level {level}")
        if codec.encode(types, rf.rows, size, level) == data:
            return ({"block_size": size} if size != codec.DEFAULT_BLOCK_SIZE else {}) | (
                {"zstd_level": level} if level != codec.DEFAULT_ZSTD_LEVEL else {}
            )
    raise CaseError("the encoder does not write these bytes at any zstd level: the file is not as Java writes it")


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case these bytes are the file of."""
    ts = field_types(types)
    if ts is None:
        raise UsageError("a row-file case lists the rows: pass the column types (--types a=INT,b=STRING)")
    found, rf = findings(data, ts)
    raise_first_must(NAME, found)
    assert rf is not None
    fields = [{"name": f"f{i}", "type": rtypes.to_json(t)} for i, t in enumerate(ts)]
    if isinstance(types, dict):
        fields = [{"name": str(n), "type": rtypes.to_json(t)} for n, t in zip(types, ts, strict=True)]
    blocks = [{"rows": b.num_rows, "compressed": b.compressed, "uncompressed": b.uncompressed} for b in rf.blocks]
    rows = [[value_json(t, v) for t, v in zip(ts, r, strict=True)] for r in rf.rows]
    return (
        case_header(KIND)
        | {"version": codec.VERSION, "fields": fields}
        | _options(data, rf, ts)
        | {
            "blocks": blocks,
            "rows": rows,
        }
    )


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes; stated blocks must be the ones Java's writer makes."""
    ts = list(case_types(case).values())
    rows = []
    for i, r in enumerate(case["rows"]):
        if len(r) != len(ts):
            raise CaseError(f"rows[{i}] has {len(r)} values for {len(ts)} fields")
        rows.append([value_internal(t, v) for t, v in zip(ts, r, strict=True)])
    data = codec.encode(ts, rows, case.get("block_size", codec.DEFAULT_BLOCK_SIZE), case.get("zstd_level", 1))
    if "blocks" in case:
        got = [
            {"rows": b.num_rows, "compressed": b.compressed, "uncompressed": b.uncompressed}
            for b in codec.load(data, ts).blocks
        ]
        if got != case["blocks"]:
            raise CaseError(f"the case states blocks {case['blocks']}; Java writes {got}")
    return data


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    rf, errs = read(data, field_types(types))
    if rf is None:
        return f"row_file: unreadable ({errs[0].code} at {errs[0].path})"
    read_rows = "" if types is not None else " (rows not read: no column types)"
    return f"row_file: {rf.num_rows} row(s) in {len(rf.blocks)} block(s), {len(data)} bytes{read_rows}"


LAYOUT = Layout(NAME, KIND, "Row data file (.row)", detect, inspect, encode, validate, describe, case_types)
