"""Which Java Paimon releases a finding is about, and the verdict for one target reader.

A must-finding says that Java rejects or misreads the bytes; many such facts hold
for some releases only (thin-mode files, Parquet timestamp encodings, DV checks,
index kinds a release does not know). A finding carries the releases it affects
(`Finding.java_releases`; None means every release the kit knows). `judge` takes
the target reader (`validate --java-version`, default the newest release): a
must-finding that does not affect the target becomes what it is for that reader
(`Finding.otherwise`: should, warning, or dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from paimon_conform.core.errors import UsageError

if TYPE_CHECKING:  # findings.py asks this module how to name releases: a type-only arrow back
    from paimon_conform.core.findings import Finding, Severity

# Release lines, oldest first (0.8 only where a fact reaches back before 0.9).
RELEASES: tuple[str, ...] = ("0.8", "0.9", "1.0", "1.1", "1.2", "1.3", "1.4", "2.0")
NEWEST = RELEASES[-1]
AFTER_NEWEST = "after-2.0"  # merged upstream after 2.0.0 (apache/paimon master), named in messages only


def release(text: str) -> str:
    """A release line from `0.9`, `0.9.0`, `1.4.1`, `2.0.0`; UsageError for one the kit does not know."""
    parts = text.strip().split(".")
    line = ".".join(parts[:2])
    if len(parts) < 2 or not all(p.isdigit() for p in parts) or line not in RELEASES:
        raise UsageError(f"unknown Java Paimon release {text!r}; known: {', '.join(RELEASES)} (x.y or x.y.z)")
    return line


def version_key(version: str) -> tuple[int, ...]:
    """The sort key of a release's version: numeric parts in order, a word such as SNAPSHOT before any number
    (1.0-SNAPSHOT before 1.0.1)."""
    return tuple(int(p) if p.isdigit() else -1 for p in version.replace("-", ".").split("."))


def between(first: str | None = None, last: str | None = None) -> tuple[str, ...]:
    """The release lines from `first` to `last`, inclusive (open ends: the oldest / newest known)."""
    lo = RELEASES.index(first) if first else 0
    hi = RELEASES.index(last) if last else len(RELEASES) - 1
    return RELEASES[lo : hi + 1]


def describe(releases: Sequence[str] | None) -> str:
    """`Java 0.9-1.1`, `Java <= 0.9`, `every Java release` for a set of affected release lines."""
    if releases is None or tuple(releases) == RELEASES:
        return "every Java release"
    idx = sorted(RELEASES.index(r) for r in releases)
    runs: list[list[int]] = []
    for i in idx:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    parts = []
    for run in runs:
        lo, hi = RELEASES[run[0]], RELEASES[run[-1]]
        if run[0] == 0:
            parts.append(f"<= {hi}")
        elif run[-1] == len(RELEASES) - 1:
            parts.append(f">= {lo}")
        else:
            parts.append(lo if lo == hi else f"{lo}-{hi}")
    return "Java " + ", ".join(parts)


# Codes whose every occurrence is about some releases only (raised where the finding cannot say it itself,
# e.g. by a spec's `valid`): (releases, otherwise, what the other releases do).
BY_CODE: dict[str, tuple[tuple[str, ...], Severity | None, str]] = {
    # DeletionVectorsIndexFile.readDeletionVector checks the CRC when a write or compaction reloads the vectors
    # (0.9-1.1); from 1.2.0 DeletionVector.read skips it (apache/paimon#5552); checked again on every read after
    # 2.0.0 (apache/paimon#10070). No release checks it on a plain batch read before that.
    "DV_CRC_MISMATCH": (
        between("0.9", "1.1"),
        "should",
        "Java 0.9-1.1 fail when a write or compaction reloads the vector, Java 1.2-2.0 do not check the CRC, "
        "Java after 2.0.0 rejects it on every read (apache/paimon#10070)",
    ),
}


def judge(findings: Iterable[Finding], target: str = NEWEST) -> list[Finding]:
    """The findings as the target release sees them: musts that do not affect it take their `otherwise`."""
    out = []
    for f in findings:
        if f.severity == "must" and f.java_releases is None and f.code in BY_CODE:
            f.java_releases, f.otherwise, note = BY_CODE[f.code]
            f.message += f"; {note}"
        if f.severity == "must" and f.java_releases is not None and target not in f.java_releases:
            if f.otherwise is None:
                continue
            f.severity = f.otherwise
            f.message += f" (Java {target} reads it; {describe(f.java_releases)} reject or misread it)"
        out.append(f)
    return out
