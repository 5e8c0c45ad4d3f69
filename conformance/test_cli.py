"""The paimon-conform command line: exit codes, detection, reports."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from support import background
from support.jobs import main_job

from paimon_conform import cli
from paimon_conform.golden import EVIDENCE_KINDS

EVIDENCE = ("contract",)

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GOOD_DV = GOLDEN / "deletion_vectors" / "java-0.9.0" / "random.bin"
BAD_CRC = GOLDEN / "deletion_vectors" / "must-reject" / "bad-crc.bin"
HASH = GOLDEN / "hash_index" / "java-0.9.0" / "edge-values.bin"


def test_validate_exit_codes(capsys):
    assert cli.main(["validate", str(GOOD_DV)]) == 0
    assert cli.main(["validate", str(BAD_CRC)]) == 1
    assert cli.main(["validate", str(GOLDEN / "nope.bin")]) == 2
    assert cli.main(["validate", str(HASH)]) == 2  # a HASH file cannot be detected
    assert cli.main(["validate", "--kind", "hash-index", str(HASH)]) == 0
    assert cli.main(["validate", "--kind", "no-such-kind", str(HASH)]) == 2
    assert cli.main(["frobnicate"]) == 2
    capsys.readouterr()


def test_finding_line_names_file_path_offset_and_code(capsys):
    cli.main(["validate", "--java-version", "0.9.0", str(BAD_CRC)])
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"{BAD_CRC}: vectors[1].crc (byte 59) DV_CRC_MISMATCH [must]")
    assert line.endswith("[Java 0.9-1.1]")  # a must-finding names the releases it is about


def test_java_version_judges_against_one_reader(capsys):
    """A bad DV CRC fails Java 0.9-1.1 (a write reloading the vector); Java 1.2-2.0 never check it: should."""
    for version, severity in (("0.9", "must"), ("1.1.0", "must"), ("1.2", "should"), ("2.0.0", "should")):
        assert cli.main(["validate", "--java-version", version, str(BAD_CRC)]) == 1
        assert f"DV_CRC_MISMATCH [{severity}]" in capsys.readouterr().out
    assert cli.main(["validate", "--level", "must", str(BAD_CRC)]) == 0  # the default target is the newest
    assert cli.main(["validate", "--level", "must", "--java-version", "1.0", str(BAD_CRC)]) == 1
    assert cli.main(["validate", "--java-version", "7.3", str(BAD_CRC)]) == 2
    assert "known: 0.8, 0.9" in capsys.readouterr().err


def test_level_must_ignores_should_findings(tmp_path, capsys):
    from paimon_conform.layouts.roaring32.codec import encode_roaring32

    f = tmp_path / "not-optimized.bin"
    f.write_bytes(encode_roaring32([0, 1, 2, 3, 4], kinds=["array"]))  # an array where Java writes a run
    assert cli.main(["validate", str(f)]) == 1
    assert cli.main(["validate", "--level", "must", str(f)]) == 0
    assert "ROARING_NOT_RUN_OPTIMIZED [should]" in capsys.readouterr().out


def test_json_report(tmp_path, capsys):
    out = tmp_path / "r.json"
    args = ["validate", "--java-version", "0.9", "--report", "json", "-o", str(out), str(GOOD_DV), str(BAD_CRC)]
    assert cli.main(args) == 1
    doc = json.loads(out.read_text())
    assert doc["exit_code"] == 1
    by_file = {Path(f["file"]).name: f for f in doc["files"]}
    assert by_file["random.bin"]["findings"] == []
    (finding,) = by_file["bad-crc.bin"]["findings"]
    assert finding | {"message": ""} == {
        "code": "DV_CRC_MISMATCH",
        "severity": "must",
        "path": "vectors[1].crc",
        "offset": 59,
        "message": "",
        "file": str(BAD_CRC),
        "expected": None,  # the reason, when --expect-failures lists the finding
        "java_releases": ["0.9", "1.0", "1.1"],  # the releases a must-finding is about
    }
    capsys.readouterr()


def test_junit_report_parses(tmp_path, capsys):
    out = tmp_path / "r.xml"
    args = ["validate", "--java-version", "0.9", "--report", "junit", "-o", str(out), str(GOOD_DV), str(BAD_CRC)]
    assert cli.main(args) == 1
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert int(suite.get("tests")) == len(cases) == 2
    assert int(suite.get("failures")) == 1
    failures = [c.find("failure") for c in cases if c.find("failure") is not None]
    assert failures[0].get("type") == "DV_CRC_MISMATCH"
    capsys.readouterr()


def test_inspect_detects_and_describes(capsys):
    assert cli.main(["inspect", str(GOOD_DV)]) == 0
    out = capsys.readouterr().out
    assert "deletion-vectors" in out
    assert "vectors[2]" in out
    assert cli.main(["inspect", str(HASH)]) == 2
    assert "--kind" in capsys.readouterr().err
    assert cli.main(["inspect", str(BAD_CRC)]) == 1
    assert "DV_CRC_MISMATCH" in capsys.readouterr().err


def test_encode_refuses_bad_cases(tmp_path, capsys):
    case = tmp_path / "c.json"
    case.write_text(json.dumps({"case_format": 1, "kind": "roaring32", "ranges": [[5, 1]]}))
    assert cli.main(["encode", str(case), "-o", str(tmp_path / "o")]) == 2
    case.write_text(json.dumps({"case_format": 1, "kind": "roaring32", "rangez": []}))
    assert cli.main(["encode", str(case), "-o", str(tmp_path / "o")]) == 2
    case.write_text(json.dumps({"case_format": 1, "kind": "roaring32", "ranges": [[1, 3]]}))
    assert cli.main(["encode", "--kind", "hash-index", str(case), "-o", str(tmp_path / "o")]) == 2
    assert cli.main(["encode", str(case), "-o", str(tmp_path / "o")]) == 0
    assert (tmp_path / "o").read_bytes() == bytes.fromhex("3a30000001000000000002001000000001000200030000"[:44])
    capsys.readouterr()


@pytest.fixture(scope="module")
def corpus_run() -> subprocess.CompletedProcess:
    """`paimon-conform corpus` over the repository's goldens, run once as a user runs it (two workers)."""
    command = [sys.executable, "-m", "paimon_conform.cli", "corpus", "--jobs", "2"]
    return subprocess.run(command, capture_output=True, text=True)


