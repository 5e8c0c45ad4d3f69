"""Layout `file_index`: the file-index container (FileIndexFormat, version 1).

The container records column names only; payloads whose keys are typed
(bitmap, range-bitmap, bsi) are decoded when the caller passes the column
types (`types={"col": DataType}`), and otherwise shown as hex. The same bytes
are a `<data file>.index` file or a manifest's `_EMBEDDED_FILE_INDEX`.
"""

from __future__ import annotations

import struct
from itertools import pairwise
from typing import Any

from paimon_conform.core import structure
from paimon_conform.core.errors import CaseError, EncodeError, LayoutError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.core.java_releases import RELEASES
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.layouts.base import Layout, case_header, parse_fits
from paimon_conform.layouts.bitmap_index import entry as bitmap_index
from paimon_conform.layouts.bloom_filter import entry as bloom_filter
from paimon_conform.layouts.bsi import entry as bsi
from paimon_conform.layouts.range_bitmap import entry as range_bitmap

NAME = "file_index"
KIND = "file-index"
MAGIC = 1493475289347502
MAGIC_BYTES = MAGIC.to_bytes(8, "big")
EMPTY_START = -1
KNOWN_INDEXES = ("bloom-filter", "bitmap", "bsi", "range-bitmap")
TYPED_PAYLOADS = {"bitmap": bitmap_index, "range-bitmap": range_bitmap, "bsi": bsi}  # keys typed by the column


def detect(data: bytes) -> bool:
    """Whether the bytes start with the container magic."""
    return data[:8] == MAGIC_BYTES


def java_utf(text: str) -> bytes:
    """DataOutputStream.writeUTF: u2be length + modified UTF-8."""
    out = bytearray()
    raw = text.encode("utf-16-be", "surrogatepass")
    for unit in struct.unpack(f">{len(raw) // 2}H", raw):
        if 0 < unit < 0x80:
            out.append(unit)
        elif unit < 0x800:
            out += bytes((0xC0 | unit >> 6, 0x80 | unit & 0x3F))
        else:
            out += bytes((0xE0 | unit >> 12, 0x80 | (unit >> 6) & 0x3F, 0x80 | unit & 0x3F))
    if len(out) > 0xFFFF:
        raise EncodeError(f"name too long for writeUTF: {len(out)} bytes")
    return struct.pack(">H", len(out)) + bytes(out)


def column_types(case: dict[str, Any]) -> dict[str, DataType]:
    """Column types a case states (`type` on its columns)."""
    stated = {c["name"]: c["type"] for c in case.get("columns", []) if "type" in c} | case.get("types", {})
    return {name: parse_type(text) for name, text in stated.items()}


