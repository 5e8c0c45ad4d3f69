#!/usr/bin/env python3
"""Regenerate the golden files that do not come from the Paimon 0.9.0 jar.

    python tools/golden_derived.py [--out DIR]

* `<layout>/java-notes/`: byte strings that Java Paimon wrote, as recorded in
  ../shared/paimon-layouts.md (Paimon's own compatibility files dvindex-32
  and dvindex-64, and blobs from BitmapDeletionVector /
  Bitmap64DeletionVector of Paimon master). Layouts newer than 0.9.0 (64-bit
  deletion vectors) are settled by these.
* `<layout>/encoder/`: files from the reference encoder, for what neither the
  jar nor the notes cover.
* `<layout>/must-reject/`: one file per fault, each built from a valid file
  by one deliberate change, with the error a conforming reader must raise.
  The expected path and offset are worked out here from the construction,
  never by running the validator.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from golden.common import ROOT

from golden import (
    binary_row,
    bitmap_global_index,
    bitmap_index,
    blob_descriptor,
    blob_file,
    bloom_filter,
    bsi,
    btree_global_index,
    deletion_vectors,
    file_index,
    hash_index,
    range_bitmap,
    roaring32,
    roaring64,
    row_file,
)

LAYOUTS = (
    deletion_vectors,
    roaring32,
    roaring64,
    hash_index,
    file_index,
    bloom_filter,
    bitmap_index,
    bsi,
    range_bitmap,
    binary_row,
    blob_file,
    blob_descriptor,
    bitmap_global_index,
    btree_global_index,
    row_file,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    for sub in ("java-notes", "encoder", "must-reject"):
        for folder in args.out.glob(f"*/{sub}"):
            shutil.rmtree(folder)
    for layout in LAYOUTS:
        layout.write(args.out)
    print(f"golden_derived: wrote notes, encoder and must-reject goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
