#!/usr/bin/env python3
"""Benchmark: validating a table in one process vs in Spark tasks (`validate TABLE --spark`).

    .venv/bin/python tools/benchmarks/spark_validate.py [--rows 1000000 10000000 100000000] [--master local[2]]

For each size N, a primary-key table (dt STRING partition of 4 days, id BIGINT, v DOUBLE, s STRING;
8 fixed buckets; a bloom-filter index on s) written by the kit's own write engine in commits of
at most 10^7 rows (each commit adds level-0 files: 32 data files per commit), under build/bench/
and reused. Then, same process, same run: `validate_table` (one process, one core) and
`spark.validate.validate_on_spark` on MASTER (the session started before, its start reported apart;
one untimed Spark run first, so Python workers and imports are warm), both reports checked equal.
Prints per size: data files, seconds, rows/s, the ratio one process / Spark, and how time grows
from one size to the next. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.types import parse_type
from paimon_conform.spark import source
from paimon_conform.spark.validate import validate_on_spark
from paimon_conform.table import table_layout as tl
from paimon_conform.table.validate.table import TableStats, validate_table
from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write
from paimon_conform.table.write.files import arrow_type

ROOT = Path(__file__).resolve().parent.parent.parent
CHUNK = 10_000_000
FIELDS = [("dt", "STRING", False), ("id", "BIGINT", False), ("v", "DOUBLE", True), ("s", "STRING", True)]
OPTIONS = {
    "primary-key": "dt,id",
    "partition": "dt",
    "bucket": "8",
    "file.format": "parquet",
    "file-index.bloom-filter.columns": "s",
    "file-index.in-manifest-threshold": "1 b",
    "paimon.release": "0.9.0",
}


def rows(start: int, stop: int) -> pa.Table:
    """Rows start..stop-1, built column-wise (no Python object per row)."""
    ids = np.arange(start, stop, dtype=np.int64)
    days = pa.array(["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04"])
    schema = pa.schema([pa.field(n, arrow_type(parse_type(t)), nullable=null) for n, t, null in FIELDS])
    columns = [
        days.take(pa.array(ids % 4)),
        pa.array(ids),
        pa.array((ids % 1000).astype(np.float64) / 8),
        pc.binary_join_element_wise("s", pc.cast(pa.array(ids % 5000), pa.string()), ""),
    ]
    return pa.Table.from_arrays(columns, schema=schema)


def table_dir(n: int, base: Path) -> Path:
    """The benchmark table of `n` rows, written on first use."""
    root = base / f"spark-validate-{n}"
    if (root / "snapshot" / "LATEST").is_file():
        return root
    if root.exists():
        raise SystemExit(f"{root} exists but holds no finished table; remove it")
    t = time.perf_counter()
    for start in range(0, n, CHUNK):
        batch = rows(start, min(n, start + CHUNK))
        plan = write.prepare(root, batch.schema, OPTIONS, False)
        kinds = np.full(batch.num_rows, tl.row_kind_byte("+I"), dtype=np.int8)
        commit.commit(plan, [write.write_task(plan, batch.to_batches(), 0, kinds)])
    print(f"  wrote {root} ({n:,} rows) in {time.perf_counter() - t:.1f} s", flush=True)
    return root


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000, 100_000_000])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "bench")
    args = parser.parse_args()
    tables = [table_dir(n, args.dir) for n in args.rows]
    t = time.perf_counter()
    spark = source.session("paimon-conform bench", args.master)
    print(f"Spark session on {args.master}: {time.perf_counter() - t:.1f} s (not in the figures below)")
    validate_on_spark(spark, tables[0])  # warm: Python workers, their imports, the JIT-compiled kernels' cache
    print("rows          data files   one process          Spark                ratio one/Spark")
    previous = None
    for n, root in zip(args.rows, tables, strict=True):
        here, there = TableStats(), TableStats()
        t = time.perf_counter()
        a = validate_table(root, stats=here)
        single = time.perf_counter() - t
        t = time.perf_counter()
        b = validate_on_spark(spark, root, stats=there)
        spread = time.perf_counter() - t
        same = [(r.file, r.unusable, [f.code for f in r.findings]) for r in a] == [
            (r.file, r.unusable, [f.code for f in r.findings]) for r in b
        ]
        growth = ""
        if previous:
            times = f"one process x{single / previous[1]:.1f}, Spark x{spread / previous[2]:.1f}"
            growth = f"   x{n / previous[0]:.0f} rows: {times}"
        print(
            f"{n:>13,} {here.data_files:>6}   {single:8.1f} s {here.rows / single / 1e6:5.1f} M rows/s   "
            f"{spread:8.1f} s {there.rows / spread / 1e6:5.1f} M rows/s   {single / spread:5.2f}"
            f"{'' if same else '   REPORTS DIFFER'}{growth}",
            flush=True,
        )
        previous = (n, single, spread)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
