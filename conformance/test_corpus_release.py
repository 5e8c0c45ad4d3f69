"""The versioned corpus release (tools/corpus_release.py): the same bytes twice, every checksum right by
`sha256sum -c` and by the manifest, `paimon-conform corpus` passing on the extracted tree, and versions that
follow what changed."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import corpus_release
import pytest
from support import sweep
from support.environment import GOLDEN, ROOT, require

EVIDENCE = ("contract",)


@pytest.fixture(scope="module")
def release(tmp_path_factory, request) -> tuple[Path, Path]:
    """(the archive, its extracted top folder)."""
    out = tmp_path_factory.mktemp("release")
    archive = corpus_release.write_archive(out)
    with tarfile.open(archive) as tar:
        tar.extractall(out / "x", filter="data")
    top = out / "x" / archive.name.removesuffix(".tar.gz")
    # the golden tables, extracted: `paimon-conform corpus` validates each below and fails on an internal error
    sweep.checked(request.node.nodeid, sweep.tables_under(top / "golden"))
    return archive, top


def test_golden_is_the_recorded_release():
    """A changed golden needs a recorded release (`--record`): the check fails until then."""
    assert corpus_release.check() == []


def test_the_archive_is_reproducible(release, tmp_path):
    """Nothing of the moment or the machine is in the archive: the gzip header has no time or name, every member
    the same time, owner and mode; and a second build is the same bytes."""
    archive, _ = release
    head = archive.read_bytes()[:10]
    assert head[:3] == b"\x1f\x8b\x08"
    assert head[3] == 0  # no FNAME, no FEXTRA
    assert head[4:8] == b"\0\0\0\0"  # MTIME 0
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == sorted(m.name for m in members)
    assert {(m.mtime, m.uid, m.gid, m.uname, m.gname) for m in members} == {(0, 0, 0, "", "")}
    assert {m.mode for m in members if m.isfile()} == {0o644}
    assert {m.mode for m in members if m.isdir()} == {0o755}
    again = corpus_release.write_archive(tmp_path)
    assert again.name == archive.name
    assert again.read_bytes() == archive.read_bytes()
    stated = (archive.parent / f"{archive.name}.sha256").read_text().split()
    assert stated == [hashlib.sha256(archive.read_bytes()).hexdigest(), archive.name]


def test_sha256sum_verifies_the_archive_and_every_file(release):
    require("sha256sum")
    archive, top = release
    done = subprocess.run(["sha256sum", "-c", f"{archive.name}.sha256"], cwd=archive.parent, capture_output=True)
    assert done.returncode == 0, done.stdout + done.stderr
    done = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=top, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {line.split("  ", 1)[1] for line in (top / "SHA256SUMS").read_text().splitlines()}
    on_disk = {p.relative_to(top).as_posix() for p in (top / "golden").rglob("*") if p.is_file()}
    assert listed == on_disk
    assert on_disk == {f"golden/{p.relative_to(GOLDEN).as_posix()}" for p in GOLDEN.rglob("*") if p.is_file()}


def test_a_changed_byte_fails_sha256sum(release, tmp_path):
    """Control: the check above can fail."""
    require("sha256sum")
    _, top = release
    copy_top = tmp_path / "t"  # the roaring32 files and their lines of SHA256SUMS (no table to sweep again)
    shutil.copytree(top / "golden" / "roaring32", copy_top / "golden" / "roaring32")
    sums = [x for x in (top / "SHA256SUMS").read_text().splitlines(True) if "  golden/roaring32/" in x]
    (copy_top / "SHA256SUMS").write_text("".join(sums))
    done = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=copy_top, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
    victim = next((copy_top / "golden" / "roaring32").rglob("*.bin"))
    data = bytearray(victim.read_bytes())
    data[-1] ^= 1
    victim.write_bytes(bytes(data))
    done = subprocess.run(["sha256sum", "-c", "--quiet", "SHA256SUMS"], cwd=copy_top, capture_output=True, text=True)
    assert done.returncode == 1
    assert victim.relative_to(copy_top).as_posix() in done.stdout


def test_the_manifest_lists_each_file_once_with_its_checksum(release):
    _, top = release
    doc = json.loads((top / "MANIFEST.json").read_text())
    assert doc["name"] == "paimon-conform-corpus"
    assert doc["version"] == json.loads(corpus_release.RELEASED.read_text())["version"]
    files = [f for c in doc["cases"] for f in c["files"]]
    assert len(files) == len({f["path"] for f in files}) == sum(1 for p in GOLDEN.rglob("*") if p.is_file())
    for f in files:
        data = (top / "golden" / f["path"]).read_bytes()
        assert (hashlib.sha256(data).hexdigest(), len(data)) == (f["sha256"], f["size"]), f["path"]


def test_the_manifest_says_what_each_case_expects(release):
    """Expectations come from the sidecars: every must-reject sidecar is a reject with its code, field and
    byte; every Java-written golden names its release as it appears in its folder name."""
    _, top = release
    doc = json.loads((top / "MANIFEST.json").read_text())
    by_path = {c["path"]: c for c in doc["cases"]}
    rejects = 0
    for sidecar in sorted(GOLDEN.glob("*/must-reject/*.json")):
        case = by_path[sidecar.with_suffix(".bin").relative_to(GOLDEN).as_posix()]
        written = json.loads(sidecar.read_text())
        stated = written["must_reject"]
        said = {k: v for k, v in written.items() if k != "provenance"}
        assert case["expected"] == {
            "verdict": "reject",
            "codes": [stated["code"]],
            "path": stated["path"],
            "offset": stated.get("offset"),
            "content": hashlib.sha256(json.dumps(said, sort_keys=True, separators=(",", ":")).encode()).hexdigest(),
        }
        rejects += 1
    assert rejects == sum(c["expected"]["verdict"] == "reject" for c in doc["cases"]) > 100
    for c in doc["cases"]:
        folder = Path(c["path"]).parts[-2] if c["check"] != "table" else Path(c["path"]).parts[1]
        if folder.startswith("java-"):
            assert c["java_release"] == folder.removeprefix("java-"), c["path"]
            assert c["producer"] == "java-paimon"
    tables = [c for c in doc["cases"] if c["check"] == "table"]
    assert tables
    assert all(c["expected"]["verdict"] == "accept" for c in tables)
    assert {"file", "table", "sequence"} == {c["check"] for c in doc["cases"]}


def test_the_extracted_corpus_passes_its_check(release):
    _, top = release
    cli = Path(sys.executable).parent / "paimon-conform"
    command = [str(cli), "corpus", "--golden", str(top / "golden"), "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    cases = len(json.loads((top / "MANIFEST.json").read_text())["cases"])
    assert f"  {cases} golden file(s), {cases} as expected, 0 not" in done.stdout
    assert str(top / "golden") in done.stdout


def test_the_ports_readme_and_changes_are_in_the_archive(release):
    _, top = release
    assert (top / "README.md").read_bytes() == (ROOT / "tools" / "corpus" / "README.md").read_bytes()
    version = json.loads((top / "MANIFEST.json").read_text())["version"]
    assert f"## {version}" in (top / "CHANGES.md").read_text()


# --------------------------------------------------------------------------- versions by what changed


def _manifest() -> dict:
    return json.loads(corpus_release.RELEASED.read_text())


def test_versions_follow_what_changed():
    old = _manifest()
    assert corpus_release.compare(old, copy.deepcopy(old)).bump() == "none"

    removed = copy.deepcopy(old)
    gone = removed["cases"].pop(3)["path"]
    assert corpus_release.compare(old, removed).removed == [gone]
    assert corpus_release.compare(old, removed).bump() == "major"
    assert corpus_release.compare(removed, old).bump() == "minor"  # the other way, an added case

    reject = next(i for i, c in enumerate(old["cases"]) if c["expected"]["verdict"] == "reject")
    other = copy.deepcopy(old)
    other["cases"][reject]["expected"]["offset"] += 1
    assert corpus_release.compare(old, other).expectation == [old["cases"][reject]["path"]]
    assert corpus_release.compare(old, other).bump() == "major"

    table = next(i for i, c in enumerate(old["cases"]) if c["check"] == "table")
    fewer = copy.deepcopy(old)
    fewer["cases"][table]["files"].pop(0)  # a file of a table removed
    assert corpus_release.compare(old, fewer).bump() == "major"
    assert corpus_release.compare(fewer, old).bump() == "minor"

    accepted = next(
        i for i, c in enumerate(old["cases"]) if c["check"] == "file" and c["expected"]["verdict"] == "accept"
    )
    for what in ("bytes", "content"):  # what a writer must write, what a reader must read
        other = copy.deepcopy(old)
        other["cases"][accepted]["expected"][what] = "2" * 64
        assert corpus_release.compare(old, other).bump() == "major", what

    rewritten = copy.deepcopy(old)  # a table's data file written again, its rows (the sidecar) the same
    rewritten["cases"][table]["files"][0]["sha256"] = "0" * 64
    assert corpus_release.compare(old, rewritten).content == [old["cases"][table]["path"]]
    assert corpus_release.compare(old, rewritten).bump() == "minor"

    reordered = copy.deepcopy(old)  # nothing else: the manifest's own form
    reordered["cases"].reverse()
    assert corpus_release.compare(old, reordered).bump() == "patch"

    reworded = copy.deepcopy(old)
    reworded["readme_sha256"] = "1" * 64  # the README for ports changed, nothing else
    assert corpus_release.compare(old, reworded).bump() == "patch"
    both = copy.deepcopy(rewritten)
    both["readme_sha256"] = "1" * 64
    assert corpus_release.compare(old, both).bump() == "minor"

    bumps = ("major", "minor", "patch", "none")
    assert [corpus_release.next_version("1.4.2", b) for b in bumps] == ["2.0.0", "1.5.0", "1.4.3", "1.4.2"]


def test_the_manifest_records_the_readme_for_ports():
    doc = _manifest()
    readme = (ROOT / "tools" / "corpus" / "README.md").read_bytes()
    assert doc["readme_sha256"] == hashlib.sha256(readme).hexdigest()


def test_record_versions_a_changed_corpus_and_writes_its_changes(tmp_path, monkeypatch):
    """--record on a small corpus: the first release, then an added case (minor), a removed one (major), a
    README change (patch), each with its CHANGES.md section; --check fails until a change is recorded."""
    root = tmp_path / "golden"
    cases = sorted((GOLDEN / "roaring32" / "java-0.9.0").glob("*.json"))[:3]
    for side in cases[:2]:
        target = root / "roaring32" / "java-0.9.0"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy(side, target)
        shutil.copy(side.with_suffix(".bin"), target)
    readme = tmp_path / "README.md"
    readme.write_text("ports\n")
    monkeypatch.setattr(corpus_release, "RELEASED", tmp_path / "released.json")
    monkeypatch.setattr(corpus_release, "CHANGES", tmp_path / "CHANGES.md")
    monkeypatch.setattr(corpus_release, "PORTS_README", readme)
    assert corpus_release.check(root) == ["no release recorded (tools/corpus/released.json)"]
    assert corpus_release.record(root) == "1.0.0"
    assert corpus_release.check(root) == []
    assert corpus_release.record(root) == "1.0.0"  # nothing changed, nothing recorded

    added = root / "roaring32" / "java-0.9.0"
    shutil.copy(cases[2], added)
    shutil.copy(cases[2].with_suffix(".bin"), added)
    new_case = f"roaring32/java-0.9.0/{cases[2].stem}.bin"
    assert f"added: {new_case}" in corpus_release.check(root)
    assert corpus_release.record(root) == "1.1.0"
    (added / cases[0].name).unlink()
    (added / cases[0].with_suffix(".bin").name).unlink()
    assert corpus_release.record(root) == "2.0.0"
    readme.write_text("ports, reworded\n")
    assert corpus_release.record(root) == "2.0.1"
    changes = (tmp_path / "CHANGES.md").read_text()
    assert [line for line in changes.splitlines() if line.startswith("## ")] == [
        "## 2.0.1",
        "## 2.0.0",
        "## 1.1.0",
        "## 1.0.0",
    ]
    assert f"### Added: 1\n\n- `{new_case}`" in changes
    assert f"### Removed (a major change): 1\n\n- `roaring32/java-0.9.0/{cases[0].stem}.bin`" in changes
    assert "The first release: 2 cases." in changes
    assert corpus_release.check(root) == []


def _corpus_cli(golden: Path) -> subprocess.CompletedProcess:
    cli = Path(sys.executable).parent / "paimon-conform"
    return subprocess.run([str(cli), "corpus", "--golden", str(golden), "--jobs", "1"], capture_output=True, text=True)


def test_corpus_on_a_release_folder_counts_its_cases_against_the_manifest(tmp_path):
    """`corpus --golden TOP` on an extracted release checks TOP/golden and holds it to MANIFEST.json's count;
    no case, or no folder, is a usage error (exit 2) naming the path, never a clean pass."""
    top = tmp_path / "release"
    side = sorted((GOLDEN / "roaring32" / "java-0.9.0").glob("*.json"))[0]
    target = top / "golden" / "roaring32" / "java-0.9.0"
    target.mkdir(parents=True)
    shutil.copy(side, target)
    shutil.copy(side.with_suffix(".bin"), target)
    (top / "MANIFEST.json").write_text(json.dumps({"cases": [{}]}))
    done = _corpus_cli(top)
    assert done.returncode == 0, done.stderr
    assert "1 golden file(s), 1 as expected, 0 not" in done.stdout
    (top / "MANIFEST.json").write_text(json.dumps({"cases": [{}, {}]}))
    done = _corpus_cli(top)
    assert done.returncode == 2
    assert "1 case(s) here, but the release's MANIFEST.json lists 2" in done.stderr
    (top / "MANIFEST.json").write_text("[[[")
    assert "not a corpus release manifest" in _corpus_cli(top).stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    done = _corpus_cli(empty)
    assert done.returncode == 2
    assert f"{empty}: no golden case here" in done.stderr
    done = _corpus_cli(tmp_path / "missing")
    assert done.returncode == 2
    assert f"{tmp_path / 'missing'}: not a directory" in done.stderr


def test_a_sequence_that_is_not_an_object_is_unusable_not_a_crash(tmp_path):
    bad = tmp_path / "golden" / "dynamic_bucket" / "java-0.9.0"
    bad.mkdir(parents=True)
    (bad / "list.json").write_text("[]")
    done = _corpus_cli(tmp_path / "golden")
    assert done.returncode == 2
    assert "dynamic_bucket/java-0.9.0/list.json: UNUSABLE not a dynamic-bucket fixture" in done.stdout
    assert "internal error" not in done.stderr