def test_main_job():
    """The main job (sample files, sample table, Spark pipeline, the corpus in one process) ends clean (run as a
    background job, support/jobs.py)."""
    done = background.result("main-job", main_job)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "as expected, 0 not" in done.stdout
    assert "paimon-conform: OK" in done.stdout


def test_corpus(corpus_run):
    assert corpus_run.returncode == 0, corpus_run.stdout + corpus_run.stderr
    assert "as expected, 0 not" in corpus_run.stdout


def _summary_line(run: subprocess.CompletedProcess, head: str) -> str:
    """The corpus summary's line that starts with `head`."""
    return next(ln.strip() for ln in run.stdout.splitlines() if ln.strip().startswith(head))


def test_corpus_counts_the_goldens_by_evidence(corpus_run):
    """The summary says what each golden rests on, as the sidecars state it (an unstated sidecar is counted)."""
    stated = Counter(json.loads(p.read_text())["provenance"]["evidence"]["kind"] for p in GOLDEN.glob("**/*.json"))
    line = _summary_line(corpus_run, "evidence:")
    assert line == "evidence: " + ", ".join(f"{k} {stated[k]}" for k in EVIDENCE_KINDS if stated[k])


def test_corpus_counts_the_goldens_each_java_release_wrote(corpus_run):
    """The summary's "written by" count of a Java release is the number of sidecars in the corpus's folders named
    for that release (golden/<layout>/java-<release>/, golden/tables/java-<release>/)."""
    line = _summary_line(corpus_run, "written by:")
    counts = dict(part.rsplit(" ", 1) for part in line.removeprefix("written by: ").split(", "))
    folders = Counter(p.parent.name.removeprefix("java-") for p in GOLDEN.glob("**/java-[0-9]*/*.json"))
    assert {w.removeprefix("Java "): int(n) for w, n in counts.items() if w.startswith("Java ")} == folders
    assert int(counts["reference encoder"]) == len(list(GOLDEN.glob("**/encoder/*.json")))


