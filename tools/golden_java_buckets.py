#!/usr/bin/env python3
"""Regenerate the Java-written BinaryRow and dynamic-bucket goldens with real Java Paimon 0.9.0.

    python tools/golden_java_buckets.py [--out DIR]

tools/java/BucketGoldenWriter.java builds each key row with Paimon's generated
projection and takes its hashCode, its manifest serialization and its bucket
from FixedBucketRowKeyExtractor; it runs dynamic-bucket writes on a real
primary-key table (HashBucketAssigner per channel, HASH index written and
reloaded between rounds) and SimpleHashBucketAssigner sequences.
Output (default golden/):
  binary_row/java-0.9.0/<name>.bin + .json             the row bytes
  binary_row_serialized/java-0.9.0/<name>.bin + .json  arity prefix + row
  dynamic_bucket/java-0.9.0/<name>.json                assignment sequences
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import paimon_java
from golden.java.binary_row import ROWS, java_type, store_rows
from golden.java.common import PRODUCER_DIR, java_value
from golden.java.dynamic_bucket import dynamic_cases, simple_cases, store_sequences

from paimon_conform.layouts.binary_row.entry import BUCKET_COUNTS

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = ("binary_row", "binary_row_serialized", "dynamic_bucket")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    rows = [
        {
            "name": n,
            "types": [java_type(t) for t in ts],
            "values": [java_value(t, v) for t, v in zip(ts, vs, strict=True)],
        }
        for n, ts, vs in ROWS
    ]
    dynamic, simple = dynamic_cases(), simple_cases()
    spec = {"counts": list(BUCKET_COUNTS), "rows": rows, "dynamic": dynamic, "simple": simple}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cases.json").write_text(json.dumps(spec))
        paimon_java.run_java("BucketGoldenWriter", str(work / "cases.json"), str(work))
        report = json.loads((work / "bucket-report.json").read_text())
    for layout in LAYOUTS:
        target = args.out / layout / PRODUCER_DIR
        if target.exists():
            shutil.rmtree(target)
    store_rows(report["rows"], args.out)
    store_sequences(report, dynamic, simple, args.out)
    print(f"golden_java_buckets: wrote Java {paimon_java.PAIMON_VERSION} goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
