"""A bounded run of the coverage-guided fuzzer (tools/fuzz/layouts.py, atheris) on every layout.

Each layout runs in its own child process from its golden seeds, for a fixed number of inputs with a fixed
seed (the same run every time), under the kit's memory budget, a limit on each call's own peak memory and
an RSS limit above the process's baseline. Any crash fails the test with the crashing input in hex and the
traceback; so does a layout without golden seeds. The whole module takes about 70 s on two cores
(tools/fuzz/README.md). The oracle itself is tested on a made-up layout that breaks each rule.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from paimon_conform.core.errors import InternalError, LayoutError, OutOfMemory, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.layouts.base import Layout, never_detected
from paimon_conform.layouts.registry import LAYOUTS

EVIDENCE = ("contract",)

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "tools" / "fuzz" / "layouts.py"
GOLDEN = ROOT / "golden"
SEED = 20261128
RUNS = 5000  # inputs per layout, seeds included: 1-3 s of fuzzing for most layouts
# slower layouts (large seeds: a 480 KB DV file, a 600 KB file index, a 100 KB B-tree; zstd blocks; bitmaps
# re-encoded by inspect)
SLOW_RUNS = {"deletion-vectors": 1000, "file-index": 1200, "btree-global-index": 1000, "bitmap": 3000, "row-file": 3000}
LIBFUZZER = ["-timeout=30", "-max_total_time=40", "-print_final_stats=1"]
ARTIFACTS = ("crash-", "oom-", "timeout-", "leak-")


def _require_atheris() -> None:
    """Skip without atheris on a developer machine (conftest turns a skip into a failure in CI)."""
    if importlib.util.find_spec("atheris") is None:
        pytest.skip("atheris is not installed (the test extra: pip install -e '.[test]')")


def _noise(line: str) -> bool:
    """libFuzzer's progress lines and atheris's instrumentation notes: not part of a crash report."""
    return line.startswith(("INFO: Instrumenting", "#")) or "Failed to find function" in line


def _report(kind: str, done: subprocess.CompletedProcess, artifacts: list[Path]) -> str:
    """The crashing inputs in hex and the child's output from the crash on (the traceback)."""
    lines = [line for line in done.stderr.splitlines() if not _noise(line)]
    start = next((i for i, line in enumerate(lines) if "paimon-conform fuzz crash" in line or "ERROR:" in line), 0)
    inputs = "\n".join(f"{a.name}: {a.read_bytes().hex()}" for a in artifacts) or "(no artifact written)"
    return (
        f"fuzzing {kind} failed (exit {done.returncode}); an input is [call byte (its high bit: a 1 MiB budget)]"
        "[types byte] + the file\n"
        f"{inputs}\n--- output from the crash on ---\n" + "\n".join(lines[start:][-80:])
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(LAYOUTS))
def test_fuzzing_finds_no_crash(kind: str, tmp_path: Path) -> None:
    _require_atheris()
    seeds = sorted((GOLDEN / LAYOUTS[kind].name).rglob("*.bin"))
    assert seeds, f"{kind}: no golden seeds in golden/{LAYOUTS[kind].name}/ (a missing seed corpus is not a pass)"
    runs = SLOW_RUNS.get(kind, RUNS)
    command = [sys.executable, str(FUZZ), "--layout", kind, "--corpus", str(tmp_path / "corpus")]
    command += ["--budget-mb=64", "--call-margin-mb=64", "--rss-headroom-mb=256", f"-runs={runs}", f"-seed={SEED}"]
    command += [*LIBFUZZER, f"-artifact_prefix={tmp_path}/"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    artifacts = sorted(p for p in tmp_path.iterdir() if p.name.startswith(ARTIFACTS))
    if done.returncode != 0 or artifacts:
        pytest.fail(_report(kind, done, artifacts), pytrace=False)
    assert "stat::number_of_executed_units" in done.stderr, done.stderr[-3000:]


# ------------------------------------------------------------------------------------------- the oracle


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    """tools/fuzz/layouts.py as a module (its kit imports are already loaded here: nothing re-instrumented)."""
    _require_atheris()
    spec = importlib.util.spec_from_file_location("fuzz_layouts", FUZZ)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _raising(exc: BaseException) -> Any:
    def call(data: bytes, types: Any = None) -> Any:
        raise exc

    return call


def _returning(value: Any) -> Any:
    return lambda data, types=None: value


def _made_up(validate: Any = None, describe: Any = None) -> Layout:
    """A layout whose validate and describe do what a test says."""
    validate = validate or _returning([])
    describe = describe or _returning("fine")
    return Layout("made_up", "made-up", "made up", never_detected, _returning({}), bytes, validate, describe)


def _validate(result: Any = None, raises: BaseException | None = None) -> Layout:
    """A made-up layout whose validate returns `result` or raises `raises`."""
    return _made_up(validate=_raising(raises) if raises else _returning(result))


ORACLE_CASES = [
    ("validate", _validate([]), None),
    ("validate", _validate([Finding("X", "must", "", 4, "at the end")]), None),
    ("validate", _validate([Finding("X", "must", "", 5, "past the end")]), "outside 0..4"),
    ("validate", _validate([Finding("X", "must", "", -1, "before the start")]), "outside 0..4"),
    ("validate", _validate(raises=LayoutError("made_up", "X", "", None, "no offset")), None),
    ("validate", _validate(raises=LayoutError("made_up", "X", "", 9, "past the end")), "outside 0..4"),
    ("validate", _validate(raises=UsageError("refused")), None),
    ("validate", _validate(raises=InternalError("f", "x", KeyError("k"))), "InternalError"),
    ("validate", _validate(raises=OutOfMemory("a.bin", "")), "OutOfMemory"),
    ("validate", _validate(raises=IndexError("out of range")), "out of range"),
    ("validate", _validate(None), "validate returned NoneType"),
    ("describe", _made_up(describe=_returning(None)), "describe returned NoneType"),
    ("describe", _made_up(), None),
]


@pytest.mark.parametrize(("call", "layout", "crash"), ORACLE_CASES)
def test_the_oracle_is_the_kits_contract(fuzz: ModuleType, call: str, layout: Layout, crash: str | None) -> None:
    given = fuzz.Input(call, None, b"\x00" * 4)
    if crash is None:
        fuzz.oracle(layout, given)
    else:
        with pytest.raises(Exception, match=crash):
            fuzz.oracle(layout, given)