def test_corpus_fails_when_a_golden_is_wrong(tmp_path):
    import shutil

    root = tmp_path / "golden"
    shutil.copytree(GOLDEN / "deletion_vectors" / "java-2.0.0", root / "deletion_vectors" / "java-2.0.0")
    (root / "deletion_vectors" / "java-2.0.0" / "dvindex-32.bin").write_bytes(BAD_CRC.read_bytes())
    assert cli.main(["--golden", str(root), "corpus"]) == 1


def test_embedded_bytes_as_hex(capsys):
    data = (GOLDEN / "file_index" / "java-0.9.0" / "bloom-int-small.bin").read_bytes()
    assert cli.main(["validate", f"hex:{data.hex()}"]) == 0
    assert cli.main(["inspect", "--json", f"hex:{data.hex()}"]) == 0
    assert json.loads(capsys.readouterr().out.split("\n", 1)[1])["kind"] == "file-index"
    assert cli.main(["validate", "hex:abc"]) == 2
    capsys.readouterr()


def test_a_bug_in_a_check_exits_2_naming_the_file_not_a_traceback(monkeypatch, capsys):
    """An exception outside the kit's hierarchy is an InternalError naming the file being checked: exit 2."""
    from paimon_conform.table.validate import data_file_checks

    def broken(*args, **kwargs):
        raise KeyError("boom")

    table = GOLDEN / "tables" / "java-0.9.0" / "append-fixed3-avro"
    monkeypatch.setattr(data_file_checks.ValueKinds, "add", broken)
    assert cli.main(["validate", str(table)]) == 2
    err = capsys.readouterr().err
    assert "internal error while checking" in err
    assert "KeyError" in err
    assert "Traceback" not in err
    assert f"{table}/dt=" in err
    assert ".avro" in err
    monkeypatch.setattr(cli, "validate_file", broken)
    assert cli.main(["validate", str(GOOD_DV)]) == 2
    assert str(GOOD_DV) in capsys.readouterr().err


def test_the_cli_process_never_prints_a_traceback_on_a_kit_bug(tmp_path):
    """The same through the console script: exit 2, a one-line message on stderr."""
    script = (
        "import sys\n"
        "from paimon_conform import cli\n"
        "def broken(*a, **k):\n"
        "    raise IndexError('injected')\n"
        "cli.get = broken\n"
        "sys.exit(cli.main(['validate', '--kind', 'hash-index', sys.argv[1]]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(HASH)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert "IndexError: injected" in done.stderr


def test_corpus_in_processes_reports_the_same(tmp_path, capsys):
    """`corpus --jobs 2` (forked workers) gives the one-process report: same files, order and findings, a
    failing golden included."""
    import shutil

    root = tmp_path / "golden"
    for part in ("deletion_vectors/must-reject", "deletion_vectors/java-2.0.0", "bloom_filter"):
        shutil.copytree(GOLDEN / part, root / part)
    shutil.copytree(GOLDEN / "tables" / "java-0.9.0" / "pk-dynamic-parquet", root / "tables" / "j" / "pk")
    shutil.copy(GOLDEN / "tables" / "java-0.9.0" / "pk-dynamic-parquet.json", root / "tables" / "j" / "pk.json")
    # an ORC table: the workers read it through the ORC reader each forks at its start (orc.worker.fork_worker)
    shutil.copytree(GOLDEN / "tables" / "java-0.9.0" / "pk-fixed4-orc-mor", root / "tables" / "j" / "orc")
    shutil.copy(GOLDEN / "tables" / "java-0.9.0" / "pk-fixed4-orc-mor.json", root / "tables" / "j" / "orc.json")
    (root / "deletion_vectors" / "java-2.0.0" / "dvindex-32.bin").write_bytes(BAD_CRC.read_bytes())
    reports = []
    for jobs in ("1", "2"):
        out = tmp_path / f"corpus-{jobs}.json"
        assert cli.main(["--golden", str(root), "corpus", "--jobs", jobs, "--report", "json", "-o", str(out)]) == 1
        reports.append(json.loads(out.read_text()))
    capsys.readouterr()
    assert reports[1] == reports[0]
    assert len(reports[0]["files"]) > 20
