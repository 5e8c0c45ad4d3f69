"""The specs mean the same thing in every generated language: each package under generated/<language>/ is built
with its own tool, its dump program parses every golden file (and every payload the kit parses inside one, with
the kit's parameters), and its trees and verdicts must be Python's (paimon_layouts.dump, the reference). The
fuzz differential does the same over mutants of those parses (tree_jobs.FUZZ_SEED, fixed: the same mutants in
every run): a flipped byte, a random 4-byte count or offset, a cut, an insertion.

Differences a target cannot avoid are listed, with the reason, in support/language_differences.tsv; the list
fails both ways (a listed job that now agrees fails too).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from support import languages, packaging, tally, tree_jobs
from support.environment import ROOT

from paimon_conform import cli

EVIDENCE = ("kit",)  # Python's generated parser is the reference: this shows agreement, not conformance
LANGUAGES = ("java", "javascript", "go")


@pytest.fixture(scope="module")
def corpus_jobs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:
    """The jobs file of the whole golden corpus, Python's result of each job, and each job's golden files."""
    root = tmp_path_factory.mktemp("tree-jobs")
    (root / "data").mkdir()
    jobs, where = tree_jobs.collect(root / "data")
    tree_jobs.write_jobs(jobs, root / "data", root / "jobs.tsv")
    return root / "jobs.tsv", tree_jobs.reference_lines(jobs, root / "data"), where


@pytest.fixture(scope="module")
def fuzz_jobs(corpus_jobs: tuple[Path, dict, dict]) -> tuple[Path, dict, dict]:
    """The mutants of every corpus job, as a jobs file, with Python's results."""
    jobs_file, _, _ = corpus_jobs
    data = jobs_file.parent / "data"
    jobs = [tree_jobs.Job(r[1], Path(r[2]).name, tuple(r[3:])) for r in _rows(jobs_file)]
    mutants = tree_jobs.fuzz_jobs(jobs, data)
    print(f"fuzz differential: {len(mutants)} mutants of {len(jobs)} parses, seed {tree_jobs.FUZZ_SEED}")
    out = jobs_file.with_name("fuzz.tsv")
    tree_jobs.write_jobs(mutants, data, out)
    return out, tree_jobs.reference_lines(mutants, data), {m.id: ["(a mutant)"] for m in mutants}


def _rows(jobs_file: Path) -> list[list[str]]:
    return [line.split("\t") for line in jobs_file.read_text().splitlines() if line]


def test_the_jobs_cover_the_corpus(corpus_jobs: tuple[Path, dict, dict]) -> None:
    """Every golden layout folder yields jobs, and both verdicts occur (must-reject files are in)."""
    _, reference, where = corpus_jobs
    folders = {Path(f).parts[0] for files in where.values() for f in files}
    golden = {p.name for p in languages.ROOT.joinpath("golden").iterdir() if p.is_dir()} - {"tables", "dynamic_bucket"}
    assert folders == golden
    verdicts = Counter(r["ok"] for r in reference.values())
    assert verdicts[True] > 1000, verdicts
    assert verdicts[False] > 100, verdicts


@pytest.mark.parametrize("language", LANGUAGES)
def test_dump_trees_are_pythons(language: str, corpus_jobs: tuple[Path, dict, dict]) -> None:
    """Each corpus parse: the same verdict and, when accepted, the same tree as Python's, unless listed."""
    _agree(language, *corpus_jobs, "trees")


def test_the_mutants_take_both_verdicts(fuzz_jobs: tuple[Path, dict, dict]) -> None:
    """The fuzz differential is not all rejections (or all acceptances): both verdicts occur in numbers."""
    verdicts = Counter(r["ok"] for r in fuzz_jobs[1].values())
    assert verdicts[True] > 5000, verdicts
    assert verdicts[False] > 5000, verdicts


@pytest.mark.parametrize("language", LANGUAGES)
def test_fuzz_trees_are_pythons(language: str, fuzz_jobs: tuple[Path, dict, dict]) -> None:
    """Each mutant: the same verdict and, when accepted, the same tree as Python's, unless listed."""
    _agree(language, *fuzz_jobs, "fuzz")


