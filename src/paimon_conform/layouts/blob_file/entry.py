"""Layout `blob_file`: the `.blob` data file of a BLOB column (Paimon 1.4+), and of the ARRAY<BLOB> and
MAP<K, BLOB> columns of Paimon 2.0, whose rows nest their own framing. The column's type is given like a
row file's (`--types '[{"name": "b", "type": {"type": "ARRAY", "element": "BLOB"}}]'`, a case's `fields`);
without it, rows are read as plain BLOBs."""

from __future__ import annotations

from typing import Any

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, EncodeError, LayoutError, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.layouts.base import PARSE_BYTES, Layout, case_header, fault_key, parse_fits
from paimon_conform.layouts.blob_file import codec, elements
from paimon_conform.layouts.blob_file.elements import BLOB, ElementType

NAME = "blob_file"
READERS = between("1.4")  # Java reads BLOB columns from 1.4.1 on
ELEMENT_READERS = between("2.0")  # ARRAY<BLOB> / MAP<K, BLOB> in .blob files: Java 2.0.0 (#8181, #8635)
KIND = "blob-file"
# Java's reader finds rows through the index and reads payloads without checking these (BlobFormatReader).
UNCHECKED_BY_JAVA = frozenset({"BLOB_BAD_MAGIC", "BLOB_RECORD_LENGTH_MISMATCH", "BLOB_CRC_MISMATCH"})
# Checked by the codec only (the spec frames the keys, it does not read them).
CODEC_ONLY = frozenset({"BLOB_MAP_BAD_KEY", "BLOB_MAP_KEY_NOT_UTF8", "BLOB_MAP_DUPLICATE_KEY"})
ELEMENT_PREFIXES = ("BLOB_ARRAY_", "BLOB_MAP_", "BLOB_ELEMENT_")
JAVA_SAYS = {
    "BLOB_MAP_DUPLICATE_KEY": "Java 2.0.0 keeps the last value of a repeated key (the row reads back with fewer "
    "entries than were written); Java after 2.0.0 refuses the payload",
    "BLOB_MAP_BAD_KEY": "Java after 2.0.0 refuses the key (Java 2.0.0 reads no key of this type at all)",
    "BLOB_MAP_KEY_NOT_UTF8": "Java keeps the bytes as a BinaryString; readers in other languages fail on them",
}


def detect(data: bytes) -> bool:
    """A blob file with at least one record: the record magic first, version 1 last."""
    return len(data) >= codec.MIN_RECORD + codec.FOOTER and data[:4] == codec.MAGIC_BYTES and data[-1] == codec.VERSION


def element_type_of(types: Any) -> ElementType:
    """The column's element type from the types given (one column: {name: type}, a type, None for BLOB)."""
    if types is None:
        return BLOB
    if isinstance(types, ElementType):
        return types
    if isinstance(types, dict):
        if len(types) != 1:
            raise UsageError(f"a .blob file holds one column; {len(types)} types were given")
        types = next(iter(types.values()))
    return elements.element_type(types)


def case_types(case: dict[str, Any]) -> dict[str, Any] | None:
    """The column type a case states in `fields` (None: a plain BLOB column)."""
    fields = case.get("fields")
    return {f["name"]: f["type"] for f in fields} if fields else None


def _spec(data: bytes, etype: ElementType) -> Any:
    """The spec's parse tree for the column's element type."""
    from paimon_layouts.blob_file import BlobFile as Parser
    from paimon_layouts.debug.blob_file import BlobFile as Debug

    kind, width = etype.spec_params()
    return structure.parse(NAME, data, lambda io: Parser(kind, width, io), lambda io: Debug(kind, width, io))


def _hex(data: bytes | None) -> str | None:
    return None if data is None else data.hex()


def _framed_case(payload: bytes, etype: ElementType, frame: Any) -> dict[str, Any]:
    """An ARRAY row's `elements` or a MAP row's `entries`, from the spec's tree of its payload."""
    if etype.kind == "array":
        blobs = _slices(payload, elements.HEADER, [e.value for e in frame.index.entries])
        return {"elements": [_hex(b) for b in blobs]}
    keys = _slices(payload, elements.HEADER, [e.value for e in frame.key_index.entries])
    values = _slices(payload, elements.HEADER + frame.len_keys, [e.value for e in frame.value_index.entries])
    assert etype.key is not None
    return {
        "entries": [
            {"key": None if k is None else elements.key_json(etype.key, k), "value": _hex(v)}
            for k, v in zip(keys, values, strict=True)
        ]
    }