def _payload_entry(entry, column_type: DataType | None) -> dict[str, Any]:
    if entry.is_empty:
        return {"empty": True}
    name = entry.index_type.value
    if name == "bloom-filter":
        return {"payload": bloom_filter.payload_case(entry.payload)}
    if name in TYPED_PAYLOADS and column_type is not None:
        payload = TYPED_PAYLOADS[name].payload_case(bytes(entry.payload), column_type)
        if payload is not None:
            return {"payload": payload}
    return {"payload_hex": bytes(entry.payload).hex()}


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing a container (typed payloads decoded when types are given)."""
    parse_fits(data, NAME)
    obj = structure.parse(NAME, data)
    raise_first_must(NAME, check(obj, len(data)))
    types = types if isinstance(types, dict) else {}
    columns = []
    for col in obj.columns:
        name = col.name.value
        entry: dict[str, Any] = {"name": name}
        if name in types:
            entry["type"] = str(types[name])
        entry["indexes"] = [
            {"index_type": e.index_type.value, "offset": e.ofs_payload, "length": e.len_payload}
            | _payload_entry(e, types.get(name))
            for e in col.indexes
        ]
        columns.append(entry)
    return case_header(KIND) | {"version": int(obj.version), "columns": columns}


def _payload_bytes(index: dict[str, Any], column: dict[str, Any]) -> bytes | None:
    if index.get("empty"):
        return None
    if "payload_hex" in index:
        return bytes.fromhex(index["payload_hex"])
    t = parse_type(column["type"]) if "type" in column else None
    if index["index_type"] == "bloom-filter":
        return bloom_filter.build_payload(
            index.get("payload", {}) | {"options": index.get("options", {})}, t, column.get("values")
        )
    if index["index_type"] in TYPED_PAYLOADS:
        if t is None:
            raise CaseError(f"column {column['name']}: a {index['index_type']} payload needs the column's type")
        return TYPED_PAYLOADS[index["index_type"]].build_payload(
            index.get("payload", {}) | {"options": index.get("options", {})}, t, column.get("values")
        )
    raise CaseError(f"column {column['name']}: no payload for index {index['index_type']!r}")


def write(columns: list[tuple[str, list[tuple[str, bytes | None]]]]) -> bytes:
    """The container FileIndexFormat.Writer writes for (column, [(index name, payload)]) in order."""
    head = bytearray()
    body = bytearray()
    entries = []
    for column, indexes in columns:
        items = []
        for index_name, payload in indexes:
            if payload is None:
                items.append((index_name, EMPTY_START, 0))
            else:
                items.append((index_name, len(body), len(payload)))
                body += payload
        entries.append((column, items))
    head_len = 24 + sum(len(java_utf(c)) + 4 + sum(len(java_utf(n)) + 8 for n, _, _ in items) for c, items in entries)
    head += MAGIC_BYTES + struct.pack(">iii", 1, head_len, len(entries))
    for column, items in entries:
        head += java_utf(column) + struct.pack(">i", len(items))
        for index_name, start, length in items:
            head += java_utf(index_name) + struct.pack(
                ">ii", start if start == EMPTY_START else head_len + start, length
            )
    head += struct.pack(">i", 0)
    assert len(head) == head_len
    return bytes(head + body)


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes; stated offsets and lengths must agree."""
    if case.get("version", 1) != 1:
        raise CaseError("only container version 1 can be written")
    columns = [(c["name"], [(i["index_type"], _payload_bytes(i, c)) for i in c["indexes"]]) for c in case["columns"]]
    data = write(columns)
    obj = structure.parse(NAME, data)
    for c, col in zip(case["columns"], obj.columns, strict=True):
        for i, e in zip(c["indexes"], col.indexes, strict=True):
            for key, got in (("offset", e.ofs_payload), ("length", e.len_payload)):
                if key in i and i[key] != got:
                    raise CaseError(
                        f"column {c['name']} index {i['index_type']}: case says {key} {i[key]}, "
                        f"the encoding gives {got}"
                    )
    return data


