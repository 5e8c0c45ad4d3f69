"""What every layout module provides, and the case-format constants."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paimon_conform.core import budget
from paimon_conform.core.errors import CaseError, LayoutError, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, parse_type, to_internal

CASE_FORMAT = 1
PARSE_BYTES = 80  # Python objects the generated parsers build per input byte, at most (run-heavy bitmaps: ~66)


@dataclass(frozen=True)
class Layout:
    """One binary layout, followed by one name end to end.

    name: the spec / generated module / golden folder name (`deletion_vectors`).
    kind: the CLI and case-format name (`deletion-vectors`).
    inspect / validate / describe take the bytes and optional column types
    (a DataType, or a dict column -> DataType) for layouts whose keys are typed.
    """

    name: str
    kind: str
    title: str
    detect: Callable[[bytes], bool]
    inspect: Callable[..., dict[str, Any]]
    encode: Callable[[dict[str, Any]], bytes]
    validate: Callable[..., list[Finding]]
    describe: Callable[..., str]
    case_types: Callable[[dict[str, Any]], Any] = lambda case: None  # column types a case states


def never_detected(data: bytes) -> bool:
    """For layouts without a signature (HASH files, lone index payloads): always False."""
    return False


def stated_type(case: dict[str, Any]) -> DataType | None:
    """The column type a payload case states in `type`."""
    return parse_type(case["type"]) if "type" in case else None


def require_type(types: Any, kind: str) -> DataType:
    """The one column type a lone typed payload needs; UsageError without it."""
    if not isinstance(types, DataType):
        raise UsageError(f"a {kind} payload is typed by its column: pass the column type (--type INT)")
    return types


def payload_rows(entry: dict[str, Any], t: DataType | None, column_values: list | None, kind: str) -> list[Any]:
    """Internal row values of a typed payload entry: its own `row_values`, else the column's values."""
    if t is None:
        raise CaseError(f"a {kind} payload needs its column type")
    values = entry.get("row_values", column_values)
    if values is None:
        raise CaseError(f"a {kind} entry needs values (row_values)")
    return [to_internal(t, v) for v in values]


def case_header(kind: str) -> dict[str, Any]:
    """The fields every case starts with."""
    return {"case_format": CASE_FORMAT, "kind": kind}


def fault_key(err: LayoutError | None) -> tuple[str, str, int | None] | None:
    """What two readers of one layout must agree on about a fault: its code, field path and offset."""
    return None if err is None else (err.code, err.path, err.offset)


def parse_fits(data: bytes, layout: str) -> None:
    """Refuse (BudgetExceeded) input whose parse tree would pass the memory budget, before parsing it."""
    budget.reserve(PARSE_BYTES * len(data), f"parsing {len(data)} bytes as {layout}")
