"""The kit in a child process whose address space is capped: the one runner the memory tests share."""

from __future__ import annotations

import resource
import subprocess
import sys

TIMEOUT = 300  # seconds: guards a hang, never a speed claim


def run_capped(argv: list[str], limit: int) -> subprocess.CompletedProcess:
    """`python <argv>` (e.g. ["-m", "paimon_conform.cli", "validate", DIR]) with RLIMIT_AS at `limit` bytes, its
    output captured as text."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, preexec_fn=cap, timeout=TIMEOUT, check=False
    )


def cli_capped(*args: str, limit: int) -> subprocess.CompletedProcess:
    """The CLI with `args`, capped at `limit` bytes."""
    return run_capped(["-m", "paimon_conform.cli", *args], limit)
