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
    """

    name: str
    kind: str
    title: str
    detect: Callable[[bytes], bool]
    inspect: Callable[[bytes], dict[str, Any]]
    encode: Callable[[dict[str, Any]], bytes]
    validate: Callable[[bytes], list[Finding]]
    describe: Callable[[bytes], str]


def case_header(kind: str) -> dict[str, Any]:
    """The fields every case starts with."""
    return {"case_format": CASE_FORMAT, "kind": kind}
