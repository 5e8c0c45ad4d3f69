#!/usr/bin/env python3
"""Benchmark: building file indexes (bloom filter on 10^6 INT / short strings / DOUBLE / TIMESTAMP(6), bitmap,
range-bitmap and BSI on 10^6 rows).

    .venv/bin/python tools/benchmarks/file_index_build.py [--rows 1000000] [--distinct 1000]

Prints, from one run: our time from Arrow columns (the writer's input) and from Python lists of internal
values, a plain per-value Python loop doing the bloom INT hashing, and Java Paimon 0.9.0's own writers (the
jar, warmed up, best of N) over values of the same kind, with each goal's throughput ratio ours / Java: bloom
INT and STRING >= 0.75, bitmap V1 build >= 0.5 (bloom DOUBLE and TIMESTAMP: the ratio, no goal; range-bitmap
and BSI: Java 0.9.0 has neither, ours only). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import paimon_java
from timing import best_of

from paimon_conform.core.hashing import fasthash
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.bsi import codec as bsi
from paimon_conform.layouts.range_bitmap import codec as range_bitmap


def python_loop_bloom(values, items: int) -> bytes:
    """The same bloom filter, one value at a time in plain Python."""
    num_bits, k = bloom.sizing(items, bloom.DEFAULT_FPP)
    bits = bytearray(num_bits // 8)
    for v in values:
        h = fasthash.wang64(v)
        h1 = fasthash.signed64(h) & 0xFFFFFFFF
        h1 = h1 - (1 << 32) if h1 >> 31 else h1
        h2 = (h >> 32) & 0xFFFFFFFF
        h2 = h2 - (1 << 32) if h2 >> 31 else h2
        for i in range(1, k + 1):
            c = (h1 + i * h2) & 0xFFFFFFFF
            c = c - (1 << 32) if c >> 31 else c
            c = ~c if c < 0 else c
            p = c % num_bits
            bits[p >> 3] |= 1 << (p & 7)
    return k.to_bytes(4, "big") + bytes(bits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--distinct", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    n = args.rows
    rng = np.random.default_rng(1)
    ints = rng.integers(-(2**31), 2**31, n).astype(np.int64)
    strings = [f"s{x:x}" for x in rng.integers(0, 2**32, n).tolist()]
    groups = rng.integers(0, args.distinct, n).tolist()
    t_int, t_str = parse_type("INT"), parse_type("STRING")

    # the writer's input: Arrow columns (as a data file's columns are); Python lists of internal values beside
    int_col, str_col, group_col = pa.array(ints, pa.int32()), pa.array(strings, pa.string()), pa.array(groups)
    ours_int = best_of(args.runs, lambda: bloom.build(t_int, int_col, n))
    ours_str = best_of(args.runs, lambda: bloom.build(t_str, str_col, n))
    ours_bitmap = best_of(args.runs, lambda: bitmap.build(t_int, group_col, 1))
    list_int = best_of(args.runs, lambda: bloom.build(t_int, ints.tolist(), n))
    list_str = best_of(args.runs, lambda: bloom.build(t_str, strings, n))
    list_bitmap = best_of(1, lambda: bitmap.build(t_int, groups, 1))
    assert bloom.build(t_str, str_col, n) == bloom.build(t_str, strings, n)
    assert bitmap.build(t_int, group_col, 1) == bitmap.build(t_int, groups, 1)
    doubles = rng.uniform(-5e5, 5e5, n)
    micros = rng.integers(-(2**50), 2**50, n)
    t_double, t_ts, t_big = parse_type("DOUBLE"), parse_type("TIMESTAMP(6)"), parse_type("BIGINT")
    double_col, ts_col = pa.array(doubles), pa.array(micros, pa.timestamp("us"))
    ts_list = [(m // 1000, (m % 1000) * 1000) for m in micros.tolist()]
    ours_double = best_of(args.runs, lambda: bloom.build(t_double, double_col, n))
    ours_ts = best_of(args.runs, lambda: bloom.build(t_ts, ts_col, n))
    list_double = best_of(args.runs, lambda: bloom.build(t_double, doubles.tolist(), n))
    list_ts = best_of(args.runs, lambda: bloom.build(t_ts, ts_list, n))
    assert bloom.build(t_ts, ts_col, n) == bloom.build(t_ts, ts_list, n)
    range_col, bsi_col = pa.array(groups, pa.int32()), pa.array(ints)
    ours_range = best_of(args.runs, lambda: range_bitmap.build(t_int, range_col))
    list_range = best_of(args.runs, lambda: range_bitmap.build(t_int, groups))
    ours_bsi = best_of(args.runs, lambda: bsi.build(t_big, bsi_col))
    list_bsi = best_of(args.runs, lambda: bsi.build(t_big, ints.tolist()))
    assert range_bitmap.build(t_int, range_col) == range_bitmap.build(t_int, groups)
    assert bsi.build(t_big, bsi_col) == bsi.build(t_big, ints.tolist())
    sample = ints[: n // 20].tolist()
    loop_int = best_of(1, lambda: python_loop_bloom(sample, n)) * 20  # scaled from 5 % of the values
    assert python_loop_bloom(ints.tolist()[:1000], n) == bloom.build(t_int, ints.tolist()[:1000], n)

    paimon_java.ensure_classes()
    cp = f"{paimon_java.ensure_jar()}:{paimon_java.CLASSES}"
    out = subprocess.run(
        ["java", "-Xmx4g", "-cp", cp, "IndexBench", str(n), str(args.distinct), "5"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    java = json.loads(out.strip().splitlines()[-1])

    print(f"{n:,} values; time ratio = ours / theirs (lower is better); throughput ratio = theirs / ours time")
    print(f"bloom INT python loop {loop_int:.2f} s: ours {ours_int / loop_int:.3f}x its time")
    rows = [
        ("bloom INT", ours_int, list_int, java["bloom_int_s"], 0.75),
        ("bloom STRING", ours_str, list_str, java["bloom_string_s"], 0.75),
        ("bloom DOUBLE", ours_double, list_double, java["bloom_double_s"], None),
        ("bloom TIMESTAMP(6)", ours_ts, list_ts, java["bloom_timestamp_s"], None),
        (f"bitmap V1 INT ({args.distinct} distinct)", ours_bitmap, list_bitmap, java["bitmap_s"], 0.5),
        (f"range-bitmap INT ({args.distinct} distinct)", ours_range, list_range, None, None),
        ("BSI BIGINT", ours_bsi, list_bsi, None, None),
    ]
    for name, ours, listed, theirs, goal in rows:
        line = f"{name:<31} ours {ours:6.3f} s ({n / ours / 1e6:5.1f} M values/s; from a Python list {listed:6.3f} s)"
        if theirs is None:
            print(f"{line}   Java 0.9.0 has no such index")
            continue
        ratio = theirs / ours
        verdict = "no goal" if goal is None else f"goal >= {goal}: {'goal met' if ratio >= goal else 'NOT met'}"
        print(f"{line}   Java 0.9.0 {theirs:6.3f} s   throughput ours / Java {ratio:.2f}, {verdict}")


if __name__ == "__main__":
    main()
