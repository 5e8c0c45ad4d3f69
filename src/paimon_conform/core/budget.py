"""The resource budget: how much memory the kit may build from what one input claims.

Counts, lengths and depths read from input (a block's record count, a bitmap's
cardinality, a bloom filter's hash count; JSON text: json_text.py) are checked
against the bytes that remain and against this budget *before* anything is
allocated from them; an input that would need more is refused with
BudgetExceeded (a UsageError: exit 2 with the reason, or a finding where a
validator reports unusable files), never a MemoryError.

The budget is a context value, so every reader (validate, read, query, inspect,
encode) sees the one the CLI set (`--max-memory`) without a parameter:

    with budget.limited(256 << 20):
        validate_table(root)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from paimon_conform.core.errors import UsageError

DEFAULT_MAX_MEMORY = 1 << 30  # 1 GiB: fits a laptop next to everything else it runs
MIN_MAX_MEMORY = 1 << 20

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "g": 1 << 30, "gb": 1 << 30}
_UNITS |= {"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40}


class BudgetExceeded(UsageError):
    """An input claims more than the resource budget allows (`what` needs `needed` bytes, the budget is `limit`)."""

    def __init__(self, what: str, needed: int, limit: int) -> None:
        self.what, self.needed, self.limit = what, needed, limit
        super().__init__(
            f"{what} would need about {_size(needed)}, more than the memory budget of {_size(limit)} "
            "(raise it with --max-memory)"
        )


@dataclass(frozen=True)
class Budget:
    """The limits in force: `max_memory` bytes for any structure built from one input's claims."""

    max_memory: int = DEFAULT_MAX_MEMORY


_CURRENT: ContextVar[Budget] = ContextVar("paimon_conform_budget", default=Budget())  # noqa: B039 - frozen value


def current() -> Budget:
    """The budget in force."""
    return _CURRENT.get()


@contextmanager
def limited(max_memory: int) -> Iterator[Budget]:
    """Run a block under a memory budget of `max_memory` bytes."""
    if max_memory < MIN_MAX_MEMORY:
        raise UsageError(f"a memory budget below {_size(MIN_MAX_MEMORY)} leaves nothing to read with")
    token = _CURRENT.set(Budget(max_memory))
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


def parse_size(text: str) -> int:
    """A memory size such as `1G`, `512MiB`, `300mb` or `1048576` (bytes); UsageError otherwise."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text)
    unit = m.group(2).lower() if m else ""
    if not m or unit not in _UNITS:
        raise UsageError(f"--max-memory takes a size such as 512M or 2G, not {text!r}")
    return int(float(m.group(1)) * _UNITS[unit])


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.1f} {unit}"
    return f"{n} bytes"


def reserve(nbytes: int, what: str) -> None:
    """Refuse (BudgetExceeded) before building `what` when it would take more than the budget."""
    limit = current().max_memory
    if nbytes > limit:
        raise BudgetExceeded(what, nbytes, limit)


def fits(nbytes: int) -> bool:
    """Whether `nbytes` fit the budget (for work that has a cheaper way when they do not)."""
    return nbytes <= current().max_memory


class Meter:
    """Memory charged across several steps of reading one input (e.g. the blocks of one Avro file)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.used = 0

    def charge(self, nbytes: int) -> None:
        """Add `nbytes` and refuse when the total passes the budget."""
        self.used += nbytes
        reserve(self.used, self.what)

    def release(self, nbytes: int) -> None:
        """Take back `nbytes` no longer held (e.g. the rows of a window handed on)."""
        self.used = max(0, self.used - nbytes)

    def room(self) -> int:
        """Bytes still free under the budget."""
        return max(0, current().max_memory - self.used)
