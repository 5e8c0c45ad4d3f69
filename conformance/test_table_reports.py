"""Reports of `paimon-conform validate TABLE_DIR`: JUnit XML that a viewer loads, JSON,
`--level must`, `--expect-failures` and exit codes, on Java-written tables with faults."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.environment import ROOT

from paimon_conform import cli

EVIDENCE = ("contract",)

JAVA = ROOT / "golden" / "tables" / "java-1.0-SNAPSHOT"


def table(tmp_path: Path, name: str = "pk-fixed4-parquet-dv") -> Path:
    return shutil.copytree(JAVA / name, tmp_path / name)


def latest_snapshot(root: Path) -> Path:
    return root / "snapshot" / f"snapshot-{(root / 'snapshot' / 'LATEST').read_text().strip()}"


def with_should_finding(root: Path) -> Path:
    """A wrong totalRecordCount: Java reads the table, but would not have written this."""
    path = latest_snapshot(root)
    doc = json.loads(path.read_text())
    doc["totalRecordCount"] += 1
    path.write_text(json.dumps(doc))
    return root


def with_must_finding(root: Path) -> Path:
    """A data file removed: a dangling reference."""
    victim = next(root.rglob("bucket-0/data-*.parquet"))
    victim.unlink()
    return root


def test_clean_java_table_exits_0(tmp_path, capsys):
    assert cli.main(["validate", str(table(tmp_path))]) == 0
    assert "0 failed" in capsys.readouterr().out


def test_junit_report_of_a_table_loads(tmp_path, capsys):
    """The JUnit XML parses, counts its failures, and names each failing finding's code."""
    root = with_must_finding(table(tmp_path))
    out = tmp_path / "report.xml"
    assert cli.main(["validate", str(root), "--report", "junit", "-o", str(out)]) == 1
    suites = ET.parse(out).getroot()
    assert suites.tag == "testsuites"
    suite = suites.find("testsuite")
    cases = suite.findall("testcase")
    failures = [c.find("failure") for c in cases if c.find("failure") is not None]
    assert int(suite.get("tests")) == len(cases) > 0
    assert int(suite.get("failures")) == len(failures) > 0
    assert "DATA_FILE_MISSING" in {f.get("type") for f in failures}
    assert all(c.get("classname") and c.get("name") for c in cases)
    capsys.readouterr()


def test_json_report_carries_code_severity_file_path(tmp_path, capsys):
    root = with_must_finding(table(tmp_path))
    out = tmp_path / "report.json"
    assert cli.main(["validate", str(root), "--report", "json", "-o", str(out)]) == 1
    doc = json.loads(out.read_text())
    found = [f for r in doc["files"] for f in r["findings"]]
    missing = [f for f in found if f["code"] == "DATA_FILE_MISSING"]
    assert missing
    assert missing[0]["severity"] == "must"
    assert missing[0]["file"].startswith(str(root))
    assert "/manifest/manifest-" in missing[0]["file"]
    assert missing[0]["path"].startswith("entries[")
    assert doc["exit_code"] == 1
    capsys.readouterr()


def test_level_must_ignores_should_findings(tmp_path, capsys):
    root = with_should_finding(table(tmp_path))
    assert cli.main(["validate", str(root)]) == 1
    assert "SNAPSHOT_RECORD_COUNT" in capsys.readouterr().out
    assert cli.main(["validate", str(root), "--level", "must"]) == 0
    capsys.readouterr()


def write_expectations(tmp_path: Path, entries: list[dict]) -> Path:
    path = tmp_path / "expected.json"
    path.write_text(json.dumps({"expected": entries}))
    return path


def test_expected_failures_do_not_fail_the_run(tmp_path, capsys):
    root = with_must_finding(table(tmp_path))
    listed = write_expectations(
        tmp_path, [{"code": "DATA_FILE_MISSING", "file": "manifest/manifest-*", "reason": "our writer's bug #1"}]
    )
    assert cli.main(["validate", str(root), "--expect-failures", str(listed)]) == 0
    assert "(expected: our writer's bug #1)" in capsys.readouterr().out


def test_unlisted_failures_still_fail(tmp_path, capsys):
    root = with_must_finding(table(tmp_path))
    listed = write_expectations(tmp_path, [{"code": "DATA_FILE_MISSING", "file": "index/*", "reason": "elsewhere"}])
    assert cli.main(["validate", str(root), "--expect-failures", str(listed)]) == 1
    out = capsys.readouterr().out
    assert "EXPECTED_FINDING_NOT_SEEN" in out  # the entry matched nothing, and says so


