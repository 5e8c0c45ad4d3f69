#!/usr/bin/env python3
"""Benchmark: the memory of `validate TABLE` as its one data file grows, streamed by row group (ORC: stripe)
vs read whole.

    .venv/bin/python tools/benchmarks/validate_memory.py [--rows 1000000 4000000 16000000] [--format orc]

For each size N, an append table (id BIGINT, v DOUBLE, s STRING; one bucket) whose one Parquet (or ORC) data file
of N rows the kit's write engine writes (pyarrow's row groups of 2^20 rows; ORC stripes cut at ORC_STRIPE_BYTES), under
build/bench/ and reused. Each is validated in a fresh child process twice: as the CLI does (windows of whole row
groups or stripes, at most 1/16 of the memory budget each) and with every file read whole (windows as large as the
budget); prints the peak resident memory (VmHWM) of the child plus, for ORC, of the ORC worker process it starts,
its seconds, and checks both reports' findings are equal. A benchmark, not a test.
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
OPTIONS = {"bucket": "-1", "paimon.release": "0.9.0"}
# ORC C++ counts no integer it buffers for run-length encoding toward the stripe size: at its default 64 MiB the
# 16M-row file is one stripe; at 4 MiB a stripe holds about 1.6M rows (40 MB in Arrow, as a row group here)
ORC_STRIPE_BYTES = 4 << 20

CHILD = """
import json, sys, time
from pathlib import Path
from paimon_conform.formats import orc_isolated
from paimon_conform.table.read import data_files
from paimon_conform.table.validate.table import validate_table
data_files.WINDOW_SHARE = int(sys.argv[2])
t = time.perf_counter()
results = validate_table(Path(sys.argv[1]))
seconds = time.perf_counter() - t
findings = sorted(f.code for r in results for f in r.findings)
# VmHWM: this process's own peak (ru_maxrss would carry the forking parent's over exec)
def hwm(pid):
    return next(int(line.split()[1]) * 1024 for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM:"))
worker = orc_isolated._worker  # the ORC reads' process, alive until this one exits
peak = hwm("self") + (hwm(worker.pid) if worker is not None else 0)
print(json.dumps({"seconds": seconds, "peak": peak, "findings": findings}))
"""


def table_dir(n: int, base: Path, fmt: str) -> Path:
    """The benchmark table of `n` rows in one data file, written on first use."""
    root = base / f"validate-memory-{n}" if fmt == "parquet" else base / f"validate-memory-{fmt}-{n}"
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
    import pyarrow.orc as po

    plain = po.write_table
    po.write_table = lambda *a, **k: plain(*a, **k, stripe_size=ORC_STRIPE_BYTES)
    try:
        plan = write.prepare(root, batch.schema, {**OPTIONS, "file.format": fmt}, False)
        commit.commit(plan, [write.write_task(plan, batch.to_batches(), 0)])
    finally:
        po.write_table = plain
    return root


def _parts(path: Path) -> int:
    """Row groups of a Parquet file, stripes of an ORC file."""
    if path.suffix == ".parquet":
        return pq.ParquetFile(path).metadata.num_row_groups
    from paimon_conform.formats.orc_timestamps import stripe_estimates

    return len(stripe_estimates(path))


def measure(root: Path, share: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(share)], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 4_000_000, 16_000_000])
    parser.add_argument("--format", choices=["parquet", "orc"], default="parquet")
    args = parser.parse_args()
    base = ROOT / "build" / "bench"
    parts = "row groups" if args.format == "parquet" else "stripes"
    print(
        f"{'rows':>12} {'file MB':>8} {parts:>10} {'streamed MB':>12} {'whole MB':>9} {'s streamed':>11} {'s whole':>8}"
    )
    for n in args.rows:
        root = table_dir(n, base, args.format)
        files = list(root.glob(f"bucket-0/*.{args.format}"))
        groups = sum(_parts(f) for f in files)
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
