"""Layout `binary_row`: a BinaryRow (bucket-key, partition and primary-key rows); `row_layout` also makes
the entry of `binary_row_serialized`, the same row with the manifests' arity prefix.

A row does not record its field types, so every call needs them, in field
order (`--types a=INT,b=STRING`). The case lists each field's type and
logical value, the row kind, and what the bytes imply: the hashCode and the
bucket under the default bucket function for a fixed set of bucket counts.
"""

from __future__ import annotations

from typing import Any

from paimon_conform.core.errors import UsageError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.layouts.base import Layout, case_header, never_detected
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.binary_row import codec as binary_row

BUCKET_COUNTS = (1, 2, 3, 4, 5, 7, 8, 10, 16, 32, 100, 128, 1000)


def field_types(types: Any) -> list[DataType]:
    """Field types in order from a list, an ordered {name: type} dict or one type."""
    if isinstance(types, DataType):
        return [types]
    if isinstance(types, dict):
        return list(types.values())
    if isinstance(types, list | tuple) and all(isinstance(t, DataType) for t in types):
        return list(types)
    raise UsageError("a BinaryRow is read by its field types: pass them in order (--types a=INT,b=STRING)")


def case_types(case: dict[str, Any]) -> list[DataType]:
    """The field types a case states."""
    return [parse_type(f["type"]) for f in case["fields"]]


def implied(row: bytes) -> dict[str, Any]:
    """What the row bytes imply: hashCode and default-function buckets."""
    h = bucketing.hash_code(row)
    return {"hash": h, "buckets": {str(n): bucketing.default_bucket(h, n) for n in BUCKET_COUNTS}}


def _row_case(kind: str, types: list[DataType], row_kind: int, values: list[Any], row: bytes) -> dict[str, Any]:
    fields = [{"type": str(t), "value": to_json(t, v)} for t, v in zip(types, values, strict=True)]
    return case_header(kind) | {"row_kind": binary_row.ROW_KIND_NAMES[row_kind], "fields": fields} | implied(row)


def _encode_row(case: dict[str, Any]) -> tuple[list[DataType], bytes]:
    types = case_types(case)
    values = [to_internal(t, f["value"]) for t, f in zip(types, case["fields"], strict=True)]
    return types, binary_row.write(types, values, binary_row.ROW_KINDS[case.get("row_kind", "+I")])


def row_layout(name: str, kind: str, title: str, serialized: bool) -> Layout:
    """The entry of a BinaryRow layout, with (`serialized`) or without the 4-byte arity prefix."""
    prefix = 4 if serialized else 0

    def validate(data: bytes, types: Any = None) -> list[Finding]:
        """Structure, then Java's exact bytes for the values read."""
        return binary_row.check(field_types(types), data, serialized)

    def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
        """The case describing these bytes (LayoutError when Java would not write them)."""
        ts = field_types(types)
        findings, content = binary_row.read_checked(ts, data, serialized)
        raise_first_must(name, findings)
        return _row_case(kind, ts, *content, data[prefix:])

    def encode(case: dict[str, Any]) -> bytes:
        """The bytes a case describes."""
        types, row = _encode_row(case)
        return binary_row.serialize_for_manifest(row, len(types)) if serialized else row

    def describe(data: bytes, types: Any = None) -> str:
        """Human-readable summary: kind, fields, hash."""
        ts = field_types(types)
        row_kind, values = binary_row.read(ts, data, serialized)
        shown = ", ".join(f"{t} {to_json(t, v)!r}" for t, v in zip(ts, values, strict=True))
        h = bucketing.hash_code(data[prefix:])
        return f"{name}: {binary_row.ROW_KIND_NAMES[row_kind]} ({shown}); {len(data) - prefix} row bytes, hashCode {h}"

    return Layout(name, kind, title, never_detected, inspect, encode, validate, describe, case_types)


LAYOUT = row_layout("binary_row", "binary-row", "BinaryRow (bucket-key, partition and primary-key rows)", False)
