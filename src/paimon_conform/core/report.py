"""Validation results and their text, JSON and JUnit XML renderings."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

from paimon_conform.core.findings import Finding, Severity, counts_as_failure


@dataclass
class FileResult:
    """What validating one file produced."""

    file: str
    kind: str
    findings: list[Finding] = field(default_factory=list)
    unusable: str | None = None  # why the file could not be checked at all
    info: dict[str, object] = field(default_factory=dict)  # facts about a table that are not findings
    info_text: str | None = None  # the same, as one line of the text report

    def failed(self, level: Severity) -> bool:
        """Whether this file fails at the given level."""
        return self.unusable is not None or any(counts_as_failure(f, level) for f in self.findings)


def exit_code(results: list[FileResult], level: Severity) -> int:
    """0 clean, 1 findings, 2 unusable input."""
    if any(r.unusable for r in results):
        return 2
    return 1 if any(r.failed(level) for r in results) else 0


SHOWN_PER_GROUP = 5  # a group of repeated findings shows this many, then how many more


def _grouped(findings: list[Finding]) -> list[list[Finding]]:
    """Findings grouped by the file they are in, code and severity, in the order each group first appears (a
    result may hold findings of several files: a table's)."""
    groups: dict[tuple[str, str, str], list[Finding]] = {}
    for f in findings:
        groups.setdefault((f.file, f.code, f.severity), []).append(f)
    return list(groups.values())


def _text_lines(r: FileResult) -> list[str]:
    """The text report's lines of one file: a finding alone on a line, a repeated code once with a count."""
    lines = [f"{r.file}: UNUSABLE {r.unusable}"] if r.unusable else []
    for group in _grouped(r.findings):
        first = group[0]
        if len(group) == 1:
            lines.append(first.line())
            continue
        lines.append(f"{first.file or r.file}: {first.code} [{first.severity}] {len(group)} times:")
        lines.extend(f"  {f.where()}: {f.tail()}" for f in group[:SHOWN_PER_GROUP])
        if len(group) > SHOWN_PER_GROUP:
            more = len(group) - SHOWN_PER_GROUP
            lines.append(f"  ... and {more} more {first.code} in this file (the JSON report lists every one)")
    if r.info_text:
        lines.append(f"{r.file}: {r.info_text}")
    return lines


def render_text(results: list[FileResult], level: Severity) -> str:
    """Each file's findings (repeated codes grouped with a count), then a summary line."""
    lines = [line for r in results for line in _text_lines(r)]
    bad = sum(r.failed(level) for r in results)
    n = sum(len(r.findings) for r in results)
    lines.append(f"{len(results)} file(s) checked, {bad} failed, {n} finding(s) (level {level})")
    return "\n".join(lines) + "\n"


def render_json(results: list[FileResult], level: Severity) -> str:
    """A JSON document with every file and finding."""
    doc = {
        "level": level,
        "exit_code": exit_code(results, level),
        "files": [
            {
                "file": r.file,
                "kind": r.kind,
                "failed": r.failed(level),
                "unusable": r.unusable,
                "findings": [f.to_json() for f in r.findings],
            }
            | ({"info": r.info} if r.info else {})
            for r in results
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def render_junit(results: list[FileResult], level: Severity, suite: str = "paimon-conform") -> str:
    """JUnit XML: a test case per file (or per finding of a failing file)."""
    root = ET.Element("testsuites", name=suite)
    cases: list[ET.Element] = []
    for r in results:
        if r.unusable:
            tc = ET.Element("testcase", classname=r.kind or "unknown", name=r.file)
            ET.SubElement(tc, "error", type="UNUSABLE", message=r.unusable).text = r.unusable
            cases.append(tc)
            continue
        failing = [f for f in r.findings if counts_as_failure(f, level)]
        if not failing:
            tc = ET.Element("testcase", classname=r.kind, name=r.file)
            notes = [f.line() for f in r.findings] + ([r.info_text] if r.info_text else [])
            if notes:
                ET.SubElement(tc, "system-out").text = "\n".join(notes)
            cases.append(tc)
            continue
        for f in failing:
            tc = ET.Element("testcase", classname=r.kind, name=f"{r.file} {f.code} {f.path}")
            msg = f"{f.code} [{f.severity}] at {f.where()}: {f.message}"
            ET.SubElement(tc, "failure", type=f.code, message=msg).text = f.line()
            cases.append(tc)
    failures = sum(1 for c in cases if c.find("failure") is not None)
    errors = sum(1 for c in cases if c.find("error") is not None)
    ts = ET.SubElement(
        root, "testsuite", name=suite, tests=str(len(cases)), failures=str(failures), errors=str(errors), skipped="0"
    )
    ts.extend(cases)
    root.set("tests", str(len(cases)))
    root.set("failures", str(failures))
    root.set("errors", str(errors))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}
