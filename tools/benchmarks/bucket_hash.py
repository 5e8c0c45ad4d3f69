#!/usr/bin/env python3
"""Benchmark: hash and bucket 10^7 keys of (BIGINT) and of (STRING <= 16 characters).

    .venv/bin/python tools/benchmarks/bucket_hash.py [--rows 10000000] [--buckets 16]

Prints, from one run, for each key type: our vectorized column path
(bucketing.hash_columns + default_bucket), our scalar path (binary_row.write
+ mmh3 per key) and pypaimon 2.1.0's per-row path
(RowKeyExtractor._binary_row_hash_code + _bucket_from_hash) timed on a 10^5
sample and scaled, and Java Paimon 0.9.0 (BinaryRowWriter + BinaryRow.hashCode
+ KeyAndBucketExtractor.bucket, warmed up, best of 3) over all keys; with
ratios. Every path's buckets are checked against ours. Goals, throughput ours /
Java in the same run: BIGINT >= 0.5 (and >= 10^7 keys/s on one core), STRING
>= 0.75 (a key whose one variable-length field is hashed word by word from the
Arrow offsets and data, no row built). A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import paimon_java
from timing import best_of

from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.binary_row import codec as binary_row

SAMPLE = 100_000
GOALS = {"BIGINT": 0.5, "STRING": 0.75}  # throughput ours / Java 0.9.0 (issue 20: STRING >= 0.75x)


def pypaimon_buckets(type_name: str, values: list, n: int) -> list[int] | None:
    """pypaimon 2.1.0's per-row bucket path, or None when pypaimon is not installed."""
    try:
        from pypaimon.schema.data_types import AtomicType, DataField
        from pypaimon.write.row_key_extractor import RowKeyExtractor, _bucket_from_hash
    except ImportError:
        return None
    fields = [DataField(0, "k", AtomicType(type_name))]
    return [_bucket_from_hash(RowKeyExtractor._binary_row_hash_code((v,), fields), n) for v in values]


def java_run(keys_file: Path, type_name: str, n: int) -> dict:
    paimon_java.ensure_classes()
    cp = f"{paimon_java.ensure_jar()}:{paimon_java.CLASSES}"
    cmd = ["java", "-Xmx6g", "-cp", cp, "BucketBench", str(keys_file), type_name, str(n), "3"]
    return json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])


def bench(type_name: str, column: pa.Array, keys_file: Path, n: int) -> None:
    t = parse_type(type_name)
    rows = len(column)
    ours = None

    def vectorized() -> None:
        nonlocal ours
        ours = bucketing.default_bucket(bucketing.hash_columns([t], [column]), n)

    t_vec = best_of(3, vectorized)
    sample = column.slice(0, SAMPLE).to_pylist()
    scalar = []
    t_scalar = best_of(
        1,
        lambda: scalar.extend(
            bucketing.default_bucket(bucketing.hash_code(binary_row.write([t], [v])), n) for v in sample
        ),
    )
    t_scalar *= rows / len(sample)
    assert scalar == ours[: len(sample)].tolist()
    peer: list[int] = []
    t_peer = best_of(1, lambda: peer.extend(pypaimon_buckets(type_name, sample, n) or []))
    t_peer *= rows / len(sample)
    java = java_run(keys_file, type_name, n)
    agree = "same buckets" if int(ours.astype(np.int64).sum()) == java["bucket_sum"] else "DIFFERENT BUCKETS"
    print(f"{type_name:<7} {rows:,} keys, {n} buckets (time; ratio = ours vectorized / theirs, lower is better)")
    print(f"  ours vectorized {t_vec:8.3f} s  {rows / t_vec / 1e6:6.1f} M keys/s")
    print(f"  ours scalar     {t_scalar:8.3f} s  {rows / t_scalar / 1e6:6.2f} M keys/s  ({t_vec / t_scalar:.3f}x)")
    if peer:
        same = "same buckets" if peer == scalar else "DIFFERENT BUCKETS"
        print(
            f"  pypaimon 2.1.0  {t_peer:8.3f} s  {rows / t_peer / 1e6:6.2f} M keys/s  ({t_vec / t_peer:.3f}x, {same})"
        )
    else:
        print("  pypaimon 2.1.0  not installed (pip install pypaimon==2.1.0)")
    j = java["best_s"]
    goal = GOALS[type_name]
    met = "goal met" if j / t_vec >= goal else "GOAL MISSED"
    print(
        f"  Java 0.9.0      {j:8.3f} s  {rows / j / 1e6:6.1f} M keys/s  ({t_vec / j:.2f}x; throughput ours / Java"
        f" {j / t_vec:.2f}, goal >= {goal}: {met}; {agree})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--buckets", type=int, default=16)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    longs = rng.integers(-(2**63), 2**63 - 1, args.rows, dtype=np.int64)
    lengths = rng.integers(0, 17, args.rows)
    alphabet = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz0123456789", dtype=np.uint8)
    chars = alphabet[rng.integers(0, len(alphabet), int(lengths.sum()))]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    strings = pa.LargeStringArray.from_buffers(args.rows, pa.py_buffer(offsets), pa.py_buffer(chars.tobytes()))
    print(f"one run, one core; pypaimon and scalar timed on {SAMPLE:,} keys and scaled")
    with tempfile.TemporaryDirectory() as tmp:
        f_long = Path(tmp) / "longs.bin"
        f_long.write_bytes(longs.astype("<i8").tobytes())
        bench("BIGINT", pa.array(longs), f_long, args.buckets)
        f_str = Path(tmp) / "strings.bin"
        with f_str.open("wb") as out:
            data = chars.tobytes()
            for i in range(args.rows):
                s, e = offsets[i], offsets[i + 1]
                out.write(struct.pack("<i", e - s) + data[s:e])
        bench("STRING", strings, f_str, args.buckets)


if __name__ == "__main__":
    main()