def check(obj, size: int) -> list[Finding]:
    """Library findings: overlapping payloads, gaps, unknown index names."""
    field_offsets: dict[str, int] = {}
    findings: list[Finding] = []
    spans = []
    pos = 20  # magic, version, head length, column count
    for ci, col in enumerate(obj.columns):
        pos += 2 + col.name.len_body + 4
        for ii, e in enumerate(col.indexes):
            path = f"columns[{ci}].indexes[{ii}]"
            pos += 2 + e.index_type.len_body
            field_offsets[path] = pos  # of ofs_payload
            pos += 8
            if e.index_type.value not in KNOWN_INDEXES:
                findings.append(
                    Finding(
                        "FILE_INDEX_UNKNOWN_INDEX",
                        "warning",
                        f"{path}.index_type",
                        None,
                        f"unknown index {e.index_type.value!r}; its payload is kept as raw bytes",
                    )
                )
            if not e.is_empty and e.len_payload > 0:
                spans.append((e.ofs_payload, e.ofs_payload + e.len_payload, path))
    spans.sort()
    for (a0, a1, pa), (b0, _, pb) in pairwise(spans):
        if b0 < a1:
            findings.append(
                Finding(
                    "FILE_INDEX_PAYLOADS_OVERLAP",
                    "must",
                    f"{pb}.ofs_payload",
                    field_offsets[pb],
                    f"payload at {b0} starts inside the payload of {pa} ({a0}..{a1})",
                )
            )
    covered = sum(b - a for a, b, _ in spans)
    if not any(f.severity == "must" for f in findings) and covered != size - obj.len_head:
        findings.append(
            Finding(
                "FILE_INDEX_BODY_NOT_COVERED",
                "should",
                "",
                obj.len_head,
                f"payloads cover {covered} of the {size - obj.len_head} body bytes; Java writes them back to back",
            )
        )
    return findings


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Structure findings, container checks, and typed payloads' findings when types are given."""
    parse_fits(data, NAME)
    try:
        obj = structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    findings = check(obj, len(data))
    types = types if isinstance(types, dict) else {}
    if any(f.severity == "must" for f in findings):
        return findings
    for ci, col in enumerate(obj.columns):
        t = types.get(col.name.value)
        for ii, e in enumerate(col.indexes):
            if not e.is_empty:
                findings += _needs_release(e.index_type.value, data[e.ofs_payload : e.ofs_payload + 1], ci, ii, e)
                if e.index_type.value == "bitmap" and t is not None and t.root == "BOOLEAN":
                    findings.append(_boolean_bitmap(ci, ii, e))
            if t is None or e.is_empty or e.index_type.value not in TYPED_PAYLOADS:
                continue
            payload = data[e.ofs_payload : e.ofs_payload + e.len_payload]
            for f in TYPED_PAYLOADS[e.index_type.value].validate(payload, t):
                f.path = f"columns[{ci}].indexes[{ii}].payload.{f.path}".rstrip(".")
                f.offset = None if f.offset is None else e.ofs_payload + f.offset
                findings.append(f)
    return findings


# The first release whose reader knows an index payload (older ones fail a query filtering on the column:
# "Can't find file index for type" / "your plugin version is lower than 2"): BSI apache/paimon#4464 (1.0.0),
# bitmap V2 #5028 (1.1.0, the writer's default from then on; Java 0.9.0 and the 1.0-SNAPSHOT jar fail on
# pypaimon-rust's, conformance/test_type_matrix_peers.py), range-bitmap #5940 (1.3.0).
READER_SINCE = {"bsi": "1.0", "range-bitmap": "1.3"}
BITMAP_V2_SINCE = "1.1"


def _before(release: str) -> tuple[str, ...]:
    """The release lines older than `release`."""
    return RELEASES[: RELEASES.index(release)]


def _needs_release(index_type: str, first: bytes, ci: int, ii: int, e: Any) -> list[Finding]:
    """A payload that Java releases before the one that introduced it cannot read (must for those only)."""
    since = READER_SINCE.get(index_type)
    what = index_type
    if index_type == "bitmap" and first[:1] == b"\x02":
        since, what = BITMAP_V2_SINCE, "bitmap version 2"
    if since is None:
        return []
    msg = f"a {what} index: Java before {since}.0 cannot read it and fails queries that filter on the column"
    return [
        Finding(
            "FILE_INDEX_NEEDS_NEWER_JAVA",
            "must",
            f"columns[{ci}].indexes[{ii}].payload",
            e.ofs_payload,
            msg,
            java_releases=_before(since),
            otherwise=None,
        )
    ]


def _boolean_bitmap(ci: int, ii: int, e: Any) -> Finding:
    """A bitmap index on BOOLEAN: Java before 1.1 cannot write one (ClassCastException, apache/paimon#5013) and
    misreads one (Java 0.9.0 and 1.0 skip every row of `k = true` on such an index, test_type_matrix_peers)."""
    msg = "a bitmap index on BOOLEAN: Java before 1.1.0 cannot write one and skips every row when filtering on it"
    return Finding(
        "FILE_INDEX_NEEDS_NEWER_JAVA",
        "must",
        f"columns[{ci}].indexes[{ii}].payload",
        e.ofs_payload,
        msg,
        java_releases=_before("1.1"),
        otherwise=None,
    )


