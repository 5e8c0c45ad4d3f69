#!/usr/bin/env python3
"""Benchmark: the memory of `validate TABLE` as its one data file grows, streamed by row group vs read whole.

    .venv/bin/python tools/benchmarks/validate_memory.py [--rows 1000000 4000000 16000000]

For each size N, an append table (id BIGINT, v DOUBLE, s STRING; one bucket) whose one Parquet data file of N
rows the kit's write engine writes (pyarrow's row groups of 2^20 rows), under build/bench/ and reused. Each is
validated in a fresh child process twice: as the CLI does (windows of whole row groups, at most 1/16 of the
memory budget each) and with every file read whole (windows as large as the budget); prints the child's peak
resident memory (VmHWM), its seconds, and both reports' finding counts (they must be equal). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write

ROOT = Path(__file__).resolve().parent.parent.parent
OPTIONS = {"bucket": "-1", "file.format": "parquet", "paimon.release": "0.9.0"}

CHILD = """
import json, sys, time
from pathlib import Path
from paimon_conform.table.read import data_files
from paimon_conform.table.validate.table import validate_table
data_files.WINDOW_SHARE = int(sys.argv[2])
t = time.perf_counter()
results = validate_table(Path(sys.argv[1]))
seconds = time.perf_counter() - t
findings = sorted(f.code for r in results for f in r.findings)
# VmHWM: this process's own peak (ru_maxrss would carry the forking parent's over exec)
peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "peak": peak, "findings": findings}))
"""


def table_dir(n: int, base: Path) -> Path:
    """The benchmark table of `n` rows in one data file, written on first use."""
    root = base / f"validate-memory-{n}"
    if (root / "snapshot" / "LATEST").is_file():
        return root
    ids = np.arange(n, dtype=np.int64)
    batch = pa.table(
        {
            "id": pa.array(ids),
            "v": pa.array((ids % 1000).astype(np.float64) / 8),
            "s": pc.binary_join_element_wise("s", pc.cast(pa.array(ids % 50_000), pa.string()), ""),
        }
    )
    plan = write.prepare(root, batch.schema, OPTIONS, False)
    commit.commit(plan, [write.write_task(plan, batch.to_batches(), 0)])
    return root


def measure(root: Path, share: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(share)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 4_000_000, 16_000_000])
    args = parser.parse_args()
    base = ROOT / "build" / "bench"
    print(
        f"{'rows':>12} {'file MB':>8} {'row groups':>10} {'streamed MB':>12} {'whole MB':>9} {'s streamed':>11} "
        f"{'s whole':>8}"
    )
    for n in args.rows:
        root = table_dir(n, base)
        files = list(root.glob("bucket-0/*.parquet"))
        groups = sum(pq.ParquetFile(f).metadata.num_row_groups for f in files)
        size = sum(f.stat().st_size for f in files) / 2**20
        streamed, whole = measure(root, 16), measure(root, 1)
        if streamed["findings"] != whole["findings"]:
            raise SystemExit(f"{n} rows: the reports differ: {streamed['findings']} vs {whole['findings']}")
        print(
            f"{n:>12,} {size:>8.1f} {groups:>10} {streamed['peak'] / 2**20:>12.0f} {whole['peak'] / 2**20:>9.0f} "
            f"{streamed['seconds']:>11.2f} {whole['seconds']:>8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