def test_a_stale_expectation_fails_the_run(tmp_path, capsys):
    root = table(tmp_path)  # clean: nothing of what is listed occurs
    listed = write_expectations(tmp_path, [{"code": "DV_CRC_MISMATCH", "reason": "fixed since"}])
    assert cli.main(["validate", str(root), "--expect-failures", str(listed)]) == 1
    assert "EXPECTED_FINDING_NOT_SEEN" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content",
    ['{"expected": [{"code": "X"}]}', "[1, 2]", "not json", '{"expected": [{"code": "X", "reason": "r", "oops": 1}]}'],
)
def test_malformed_expectations_are_unusable_input(tmp_path, capsys, content):
    root = table(tmp_path)
    path = tmp_path / "e.json"
    path.write_text(content)
    assert cli.main(["validate", str(root), "--expect-failures", str(path)]) == 2
    assert "paimon-conform" in capsys.readouterr().err


def test_missing_schema_is_unusable_input(tmp_path, capsys):
    root = table(tmp_path)
    shutil.rmtree(root / "schema")
    assert cli.main(["validate", str(root)]) == 2
    capsys.readouterr()


def test_text_report_groups_a_repeated_code_per_file(tmp_path, capsys):
    """With every data file removed, each manifest's DATA_FILE_MISSING findings are one line with their count
    (the count the JSON report gives that manifest), each reference below it, and no finding without a byte
    offset prints a placeholder for one."""
    root = table(tmp_path)
    for v in root.rglob("bucket-*/data-*.parquet"):
        v.unlink()
    report = tmp_path / "report.json"
    assert cli.main(["validate", str(root), "--report", "json", "-o", str(report)]) == 1
    per_file = {
        f["file"]: n
        for f in json.loads(report.read_text())["files"]
        if (n := sum(x["code"] == "DATA_FILE_MISSING" for x in f["findings"]))
    }
    assert any(n > 1 for n in per_file.values()), "a manifest naming several removed files"
    capsys.readouterr()
    assert cli.main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    heads = {}
    for line in out.splitlines():
        name, _, rest = line.partition(": ")
        if rest.startswith("DATA_FILE_MISSING [must] "):
            heads[name] = int(rest.split()[2])
        elif "DATA_FILE_MISSING" in rest:
            heads[name] = 1
    assert heads == per_file
    shown = sum(" which does not exist" in line for line in out.splitlines())
    more = [int(line.split()[2]) for line in out.splitlines() if line.startswith("  ... and ")]
    assert shown == sum(min(n, 5) for n in per_file.values())
    assert shown + sum(more) == sum(per_file.values())
    assert "@-" not in out
    assert "byte None" not in out
    assert "(no byte offset)" in out


def test_junit_says_when_a_finding_has_no_byte_offset(tmp_path, capsys):
    root = with_must_finding(table(tmp_path))
    out = tmp_path / "report.xml"
    assert cli.main(["validate", str(root), "--report", "junit", "-o", str(out)]) == 1
    messages = [f.get("message") for f in ET.parse(out).getroot().iter("failure")]
    missing = [m for m in messages if m.startswith("DATA_FILE_MISSING")]
    assert len(missing) == 1
    assert "(no byte offset)" in missing[0]
    assert not any("byte None" in m for m in messages)


def test_a_long_group_shows_five_and_counts_the_rest():
    from paimon_conform.core.findings import Finding
    from paimon_conform.core.report import FileResult, render_text

    repeated = [Finding("X_BAD", "should", f"items[{i}]", 10 * i, f"item {i}", "f.bin") for i in range(8)]
    alone = Finding("Y_ODD", "warning", "footer", None, "odd footer", "f.bin")
    lines = render_text([FileResult("f.bin", "k", [repeated[0], alone, *repeated[1:]])], "should").splitlines()
    other = Finding("X_BAD", "should", "items[9]", 90, "item 9", "g.bin")  # a result may span files (a table's)
    assert render_text([FileResult("t", "table", [*repeated[:2], other])], "should").splitlines()[:4] == [
        "f.bin: X_BAD [should] 2 times:",
        "  items[0] (byte 0): item 0",
        "  items[1] (byte 10): item 1",
        "g.bin: items[9] (byte 90) X_BAD [should] item 9",
    ]
    assert lines == [
        "f.bin: X_BAD [should] 8 times:",
        *(f"  items[{i}] (byte {10 * i}): item {i}" for i in range(5)),
        "  ... and 3 more X_BAD in this file (the JSON report lists every one)",
        "f.bin: footer (no byte offset) Y_ODD [warning] odd footer",
        "1 file(s) checked, 1 failed, 9 finding(s) (level should)",
    ]
