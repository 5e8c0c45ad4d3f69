#!/usr/bin/env python3
"""Benchmark: `paimon-conform corpus`, the golden corpus check, as a user runs it.

    .venv/bin/python tools/benchmarks/corpus_check.py [--runs 7]

Runs the command in fresh processes (interpreter start, imports and the forked workers included),
`--jobs` at its default (one worker per core) and in one process, alternating the two, and prints
each one's fastest, median and slowest wall time and the CPU the processes used, against the goal
of issue 20 (under 3 s). The first run of each is a warm-up (bytecode and kernel caches) and is not
counted. A benchmark, not a test: it reports, it does not assert.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOAL = 3.0


def run_once(jobs: str | None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command's processes) of one `corpus` run; exits when it fails."""
    cmd = [sys.executable, "-m", "paimon_conform.cli", "corpus"] + (["--jobs", jobs] if jobs else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"corpus check failed (exit {done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="timed runs of each (after one warm-up)")
    args = ap.parse_args()
    variants = {f"--jobs {os.cpu_count()} (default)": None, "--jobs 1": "1"}
    for jobs in variants.values():
        run_once(jobs)  # warm-up
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for _ in range(args.runs):
        for name, jobs in variants.items():
            results[name].append(run_once(jobs))
    print(f"paimon-conform corpus, {args.runs} runs each (alternating), {os.cpu_count()} cores")
    print(f"{'':22} {'fastest':>8} {'median':>8} {'slowest':>8} {'CPU (median)':>13}")
    for name, runs in results.items():
        walls = sorted(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        print(f"{name:22} {walls[0]:7.2f}s {statistics.median(walls):7.2f}s {walls[-1]:7.2f}s {cpu:12.2f}s")
    default = statistics.median(w for w, _ in next(iter(results.values())))
    verdict = "met" if default < GOAL else "NOT met"
    print(f"goal: under {GOAL:.0f} s (median, default jobs): {default:.2f} s, {verdict}")


if __name__ == "__main__":
    main()
