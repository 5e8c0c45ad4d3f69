"""A testee run as text, JSON or JUnit XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from paimon_conform.testee.runner import EXPECTED, FAILED, PASSED, SKIPPED, UNEXPECTED_PASS, Run


def _who(run: Run) -> str:
    h = run.hello
    return f"{h.get('name', '?')} {h.get('version', '')}".strip()


def summary(run: Run) -> str:
    """One line: the testee and the counts."""
    parts = [f"{run.count(s)} {s}" for s in (PASSED, FAILED, EXPECTED, UNEXPECTED_PASS, SKIPPED)]
    return f"{_who(run)}: {len(run.results)} case(s): " + ", ".join(parts)


def render_text(run: Run) -> str:
    """A line per failing case, then the summary."""
    lines = [f"{r.case.id}: {r.status.upper()} {r.detail}" for r in run.failed()]
    return "\n".join([*lines, summary(run)]) + "\n"


def render_json(run: Run) -> str:
    """Every case with its status and detail."""
    doc = {
        "testee": run.hello,
        "failed": len(run.failed()),
        "cases": [
            {"id": r.case.id, "op": r.case.op, "kind": r.case.kind, "status": r.status, "detail": r.detail}
            for r in run.results
        ],
    }
    return json.dumps(doc, indent=2) + "\n"


def render_junit(run: Run) -> str:
    """A testcase per case: failure for failed and unexpected passes, skipped for skips and listed failures."""
    suite = ET.Element("testsuite", name=f"paimon-conform testee {_who(run)}")
    for r in run.results:
        tc = ET.SubElement(suite, "testcase", classname=f"{r.case.op}.{r.case.kind}", name=r.case.id)
        if r.status in (FAILED, UNEXPECTED_PASS):
            ET.SubElement(tc, "failure", type=r.status, message=r.detail[:500]).text = r.detail
        elif r.status in (SKIPPED, EXPECTED):
            ET.SubElement(tc, "skipped", message=f"{r.status}: {r.detail}"[:500])
    for key, value in (
        ("tests", len(run.results)),
        ("failures", len(run.failed())),
        ("errors", 0),
        ("skipped", run.count(SKIPPED) + run.count(EXPECTED)),
    ):
        suite.set(key, str(value))
    if run.stderr:
        ET.SubElement(suite, "system-err").text = run.stderr
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}