def _agree(language: str, jobs_file: Path, reference: dict, where: dict, kind: str) -> None:
    got = languages.run_dump(language, jobs_file)
    assert set(got) == set(reference), "the dump program skipped or invented jobs"
    found = {job: why for job in reference if (why := languages.difference(reference[job], got[job], language))}
    listed = {job: why for job, why in languages.pinned(language).items() if job in reference}
    t = tally.tally(f"languages/{language}-{kind}")
    t.checked, t.listed = len(reference) - len(listed), len(listed)
    new = {job: f"{why} (golden {where[job][0]})" for job, why in found.items() if job not in listed}
    fixed = sorted(set(listed) - set(found))
    assert not new, f"{language} differs from Python on {len(new)} jobs:\n" + "\n".join(
        f"  {job}: {why}" for job, why in sorted(new.items())[:40]
    )
    assert not fixed, f"{language} now agrees on listed jobs; unlist them: {fixed}"


def test_lean_python_package(corpus_jobs: tuple[Path, dict, dict], tmp_path: Path) -> None:
    """generated/python is its own distribution (paimon-layouts) whose only dependency is kaitaistruct: built as
    a wheel and installed in a clean venv, its dump gives Python's trees, except that a compressed block needs
    the `codecs` extra (cramjam) and is refused with a message saying so; with cramjam, every tree."""
    jobs_file, reference, _ = corpus_jobs
    wheel = packaging.build_wheel(tmp_path / "wheel", languages.GENERATED / "python", "paimon_layouts")
    assert not isinstance(wheel, str), wheel
    bin_dir = packaging.install(tmp_path / "venv", wheel, None, None)
    assert not isinstance(bin_dir, str), bin_dir
    listed = subprocess.run([str(bin_dir / "python"), "-m", "pip", "list", "--format=freeze"], capture_output=True)
    names = {line.split("==")[0].lower() for line in listed.stdout.decode().split()}
    assert names - {"pip", "setuptools"} == {"kaitaistruct", "paimon-layouts"}

    def dump() -> dict[str, dict]:
        cmd = [str(bin_dir / "python"), "-m", "paimon_layouts.dump", "--jobs", str(jobs_file)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900, cwd=tmp_path)
        assert done.returncode == 0, done.stderr[-2000:]
        return {(d := json.loads(line)).pop("id"): d for line in done.stdout.splitlines()}

    bare = dump()
    needs_codec = {j for j, d in bare.items() if not d["ok"] and "needs cramjam" in d["error"]}
    assert needs_codec, "no corpus job has a compressed block"
    assert {j.split("/")[0] for j in needs_codec} <= {"bitmap_global_index", "btree_global_index", "row_file"}
    assert [j for j in reference if j not in needs_codec and languages.difference(reference[j], bare[j], "py")] == []
    pin = next(line for line in (ROOT / "requirements" / "constraints.txt").read_text().split() if "cramjam" in line)
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", pin], check=True, timeout=600)
    full = dump()
    assert [j for j in reference if languages.difference(reference[j], full[j], "py")] == []


@pytest.mark.parametrize("language", ["java", "go"])
def test_the_testees_on_the_generated_parsers_pass_the_decode_cases(
    language: str, capsys: pytest.CaptureFixture
) -> None:
    """tools/testees/generated_<language> (the generated package and nothing else of the kit's): every decode
    case of roaring32, roaring64 and deletion-vectors, the must-reject files and the generated cases included."""
    languages.dump_command(language)  # builds generated/<language>
    launcher = str(ROOT / "tools" / "testees" / f"generated_{language}.py")
    kinds = ["roaring32", "roaring64", "deletion-vectors"]
    args = ["testee", *(a for k in kinds for a in ("--kind", k)), "--report", "json", "--", sys.executable, launcher]
    code = cli.main(args)
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    decodes = [c for c in doc["cases"] if c["op"] == "decode"]
    assert {c["status"] for c in decodes} == {"passed"}
    folders = {c["id"].split(":")[1].split("/")[0] for c in decodes}
    assert folders == {*(k.replace("-", "_") for k in kinds), "generated"}
    assert sum("must-reject" in c["id"] for c in decodes) >= 25
    t = tally.tally(f"languages/{language}-testee-decode")
    t.checked = len(decodes)
