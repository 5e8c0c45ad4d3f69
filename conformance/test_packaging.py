"""A plain `pip install` of the wheel, no extras, in a clean virtual environment, at both ends of the
dependency ranges pyproject.toml declares: the newest releases pip resolves, and the lowest versions
(requirements/lowest.txt). Each must validate every Java-written golden table clean (zstd manifests
included: the codec fastavro needs is a runtime dependency) and check the golden corpus, and the main
job must run without the Spark extra. Needs the package index (PyPI); pip's cache keeps reruns quick.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.environment import IN_CI, ROOT

EVIDENCE = ("contract",)

# the oldest and the newest release's tables (every case; the releases between are the table suites' business)
ENDS_TABLES = [ROOT / "golden" / "tables" / r for r in ("java-0.9.0", "java-2.0.0")]
TABLES = sorted(p for r in ENDS_TABLES for p in r.iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (whl,) = out.glob("paimon_conform-*.whl")
    return whl


def _other_pythons() -> list[str]:
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


def _install(where: Path, wheel: Path, constraints: Path | None, python_exe: str | None = None) -> Path | str:
    """A clean environment with the wheel installed: its bin folder, or pip's error."""
    if python_exe is None:
        venv.EnvBuilder(with_pip=True, clear=True).create(where)
    else:
        subprocess.run([python_exe, "-m", "venv", "--clear", str(where)], check=True, timeout=300)
    python = where / "bin" / "python"
    args = [str(python), "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check", str(wheel)]
    if constraints is not None:
        args += ["-c", str(constraints)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        return f"pip install failed: {done.stderr[-2000:]}"
    return where / "bin"


def _run(bin_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bin_dir / "paimon-conform"), *args], capture_output=True, text=True, timeout=900)


ENDS = {"newest": None, "lowest": ROOT / "requirements" / "lowest.txt"}
OTHER_PYTHONS = _other_pythons()


@pytest.fixture(scope="module")
def venvs(wheel, tmp_path_factory) -> dict[str, Path | str]:
    """Every clean environment the tests use, installed at once (two at a time: pip is mostly unpacking and
    compiling, one core each): the newest and lowest ends on this Python, the newest on each other Python. A
    failed install is its test's failure, with pip's message."""
    base = tmp_path_factory.mktemp("venvs")
    jobs = {end: (base / end, constraints, None) for end, constraints in ENDS.items()}
    jobs |= {exe: (base / f"py{i}", None, exe) for i, exe in enumerate(OTHER_PYTHONS)}

    with ThreadPoolExecutor(2) as pool:
        done = {
            key: pool.submit(_install, where, wheel, constraints, exe)
            for key, (where, constraints, exe) in jobs.items()
        }
        return {key: future.result() for key, future in done.items()}


def _bin(venvs: dict[str, Path | str], key: str) -> Path:
    got = venvs[key]
    if isinstance(got, str):
        missing_index = "Could not find a version" in got
        if IN_CI or not missing_index:
            pytest.fail(got)
        pytest.skip(got)  # no package index reachable on a developer machine
    return got


@pytest.mark.slow
@pytest.mark.parametrize("ends", list(ENDS))
def test_plain_install_validates_the_java_tables(venvs, ends):
    bin_dir = _bin(venvs, ends)
    listing = subprocess.run([str(bin_dir / "python"), "-m", "pip", "list"], capture_output=True, text=True)
    assert "pyspark" not in listing.stdout.lower()
    assert "pypaimon" not in listing.stdout.lower()
    if ends == "lowest":
        assert "pyarrow                   17.0.0" in listing.stdout or "pyarrow 17.0.0" in listing.stdout
    assert TABLES
    done = _run(bin_dir, "validate", *map(str, TABLES))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "MANIFEST_UNREADABLE" not in done.stdout
    main = _run(bin_dir, "--golden", str(ROOT / "golden"))  # the sample, then the corpus in one process
    assert main.returncode == 0, main.stdout[-3000:] + main.stderr[-2000:]
    assert "as expected, 0 not" in main.stdout
    assert "Spark pipeline left out" in main.stdout
    assert "Traceback" not in main.stderr


@pytest.mark.slow
@pytest.mark.parametrize("python_exe", OTHER_PYTHONS)
def test_plain_install_on_other_pythons(venvs, python_exe):
    """The newest releases on the other supported Python versions this machine has."""
    bin_dir = _bin(venvs, python_exe)
    done = _run(bin_dir, "validate", *map(str, TABLES))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
