"""Known findings a third party lists with `--expect-failures FILE`.

The file is JSON:

    {"expected": [{"code": "DATA_FILE_WRONG_BUCKET", "file": "*/bucket-*/data-*.parquet",
                   "reason": "our writer hashes the full primary key (issue #12)"}]}

`code` is required; `file` (a glob matched against the end of the reported file path)
and `path` (the field path, a glob) narrow an entry; `reason` is required and shown in
reports. A listed finding does not fail the run. An entry that matches no finding fails
it (EXPECTED_FINDING_NOT_SEEN), so the list stays honest as the writer improves.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path

from paimon_conform.core.errors import UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.report import FileResult

MAX_BYTES = 4 << 20


@dataclass(frozen=True)
class Expectation:
    """One listed finding."""

    code: str
    reason: str
    file: str = "*"
    path: str = "*"

    def matches(self, f: Finding) -> bool:
        """Whether a finding is the one this entry lists."""
        file_ok = fnmatch.fnmatchcase(f.file, self.file) or fnmatch.fnmatchcase(f.file, "*/" + self.file)
        return f.code == self.code and file_ok and fnmatch.fnmatchcase(f.path, self.path)


def load(path: str | Path) -> list[Expectation]:
    """The entries of an expectations file; UsageError when it is malformed."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise UsageError(f"{p}: larger than {MAX_BYTES} bytes")
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{p}: not a readable JSON expectations file ({exc})") from None
    entries = doc.get("expected") if isinstance(doc, dict) else None
    if not isinstance(entries, list):
        raise UsageError(f'{p}: expected {{"expected": [ ... ]}}')
    out = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict) or not isinstance(e.get("code"), str) or not isinstance(e.get("reason"), str):
            raise UsageError(f"{p}: entry {i} needs a string 'code' and a string 'reason'")
        if set(e) - {"code", "reason", "file", "path"}:
            raise UsageError(f"{p}: entry {i} has unknown keys {sorted(set(e) - {'code', 'reason', 'file', 'path'})}")
        if not all(isinstance(e.get(k, "*"), str) for k in ("file", "path")):
            raise UsageError(f"{p}: entry {i}: 'file' and 'path' are strings")
        out.append(Expectation(e["code"], e["reason"], e.get("file", "*"), e.get("path", "*")))
    return out


def apply(results: list[FileResult], expectations: list[Expectation], source: str) -> list[FileResult]:
    """Mark listed findings as expected; add a failing result for entries nothing matched."""
    seen = [False] * len(expectations)
    for r in results:
        for f in r.findings:
            for i, e in enumerate(expectations):
                if e.matches(f):
                    f.expected = e.reason
                    seen[i] = True
                    break
    unseen = [
        Finding(
            "EXPECTED_FINDING_NOT_SEEN",
            "must",
            f"expected[{i}]",
            None,
            f"lists {e.code} in {e.file} ({e.reason}), which no longer occurs; remove the entry",
            source,
        )
        for i, e in enumerate(expectations)
        if not seen[i]
    ]
    return results + ([FileResult(source, "expectations", unseen)] if unseen else [])
