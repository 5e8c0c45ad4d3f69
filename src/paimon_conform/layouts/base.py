"""What every layout module provides, and the case-format constants."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..findings import Finding

CASE_FORMAT = 1


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


def case_header(kind: str) -> dict[str, Any]:
    """The fields every case starts with."""
    return {"case_format": CASE_FORMAT, "kind": kind}
