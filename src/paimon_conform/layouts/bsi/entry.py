"""Layout `bsi`: the BSI file-index payload, kind `bsi` (column type needed for the case)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.hashing.fasthash import timestamp_from_long
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.layouts.base import Layout, case_header, never_detected, payload_rows, require_type, stated_type
from paimon_conform.layouts.bsi import codec as bsi

NAME = "bsi"
KIND = "bsi"


def from_long(t: DataType, v: int | None) -> Any:
    """Back from the stored long to a logical JSON value."""
    if v is None:
        return None
    if t.root == "DECIMAL":
        return to_json(t, (v, t.precision, t.scale))
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return to_json(t, timestamp_from_long(t, v))
    return to_json(t, v)


def payload_case(data: bytes, t: DataType) -> dict[str, Any] | None:
    """{"row_values"} when Java's writer reproduces `data` from them, else None."""
    index = bsi.read(data)
    values = [from_long(t, v) for v in index.values]
    if bsi.build(t, [to_internal(t, v) for v in values]) != data:
        return None
    return {"row_values": values}


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing a standalone BSI payload."""
    t = require_type(types, KIND)
    for f in bsi.check(data):
        if f.severity == "must":
            raise LayoutError(NAME, f.code, f.path, f.offset, f.message)
    payload = payload_case(data, t)
    if payload is None:
        raise LayoutError(NAME, "BSI_NOT_JAVA_LAYOUT", "", None, "valid, but not the bytes Java writes for its values")
    return case_header(KIND) | {"type": str(t)} | payload


def build_payload(entry: dict[str, Any], t: DataType | None, column_values: list | None) -> bytes:
    """Payload from {"row_values"} or from the column's values."""
    return build_values(t, payload_rows(entry, t, column_values, KIND), entry.get("options", {}))


def build_values(t: DataType, values: Sequence[Any] | pa.Array, options: dict[str, Any]) -> bytes:
    """The payload for a column's internal values (None = null), or the column as Arrow (the index has no
    options)."""
    return bsi.build(t, values)


def encode(case: dict[str, Any]) -> bytes:
    """Bytes from a case: type and row_values."""
    return build_payload(case, parse_type(case["type"]), None)


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a BSI payload."""
    return bsi.check(data)


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    index = bsi.read(data)
    present = [v for v in index.values if v is not None]
    return (
        f"bsi: {index.num_rows} rows, {len(present)} non-null, "
        f"range {min(present, default=0)}..{max(present, default=0)}"
    )


LAYOUT = Layout(NAME, KIND, "BSI file-index payload", never_detected, inspect, encode, validate, describe, stated_type)
