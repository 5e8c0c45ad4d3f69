"""Layout `blob_file`: the `.blob` data file of a BLOB column (Paimon 1.4+)."""

from __future__ import annotations

from typing import Any

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.layouts.base import PARSE_BYTES, Layout, case_header, fault_key, parse_fits
from paimon_conform.layouts.blob_file import codec

NAME = "blob_file"
READERS = between("1.4")  # Java reads BLOB columns from 1.4.1 on
KIND = "blob-file"
# Java's reader finds rows through the index and reads payloads without checking these (BlobFormatReader).
UNCHECKED_BY_JAVA = frozenset({"BLOB_BAD_MAGIC", "BLOB_RECORD_LENGTH_MISMATCH", "BLOB_CRC_MISMATCH"})


def detect(data: bytes) -> bool:
    """A blob file with at least one record: the record magic first, version 1 last."""
    return len(data) >= codec.MIN_RECORD + codec.FOOTER and data[:4] == codec.MAGIC_BYTES and data[-1] == codec.VERSION


def _row_case(slot: Any) -> dict[str, Any]:
    """One row of the case, from a record slot of the spec's parse tree."""
    if slot.is_null:
        return {"null": True}
    if slot.is_placeholder:
        return {"placeholder": True}
    return {"offset": slot.entry.ofs_record, "length": slot.entry.len_record, "data": slot.record.payload.hex()}


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes: one entry per row, read by the spec's parser."""
    parse_fits(data, NAME)
    obj = structure.parse(NAME, data)
    return case_header(KIND) | {"version": codec.VERSION, "rows": [_row_case(s) for s in obj.records]}


def row_values(case: dict[str, Any]) -> list[codec.Value]:
    """The row values a case lists."""
    out: list[codec.Value] = []
    for i, row in enumerate(case["rows"]):
        if row.get("null"):
            out.append(None)
        elif row.get("placeholder"):
            out.append(codec.PLACEHOLDER)
        elif "data" in row:
            out.append(bytes.fromhex(row["data"]))
        else:
            raise CaseError(f"rows[{i}] needs data, null or placeholder")
    return out


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes (stated offsets and lengths must be the ones Java writes)."""
    data = codec.encode(row_values(case))
    for i, (row, stated) in enumerate(zip(codec.load(data), case["rows"], strict=True)):
        for key in ("offset", "length"):
            if key in stated and stated[key] != getattr(row, key):
                raise CaseError(f"rows[{i}].{key} is {stated[key]}; Java writes {getattr(row, key)}")
    return data


def finding(err: LayoutError, file: str = "") -> Finding:
    """A finding for a fault: must, or should for what Java's reader does not check."""
    f = Finding.from_error(err, file)
    f.java_releases, f.otherwise = READERS, None  # older releases know no BLOB type at all
    if err.code in UNCHECKED_BY_JAVA:
        f.severity = "should"
        f.message += "; Java's reader reads rows through the index and does not check it, so it returns the bytes"
    return f


def faults(data: bytes | codec.Source) -> tuple[list[codec.Row] | None, list[LayoutError]]:
    """The rows (None when the index is unusable) and every fault, in the order the spec meets them."""
    try:
        rows = codec.load(data)
    except LayoutError as err:
        return None, [err]
    return rows, codec.record_faults(data, rows)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every fault of the file; the spec's parser, when the file fits its budget, must meet the same first one."""
    rows, errs = faults(data)
    findings = [finding(e) for e in errs]
    if not budget.fits(PARSE_BYTES * len(data)):
        return findings
    try:
        obj = structure.parse(NAME, data)
        first = None
    except LayoutError as err:
        obj, first = None, fault_key(err)
    ours = fault_key(errs[0]) if errs else None
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
    rows = codec.load(data)
    nulls = sum(r.length == codec.NULL_LENGTH for r in rows)
    holes = sum(r.length == codec.PLACEHOLDER_LENGTH for r in rows)
    payload = sum(r.length - codec.MIN_RECORD for r in rows if r.has_record)
    return f"blob_file: {len(rows)} row(s), {nulls} NULL, {holes} placeholder(s), {payload} payload byte(s)"


LAYOUT = Layout(NAME, KIND, "BLOB data file (.blob)", detect, inspect, encode, validate, describe)
