"""The testee protocol (issue 19, first part): the kit as a testee passes every golden case through the CLI;
a testee that crashes, hangs, writes garbage, encodes other bytes or accepts a must-reject file fails those
cases and the run goes on; failure lists follow protobuf's semantics; undeclared kinds are skipped; replies
are held to the protocol's JSON Schema."""

from __future__ import annotations

import functools
import json
import sys
import xml.etree.ElementTree as ET

import pytest
from support import background
from support.environment import ROOT
from support.jobs import kit_testee_job
from support.rogue_testee import rogue_command

from paimon_conform import cli
from paimon_conform.testee import failures, generated, runner, suite
from paimon_conform.testee.protocol import problem

EVIDENCE = ("contract",)

GOLDEN = ROOT / "golden"
HANG_SECONDS = 10  # a rogue testee that hangs is given up after this; generous for a reply on a loaded machine


@functools.cache
def _golden_cases() -> tuple:
    """Every golden case, built once for the module (the corpus does not change during a run)."""
    return tuple(suite.golden_cases(GOLDEN))


def _cases(kind: str) -> list:
    """The golden cases of one layout whose requests are all different (the rogue finds a case by its request)."""
    out, seen = [], set()
    for c in _golden_cases():
        key = json.dumps(c.request, sort_keys=True)
        if c.kind == kind and key not in seen:
            seen.add(key)
            out.append(c)
    return out


def test_the_kit_as_a_testee_passes_every_golden_case():
    """Run by the CLI in a child process (a background job: support/jobs.py)."""
    done = background.result("kit-testee", kit_testee_job)
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(done.stdout)
    statuses = {c["status"] for c in doc["cases"]}
    assert statuses == {"passed"}
    ops = {(c["op"], c["kind"]) for c in doc["cases"]}
    kinds = {c.kind for c in _golden_cases()}
    assert {k for _, k in ops} == kinds
    assert len(kinds) >= 15  # every layout of the corpus, both directions
    assert sum(c["id"].startswith("decode:") and "must-reject" in c["id"] for c in doc["cases"]) >= 100


def test_a_misbehaving_testee_fails_those_cases_and_the_run_goes_on(tmp_path, monkeypatch):
    cases = _cases("roaring32")
    valid = [c for c in cases if c.op == "decode" and c.expect == "content"]
    encodes = [c for c in cases if c.op == "encode"]
    rejects = [c for c in cases if c.expect == "error"]
    plan = {
        valid[0].id: "crash",
        valid[1].id: "hang",
        valid[2].id: "garbage",
        valid[3].id: "wrong-id",
        valid[4].id: "bad-reply",
        valid[5].id: "wrong-value",
        encodes[0].id: "flip",
        rejects[0].id: "accept",
    }
    command = rogue_command(tmp_path, monkeypatch, {"decode": ["roaring32"], "encode": ["roaring32"]}, plan, cases)
    run = runner.run(command, cases, timeout=HANG_SECONDS)
    by_id = {r.case.id: r for r in run.results}
    assert {r.case.id for r in run.failed()} == set(plan)
    assert "exit code 3" in by_id[valid[0].id].detail
    assert f"no reply within {HANG_SECONDS} s" in by_id[valid[1].id].detail
    assert "not a JSON line" in by_id[valid[2].id].detail
    assert "id is" in by_id[valid[3].id].detail
    assert "not a valid decode_reply" in by_id[valid[4].id].detail
    assert "another case than the sidecar's" in by_id[valid[5].id].detail
    assert "first difference at 0" in by_id[encodes[0].id].detail
    assert "must be rejected" in by_id[rejects[0].id].detail
    assert run.count("passed") == len(cases) - len(plan)  # every other case, after each restart


def test_undeclared_kinds_and_operations_are_skipped_and_said(tmp_path, monkeypatch):
    cases = _cases("roaring32") + _cases("bsi")
    command = rogue_command(tmp_path, monkeypatch, {"decode": ["roaring32"]}, {}, cases)
    run = runner.run(command, cases, timeout=10)
    skipped = {r.case.id for r in run.results if r.status == "skipped"}
    assert skipped == {c.id for c in cases if c.kind == "bsi" or c.op == "encode"}
    assert all("does not declare" in r.detail for r in run.results if r.status == "skipped")
    assert run.failed() == []


