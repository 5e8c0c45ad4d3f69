#!/usr/bin/env python3
"""Plant one fault at a time into a copy of the kit and run the tests that should catch it: every fault caught.

    python tools/seeded_faults.py            # all faults; exit 1 if one is missed
    python tools/seeded_faults.py --only dv-positions

The copy is a git worktree of HEAD (deps/, build/ and the Kaitai toolchain linked in from this checkout), run with
this checkout's venv and PYTHONPATH pointing at the copy's src/ and generated/python/. First the chosen tests run on the
unchanged copy (a control: they must pass, or a fault's failure would mean nothing); then each fault is planted
(a text replacement that must match exactly once, the parsers regenerated where a spec changed), its tests run
(caught = they fail as tests fail; an error of pytest itself is not a catch), and the copy is reset.
docs/architecture.md ("What the tests hold the kit to") records the last result.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"


@dataclass(frozen=True)
class Fault:
    """A fault: where it goes, the replacements that plant it, and the tests that must catch it."""

    name: str
    what: str
    path: str
    edits: tuple[tuple[str, str], ...]
    tests: tuple[str, ...]
    regenerate: bool = False  # the fault is in a spec: regenerate the parsers after planting it


FAULTS = (
    Fault(
        "bucket-python-modulo",
        "the writer's bucket function takes Python's floor modulo for Java's Math.abs(hash % n)",
        "src/paimon_conform/layouts/binary_row/bucketing.py",
        (
            (
                "np.abs(np.fmod(hash_code_.astype(np.int32, copy=False), np.int32(num_buckets)))",
                "np.mod(hash_code_.astype(np.int32, copy=False), np.int32(num_buckets))",
            ),
            ("return abs(int(hash_code_)) % num_buckets", "return int(hash_code_) % num_buckets"),
        ),
        ("conformance/test_binary_row.py", "conformance/test_binary_row_bucketing.py"),
    ),
    Fault(
        "dv-positions",
        "the reader applies each deletion vector one row early",
        "src/paimon_conform/table/read/data_files.py",
        (("keep[deleted[deleted < num_rows]] = False", "keep[deleted[deleted < num_rows] - 1] = False"),),
        ("conformance/test_table_reader.py",),
    ),
    Fault(
        "stats-null-count",
        "the validator's statistics rule lets an understated null count pass",
        "src/paimon_conform/table/validate/file_meta.py",
        (("if stated is not None and stated != nulls:", "if stated is not None and stated > nulls:"),),
        ("conformance/test_fault_catalog.py",),
    ),
    Fault(
        "orc-timestamp-epoch",
        "the ORC timestamp reader counts TIMESTAMP seconds from the UTC epoch, not the writer zone's",
        "src/paimon_conform/formats/orc/timestamps.py",
        (("base = 1420070400 if instant else orc_epoch(writer)", "base = 1420070400"),),
        ("conformance/test_orc_timestamps.py",),
    ),
    Fault(
        "spec-valid-roaring-keys",
        "roaring32.ksy loses the `valid` that container keys ascend (ROARING_KEYS_NOT_ASCENDING)",
        "specs/roaring32.ksy",
        (
            (
                "        valid:\n          expr: 'idx == 0 ? true : _ > _parent.descriptors[idx - 1].key'\n",
                "",
            ),
        ),
        ("conformance/test_golden.py", "conformance/test_roaring32.py"),
        regenerate=True,
    ),
    Fault(
        "undeclared-thin-mode",
        "the validator says should, not must, for pypaimon-rust's undeclared thin-mode files Java 0.9 cannot read",
        "src/paimon_conform/table/validate/file_scan.py",
        (
            (
                'Finding("DATA_FILE_COLUMNS", "must", "columns", None, msg, file, java_releases=PRE_THIN_MODE),',
                'Finding("DATA_FILE_COLUMNS", "should", "columns", None, msg, file, java_releases=PRE_THIN_MODE),',
            ),
        ),
        ("conformance/test_type_matrix_peers.py",),
    ),
    Fault(
        "testee-runner-compare",
        "the testee runner compares a decoded case's keys, not their values",
        "src/paimon_conform/testee/runner.py",
        (("    if got_content == case.expected:\n", "    if got_content.keys() == case.expected.keys():\n"),),
        ("conformance/test_testee.py",),
    ),
)


def _run(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> int:
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        return subprocess.run(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, check=False).returncode


def _worktree(base: Path) -> Path:
    copy = base / "kit"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(copy), "HEAD"], check=True)
    for shared in ("deps", "build", "tools/kaitai/node_modules"):
        if (ROOT / shared).exists():
            (copy / shared).symlink_to(ROOT / shared)
    return copy


def _plant(copy: Path, fault: Fault) -> None:
    path = copy / fault.path
    text = path.read_text(encoding="utf-8")
    for old, new in fault.edits:
        if text.count(old) != 1:
            raise SystemExit(f"{fault.name}: the text to replace occurs {text.count(old)} times in {fault.path}")
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")


def _pytest(copy: Path, tests: tuple[str, ...], env: dict[str, str], log: Path) -> int:
    return _run([str(PYTHON), "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests], copy, env, log)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=[f.name for f in FAULTS], help="plant only these")
    args = parser.parse_args()
    faults = [f for f in FAULTS if not args.only or f.name in args.only]
    base = Path(tempfile.mkdtemp(prefix="seeded-faults-"))
    log = base / "log.txt"
    copy = _worktree(base)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(copy / "src"), str(copy / "generated" / "python")])}
    env.pop("CI", None)  # a missing tool skips here; the control run says so
    results = []
    try:
        tests = tuple(dict.fromkeys(t for f in faults for t in f.tests))
        if _pytest(copy, tests, env, log) != 0:
            print(f"control: the tests fail on the unchanged copy; see {log}")
            return 1
        for fault in faults:
            t0 = time.monotonic()
            _plant(copy, fault)
            gen = [str(PYTHON), "tools/gen_parsers.py", "--language", "python"]  # the tests run the Python parsers
            if fault.regenerate and _run(gen, copy, env, log) != 0:
                raise SystemExit(f"{fault.name}: regenerating the parsers failed; see {log}")
            code = _pytest(copy, fault.tests, env, log)
            outcome = "caught" if code == 1 else "MISSED" if code == 0 else f"pytest error {code}"
            seconds = time.monotonic() - t0
            results.append((fault, outcome))
            print(f"{fault.name:<26} {outcome:<10} {seconds:6.0f} s  {fault.what}", flush=True)
            subprocess.run(["git", "-C", str(copy), "checkout", "-q", "--", "."], check=True)
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(copy)], check=False)
    caught = sum(o == "caught" for _, o in results)
    print(f"{caught} of {len(results)} planted faults caught (log: {log})")
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