def _slices(payload: bytes, at: int, lengths: list[int]) -> list[bytes | None]:
    """Elements laid back to back from `at` (-1: NULL, no bytes)."""
    out: list[bytes | None] = []
    for n in lengths:
        out.append(None if n == elements.NULL else payload[at : at + n])
        at += max(n, 0)
    return out


def _row_case(slot: Any, etype: ElementType) -> dict[str, Any]:
    """One row of the case, from a record slot of the spec's parse tree."""
    if slot.is_null:
        return {"null": True}
    if slot.is_placeholder:
        return {"placeholder": True}
    row = {"offset": slot.entry.ofs_record, "length": slot.entry.len_record}
    if etype.kind == "blob":
        return row | {"data": slot.record.payload.hex()}
    return row | _framed_case(slot.record.payload, etype, slot.record.elements)


def _fields(etype: ElementType) -> dict[str, Any]:
    """The case's `fields` for a column that is not a plain BLOB."""
    if etype.kind == "blob":
        return {}
    raw: Any = {"type": "ARRAY", "element": "BLOB"}
    if etype.kind == "map":
        raw = {"type": "MAP", "key": str(etype.key), "value": "BLOB"}
    return {"fields": [{"name": "blob", "type": raw}]}


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes: one entry per row, read by the spec's parser (map keys checked by the
    codec, which raises their first fault)."""
    etype = element_type_of(types)
    parse_fits(data, NAME)
    obj = _spec(data, etype)
    if etype.key is not None:
        rows = codec.load(data)
        faults = [e for e in codec.record_faults(data, rows, etype) if e.code in CODEC_ONLY]
        if faults:
            raise faults[0]
    rows_case = [_row_case(s, etype) for s in obj.records]
    return case_header(KIND) | _fields(etype) | {"version": codec.VERSION, "rows": rows_case}


def _row_value(row: dict[str, Any], i: int, etype: ElementType) -> codec.Value:
    """One row's value from the case."""
    if row.get("null"):
        return None
    if row.get("placeholder"):
        return codec.PLACEHOLDER
    try:
        if etype.kind == "blob" and "data" in row:
            return bytes.fromhex(row["data"])
        if etype.kind == "array" and "elements" in row:
            return [None if e is None else bytes.fromhex(e) for e in row["elements"]]
        if etype.kind == "map" and "entries" in row and etype.key is not None:
            return [
                (elements.key_from_json(etype.key, e["key"]), None if e["value"] is None else bytes.fromhex(e["value"]))
                for e in row["entries"]
            ]
    except EncodeError as exc:
        raise CaseError(f"rows[{i}]: {exc}") from None
    need = {"blob": "data", "array": "elements", "map": "entries"}[etype.kind]
    raise CaseError(f"rows[{i}] of a {etype} column needs {need}, null or placeholder")


def row_values(case: dict[str, Any]) -> list[codec.Value]:
    """The row values a case lists."""
    etype = element_type_of(case_types(case))
    return [_row_value(row, i, etype) for i, row in enumerate(case["rows"])]


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes (stated offsets and lengths must be the ones Java writes)."""
    etype = element_type_of(case_types(case))
    data = codec.encode(row_values(case), etype)
    for i, (row, stated) in enumerate(zip(codec.load(data), case["rows"], strict=True)):
        for key in ("offset", "length"):
            if key in stated and stated[key] != getattr(row, key):
                raise CaseError(f"rows[{i}].{key} is {stated[key]}; Java writes {getattr(row, key)}")
    return data


def finding(err: LayoutError, file: str = "") -> Finding:
    """A finding for a fault: must, or should for what Java's reader does not check."""
    f = Finding.from_error(err, file)
    element = err.code.startswith(ELEMENT_PREFIXES)
    f.java_releases, f.otherwise = (ELEMENT_READERS if element else READERS), None  # older: no such columns
    if err.code in UNCHECKED_BY_JAVA:
        f.severity = "should"
        f.message += "; Java's reader reads rows through the index and does not check it, so it returns the bytes"
    elif isinstance(err, codec.UnownedBytes) and not err.holds_record:
        f.severity = "should"
        f.message += (
            "; Java 1.4.2 and 2.0.0 (run here) read the rows through the index and ignore the bytes no row owns,"
            " so every row reads back as written"
        )
    elif err.code == "BLOB_MAP_KEY_NOT_UTF8":
        f.severity = "should"
    if err.code in JAVA_SAYS:
        f.message += f" ({JAVA_SAYS[err.code]})"
    return f


