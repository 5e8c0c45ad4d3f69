"""`paimon-conform matrix` as a user runs it: the reference testees (tools/testees/reference.json) write every
table kind, the kit validates each for every Java line in play, every testee reads every table. The run passes
with the matrix failure list; no Java reader fails on a table the kit passes for that reader's line; the
docs/matrix.md shows this very matrix; the page renders in headless Chromium with every cell."""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import java_releases
import pytest
from support import background, testees
from support.environment import missing
from support.jobs import protocol_matrix_job

EVIDENCE = ("java", "third-party")

ROOT = Path(__file__).resolve().parent.parent
LISTING = testees.MATRIX_LIST
ARTIFACTS = ROOT / "build" / "artifacts"  # screenshots kept after the run (test_docs_site keeps its own there)


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, dict, Path]:
    """The matrix run (started beside the first tests when the run includes this module: conftest)."""
    out, done = background.result("testee-matrix", lambda: protocol_matrix_job(tmp_path_factory))
    doc = json.loads((out / "matrix.json").read_text()) if (out / "matrix.json").is_file() else {}
    return done, doc, out


def test_matrix_passes_with_its_failure_list(matrix) -> None:
    done, doc, _ = matrix
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    names = set(doc["testees"])
    java = {r.testee for r in java_releases.releases().values()} | {"java-1.0-SNAPSHOT"}
    connectors = {f"paimon-spark-{v}" for v in java_releases.connectors()}
    assert names == java | connectors | {"pypaimon", "pypaimon-rust", "kit-spark", "kit"}
    assert not doc["skipped"]
    reads = {(c["producer"], c["consumer"], c["kind"]) for c in doc["checks"] if c["step"] == "read"}
    assert reads == {(p, c, k) for p in names for c in names for k in doc["kinds"]}, "every pair, every kind"
    assert all(c["ok"] for c in doc["checks"] if c["step"] == "write"), "every writer writes every kind"
    bases = {c["producer"] for c in doc["checks"] if c["step"] == "chain-base"}
    assert bases == names, "every writer writes the chains' table"
    continued = {c["producer"] for c in doc["checks"] if c["step"] == "chain-write"}
    assert continued == {f"{a}+{b}" for a in names for b in names if a != b}, "each writer after each other one"


def test_every_failing_chain_check_names_the_writer_that_broke_the_table(matrix) -> None:
    _, doc, _ = matrix
    failing = [c for c in doc["checks"] if c["step"].startswith("chain-") and not c["ok"]]
    assert failing, "the reference writers include ones that break another writer's table"
    for c in failing:
        writers = c["producer"].split("+")
        blamed = re.search(r"broken by ([^ :(]+)", c["detail"])
        assert blamed, f"{c['id']}: {c['detail'][:300]}"
        assert blamed.group(1) in writers, c["id"]


def test_no_chain_read_by_java_fails_where_the_kit_reads_the_rows(matrix) -> None:
    """Trust: when a Java reader does not get a chain table's rows, the kit either has a must-finding for that
    reader's line or its own reader does not get them either (it reads as Java does, never past a broken table)."""
    _, doc, _ = matrix
    java = {n: h["java_release"] for n, h in doc["testees"].items() if n.startswith(("java-", "paimon-spark-"))}
    by_id = {c["id"]: c for c in doc["checks"]}
    failed = [c for c in doc["checks"] if c["step"] == "chain-read" and not c["ok"] and c["consumer"] in java]
    assert failed
    for c in failed:
        kit = by_id.get(c["id"].replace(f">{c['consumer']}:", ">kit:"))
        validated = by_id.get(f"chain-validate-{java[c['consumer']]}:{c['producer']}:{c['kind']}")
        assert (kit is not None and not kit["ok"]) or (validated is not None and not validated["ok"]), c["id"]


def test_no_java_read_fails_where_the_kit_sees_nothing(matrix) -> None:
    """Trust: a table a Java reader cannot read has a must-finding when the kit judges for that reader's line."""
    _, doc, _ = matrix
    validated = {(c["producer"], c["kind"], c["consumer"]): c["ok"] for c in doc["checks"] if c["step"] == "validate"}
    java_readers = {n: h["java_release"] for n, h in doc["testees"].items() if h.get("java_release")}
    failed = [c for c in doc["checks"] if c["step"] == "read" and not c["ok"] and c["consumer"] in java_readers]
    assert failed, "the reference writers include ones Java 0.9 cannot read"
    for c in failed:
        line = f"Java {java_readers[c['consumer']]}"
        assert validated[(c["producer"], c["kind"], line)] is False, (
            f"{c['id']} fails, the kit finds nothing for {line}"
        )


