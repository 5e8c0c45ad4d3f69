#!/usr/bin/env python3
"""Benchmark: validate a Java-written 10^6-row primary-key table (4 buckets, deletion vectors).

    .venv/bin/python tools/benchmarks/table_validate_java.py [--rows 1000000] [--seed 2026] [--repeat 3] [--dir DIR]
                                          [--one-core] [--profile N]

The table is written once by Java Paimon 1.0-SNAPSHOT's own writers (tools/java/tables/
BenchTableWriter.java: dt STRING, id BIGINT, v DOUBLE, s STRING, PRIMARY KEY (dt, id),
four dt partitions, bucket = 4, deletion vectors, Parquet, bloom-filter and bitmap options on s;
ROWS rows and a full compaction, then ROWS/10 upserts and ROWS/100 deletes and a non-full
compaction that writes the deletion vectors) into DIR/table-<rows>-<seed>/ (default
build/bench/) and reused. That jar writes no file index for a primary-key table (only append
tables get them), so file-index checking is measured by tools/benchmarks/table_validate.py
(the reference writer's table) and not here.

In one process, after one untimed run of each (imports, page cache), best of --repeat:
(a) pyarrow reading every data file under the bucket-* directories (ParquetFile.read), and
(b) validate_table with TableStats. Prints rows, data files, the seconds of each phase,
rows/s, the bucket check's rows/s and share, the ratio validation / pyarrow read, CPU time
over wall time (pyarrow decodes with its own thread pool; the validator's Python code is
single-threaded), and whether each goal is met: >= 10^6 rows/s for the bucket check on one
core, the whole validation within 3x of the pyarrow read. --one-core pins the process to one
CPU first (sched_setaffinity). --profile N runs cProfile over one more validation and prints
the top N functions by cumulative time. A benchmark, not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import paimon_java  # noqa: E402

from paimon_conform.table.validate.table import TableStats, validate_table  # noqa: E402

JAVA_VERSION = "1.0-SNAPSHOT"
PHASES = ("metadata", "read", "bucket", "entries")


def table_dir(rows: int, seed: int, base: Path) -> tuple[Path, dict]:
    """The benchmark table (written by Java on first use) and the writer's summary."""
    root = base / f"table-{rows}-{seed}"
    summary = root.with_name(root.name + ".summary.json")
    if not (root / "snapshot").is_dir() or not summary.is_file():
        if root.exists():
            raise SystemExit(f"{root} exists but holds no finished benchmark table; remove it")
        partial = root.with_name(root.name + ".partial")
        partial_summary = partial.with_name(partial.name + ".summary.json")
        shutil.rmtree(partial, ignore_errors=True)
        partial_summary.unlink(missing_ok=True)
        base.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        paimon_java.run_java_tables(JAVA_VERSION, "BenchTableWriter", str(partial), str(rows), str(seed))
        print(f"wrote {root} with Java Paimon {JAVA_VERSION} in {time.perf_counter() - t:.1f} s")
        partial.rename(root)
        partial_summary.rename(summary)
    return root, json.loads(summary.read_text())


def timed(fn: Callable[[], object]) -> tuple[float, float, object]:
    """Wall seconds, CPU seconds (all threads of the process) and the result of one call."""
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - w, time.process_time() - c, out


def best(repeat: int, fn: Callable[[], object]) -> tuple[float, float, object]:
    """The run with the lowest wall time of `repeat` calls."""
    return min((timed(fn) for _ in range(repeat)), key=lambda r: r[0])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench")
    parser.add_argument("--one-core", action="store_true", help="pin the process to one CPU first")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile: top N by cumulative time")
    args = parser.parse_args()
    if args.one_core:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cores = len(os.sched_getaffinity(0))

    root, summary = table_dir(args.rows, args.seed, args.dir)
    print(
        f"table: {root} (Java Paimon {JAVA_VERSION}: {summary['rows_generated']:,} rows, "
        f"{summary['upserted_keys']:,} upserts, {summary['deleted_keys']:,} deletes; latest snapshot "
        f"{summary['snapshots']}: {summary['live_data_files']} live data files, "
        f"{summary['deletion_vector_files']} DELETION_VECTORS files with {summary['deletion_vectors']} vectors "
        f"({summary['deleted_positions']:,} positions), file indexes: "
        f"{summary['index_extra_files']} .index files, {summary['embedded_indexes']} embedded)"
    )
    data = sorted(root.rglob("bucket-*/*.parquet"))

    def read_all() -> int:
        return sum(pq.ParquetFile(p).read().num_rows for p in data)

    read_all()  # page cache, pyarrow's lazy imports
    t_read, cpu_read, read_rows = best(args.repeat, read_all)
    t_cold, _, _ = timed(lambda: validate_table(root))  # imports (fastavro, pyarrow.compute, ...)

    def run() -> tuple[TableStats, list]:
        stats = TableStats()
        return stats, validate_table(root, stats=stats)

    seconds, cpu, (stats, found) = best(args.repeat, run)
    musts = sum(f.severity == "must" for r in found for f in r.findings) + sum(bool(r.unusable) for r in found)
    others = sum(f.severity != "must" for r in found for f in r.findings)
    print(f"cores available: {cores}; best of {args.repeat} after one untimed run of each")
    print(f"data files: {len(data)} under bucket-* ({read_rows:,} rows; validated: {stats.data_files} files)")
    print(f"pyarrow read of the data files: {t_read:.3f} s (CPU {cpu_read:.3f} s, {cpu_read / t_read:.2f} cores)")
    print(
        f"validation: {seconds:.3f} s, {stats.rows:,} rows, {stats.rows / seconds:,.0f} rows/s "
        f"(CPU {cpu:.3f} s, {cpu / seconds:.2f} cores), {musts} must finding(s), {others} other finding(s)"
    )
    print(f"  first run in this process, imports included: {t_cold:.3f} s")
    rest = seconds - sum(stats.seconds[p] for p in PHASES)
    for phase in PHASES:
        print(f"  {phase:<9} {stats.seconds[phase]:.3f} s ({stats.seconds[phase] / seconds:.0%})")
    print(f"  {'other':<9} {rest:.3f} s ({rest / seconds:.0%}) (walk, schema, findings)")
    bucket = stats.seconds["bucket"]
    rate = stats.bucket_rows / bucket if bucket else float("inf")
    print(
        f"bucket check: {stats.bucket_rows:,} rows in {bucket:.3f} s, {rate:,.0f} rows/s, {bucket / seconds:.0%} share"
    )
    ratio = seconds / t_read
    print(f"validation / pyarrow read: {ratio:.2f}x")
    print(
        "threads: the validator's Python code is single-threaded (one core); pyarrow's Parquet decoding, "
        "in both (a) and (b), may use its thread pool" + (" (pinned to one CPU here)" if args.one_core else "")
    )
    print(f"goal bucket check >= 1,000,000 rows/s on one core: {'met' if rate >= 1e6 else 'NOT met'}")
    print(f"goal validation within 3x of the pyarrow read: {'met' if ratio <= 3 else 'NOT met'} ({ratio:.2f}x)")

    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        validate_table(root)
        profile.disable()
        print(f"\ncProfile of one validation, top {args.profile} by cumulative time:")
        pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
