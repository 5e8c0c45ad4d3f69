"""The generated packages of other languages (generated/<language>/): building them with their own tool, running
their dump programs over a jobs file, and comparing their trees with Python's (the reference).

The comparison is exact, with one rule per language stated here: JavaScript holds integers as IEEE doubles
(Kaitai's JavaScript runtime 0.11 has no 64-bit integer), so an integer beyond 2^53 is compared as the double
nearest to it; Go and Rust give a field its `if` leaves out its type's zero value (they have no null for an
integer or an array; a Rust enum's is its "unknown 0"), so where Python prints null, their 0, false, 0.0, "", []
or no bytes is the same. Every other difference is a
difference, listed or not (language_differences.tsv).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from support import packaging
from support.environment import ROOT, missing, require

GENERATED = ROOT / "generated"
PINS = Path(__file__).with_name("language_differences.tsv")
EXACT_IN_DOUBLE = 2**53
NO_NULL = ("go", "rust")  # a field its `if` leaves out has its type's zero value, not null


def _run(cmd: list[str], cwd: Path, timeout: int = 900) -> None:
    env = os.environ | {"CI": "true"}
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} failed in {cwd}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


LANGUAGES = ("java", "javascript", "go", "rust")  # beside Python, the reference
TESTEES = ("java", "go", "rust")  # tools/testees/generated_<language>
TESTEE_KINDS = ("roaring32", "roaring64", "deletion-vectors", "file-index")


@cache
def dump_command(language: str) -> tuple[str, ...]:
    """Build the package of `language` with its ecosystem's tool; the command of its dump program."""
    pkg = GENERATED / language
    if language == "python":
        return (sys.executable, "-m", "paimon_layouts.dump")
    if language == "java":
        require("mvn")
        require("java")
        goals = ["package", "dependency:build-classpath", "-DskipTests", "-Dmdep.outputFile=target/classpath.txt"]
        _run(["mvn", "-q", "-B", "-o", *goals], pkg)
        classpath = f"{pkg / 'target' / 'paimon-layouts-0.1.0.jar'}:{(pkg / 'target' / 'classpath.txt').read_text()}"
        return ("java", "-Xss16m", "-cp", classpath, "paimon_layouts.Dump")
    if language == "javascript":
        require("node")
        require("npm")
        _run(["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline"], pkg)
        return ("node", "--stack-size=16000", str(pkg / "bin" / "dump.js"))
    if language == "go":
        require("go")
        binary = pkg / "target" / "paimon-layouts-dump"
        _run(["go", "build", "-o", str(binary), "./cmd/paimon-layouts-dump"], pkg)
        return (str(binary),)
    if language == "rust":
        require("cargo")
        _run(["cargo", "build", "--release", "--locked", "--quiet", "--features", "dump"], pkg)
        return (str(pkg / "target" / "release" / "paimon-layouts-dump"),)
    missing(f"no build known for {language}")
    raise AssertionError  # unreachable: missing() skips or fails


def run_dump(language: str, jobs: Path) -> dict[str, dict[str, Any]]:
    """Every job's line from the dump program of `language`, by job id."""
    return dump_lines(dump_command(language), jobs, f"the {language} dump program")


