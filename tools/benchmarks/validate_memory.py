#!/usr/bin/env python3
"""Benchmark: the memory of `validate TABLE` as its one data file grows, streamed by row group (ORC: stripe;
Avro: block) vs read whole.

    .venv/bin/python tools/benchmarks/validate_memory.py [--rows 1000000 4000000 16000000] [--format orc|avro]

For each size N, an append table (id BIGINT, v DOUBLE, s STRING; one bucket) whose one data file of N rows is
written under build/bench/ and reused: Parquet and ORC by the kit's write engine (pyarrow's row groups of 2^20 rows;
ORC stripes cut at ORC_STRIPE_BYTES), Avro by Java Paimon 1.0's own writer (tools/java/tables/AvroTableWriter.java:
the same rows, blocks of about 64 KB). Each is validated in a fresh child process twice: as the CLI does (windows
of whole row groups, stripes or blocks, at most 1/16 of the 1 GiB memory budget each) and with every file read
whole (windows as large as the budget; for Avro, whose rows are Python objects while decoded, under a budget of
WHOLE_AVRO_BUDGET, since the default budget refuses a file of millions of rows read whole); prints the peak
resident memory (VmHWM) of the child plus, for ORC, of the ORC worker process it starts, its seconds, and checks
both reports' findings are equal. A benchmark, not a test.
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
WHOLE_AVRO_BUDGET = 20 << 30

CHILD = """
import json, sys, time
from pathlib import Path
from paimon_conform.core import budget
from paimon_conform.formats.orc import worker as orc_worker
from paimon_conform.table.read import data_files
from paimon_conform.table.validate.table import validate_table
data_files.WINDOW_SHARE = int(sys.argv[2])
t = time.perf_counter()
with budget.limited(int(sys.argv[3])):
    results = validate_table(Path(sys.argv[1]))
seconds = time.perf_counter() - t
findings = sorted(f.code for r in results for f in r.findings)
# VmHWM: this process's own peak (ru_maxrss would carry the forking parent's over exec)
def hwm(pid):
    return next(int(line.split()[1]) * 1024 for line in open(f"/proc/{pid}/status") if line.startswith("VmHWM:"))
worker = orc_worker._worker  # the ORC reads' process, alive until this one exits
peak = hwm("self") + (hwm(worker.pid) if worker is not None else 0)
print(json.dumps({"seconds": seconds, "peak": peak, "findings": findings}))
"""


def table_dir(n: int, base: Path, fmt: str) -> Path:
    """The benchmark table of `n` rows in one data file, written on first use."""
    root = base / f"validate-memory-{n}" if fmt == "parquet" else base / f"validate-memory-{fmt}-{n}"
    if (root / "snapshot" / "LATEST").is_file():
        return root
    if fmt == "avro":
        return _java_avro(root, n)
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


def _java_avro(root: Path, n: int) -> Path:
    """The Avro table of `n` rows, written by Java Paimon 1.0 (AvroTableWriter) into a side folder, then moved."""
    import shutil

    sys.path.insert(0, str(ROOT / "tools"))
    import paimon_java

    partial = root.with_name(root.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    paimon_java.run_java_tables(paimon_java.PAIMON_10_VERSION, "AvroTableWriter", str(partial), str(n), "0")
    partial.rename(root)
    return root


def _parts(path: Path) -> int:
    """Row groups of a Parquet file, stripes of an ORC file, blocks of an Avro file."""
    if path.suffix == ".parquet":
        return pq.ParquetFile(path).metadata.num_row_groups
    if path.suffix == ".avro":
        import fastavro

        with path.open("rb") as f:
            return sum(1 for _ in fastavro.block_reader(f))
    from paimon_conform.formats.orc.tail import stripe_estimates

    return len(stripe_estimates(path))


def measure(root: Path, share: int, max_memory: int = 1 << 30) -> dict:
    argv = [sys.executable, "-c", CHILD, str(root), str(share), str(max_memory)]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 4_000_000, 16_000_000])
    parser.add_argument("--format", choices=["parquet", "orc", "avro"], default="parquet")
    args = parser.parse_args()
    base = ROOT / "build" / "bench"
    parts = {"parquet": "row groups", "orc": "stripes", "avro": "blocks"}[args.format]
    print(
        f"{'rows':>12} {'file MB':>8} {parts:>10} {'streamed MB':>12} {'whole MB':>9} {'s streamed':>11} {'s whole':>8}"
    )
    for n in args.rows:
        root = table_dir(n, base, args.format)
        files = list(root.glob(f"bucket-0/*.{args.format}"))
        groups = sum(_parts(f) for f in files)
        size = sum(f.stat().st_size for f in files) / 2**20
        whole_budget = WHOLE_AVRO_BUDGET if args.format == "avro" else 1 << 30
        streamed, whole = measure(root, 16), measure(root, 1, whole_budget)
        if streamed["findings"] != whole["findings"]:
            raise SystemExit(f"{n} rows: the reports differ: {streamed['findings']} vs {whole['findings']}")
        print(
            f"{n:>12,} {size:>8.1f} {groups:>10} {streamed['peak'] / 2**20:>12.0f} {whole['peak'] / 2**20:>9.0f} "
            f"{streamed['seconds']:>11.2f} {whole['seconds']:>8.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
