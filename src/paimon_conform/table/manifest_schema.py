"""Check the Avro writer schema of a metadata file against Java's record layout
(specs/table_layout.yaml, `metadata_records`).

Released Java readers (0.9-2.0) decode with the file's writer schema and match fields by
name (AvroRowDatumReader), so these are should-findings (Java reads them, but would not have
written them): `_VERSION` not first and fields out of Java's order (what pypaimon-rust wrote,
apache/paimon-rust#741, #742; only master's new manifest reader after 2.0.0, apache/paimon#9160
and #9182, refuses them), a NOT NULL field or array items written as a union with null
(`_FILE` included) and a top-level union (Java 0.8's form before apache/paimon#3962), array
items declared NOT NULL where Java's are nullable. Must-findings: a union with null in the
second branch (misread by every release up to 2.0.0, fixed after it by apache/paimon#9418),
another Avro type for a field (an int written as long fails with ClassCastException), and a
required field missing. Java 0.9.0 and the 1.0-SNAPSHOT jar read and fail exactly so
(conformance/test_java_verdicts.py).
"""

from __future__ import annotations

from typing import Any

from paimon_conform.core.findings import Finding, Severity
from paimon_conform.table import table_layout as tl
from paimon_conform.table.metadata import RecordFile

MASTER_ORDER = (
    "; released readers match fields by name, Java's manifest reader after 2.0.0 (apache/paimon#9160) "
    "expects Java's order"
)
AVRO_TYPES = {"int": "int", "long": "long", "string": "string", "bytes": "bytes"}


def _resolve(t: Any, named: dict[str, Any]) -> Any:
    """Follow a named-type reference; remember named records for later references."""
    if isinstance(t, str) and t in named:
        return named[t]
    if isinstance(t, dict) and t.get("type") in ("record", "enum", "fixed") and "name" in t:
        named[t["name"]] = t
    return t


def _split_null(t: Any) -> tuple[Any, bool]:
    """(inner type, nullable) of a field type; a union with "null" is nullable."""
    if isinstance(t, list):
        inner = [x for x in t if x != "null"]
        return (inner[0] if len(inner) == 1 else t), len(inner) != len(t)
    return t, False


def _null_second(t: Any) -> bool:
    return isinstance(t, list) and "null" in t and t[0] != "null"


Problems = list[tuple[Severity, str]]


def _describe(t: Any) -> str:
    if isinstance(t, dict):
        if "logicalType" in t:
            return f"{t.get('type')}/{t['logicalType']}"
        return str(t.get("type"))
    return str(t)


def _type_problem(t: Any, want: Any, path: str, named: dict[str, Any], out: Problems) -> None:
    """Append a message when Avro type `t` is not the spec's type `want`."""
    t = _resolve(t, named)
    if isinstance(want, dict):
        if not (isinstance(t, dict) and t.get("type") == "array"):
            out.append(("must", f"{path}: is {_describe(t)}, Java writes an array"))
            return
        items, nullable = _split_null(_resolve(t.get("items"), named))
        if nullable != bool(want.get("nullable_items", False)):
            out.append(("should", f"{path}: array items are {'nullable' if nullable else 'NOT NULL'} unlike Java's"))
        _type_problem(items, want["array"], f"{path}[]", named, out)
        return
    if want == "timestamp_millis":
        if not (isinstance(t, dict) and t.get("type") == "long" and t.get("logicalType") == "timestamp-millis"):
            out.append(("must", f"{path}: is {_describe(t)}, Java writes long/timestamp-millis"))
        return
    if want in AVRO_TYPES:
        base = t.get("type") if isinstance(t, dict) and "logicalType" not in t else t
        if base != AVRO_TYPES[want]:
            out.append(("must", f"{path}: is {_describe(t)}, Java writes {want}"))
        return
    if not (isinstance(t, dict) and t.get("type") == "record"):
        out.append(("must", f"{path}: is {_describe(t)}, Java writes a record ({want})"))
        return
    _record_problems(t, want, path, named, out)


