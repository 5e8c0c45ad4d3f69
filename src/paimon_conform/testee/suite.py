"""The cases a testee is run on, from the golden corpus: each valid file decoded (to its sidecar's content)
and encoded (to its bytes), each must-reject file decoded (to an error), each Java-written BinaryRow key
hashed (to Java's row bytes, hashCode and buckets), each golden table read (to the rows Java read from it);
each valid index file queried with predicates drawn from a fixed seed (to the kit's answer, `queries`);
and one write of each table kind of `tables` (to a table the kit validates and reads back as the model)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paimon_conform.core import cases
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.golden import sidecars
from paimon_conform.layouts.registry import LAYOUTS
from paimon_conform.testee import queries, tables

TYPE_KEYS = ("type", "types", "fields", "columns")  # the case keys that state column types
NOT_SENT = ("provenance", "notes", "java_reader", "data_file")  # annotations a testee never needs


@dataclass(frozen=True)
class Case:
    """One exchange: `request` (without its id) and what passes: a case's content, bytes, or an error."""

    id: str
    op: str
    kind: str
    request: dict[str, Any]
    expect: str  # "content", "bytes", "error", "hash", "query", "rows" (read-table) or "table" (write-table)
    expected: Any = None
    source: str | None = None  # read-table: the golden table directory, copied for the testee to read


OPS = ("decode", "encode", "hash", "query", "read-table", "write-table")


def golden_cases(root: Path, ops: tuple[str, ...] = OPS, kinds: list[str] | None = None) -> list[Case]:
    """The cases of every layout file under a golden root (tables and bucket sequences are not layout files),
    of the given kinds only when `kinds` names some."""
    out: list[Case] = []
    if "read-table" in ops and (not kinds or "table" in kinds):
        out += _read_table_cases(root)
    if "write-table" in ops:
        out += [_write_table_case(k) for k in tables.KINDS.values() if not kinds or k.name in kinds]
    for sidecar in sidecars(root):
        try:
            case = json.loads(sidecar.read_text())
            kind = case.get("kind")
            if kind not in LAYOUTS or (kinds and kind not in kinds):
                continue
            cases.check(case)
        except (PaimonConformError, ValueError, AttributeError):
            continue  # the corpus check reports a broken sidecar
        name = str(sidecar.relative_to(root).with_suffix(""))
        data = sidecar.with_suffix(".bin").read_bytes()
        types = {k: case[k] for k in TYPE_KEYS if k in case}
        decode = {"op": "decode", "kind": kind, "data": data.hex()} | ({"types": types} if types else {})
        if "must_reject" in case:
            if "decode" in ops:
                out.append(Case(f"decode:{name}", "decode", kind, decode, "error", case["must_reject"]))
            continue
        if "decode" in ops:
            out.append(Case(f"decode:{name}", "decode", kind, decode, "content", cases.content(case)))
        if "encode" in ops:
            sent = {k: v for k, v in case.items() if k not in NOT_SENT}
            out.append(Case(f"encode:{name}", "encode", kind, {"op": "encode", "case": sent}, "bytes", data.hex()))
        if "hash" in ops and kind == "binary-row" and "hash" in case and "buckets" in case:
            out.append(_hash_case(name, case, data))
        if "query" in ops and kind in queries.KINDS:
            out += _query_cases(name, case, data)
    return out


def _query_cases(name: str, case: dict[str, Any], data: bytes) -> list[Case]:
    """An index file's predicates from the fixed seed, each with the kit's answer."""
    types = {col: t for col, (t, _) in queries.columns_of(case).items()}
    columns = queries.open_columns(case["kind"], data, types)
    hexed = data.hex()
    out = []
    for n, predicate in enumerate(queries.predicates(name, case), 1):
        request = {"op": "query", "kind": case["kind"], "data": hexed, "types": types, "predicate": predicate}
        request |= queries.request_extras(case["kind"], data, types)
        expected = queries.evaluate(predicate, columns)
        out.append(Case(f"query:{name}/{n:02d}", "query", case["kind"], request, "query", expected))
    return out


def _hash_case(name: str, case: dict[str, Any], data: bytes) -> Case:
    """A key's row, hashCode and buckets as Java computed them (fixed buckets, the default bucket function)."""
    request = {
        "op": "hash",
        "types": [f["type"] for f in case["fields"]],
        "values": [f["value"] for f in case["fields"]],
        "buckets": sorted(int(n) for n in case["buckets"]),
        "bucket_function": "default",
    }
    expected = {"row": data.hex(), "hash": case["hash"], "buckets": case["buckets"]}
    return Case(f"hash:{name}", "hash", "binary-row", request, "hash", expected)


def _read_table_cases(root: Path) -> list[Case]:
    """Each golden table with the rows Java read from its latest snapshot."""
    out = []
    for sidecar in sorted(root.glob("tables/*/*.json")):
        try:
            case = json.loads(sidecar.read_text())
            fields = [{"name": f["name"], "type": f["type"]} for f in case["schema"]["fields"]]
            rows = case["expected_rows"]
        except (ValueError, KeyError, TypeError):
            continue  # the corpus check reports a broken sidecar
        table_dir = sidecar.with_suffix("")
        if case.get("kind") != "table" or not table_dir.is_dir():
            continue
        name = str(table_dir.relative_to(root))
        request = {"op": "read-table", "kind": "table", "fields": fields}
        out.append(Case(f"read-table:{name}", "read-table", "table", request, "rows", rows, str(table_dir)))
    return out


def _write_table_case(kind: tables.TableKind) -> Case:
    """A table of one kind, its commits drawn with the fixed seed, judged against the model."""
    written = tables.commits(kind)
    request = {"op": "write-table", "kind": kind.name, "table": kind.table(), "commits": written}
    return Case(f"write-table:{kind.name}", "write-table", kind.name, request, "table", tables.model(kind, written))