def test_java_and_the_kit_read_what_java_and_the_kit_write(matrix) -> None:
    """Java's (the Spark connector's among them) and the kit's tables are read by every Java release, the
    connector and the kit, and pass the kit's validation for
    the writer's own line and every newer one (for an older line, what a newer release writes may be a real
    incompatibility: the failure list says which, with what the older release did)."""
    _, doc, _ = matrix
    lines = {n: h.get("java_release") for n, h in doc["testees"].items()}
    own = {n for n in lines if n.startswith(("java-", "paimon-spark-"))} | {"kit-spark", "kit"}
    order = sorted({v for v in lines.values() if v}, key=lambda v: tuple(map(int, v.split("."))))
    for c in doc["checks"]:
        if c["producer"] not in own:
            continue
        if c["step"] == "validate":
            written = lines[c["producer"]]
            judged = c["consumer"].removeprefix("Java ")
            if written and order.index(judged) < order.index(written):
                continue
        elif c["consumer"] not in own:
            continue
        assert c["ok"], f"{c['id']}: {c['detail']}"


def test_docs_show_the_current_matrix(matrix) -> None:
    done, _, _ = matrix
    table = "".join(line + "\n" for line in done.stdout.splitlines() if line.startswith("|"))
    page = (ROOT / "docs" / "matrix.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- matrix:start -->\n(.*?)<!-- matrix:end -->", page, re.S)
    assert block, "docs/matrix.md has the matrix block"
    shown = [line for line in block.group(1).splitlines() if line.strip()]  # the two tables, a blank line apart
    assert shown == table.strip().splitlines(), "docs/matrix.md's matrix (and chains) are the ones this run produced"


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_matrix_page_in_headless_chromium(matrix, tmp_path: Path) -> None:
    """The page renders in a real browser: a screenshot of it, and every cell in the DOM Chromium built."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        missing("chromium is not installed (tools/install.sh installs Debian's chromium)")
    _, doc, out = matrix
    page = (out / "matrix.html").as_uri()
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'p'}",
    ]
    shot = tmp_path / "matrix.png"
    subprocess.run(
        [browser, *flags, f"--screenshot={shot}", "--window-size=1600,1000", page], capture_output=True, timeout=120
    )
    width, height = _png_size(shot.read_bytes())
    assert (width, height) == (1600, 1000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, ARTIFACTS / "matrix.png")  # kept with the run's other screenshots
    dom = subprocess.run([browser, *flags, "--dump-dom", page], capture_output=True, text=True, timeout=120).stdout
    producers = [n for n, h in doc["testees"].items() if h["capabilities"].get("write-table")]
    lines = sorted({c["consumer"] for c in doc["checks"] if c["step"] == "validate"})
    columns = 1 + len(lines) + len(doc["testees"])
    cells = re.findall(r'<td class="(pass|fail|listed|none)" data-producer="([^"]+)"', dom)
    assert len(cells) == len(producers) * columns, "one cell per producer and column"
    assert {p for _, p in cells} == set(producers)
    links = re.findall(r'<td class="listed" data-producer[^>]*><a href="#([^"]+)"', dom)
    assert len(links) == sum(cls == "listed" for cls, _ in cells) > 0, "each cell with failures links to them"
    for anchor in links:
        assert f'<section class="cell" id="{anchor}">' in dom, f"the findings of {anchor}"
    assert not any(cls == "fail" for cls, _ in cells), "every failure is a listed one"
    chains = re.findall(r'<td class="(pass|fail|listed|none)" data-chain="([^"]+)">(<a href="#([^"]+)")?', dom)
    writers = {c["producer"] for c in doc["checks"] if c["step"] == "chain-base"}
    assert len(chains) == len(writers) * (len(writers) + 1), "a row per first writer: alone, then each writer"
    for cls, _, _, anchor in chains:
        assert (cls in ("fail", "listed")) == bool(anchor), "each chain cell with failures links to them"
        if anchor:
            section = re.search(f'<section class="cell" id="{anchor}">(.*?)</section>', dom, re.S)
            assert section, anchor
            assert "broken by" in section.group(1), anchor