def dump_lines(command: tuple[str, ...], jobs: Path, what: str, cwd: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every job's line from a dump program run over a jobs file, by job id."""
    done = subprocess.run([*command, "--jobs", str(jobs)], capture_output=True, text=True, timeout=1800, cwd=cwd)
    if done.returncode != 0:
        raise AssertionError(f"{what} failed:\n{done.stderr[-3000:]}")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {d.pop("id"): d for d in lines}


def _same(ref: Any, got: Any, language: str, path: str) -> str | None:
    """None when `got` is `ref` under the language's stated rule; else where and how they differ."""
    if isinstance(ref, dict) and isinstance(got, dict):
        if list(ref) != list(got):
            return f"{path}: fields {list(ref)} vs {list(got)}"
        for k in ref:
            why = _same(ref[k], got[k], language, f"{path}.{k}")
            if why:
                return why
        return None
    if isinstance(ref, list) and isinstance(got, list):
        if len(ref) != len(got):
            return f"{path}: {len(ref)} elements vs {len(got)}"
        for i, (a, b) in enumerate(zip(ref, got, strict=True)):
            why = _same(a, b, language, f"{path}[{i}]")
            if why:
                return why
        return None
    if type(ref) is int and language == "javascript" and abs(ref) > EXACT_IN_DOUBLE and isinstance(got, int | float):
        return None if float(ref) == float(got) else f"{path}: {ref} vs {got}"
    if ref is None and language in NO_NULL and got in (0, False, "", [], {"$bytes": ""}):
        return None
    if isinstance(ref, bool) or isinstance(got, bool):
        return None if ref is got else f"{path}: {ref!r} vs {got!r}"
    return None if ref == got else f"{path}: {str(ref)[:60]} vs {str(got)[:60]}"


def difference(ref: dict[str, Any], got: dict[str, Any] | None, language: str) -> str | None:
    """How one job's result in `language` differs from Python's (None: the same)."""
    if got is None:
        return "no line printed"
    if ref["ok"] != got["ok"]:
        said = "accepts" if got["ok"] else f"rejects ({got.get('error', '')[:100]})"
        return f"Python {'accepts' if ref['ok'] else 'rejects'}, {language} {said}"
    if not ref["ok"]:
        return None
    return _same(json.loads(json.dumps(ref["tree"])), got["tree"], language, "")


def pinned(language: str) -> dict[str, str]:
    """The listed differences of `language`: job id -> the reason it differs."""
    out = {}
    for line in PINS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            lang, job, reason = line.split("\t")
            if lang == language:
                out[job] = reason
    return out


@dataclass
class Lean:
    """The Python package installed alone: what pip installed, and its dump of the corpus without and with the
    codecs extra (job id -> line)."""

    installed: set[str]
    bare: dict[str, dict[str, Any]]
    full: dict[str, dict[str, Any]]


@dataclass
class Run:
    """Everything test_generated_languages judges, made in child processes (a background job)."""

    where: dict[str, list[str]]
    lines: dict[tuple[str, str], dict[str, dict[str, Any]]] = field(default_factory=dict)  # (language, set)
    testees: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    lean: Lean | None = None


def lean_package(root: Path, jobs_file: Path) -> Lean:
    """generated/python as a wheel in a clean venv: its dump of the jobs bare, then with cramjam."""
    wheel = packaging.build_wheel(root / "wheel", GENERATED / "python", "paimon_layouts")
    if isinstance(wheel, str):
        raise AssertionError(wheel)
    bin_dir = packaging.install(root / "venv", wheel, None, None)
    if isinstance(bin_dir, str):
        raise AssertionError(bin_dir)
    listed = subprocess.run([str(bin_dir / "python"), "-m", "pip", "list", "--format=freeze"], capture_output=True)
    installed = {line.split("==")[0].lower() for line in listed.stdout.decode().split()}

    command = (str(bin_dir / "python"), "-m", "paimon_layouts.dump")
    bare = dump_lines(command, jobs_file, "the lean package's dump", cwd=root)
    pin = next(line for line in (ROOT / "requirements" / "constraints.txt").read_text().split() if "cramjam" in line)
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", pin], check=True, timeout=600)
    return Lean(installed, bare, dump_lines(command, jobs_file, "the lean package's dump with cramjam", cwd=root))


def run_all(root: Path) -> Run:
    """The jobs (a child process), every language's dumps of them, the testees and the lean package."""
    env = os.environ | {"PYTHONPATH": str(ROOT / "conformance")}
    done = subprocess.run(
        [sys.executable, "-m", "support.tree_jobs", str(root)], capture_output=True, text=True, env=env, timeout=900
    )
    if done.returncode != 0:
        raise AssertionError(f"collecting the jobs failed:\n{done.stderr[-3000:]}")
    run = Run(json.loads((root / "where.json").read_text()))
    for language in ("python", *LANGUAGES):
        for jobs in ("corpus", "fuzz"):
            run.lines[(language, jobs)] = run_dump(language, root / f"{jobs}.tsv")
    for language in TESTEES:
        dump_command(language)  # built
        launcher = str(ROOT / "tools" / "testees" / f"generated_{language}.py")
        _run([sys.executable, launcher, "--build-only"], ROOT)  # the testee too: its hello must not wait for it
        kinds = [a for k in TESTEE_KINDS for a in ("--kind", k)]
        cmd = [sys.executable, "-m", "paimon_conform.cli", "testee", *kinds, "--report", "json", "--", sys.executable]
        done = subprocess.run([*cmd, launcher], capture_output=True, text=True, timeout=900)
        run.testees[language] = (done.returncode, json.loads(done.stdout) if done.stdout.strip() else {})
    run.lean = lean_package(root / "lean", root / "corpus.tsv")
    return run
