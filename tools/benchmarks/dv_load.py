#!/usr/bin/env python3
"""Benchmark: loading a deletion-vector file with 1,000 vectors and 10^7 positions.

    .venv/bin/python tools/benchmarks/dv_load.py [--vectors 1000] [--positions 10000000]

Prints, from one run, the time of
* pyroaring's raw `BitMap.deserialize` of the same 1,000 bitmaps (the floor),
* our fast path `deletion_vectors.load` (framing, CRC32, CRoaring deserialize),
  with and without CRC verification, and the ratio to the floor (goal <= 1.5x),
* full structural validation (`deletion_vectors.validate`: the fast checker, which
  passes a file when its bytes are what Java writes for its positions; goal <= 3x the
  floor) and the same by the Kaitai spec parser, the reference it is held to.
A benchmark, not a test: it reports, it does not assert.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from pyroaring import BitMap
from timing import best_of

from paimon_conform.layouts.deletion_vectors import entry as dv


def make_vectors(n_vectors: int, n_positions: int, seed: int = 1) -> dict[str, np.ndarray]:
    """Vectors shaped like real deletes: scattered rows plus deleted ranges."""
    rng = np.random.default_rng(seed)
    per = n_positions // n_vectors
    out = {}
    for i in range(n_vectors):
        rows = int(rng.integers(per * 3, per * 30))  # the data file's row count
        scattered = rng.choice(rows, size=per // 2, replace=False)
        start = int(rng.integers(0, rows - per))
        ranged = np.arange(start, start + per - per // 2)
        out[f"data-{i}.parquet"] = np.union1d(scattered, ranged)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vectors", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    t = time.perf_counter()
    vectors = make_vectors(args.vectors, args.positions)
    (written,) = dv.write_files(vectors, target_size=1 << 40)
    encode_s = time.perf_counter() - t
    data = written.data
    total = sum(v.size for v in vectors.values())
    blobs = [data[o + 8 : o + 4 + n] for o, n, _ in written.ranges.values()]  # bitmap bytes only
    print(f"file: {len(data) / 2**20:.1f} MiB, {len(blobs)} vectors, {total:,} positions (encoded in {encode_s:.2f} s)")

    raw = best_of(args.runs, lambda: [BitMap.deserialize(b) for b in blobs])
    load = best_of(args.runs, lambda: dv.load(data))
    load_nocrc = best_of(args.runs, lambda: dv.load(data, verify_crc=False))
    findings = dv.validate(data)
    validate_s = best_of(args.runs, lambda: dv.validate(data))
    t = time.perf_counter()
    by_spec = dv.validate_by_spec(data)
    spec_s = time.perf_counter() - t
    assert by_spec == findings
    assert sum(len(v.bitmap) for v in dv.load(data)) == total

    print(f"pyroaring raw deserialize      {raw * 1e3:9.1f} ms   1.00x")
    print(f"deletion_vectors.load (CRC)    {load * 1e3:9.1f} ms   {load / raw:.2f}x   (goal <= 1.5x)")
    print(f"deletion_vectors.load (no CRC) {load_nocrc * 1e3:9.1f} ms   {load_nocrc / raw:.2f}x")
    print(
        f"full structural validation     {validate_s * 1e3:9.1f} ms   {validate_s / raw:.2f}x   (goal <= 3x: "
        f"{'met' if validate_s <= 3 * raw else 'NOT met'}; {len(findings)} finding(s))"
    )
    print(
        f"  the same by the spec parser   {spec_s * 1e3:9.1f} ms   {spec_s / raw:.0f}x   (the reference, same findings)"
    )


if __name__ == "__main__":
    main()
