#!/usr/bin/env python3
"""Regenerate the Java-written golden files with real Java Paimon 0.9.0.

    python tools/golden_java.py [--out DIR]

Defines the cases (seeded, so reruns are identical), has
tools/java/GoldenWriter.java write them with Paimon's own writers
(DeletionVectorsIndexFile, HashIndexFile, RoaringBitmap32) and read them
back with Paimon's own readers, then stores each file with a JSON sidecar:
the case (positions from the input, offsets and lengths as Paimon's
IndexFileMeta recorded them), what Java's reader returned, and provenance.
Output: <out>/<layout>/java-0.9.0/ (default out: golden/).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path

import paimon_java
from golden.java.common import PRODUCER_DIR, java_value
from golden.java.deletion_vectors import dv_cases, store_dv
from golden.java.file_index import file_index_cases, store_file_index
from golden.java.hash_index import hash_cases, store_hash
from golden.java.roaring32 import roaring32_cases, store_roaring

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    spec = {"deletion_vectors": dv_cases(), "roaring32": roaring32_cases(), "hash_index": hash_cases()}
    fi_cases = file_index_cases()
    java_fi = [
        c
        | {
            "columns": [col | {"values": [java_value(col["type"], v) for v in col["values"]]} for col in c["columns"]],
            "probes": [
                p
                | {
                    "values": [
                        java_value(next(x["type"] for x in c["columns"] if x["name"] == p["column"]), v)
                        for v in p["values"]
                    ]
                }
                for p in c["probes"]
            ],
        }
        for c in fi_cases
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cases.json").write_text(json.dumps(spec))
        paimon_java.run_java("GoldenWriter", str(work / "cases.json"), str(work))
        report = json.loads((work / "java-report.json").read_text())
        (work / "fi-cases.json").write_text(json.dumps({"file_index": java_fi}))
        paimon_java.run_java("FileIndexGoldenWriter", str(work / "fi-cases.json"), str(work))
        fi_report = json.loads((work / "file-index-report.json").read_text())
        for layout in ("deletion_vectors", "roaring32", "hash_index", "file_index"):
            target = args.out / layout / PRODUCER_DIR
            if target.exists():
                shutil.rmtree(target)
        for r, s in zip(report["deletion_vectors"], spec["deletion_vectors"], strict=True):
            store_dv(r, s, work, args.out)
        for r, s in zip(report["roaring32"], spec["roaring32"], strict=True):
            store_roaring(r, s, work, args.out)
        for r, s in zip(report["hash_index"], spec["hash_index"], strict=True):
            store_hash(r, s, work, args.out)
        for r, s in zip(fi_report, fi_cases, strict=True):
            store_file_index(r, s, work, args.out)
    print(f"golden_java: wrote Java {paimon_java.PAIMON_VERSION} goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
