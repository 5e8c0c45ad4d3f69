#!/usr/bin/env python3
"""Benchmark: the generated parsers of every language on the same two files, in one run.

    .venv/bin/python tools/benchmarks/generated_parsers.py [--positions 10000000] [--runs 3]

The files: a deletion-vector file of 1,000 vectors and 10^7 positions (dv_load.make_vectors, written by the
kit's encoder, Java's layout), and the largest file-index golden. Each language's dump program parses the file
and walks its whole tree (every field and instance evaluated, as a dump does, without printing it), best of
RUNS in one process (the JVM and V8 warm up in the earlier runs); the table gives each time and its ratio to
Python's (paimon_layouts, the reference). Packages built as CI builds them (tools/install.sh). A benchmark,
not a test: it reports, it does not assert.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from dv_load import make_vectors

from paimon_conform.layouts.deletion_vectors import entry as dv

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "generated"


def commands() -> dict[str, list[str]]:
    """Each language's dump program, as built by tools/install.sh."""
    java = GENERATED / "java" / "target"
    classpath = f"{java / 'paimon-layouts-0.1.0.jar'}:{(java / 'classpath.txt').read_text().strip()}"
    go_dump = GENERATED / "go" / "target" / "paimon-layouts-dump"
    subprocess.run(["go", "build", "-o", str(go_dump), "./cmd/paimon-layouts-dump"], cwd=GENERATED / "go", check=True)
    cargo = ["cargo", "build", "--release", "--locked", "--quiet", "--features", "dump"]
    subprocess.run(cargo, cwd=GENERATED / "rust", check=True)
    return {
        "Python": [sys.executable, "-m", "paimon_layouts.dump"],
        "Go": [str(go_dump)],
        "Java": ["java", "-Xss16m", "-cp", classpath, "paimon_layouts.Dump"],
        "JavaScript": ["node", "--stack-size=16000", str(GENERATED / "javascript" / "bin" / "dump.js")],
        "Rust": [str(GENERATED / "rust" / "target" / "release" / "paimon-layouts-dump")],
    }


def largest_file_index() -> Path:
    """The largest valid file-index golden (a container of every payload kind)."""
    files = [p for p in (ROOT / "golden" / "file_index").glob("java-*/*.bin")]
    return max(files, key=lambda p: p.stat().st_size)


def best_ms(cmd: list[str], runs: int, root: str, file: Path) -> float:
    done = subprocess.run([*cmd, "--bench", str(runs), root, str(file)], capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout)["best_ms"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (written,) = dv.write_files(make_vectors(args.vectors, args.positions), target_size=1 << 40)
        dv_file = Path(tmp) / "dv.bin"
        dv_file.write_bytes(written.data)
        index = largest_file_index()
        mib = dv_file.stat().st_size >> 20
        files = [
            ("deletion_vectors", dv_file, f"DV file, {args.positions:,} positions ({mib} MiB)"),
            ("file_index", index, f"file index {index.parent.name}/{index.name} ({index.stat().st_size:,} bytes)"),
        ]
        cmds = commands()
        for root, file, title in files:
            times = {lang: best_ms(cmd, args.runs, root, file) for lang, cmd in cmds.items()}
            print(title)
            for lang, ms in times.items():
                print(f"  {lang:<11} {ms:10.1f} ms   {times['Python'] / ms:6.2f}x Python's speed")


if __name__ == "__main__":
    main()
