#!/usr/bin/env python3
"""Benchmark: validate a 10^6-row primary-key table (4 buckets, deletion vectors, file indexes).

    .venv/bin/python tools/benchmarks/table_validate.py [--rows 1000000] [--repeat 1] [--dir DIR]

The table comes from the reference table writer (two partitions, four buckets, a bloom-filter
`.index` file per data file, deletion vectors for every ninth key); it is written once per row
count under build/bench/ and reused. Prints, in one process and on one core (the validator is
single-threaded): pyarrow's time to read every data file (ParquetFile.read), the whole
validation with its phases (after one untimed run that pays for imports), rows/s, the
bucket check's rows/s and its share, and the ratio to the pyarrow read. Goals: >= 10^6
rows/s for the bucket check; the whole validation within 3x of the pyarrow read. A
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
from timing import best_of

from paimon_conform.table.validate.table import TableStats, validate_table
from paimon_conform.table.write.reference_table import write_table

ROOT = Path(__file__).resolve().parent.parent.parent


def table_dir(rows: int, base: Path) -> Path:
    """The benchmark table for `rows`, written on first use."""
    root = base / f"table-{rows}"
    if not (root / "snapshot" / "snapshot-1").is_file():
        if root.exists():
            raise SystemExit(f"{root} exists but holds no table; remove it")
        write_table(root, rows=rows, buckets=4, seed=2026)
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench")
    args = parser.parse_args()
    root = table_dir(args.rows, args.dir)
    data = sorted(root.rglob("bucket-*/*.parquet"))
    t_read = best_of(args.repeat, lambda: [pq.ParquetFile(p).read() for p in data])
    t = time.perf_counter()
    validate_table(root)  # imports (fastavro, pyarrow.compute, ...) and the page cache, as pyarrow's read had
    cold = time.perf_counter() - t
    runs = []
    for _ in range(args.repeat):
        stats = TableStats()
        t = time.perf_counter()
        found = validate_table(root, stats=stats)
        runs.append((time.perf_counter() - t, stats, found))
    seconds, stats, found = min(runs, key=lambda r: r[0])
    musts = sum(f.severity == "must" for r in found for f in r.findings)
    bucket = stats.seconds["bucket"]
    print(f"table: {root} ({stats.rows:,} rows in {stats.data_files} data files, single-threaded)")
    print(f"pyarrow read of the data files: {t_read:.3f} s")
    print(f"validation: {seconds:.3f} s, {stats.rows / seconds:,.0f} rows/s, {musts} must finding(s)")
    print(f"  (first run in a fresh process, imports included: {cold:.3f} s)")
    for phase in ("metadata", "read", "bucket", "entries"):
        print(f"  {phase:<9} {stats.seconds[phase]:.3f} s ({stats.seconds[phase] / seconds:.0%})")
    rate = stats.bucket_rows / bucket if bucket else float("inf")
    print(f"bucket check: {stats.bucket_rows:,} rows, {rate:,.0f} rows/s, {bucket / seconds:.0%} of the validation")
    ratio = seconds / t_read
    print(f"validation / pyarrow read: {ratio:.2f}x")
    print(f"goal bucket check >= 1,000,000 rows/s: {'met' if rate >= 1e6 else 'NOT met'}")
    print(f"goal validation within 3x of the read: {'met' if ratio <= 3 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
