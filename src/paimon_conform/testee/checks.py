"""One check of the producer x consumer matrix (matrix.py) or of its chains (chains.py)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Check:
    """One write, validation or read: its id, whether it passed, and what happened."""

    id: str
    step: str  # write, validate, read; chain-base, chain-write, chain-validate, chain-read
    producer: str
    consumer: str | None
    kind: str
    ok: bool
    detail: str = ""
    expected: str | None = None  # the failure list's reason, when it lists this check
