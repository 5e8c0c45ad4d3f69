"""What each matrix checked: per check, how many cells it ran on, how many a pinned list excuses (a listed refusal,
a listed Java limit, a listed incompatibility) and how many it does not apply to; printed at the end of the run
(conftest's terminal summary), so a matrix whose checks stopped running shows it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class Tally:
    """One check's counts over a matrix, and why cells were not checked."""

    checked: int = 0
    listed: int = 0
    not_applicable: Counter[str] = field(default_factory=Counter)

    def line(self, name: str) -> str:
        na = sum(self.not_applicable.values())
        why = ", ".join(f"{n} {reason}" for reason, n in sorted(self.not_applicable.items()))
        return f"{name}: {self.checked} checked, {self.listed} listed, {na} not applicable" + (
            f" ({why})" if why else ""
        )


TALLIES: dict[str, Tally] = {}


def tally(name: str) -> Tally:
    """The (new) tally of one check, e.g. "type-matrix/no-false-must"."""
    TALLIES[name] = Tally()
    return TALLIES[name]


def lines() -> list[str]:
    return [t.line(name) for name, t in sorted(TALLIES.items())]
