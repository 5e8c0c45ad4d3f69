"""Record what each release did in the verdict experiments (build/java-verdicts/report.json, written by
conformance/test_java_verdicts.py) into conformance/java_verdicts_by_release.json: per experiment and release,
each path's outcome category. The kit/Java disagreements found are listed too, to be read and either fixed in
the kit or kept, each with its reason; the test fails both ways on them.

    .venv/bin/python tools/java_verdicts_record.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import java_releases

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "build" / "java-verdicts" / "report.json"
PINNED = ROOT / "conformance" / "java_verdicts_by_release.json"


def category(outcome: str) -> str:
    """same / ok / other / error, and the exception class an error starts with (test_java_verdicts._category)."""
    if outcome.startswith("error: "):
        return "error: " + outcome[len("error: ") :].split(":")[0].split(" ")[0]
    return outcome.split(":")[0]


def main() -> int:
    report = json.loads(REPORT.read_text())["experiments"]
    old = json.loads(PINNED.read_text()) if PINNED.is_file() else {"disagreements": {}}
    releases = [v for v in java_releases.releases() if v != "0.9.0"]
    outcomes = {
        eid: {v: {path: category(o) for path, o in r["java"][v].items()} for v in releases} for eid, r in report.items()
    }
    found = {}
    for eid, r in report.items():
        for v in releases:
            if r["info"]:
                continue
            fails = any(o not in ("same", "ok") for o in r["java"][v].values())
            verdict = r["kit_by_line"][java_releases.release(v).line]
            if fails != (verdict == "must"):
                key = f"{eid} {v}"
                found[key] = old["disagreements"].get(key, f"kit {verdict}; Java {r['java'][v]}")
    PINNED.write_text(json.dumps({"outcomes": outcomes, "disagreements": found}, indent=1, sort_keys=True) + "\n")
    print(f"{len(outcomes)} experiments, {len(found)} disagreements -> {PINNED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
