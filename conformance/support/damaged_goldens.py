"""The damaged-golden sweep of test_tracebacks.py, run in a child process (a background job: support/jobs.py):
truncations and byte flips of every golden binary and every third-party corpus file through the CLI (validate,
inspect, and query for index layouts), recording every outcome outside the kit's error hierarchy."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from paimon_conform.layouts.registry import get
from support.environment import CORPUS, GOLDEN, ROOT, require_corpus

QUERIED = ("file-index", "bloom-filter", "bitmap", "range-bitmap", "bsi")


def golden_targets() -> list[tuple[Path, list[str], str]]:
    """Every golden binary with the CLI arguments its sidecar implies, and every corpus file with its row's."""
    out = []
    for side in sorted(GOLDEN.glob("*/*/*.json")):
        path = side.with_suffix(".bin")
        if not path.is_file():
            continue
        case = json.loads(side.read_text())
        types = None if "must_reject" in case else get(case["kind"]).case_types(case)
        args = ["--kind", case["kind"]]
        if isinstance(types, dict):
            args += ["--types", ",".join(f"{k}={v}" for k, v in types.items())]
        elif types is not None:
            args += ["--type", str(types)]
        out.append((path, args, case["kind"]))
    for line in (require_corpus() / "MANIFEST.tsv").read_text().splitlines()[1:]:
        cols = line.split("\t")
        if cols[5] == "table":
            continue
        kind = cols[5].split()[0]
        extra = [str(CORPUS / a) if a.startswith("files/") else a for a in json.loads(cols[8])]
        out.append((CORPUS / cols[0], extra if "--kind" in extra else ["--kind", kind, *extra], kind))
    return out


def mutants(data: bytes, rnd: random.Random) -> list[bytes]:
    """Truncations (empty, inside the header, halfway, one byte short) and byte flips / big words."""
    out = [data[:n] for n in sorted({0, 1, 5, 9, len(data) // 2, len(data) - 1}) if n < len(data)]
    for _ in range(4):
        b = bytearray(data)
        if not b:
            break
        at = rnd.randrange(len(b))
        if rnd.random() < 0.5:
            b[at] ^= 1 << rnd.randrange(8)
        else:
            at -= at % 4
            b[at : at + 4] = rnd.choice([b"\x7f\xff\xff\xff", b"\xff\xff\xff\xff", b"\x80\x00\x00\x00"])[: len(b) - at]
        out.append(bytes(b))
    return out


def sweep(work: Path) -> dict[str, Any]:
    """Every mutant of every target through the CLI, in this process: the targets' count and kinds, the exit codes
    outside 0-2 and the internal errors met (each with the file and mutant)."""
    from paimon_conform import cli
    from paimon_conform.core import errors

    crashes: list[str] = []
    current = [""]
    real = errors.InternalError.__init__

    def record(self: Any, file: str, field: str, cause: BaseException) -> None:
        crashes.append(f"{type(cause).__name__}: {cause} ({current[0]})")
        real(self, file, field, cause)

    errors.InternalError.__init__ = record  # type: ignore[method-assign]
    rnd = random.Random(20240501)
    target = work / "x.bin"
    targets = golden_targets()
    bad_codes, runs = [], 0
    for path, args, kind in targets:
        for i, data in enumerate(mutants(path.read_bytes(), rnd)):
            target.write_bytes(data)
            current[0] = f"{path.name} mutant {i}"
            commands = [["validate", str(target), *args], ["inspect", str(target), "--json", *args]]
            if kind in QUERIED:
                column = "c" if kind != "file-index" else next((a.split("=")[0] for a in args if "=" in a), "c")
                lone = ["--column", "c"] if kind != "file-index" else []
                commands.append(["query", str(target), "--where", f"`{column}` > 5", *args, *lone])
            for command in commands:
                with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                    code = cli.main(command)
                runs += 1
                if code not in (0, 1, 2):
                    bad_codes.append(f"exit {code}: {' '.join(command[:1])} ({current[0]})")
    return {
        "targets": len(targets),
        "kinds": sorted({kind for _, _, kind in targets}),
        "runs": runs,
        "bad_codes": bad_codes,
        "crashes": crashes,
    }


def run_child(work: Path) -> dict[str, Any]:
    """`sweep` in a child process; its result."""
    out = work / "sweep.json"
    code = f"from support.damaged_goldens import sweep; import json, pathlib; p = pathlib.Path({str(work)!r}); "
    code += f"pathlib.Path({str(out)!r}).write_text(json.dumps(sweep(p)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT / "conformance")
    if done.returncode != 0:
        raise RuntimeError(f"the damaged-golden sweep failed (exit {done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(out.read_text())
