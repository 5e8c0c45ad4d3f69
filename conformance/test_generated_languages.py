"""The specs mean the same thing in every generated language: each package under generated/<language>/ is built
with its own tool, its dump program parses every golden file (and every payload the kit parses inside one, with
the kit's parameters), and its trees and verdicts must be Python's (paimon_layouts.dump, the reference). The
fuzz differential does the same over mutants of those parses (tree_jobs.FUZZ_SEED, fixed: the same mutants in
every run): a flipped byte, a random 4-byte count or offset, a cut, an insertion. The testees built on the
generated parsers (tools/testees/generated_<language>) pass the decode cases, and generated/python installs
alone.

Differences a target cannot avoid are listed, with the reason, in support/language_differences.tsv; the list
fails both ways (a listed job that now agrees fails too). The builds, dumps, testee runs and the clean install
are a background job (support/languages.run_all).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from support import background, languages, tally, tree_jobs
from support.jobs import generated_languages_job

EVIDENCE = ("kit",)  # Python's generated parser is the reference: this shows agreement, not conformance


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> languages.Run:
    return background.result("generated-languages", lambda: generated_languages_job(tmp_path_factory))


def test_the_jobs_cover_the_corpus(run: languages.Run) -> None:
    """Every golden layout folder yields jobs, and both verdicts occur (must-reject files are in)."""
    folders = {Path(f).parts[0] for files in run.where.values() for f in files}
    golden = {p.name for p in languages.ROOT.joinpath("golden").iterdir() if p.is_dir()} - {"tables", "dynamic_bucket"}
    assert folders == golden
    verdicts = Counter(r["ok"] for r in run.lines[("python", "corpus")].values())
    assert verdicts[True] > 1000, verdicts
    assert verdicts[False] > 100, verdicts


def test_the_mutants_take_both_verdicts(run: languages.Run) -> None:
    """The fuzz differential is not all rejections (or all acceptances): both verdicts occur in numbers."""
    reference = run.lines[("python", "fuzz")]
    print(f"fuzz differential: {len(reference)} mutants, seed {tree_jobs.FUZZ_SEED}")
    verdicts = Counter(r["ok"] for r in reference.values())
    assert verdicts[True] > 5000, verdicts
    assert verdicts[False] > 5000, verdicts


@pytest.mark.parametrize("jobs", ["corpus", "fuzz"])
@pytest.mark.parametrize("language", languages.LANGUAGES)
def test_trees_are_pythons(language: str, jobs: str, run: languages.Run) -> None:
    """Each parse: the same verdict and, when accepted, the same tree as Python's, unless listed with a reason."""
    reference, got = run.lines[("python", jobs)], run.lines[(language, jobs)]
    assert set(got) == set(reference), "the dump program skipped or invented jobs"
    found = {job: why for job in reference if (why := languages.difference(reference[job], got[job], language))}
    listed = {job: why for job, why in languages.pinned(language).items() if job in reference}
    t = tally.tally(f"languages/{language}-{jobs}")
    t.checked, t.listed = len(reference) - len(listed), len(listed)
    new = {job: f"{why} (golden {run.where.get(job, ['a mutant'])[0]})" for job, why in found.items()}
    new = {job: why for job, why in new.items() if job not in listed}
    fixed = sorted(set(listed) - set(found))
    assert not new, f"{language} differs from Python on {len(new)} jobs:\n" + "\n".join(
        f"  {job}: {why}" for job, why in sorted(new.items())[:40]
    )
    assert not fixed, f"{language} now agrees on listed jobs; unlist them: {fixed}"


@pytest.mark.parametrize("language", ["go", "rust"])
def test_no_parse_panics(language: str, run: languages.Run) -> None:
    """Go and Rust reject a malformed file with an error, never a panic (which the dump programs catch and print
    as a rejection starting "panic:", so that it cannot pass as one): a port's parser must not crash on bad input."""
    lines = [line for jobs in ("corpus", "fuzz") for line in run.lines[(language, jobs)].values()]
    rejected = [line["error"] for line in lines if not line["ok"]]
    assert len(rejected) > 5000
    assert [e for e in rejected if e.startswith("panic")] == []


def test_lean_python_package(run: languages.Run) -> None:
    """generated/python is its own distribution (paimon-layouts) whose only dependency is kaitaistruct: built as
    a wheel and installed in a clean venv, its dump gives Python's trees, except that a compressed block needs
    the `codecs` extra (cramjam) and is refused with a message saying so; with cramjam, every tree."""
    lean, reference = run.lean, run.lines[("python", "corpus")]
    assert lean is not None
    assert lean.installed - {"pip", "setuptools"} == {"kaitaistruct", "paimon-layouts"}
    needs_codec = {j for j, d in lean.bare.items() if not d["ok"] and "needs cramjam" in d["error"]}
    assert needs_codec, "no corpus job has a compressed block"
    assert {j.split("/")[0] for j in needs_codec} <= {"bitmap_global_index", "btree_global_index", "row_file"}
    bare = [j for j in reference if j not in needs_codec and languages.difference(reference[j], lean.bare[j], "py")]
    assert bare == []
    assert [j for j in reference if languages.difference(reference[j], lean.full[j], "py")] == []


@pytest.mark.parametrize("language", languages.TESTEES)
def test_the_testees_on_the_generated_parsers_pass_the_decode_cases(language: str, run: languages.Run) -> None:
    """tools/testees/generated_<language> (the generated package and nothing else of the kit's): every decode
    case of roaring32, roaring64, deletion-vectors and file-index (each payload's values in the column type's
    JSON form), the must-reject files and the generated cases included."""
    code, doc = run.testees[language]
    assert code == 0, doc
    decodes = [c for c in doc["cases"] if c["op"] == "decode"]
    assert {c["status"] for c in decodes} == {"passed"}
    folders = {c["id"].split(":")[1].split("/")[0] for c in decodes}
    assert folders == {*(k.replace("-", "_") for k in languages.TESTEE_KINDS), "generated"}
    assert sum("must-reject" in c["id"] for c in decodes) >= 35
    assert sum(c["id"].startswith("decode:file_index/java-") for c in decodes) >= 21
    t = tally.tally(f"languages/{language}-testee-decode")
    t.checked = len(decodes)