def key_type_findings(etype: ElementType, file: str = "", path: str = "") -> list[Finding]:
    """A MAP<K, BLOB> column whose key type Java 2.0.0 cannot read (MapBlobElementSerializer: 'Unsupported key
    type'); the types merged after 2.0.0 are named as such."""
    if etype.key is None or etype.key.root in elements.KEYS_2_0:
        return []
    later = etype.key.root in elements.KEYS_AFTER_2_0
    msg = f"MAP<{etype.key}, BLOB>: Java 2.0.0 reads MAP<K, BLOB> keys of TINYINT, SMALLINT, INT, BIGINT, CHAR and "
    msg += "VARCHAR only ('Unsupported key type')"
    msg += "; Java after 2.0.0 also reads this key type" if later else "; no Java release reads this key type"
    return [Finding("BLOB_MAP_KEY_TYPE", "must", path, None, msg, file, java_releases=ELEMENT_READERS, otherwise=None)]


def faults(data: bytes | codec.Source, etype: ElementType = BLOB) -> tuple[list[codec.Row] | None, list[LayoutError]]:
    """The rows (None when the index is unusable) and every fault, in the order the spec meets them."""
    try:
        rows = codec.load(data)
    except LayoutError as err:
        return None, [err]
    return rows, codec.record_faults(data, rows, etype)


def placeholder_findings(rows: list[codec.Row] | None, file: str = "") -> list[Finding]:
    """Placeholder rows (length -2): Java 1.4.2 fails reading them (BlobFormatReader reads a record of
    length -18: NegativeArraySizeException, run here); Java 2.0.0 reads them as placeholders."""
    held = [i for i, r in enumerate(rows or ()) if r.length == codec.PLACEHOLDER_LENGTH]
    if not held:
        return []
    msg = (
        f"{len(held)} placeholder row(s) (length -2, first row {held[0]}): Java 1.4 fails reading the file "
        "(NegativeArraySizeException); Java 2.0 reads them"
    )
    return [
        Finding(
            "BLOB_PLACEHOLDER_NEEDS_2_0",
            "must",
            "index",
            None,
            msg,
            file,
            java_releases=between("1.4", "1.4"),
            otherwise=None,
        )
    ]


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every fault of the file; the spec's parser, when the file fits its budget, must meet the same first one."""
    etype = element_type_of(types)
    rows, errs = faults(data, etype)
    findings = key_type_findings(etype) + [finding(e) for e in errs] + placeholder_findings(rows)
    if not budget.fits(PARSE_BYTES * len(data)):
        return findings
    try:
        obj = _spec(data, etype)
        first = None
    except LayoutError as err:
        obj, first = None, fault_key(err)
    framed = [e for e in errs if e.code not in CODEC_ONLY]
    ours = fault_key(framed[0]) if framed else None
    agree = first == ours and (
        obj is None
        or rows is None
        or [(s.entry.ofs_record, s.entry.len_record) for s in obj.records] == [(r.offset, r.length) for r in rows]
    )
    if not agree:
        msg = f"the spec's parser meets {first}, the fast reader {ours}"
        findings.append(Finding("BLOB_DECODERS_DISAGREE", "must", "", None, msg))
    return findings


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    etype = element_type_of(types)
    rows = codec.load(data)
    nulls = sum(r.length == codec.NULL_LENGTH for r in rows)
    holes = sum(r.length == codec.PLACEHOLDER_LENGTH for r in rows)
    payload = sum(r.length - codec.MIN_RECORD for r in rows if r.has_record)
    column = "" if etype.kind == "blob" else f" of {etype}"
    return f"blob_file{column}: {len(rows)} row(s), {nulls} NULL, {holes} placeholder(s), {payload} payload byte(s)"


LAYOUT = Layout(NAME, KIND, "BLOB data file (.blob)", detect, inspect, encode, validate, describe, case_types)