def _record_problems(record: dict, kind: str, path: str, named: dict[str, Any], out: Problems) -> None:
    spec = tl.spec()["metadata_records"][kind]["fields"]
    fields = record.get("fields") or []
    names = [f.get("name") for f in fields if isinstance(f, dict)]
    order = {f["name"]: i for i, f in enumerate(spec)}
    at = f"{path}." if path else ""
    if spec[0]["name"] not in (names[:1] or [None]) and spec[0]["name"] in names:
        msg = f"{at}{spec[0]['name']}: is field {names.index(spec[0]['name'])}, Java writes it first"
        out.append(("should", f"{msg}{MASTER_ORDER}"))
    known = [n for n in names if n in order]
    if known != sorted(known, key=order.__getitem__):
        msg = f"{path or 'record'}: fields in the order {known}, Java's order is {[f['name'] for f in spec]}"
        out.append(("should", f"{msg}{MASTER_ORDER}"))
    by_name = {f.get("name"): f for f in fields if isinstance(f, dict)}
    for want in spec:
        name = want["name"]
        if name not in by_name:
            if not want.get("nullable"):
                out.append(("must", f"{at}{name}: missing; Java requires it"))
            continue
        raw = by_name[name].get("type")
        inner, nullable = _split_null(raw)
        if _null_second(raw):
            out.append(("must", f"{at}{name}: a union with null second; Java readers before apache/paimon#9418 fail"))
        if nullable and not want.get("nullable"):
            out.append(("should", f"{at}{name}: written as a union with null; Java declares it NOT NULL"))
        _type_problem(inner, want["type"], f"{at}{name}", named, out)


def check(rf: RecordFile, kind: str, file: str) -> list[Finding]:
    """MANIFEST_SCHEMA findings for an Avro metadata file of `kind` (a metadata_records name)."""
    if rf.format != "avro":
        return []
    named: dict[str, Any] = {}
    schema, nullable = _split_null(_resolve(rf.schema, named))
    problems: Problems = []
    if nullable:
        problems.append(("should", "the top-level schema is a union with null (Java 0.8's form); Java writes a record"))
    if not (isinstance(schema, dict) and schema.get("type") == "record"):
        problems.append(("must", f"the top-level schema is {_describe(schema)}, Java writes a record"))
    else:
        _record_problems(schema, kind, "", named, problems)
    return [Finding("MANIFEST_SCHEMA", sev, "schema", None, p, file) for sev, p in problems]


def fields_present(rf: RecordFile, kind: str) -> list[tuple[str, str]]:
    """(field path, since) of each field with a first release that the file's Avro writer schema carries."""
    named: dict[str, Any] = {}
    schema, _ = _split_null(_resolve(rf.schema, named))
    out: list[tuple[str, str]] = []
    if rf.format == "avro" and isinstance(schema, dict):
        _present(schema, kind, "", named, out, 0)
    return out


def _present(record: dict, kind: str, at: str, named: dict[str, Any], out: list, depth: int) -> None:
    records = tl.spec()["metadata_records"]
    by_name = {f.get("name"): f for f in record.get("fields") or [] if isinstance(f, dict)}
    for want in records[kind]["fields"]:
        f = by_name.get(want["name"])
        if f is None:
            continue
        if "since" in want:
            out.append((f"{at}{want['name']}", want["since"]))
        inner, _ = _split_null(_resolve(f.get("type"), named))
        if isinstance(want["type"], str) and want["type"] in records and isinstance(inner, dict) and depth < 4:
            _present(inner, want["type"], f"{at}{want['name']}.", named, out, depth + 1)


def check_versions(rf: RecordFile, kind: str, file: str) -> list[Finding]:
    """MANIFEST_VERSION: a record whose `_VERSION` is not its kind's format identifier (one finding per file)."""
    want = tl.spec()["metadata_records"][kind].get("version")
    if want is None:
        return []
    bad = [i for i, r in enumerate(rf.records) if isinstance(r, dict) and r.get("_VERSION", want) != want]
    if not bad:
        return []
    got = rf.records[bad[0]].get("_VERSION")
    hint = '; version 1 is Paimon before 0.5 ("please recreate the table")' if got == 1 and want == 2 else ""
    msg = (
        f"_VERSION is {got!r} in {len(bad)} of {len(rf.records)} records (first: record {bad[0]}); Java writes {want} "
        f'and every release refuses another value ("Unsupported version"){hint}'
    )
    return [Finding("MANIFEST_VERSION", "must", f"entries[{bad[0]}]._VERSION", None, msg, file)]