def check_against_data(data: bytes, data_file: str, types: Any = None, table: Any = None) -> list[Finding]:
    """Findings of a container against the data file it indexes (Parquet or ORC).

    Column types come from `types` where given (the table schema: a data file
    may store TIMESTAMP(3) with ORC's nanosecond type), else from the data file.
    `table`: the data file's rows when the caller has read them already.
    """
    from paimon_conform.formats import paimon_columns

    check = AgainstData(data, data_file, types)
    table = paimon_columns.read_table(data_file) if table is None else table
    check.add(table, 0, table.num_rows)
    return check.findings()


class AgainstData:
    """A container against the data file it indexes, given window by window (`add(rows, start, file_rows)`):
    the container and its payloads decoded once, each payload checked against the rows of every window."""

    def __init__(self, data: bytes, data_file: str, types: Any = None) -> None:
        parse_fits(data, NAME)
        self.data, self.data_file = data, data_file
        self.obj = structure.parse(NAME, data)
        self.names = {c.name.value for c in self.obj.columns}
        self.types = types if isinstance(types, dict) else None
        self.bloom_only = {
            c.name.value
            for c in self.obj.columns
            if all(e.is_empty or e.index_type.value == "bloom-filter" for e in c.indexes)
        }
        self.slots: list[Any] | None = None  # per payload in container order: a PayloadCheck or a finding

    def add(self, table: Any, start: int, file_rows: int) -> None:
        """The rows of one window of the data file (`start`: its first row's number; `file_rows`: the file's)."""
        from paimon_conform.formats import paimon_columns
        from paimon_conform.layouts.file_index import against_data

        _, columns = paimon_columns.columns(self.data_file, self.names, table, self.bloom_only, self.types)
        if self.slots is None:
            self.slots = self._slots(columns, file_rows)
        for check, name in self.slots:
            if isinstance(check, against_data.PayloadCheck):
                check.add(columns[name][1], start)

    def _slots(self, columns: dict[str, Any], file_rows: int) -> list[tuple[Any, str]]:
        from paimon_conform.layouts.file_index import against_data

        slots: list[tuple[Any, str]] = []
        for ci, col in enumerate(self.obj.columns):
            name = col.name.value
            for ii, e in enumerate(col.indexes):
                path = f"columns[{ci}].indexes[{ii}]"
                if e.is_empty:
                    continue
                if name not in columns:
                    slots.append((against_data.missing_column(path, name, self.data_file), name))
                    break
                t = columns[name][0]
                t = self.types.get(name, t) if self.types is not None else t
                payload = self.data[e.ofs_payload : e.ofs_payload + e.len_payload]
                check = against_data.PayloadCheck(
                    e.index_type.value, payload, t, f"{path}.payload", e.ofs_payload, file_rows
                )
                slots.append((check, name))
        return slots

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for check, _ in self.slots or []:
            out += [check] if isinstance(check, Finding) else check.findings()
        return out


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary: one line per index."""
    parse_fits(data, NAME)
    obj = structure.parse(NAME, data)
    lines = [f"file_index: version {int(obj.version)}, head {obj.len_head} bytes, {len(obj.columns)} column(s)"]
    types = types if isinstance(types, dict) else {}
    for col in obj.columns:
        for e in col.indexes:
            where = "empty" if e.is_empty else f"@{e.ofs_payload} +{e.len_payload}"
            note = ""
            if not e.is_empty and e.index_type.value == "bloom-filter":
                note = f": k={e.payload.num_hash_functions}, {e.payload.num_bits} bits"
            elif not e.is_empty and e.index_type.value in TYPED_PAYLOADS:
                t = types.get(col.name.value)
                if t is None:
                    note = ": keys not decoded (their type is the column's: pass --types or --data)"
                else:
                    payload = data[e.ofs_payload : e.ofs_payload + e.len_payload]
                    note = ": " + TYPED_PAYLOADS[e.index_type.value].describe(payload, t).split(": ", 1)[1]
            elif not e.is_empty and e.index_type.value not in KNOWN_INDEXES:
                note = ": unknown index, raw bytes"
            lines.append(f"  {col.name.value}: {e.index_type.value} {where}{note}")
    return "\n".join(lines)


LAYOUT = Layout(NAME, KIND, "File-index container", detect, inspect, encode, validate, describe, column_types)
