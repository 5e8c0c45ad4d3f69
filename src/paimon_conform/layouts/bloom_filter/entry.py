"""Layout `bloom_filter`: the bloom-filter payload of the file-index container."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from paimon_conform.core import structure
from paimon_conform.core.errors import CaseError, LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, parse_type, to_internal
from paimon_conform.layouts.base import Layout, case_header, never_detected, stated_type
from paimon_conform.layouts.bloom_filter import codec as bloom

NAME = "bloom_filter"
KIND = "bloom-filter"


def payload_case(obj) -> dict[str, Any]:
    """The structural description of a parsed bloom payload."""
    return {"num_hash_functions": obj.num_hash_functions, "num_bits": obj.num_bits, "bits": obj.bits.hex()}


def build_payload(entry: dict[str, Any], column_type: DataType | None, values: list | None) -> bytes:
    """Payload bytes from a structural entry, or from type + values + options."""
    if "bits" in entry:
        k = entry["num_hash_functions"]
        data = k.to_bytes(4, "big", signed=True) + bytes.fromhex(entry["bits"])
        if "num_bits" in entry and entry["num_bits"] != 8 * (len(data) - 4):
            raise CaseError(f"num_bits {entry['num_bits']} disagrees with {len(data) - 4} bytes of bits")
        return data
    if column_type is None or values is None:
        raise CaseError("a bloom-filter entry needs either bits or a column type and values")
    return build_values(column_type, [to_internal(column_type, v) for v in values], entry.get("options", {}))


def build_values(t: DataType, values: Sequence[Any] | pa.Array, options: dict[str, Any]) -> bytes:
    """The payload for a column's internal values (None = null), or the column as Arrow, and the index's
    options (`items`, `fpp`)."""
    return bloom.build(
        t, values, int(options.get("items", bloom.DEFAULT_ITEMS)), float(options.get("fpp", bloom.DEFAULT_FPP))
    )


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing a standalone bloom payload (with its column type when given)."""
    typed = {"type": str(types)} if isinstance(types, DataType) else {}
    return case_header(KIND) | typed | payload_case(structure.parse(NAME, data))


def encode(case: dict[str, Any]) -> bytes:
    """Bytes from a case (structural, or `type` + `values` + `options`)."""
    t = parse_type(case["type"]) if "type" in case else None
    data = build_payload(case, t, case.get("values"))
    if (
        "bits" in case
        and "values" in case
        and t is not None
        and build_payload({k: v for k, v in case.items() if k != "bits"}, t, case["values"]) != data
    ):
        raise CaseError("the case's bits are not what its values and options produce")
    return data


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Structure findings (a bloom payload holds no invariant beyond its header)."""
    try:
        structure.parse(NAME, data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    return []


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    obj = structure.parse(NAME, data)
    ones = sum(bin(b).count("1") for b in obj.bits)
    return (
        f"bloom_filter: k={obj.num_hash_functions}, {obj.num_bits} bits, {ones} set ({100 * ones / obj.num_bits:.1f}%)"
    )


LAYOUT = Layout(
    NAME, KIND, "Bloom-filter file-index payload", never_detected, inspect, encode, validate, describe, stated_type
)
