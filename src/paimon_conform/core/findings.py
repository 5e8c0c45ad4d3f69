"""Findings: what `validate` reports, one per problem."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

from paimon_conform.core.errors import LayoutError

Severity = Literal["must", "should", "warning"]
SEVERITIES: tuple[Severity, ...] = ("must", "should", "warning")


@dataclass
class Finding:
    """One problem in one file.

    code: stable identifier (documented in the finding table of docs/findings.md).
    severity: `must` (Java rejects or misreads it), `should` (Java reads it,
    but Java would not have written these bytes), `warning` (informational).
    path: field path inside the layout; offset: absolute byte offset or None.
    """

    code: str
    severity: Severity
    path: str
    offset: int | None
    message: str
    file: str = field(default="")
    expected: str | None = None  # the reason, when an --expect-failures entry lists this finding
    # Java release lines a must-finding holds for (None: every release the kit knows), and what it is for the
    # other releases (`java_releases.judge`: should, warning, or None to drop it)
    java_releases: tuple[str, ...] | None = None
    otherwise: Severity | None = "should"

    @classmethod
    def from_error(cls, err: LayoutError, file: str = "") -> Finding:
        """A must-level finding for a LayoutError."""
        return cls(err.code, "must", err.path, err.offset, err.detail, file)

    def affects(self) -> str:
        """The Java releases a must-finding is about, for reports ('' for other severities)."""
        if self.severity != "must":
            return ""
        from paimon_conform.core.java_releases import describe

        return describe(self.java_releases)

    def to_json(self) -> dict:
        """Plain-dict form used by the JSON report."""
        out = asdict(self)
        del out["otherwise"]
        if self.severity == "must":
            from paimon_conform.core.java_releases import RELEASES

            out["java_releases"] = list(self.java_releases or RELEASES)
        else:
            out["java_releases"] = None
        return out

    def where(self) -> str:
        """Where in the file, in words (`place`)."""
        return place(self.path, self.offset)

    def tail(self) -> str:
        """The message with, for musts, the Java releases, and the reason an expected finding is listed."""
        known = f" (expected: {self.expected})" if self.expected is not None else ""
        releases = f" [{self.affects()}]" if self.severity == "must" else ""
        return f"{self.message}{releases}{known}"

    def line(self) -> str:
        """One text line: file, path, offset, code, severity, message, and for musts the Java releases."""
        return f"{self.file}: {self.where()} {self.code} [{self.severity}] {self.tail()}"


def place(path: str, offset: int | None) -> str:
    """A field path and byte offset in words: `vectors[1].crc (byte 59)`, `<root> (no byte offset)`."""
    at = f"byte {offset}" if offset is not None else "no byte offset"
    return f"{path or '<root>'} ({at})"


def file_finding(
    code: str, severity: Severity, file: str, path: str, message: str, offset: int | None = None
) -> Finding:
    """A finding on a named file (the table checks' argument order: code, severity, file, path, message)."""
    return Finding(code, severity, path, offset, message, file)


def raise_first_must(layout: str, findings: list[Finding]) -> None:
    """Raise the first must-level finding as a LayoutError (for inspect, which needs valid bytes)."""
    for f in findings:
        if f.severity == "must":
            raise LayoutError(layout, f.code, f.path, f.offset, f.message)


def unreadable(findings: list[Finding]) -> bool:
    """Whether the bytes are broken for every Java release (a must not tied to some releases): further checks
    that need them to be readable do not run."""
    return any(f.severity == "must" and f.java_releases is None for f in findings)


def counts_as_failure(finding: Finding, level: Severity) -> bool:
    """Whether `finding` fails a run at the given level (`must` ignores should; expected findings never)."""
    if finding.severity == "warning" or finding.expected is not None:
        return False
    return level == "should" or finding.severity == "must"