def test_failure_lists_pass_listed_failures_fail_listed_passes_and_fix_rewrites(tmp_path, monkeypatch, capsys):
    cases = _cases("roaring32")
    broken = next(c for c in cases if c.op == "encode")
    fine = next(c for c in cases if c.op == "decode")
    command = rogue_command(
        tmp_path, monkeypatch, {"decode": ["roaring32"], "encode": ["roaring32"]}, {broken.id: "flip"}, cases
    )
    args = ["testee", "--kind", "roaring32", "--timeout", "10"]
    assert cli.main([*args, "--", *command]) == 1
    listed = tmp_path / "failures.txt"
    listed.write_text(f"# known\n{broken.id}  # the encoder's first byte (issue 1)\n")
    assert cli.main([*args, "--failure-list", str(listed), "--", *command]) == 0
    listed.write_text(f"{broken.id}  # the encoder's first byte\n{fine.id}  # fixed since\n")
    capsys.readouterr()
    assert cli.main([*args, "--failure-list", str(listed), "--", *command]) == 1
    assert f"{fine.id}: UNEXPECTED-PASS" in capsys.readouterr().out
    assert cli.main([*args, "--failure-list", str(listed), "--fix", "--", *command]) == 0
    assert failures.load(listed) == {broken.id: "the encoder's first byte"}
    fresh = tmp_path / "new-list.txt"  # --fix starts a list that does not exist yet
    assert cli.main([*args, "--failure-list", str(fresh), "--fix", "--", *command]) == 0
    assert list(failures.load(fresh)) == [broken.id]


def test_junit_report_counts_every_case(tmp_path, monkeypatch):
    cases = suite.golden_cases(GOLDEN, kinds=["roaring32"]) + generated.cases_for(suite.OPS, ["roaring32"])
    broken = next(c for c in cases if c.op == "encode")
    command = rogue_command(tmp_path, monkeypatch, {"decode": ["roaring32"]}, {}, cases)
    out = tmp_path / "report.xml"
    code = cli.main(["testee", "--kind", "roaring32", "--report", "junit", "-o", str(out), "--", *command])
    suite_el = ET.parse(out).getroot()
    assert code == 0
    assert suite_el.get("tests") == str(len(cases))
    assert suite_el.get("skipped") == str(sum(c.op == "encode" for c in cases))
    assert suite_el.get("failures") == "0"
    assert broken.id in {tc.get("name") for tc in suite_el.iter("testcase")}


@pytest.mark.parametrize(
    "hello",
    [
        {"id": 0, "name": "x", "version": "1", "protocol": 2, "capabilities": {}},
        {"id": 0, "name": "", "version": "1", "protocol": 1, "capabilities": {}},
        {"id": 0, "version": "1", "protocol": 1, "capabilities": {}},
    ],
)
def test_a_handshake_outside_the_protocol_is_a_usage_error(tmp_path, hello, capsys):
    script = tmp_path / "bad.py"
    script.write_text(f"import sys\nsys.stdin.readline()\nprint({json.dumps(json.dumps(hello))})\n")
    code = cli.main(["testee", "--kind", "roaring32", "--", sys.executable, str(script)])
    assert code == 2
    assert "handshake" in capsys.readouterr().err
    assert problem(hello, "hello_reply")


def test_a_missing_command_is_a_usage_error(capsys):
    assert cli.main(["testee"]) == 2
    assert cli.main(["testee", "--", "/nonexistent/testee-binary"]) == 2
    assert "cannot start" in capsys.readouterr().err


def test_the_javascript_example_testee_passes_the_blob_descriptor_decode_cases(capsys):
    """The guide's example in another language (tools/testees/blob_descriptor.js, Node.js without packages):
    every blob-descriptor decode case, the must-reject ones included, and 64-bit values exact."""
    import shutil

    node = shutil.which("node")
    assert node, "node is installed by tools/install.sh"
    script = str(ROOT / "tools" / "testees" / "blob_descriptor.js")
    code = cli.main(["testee", "--kind", "blob-descriptor", "--report", "json", "--", node, script])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    decodes = [c for c in doc["cases"] if c["op"] == "decode"]
    assert decodes
    assert {c["status"] for c in decodes} == {"passed"}
    assert {c["status"] for c in doc["cases"] if c["op"] == "encode"} == {"skipped"}
    assert any("must-reject" in c["id"] for c in decodes)
    assert any("long-extremes" in c["id"] for c in decodes)


def test_a_key_hashed_otherwise_than_java_fails_that_case(tmp_path, monkeypatch):
    """The hash operation: each Java-written BinaryRow golden's types and values, to Java's row bytes,
    hashCode and bucket per count; one hashCode off by one fails that case alone."""
    cases = [c for c in _cases("binary-row") if c.op == "hash"]
    assert len(cases) >= 20
    command = rogue_command(tmp_path, monkeypatch, {"hash": ["binary-row"]}, {cases[0].id: "hash-off"}, cases)
    run = runner.run(command, cases, timeout=10)
    assert [r.case.id for r in run.failed()] == [cases[0].id]
    assert "another hash than Java's" in run.failed()[0].detail
    assert run.count("passed") == len(cases) - 1
