#!/usr/bin/env python3
"""Benchmark: range query and top-10 on a range-bitmap index vs a numpy scan of the raw values.

    .venv/bin/python tools/benchmarks/range_query.py [--rows 10000,100000,1000000] [--distinct 1000,100000]

For each row count and number of distinct values (BIGINT, uniform): the
time to build and to load the index (reported, not compared), then a range
query `v BETWEEN lo AND hi` (about 10 % of the value range) and top-10, each
answered by the index (range_query, as Java's RangeBitmap) and by a numpy
scan of the loaded column. Prints the times, ratios (scan / index: above 1
the index is faster) and how each grows with rows. Goal: the range query
costs grow with the number of slices, not the row count, and beat the scan
at 10^6 rows. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from timing import best_of

from paimon_conform.core.types import parse_type
from paimon_conform.layouts.range_bitmap import codec as range_bitmap
from paimon_conform.layouts.range_bitmap import query as range_query


def run(rows: int, distinct: int, rng: np.random.Generator) -> dict:
    """Time one configuration; answers are checked against the scan."""
    t = parse_type("BIGINT")
    values = rng.integers(0, distinct, size=rows, dtype=np.int64) * 1_000 - 7
    started = time.perf_counter()
    payload = range_bitmap.build(t, values.tolist())
    built = time.perf_counter() - started
    started = time.perf_counter()
    index = range_bitmap.read(payload, t)
    loaded = time.perf_counter() - started
    lo, hi = int(np.quantile(values, 0.45)), int(np.quantile(values, 0.55))

    def index_range():
        return range_query.between(index, lo, hi)

    def scan_range():
        return np.flatnonzero((values >= lo) & (values <= hi))

    def index_top():
        return range_query.top_k(index, 10)

    def scan_top():
        return np.argpartition(values, rows - 10)[rows - 10 :]

    assert np.array_equal(np.asarray(index_range().to_array(), dtype=np.int64), scan_range())
    top = index_top()
    assert len(top) == 10
    assert values[np.asarray(top.to_array(), dtype=np.int64)].min() == np.sort(values)[-10]
    return {
        "rows": rows,
        "asked": distinct,
        "distinct": len(index.keys),
        "slices": len(index.slices),
        "bytes": len(payload),
        "build": built,
        "load": loaded,
        "range_index": best_of(7, index_range),
        "range_scan": best_of(7, scan_range),
        "top_index": best_of(7, index_top),
        "top_scan": best_of(7, scan_top),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", default="10000,100000,1000000")
    parser.add_argument("--distinct", default="1000,100000")
    args = parser.parse_args()
    rng = np.random.default_rng(20261122)
    results = []
    print(
        f"{'rows':>9} {'distinct':>8} {'slices':>6} {'size':>9} {'build s':>8} {'load s':>7} "
        f"{'range idx ms':>12} {'scan ms':>8} {'ratio':>6} {'top10 idx ms':>12} {'scan ms':>8} {'ratio':>6}"
    )
    for distinct in (int(x) for x in args.distinct.split(",")):
        for rows in (int(x) for x in args.rows.split(",")):
            r = run(rows, distinct, rng)
            results.append(r)
            print(
                f"{r['rows']:>9} {r['distinct']:>8} {r['slices']:>6} {r['bytes']:>9} {r['build']:>8.2f} "
                f"{r['load']:>7.2f} {r['range_index'] * 1e3:>12.3f} {r['range_scan'] * 1e3:>8.3f} "
                f"{r['range_scan'] / r['range_index']:>6.2f} {r['top_index'] * 1e3:>12.3f} "
                f"{r['top_scan'] * 1e3:>8.3f} {r['top_scan'] / r['top_index']:>6.2f}",
                flush=True,
            )
    print("growth from the smallest to the largest row count, per distinct count:")
    for distinct in sorted({r["asked"] for r in results}):
        group = [r for r in results if r["asked"] == distinct]
        if len(group) < 2:
            continue
        a, b = group[0], group[-1]
        print(
            f"  up to {distinct} distinct (slices {a['slices']} -> {b['slices']}): "
            f"rows x{b['rows'] / a['rows']:.0f}, range query x"
            f"{b['range_index'] / a['range_index']:.1f} (scan x{b['range_scan'] / a['range_scan']:.1f}), "
            f"top-10 x{b['top_index'] / a['top_index']:.1f} (scan x{b['top_scan'] / a['top_scan']:.1f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
