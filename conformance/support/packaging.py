"""The plain installs test_packaging.py judges: the wheel built, then clean virtual environments installed one after
another (a background job: pip and the CLI runs in child processes), each with what its console script did."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from dataclasses import dataclass, field
from pathlib import Path

from support.environment import ROOT

# the oldest and the newest release's tables (every case; the releases between are the table suites' business)
ENDS_TABLES = [ROOT / "golden" / "tables" / r for r in ("java-0.9.0", "java-2.0.0")]
TABLES = sorted(p for r in ENDS_TABLES for p in r.iterdir() if p.is_dir())
ENDS = {"newest": None, "lowest": ROOT / "requirements" / "lowest.txt"}


def other_pythons() -> list[str]:
    """Other CPython versions the package supports that this machine has (pyenv's, or on PATH)."""
    found = []
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for minor in ("3.12", "3.13"):
        if f"{sys.version_info.major}.{sys.version_info.minor}" == minor:
            continue
        candidates = [*sorted(pyenv.glob(f"{minor}.*/bin/python{minor}")), Path(shutil.which(f"python{minor}") or "")]
        for exe in candidates:
            if exe.name and exe.is_file():
                done = subprocess.run([str(exe), "-c", "import venv"], capture_output=True, timeout=60)
                if done.returncode == 0:
                    found.append(str(exe))
                    break
    return found


@dataclass
class Install:
    """One clean environment: pip's error, or what its console script did."""

    error: str | None = None
    listing: str = ""
    runs: dict[str, subprocess.CompletedProcess] = field(default_factory=dict)


def build_wheel(out: Path, project: Path = ROOT, name: str = "paimon_conform") -> Path | str:
    """A project's wheel (no dependencies), or pip's error; the kit's by default, whose folder also gets the wheel
    of the generated parsers (generated/python, paimon-layouts), which it requires."""
    for path in [project] + ([ROOT / "generated" / "python"] if project == ROOT else []):
        done = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(path)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            return f"pip wheel failed: {done.stderr[-2000:]}"
    (whl,) = out.glob(f"{name}-*.whl")
    return whl


def install(where: Path, wheel: Path, constraints: Path | None, python_exe: str | None) -> Path | str:
    """A clean environment with the wheel installed (no bytecode compiled): its bin folder, or pip's error."""
    if python_exe is None:
        venv.EnvBuilder(with_pip=True, clear=True).create(where)
    else:
        subprocess.run([python_exe, "-m", "venv", "--clear", str(where)], check=True, timeout=300)
    python = where / "bin" / "python"
    args = [str(python), "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check", str(wheel)]
    args += ["--find-links", str(wheel.parent)]  # paimon-layouts, built beside the kit's wheel
    if constraints is not None:
        args += ["-c", str(constraints)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        return f"pip install failed: {done.stderr[-2000:]}"
    return where / "bin"


def _run(bin_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "paimon-conform"), *args], capture_output=True, text=True, timeout=900)


def installs(base: Path) -> dict[str, Install]:
    """Every environment the tests judge: the newest and lowest ends on this Python (validate the end releases'
    tables, run the main job with the corpus), the newest on each other Python (validate)."""
    wheel = build_wheel(base / "wheel")
    jobs = {end: (base / end, constraints, None) for end, constraints in ENDS.items()}
    jobs |= {exe: (base / f"py{i}", None, exe) for i, exe in enumerate(other_pythons())}
    out = {}
    for key, (where, constraints, exe) in jobs.items():
        bin_dir = wheel if isinstance(wheel, str) else install(where, wheel, constraints, exe)
        if isinstance(bin_dir, str):
            out[key] = Install(error=bin_dir)
            continue
        listing = subprocess.run([str(bin_dir / "python"), "-m", "pip", "list"], capture_output=True, text=True)
        got = Install(listing=listing.stdout)
        got.runs["validate"] = _run(bin_dir, "validate", *map(str, TABLES))
        if key in ENDS:
            got.runs["main"] = _run(bin_dir, "--golden", str(ROOT / "golden"))  # the sample, then the corpus
        out[key] = got
    return out
