#!/usr/bin/env python3
"""Regenerate the goldens the Java testees write through their `encode`, with the releases that write them.

    python tools/golden_java_encoded.py [--out DIR]

Each layout's Java cases (tools/golden/<layout>.py java_cases) are sent to the testee of each release in
RELEASES (tools/testees/java_paimon.py: DeletionVectorsIndexFile.write, RoaringBitmap32.serialize,
BlobDescriptor.serialize, the blob and row FormatWriters, the btree and bitmap GlobalIndexers of that
release's jar) and the bytes it answers are stored as <out>/<layout>/java-<release>/<stem>.bin with the case
and the release's provenance. Where the testee reads the layout back, Java's own decode of those bytes is
recorded as the sidecar's java_reader. A case a release refuses to encode is reported, never stored.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from golden.common import ROOT, write_pair
from golden.evidence import release_provenance

from golden import (
    bitmap_global_index,
    blob_descriptor,
    blob_file,
    btree_global_index,
    deletion_vectors,
    roaring32,
    roaring64,
    row_file,
)
from paimon_conform.core import cases
from paimon_conform.testee.process import Session
from paimon_conform.testee.suite import TYPE_KEYS

TESTEE = ROOT / "tools" / "testees" / "java_paimon.py"
# layout -> (its case module, the releases that write its goldens: the first with 64-bit vectors and 2.0.0;
# 0.9.0's own 32-bit files are written by tools/golden_java.py)
RELEASES = {
    "deletion_vectors": (deletion_vectors, ("1.2.0", "2.0.0")),
    "roaring32": (roaring32, ("2.0.0",)),
    "roaring64": (roaring64, ("1.2.0", "2.0.0")),  # OptimizedRoaringBitmap64 arrived with 64-bit vectors in 1.2
    "blob_descriptor": (blob_descriptor, ("1.4.2", "2.0.0")),  # BlobDescriptor arrived in 1.4
    "blob_file": (blob_file, ("1.4.2", "2.0.0")),  # the "blob" file format arrived in 1.4
    "row_file": (row_file, ("2.0.0",)),  # the "row" file format arrived in 2.0
    "btree_global_index": (btree_global_index, ("1.4.2", "2.0.0")),  # BTree global indexes arrived in 1.4
    "bitmap_global_index": (bitmap_global_index, ("2.0.0",)),  # the BGIX layout arrived in 2.0
}
HOW = {
    "deletion-vectors": "DeletionVectorsIndexFile.write of the vectors (one kind per file, as the table writes it)",
    "roaring32": "RoaringBitmap32.add of every position, serialize()",
    "roaring64": "OptimizedRoaringBitmap64.add of every position, runLengthEncode(), serialize() little-endian"
    " (tools/java/testee/since/1.2/Roaring64.java)",
    "blob-descriptor": "new BlobDescriptor(uri, offset, length).serialize()",
    "blob-file": 'FileFormat.fromIdentifier("blob").createWriterFactory(ROW<column>).create(out, "none").addElement'
    " per row (tools/java/testee/since/1.4/BlobFiles.java)",
    "btree-global-index": 'GlobalIndexer.create("btree", field, options).createWriter(files).write(key, row id) in'
    " key order (tools/java/testee/since/1.4/GlobalIndexes.java)",
    "bitmap-global-index": 'GlobalIndexer.create("bitmap", field, options).createWriter(files).write(key, row id) in'
    " key order (tools/java/testee/since/1.4/GlobalIndexes.java)",
    "row-file": 'FileFormat.fromIdentifier("row", FormatContext(zstd level, block size)).createWriterFactory(row type)'
    '.create(out, "zstd").addElement per row (tools/java/testee/since/2.0/RowFiles.java)',
}


def provenance(version: str, kind: str) -> dict:
    """Which release's jar wrote a file, and how."""
    return release_provenance(version, f"the Java testee's encode (tools/java/testee/Testee.java): {HOW[kind]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    for layout, (module, versions) in RELEASES.items():
        for version in versions:
            target = args.out / layout / f"java-{version}"
            if target.exists():
                shutil.rmtree(target)
            session = Session([sys.executable, str(TESTEE), version], timeout=120)
            try:
                for stem, case, note in module.java_cases():
                    reply, why = session.exchange({"op": "encode", "case": case}, "encode_reply")
                    if reply is None:
                        print(f"golden_java_encoded: Java {version} does not write {layout}/{stem}: {why}")
                        continue
                    data = bytes.fromhex(reply["data"])
                    side = case | {"provenance": provenance(version, case["kind"])}
                    if case["kind"] not in session.hello["capabilities"].get("decode", []):
                        write_pair(target, stem, data, side | {"notes": note})  # an index is not read back whole
                        continue
                    types = {k: case[k] for k in TYPE_KEYS if k in case}
                    request = {"op": "decode", "kind": case["kind"], "data": data.hex()}
                    back, why = session.exchange(request | ({"types": types} if types else {}), "decode_reply")
                    if back is None:
                        raise SystemExit(f"Java {version} cannot read back its own {layout}/{stem}: {why}")
                    reader = {"method": "the Java testee's decode of these bytes", "case": cases.content(back["case"])}
                    write_pair(target, stem, data, side | {"java_reader": reader, "notes": note})
            finally:
                session.close()
    print(f"golden_java_encoded: wrote the encoded goldens of {', '.join(RELEASES)} under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
