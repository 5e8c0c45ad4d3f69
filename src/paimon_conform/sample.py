"""A small sample written by the reference encoder, for the main job.

It is laid out like parts of a table: the `index/` folder with one
deletion-vector file per bitmap kind and a HASH index file, and a data file's
`.index` container (bloom filters, a V2 bitmap, a range-bitmap and a BSI), in
`files/`; and a whole primary-key table from the reference table writer
(`table/writer.py`) in `table/`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from paimon_conform.layouts.deletion_vectors import entry as deletion_vectors
from paimon_conform.layouts.file_index import entry as file_index
from paimon_conform.layouts.hash_index import entry as hash_index


def write_sample(root: Path) -> list[tuple[Path, str]]:
    """Write the sample under `root`; return (path, kind) of every file."""
    rng = np.random.default_rng(7)
    index = root / "index"
    index.mkdir(parents=True, exist_ok=True)
    out = []
    vectors = {f"data-sample-{i}.parquet": rng.choice(100_000, size=500 * (i + 1), replace=False) for i in range(4)}
    for bitmap64, stem in ((False, "index-sample-dv32"), (True, "index-sample-dv64")):
        for n, written in enumerate(deletion_vectors.write_files(vectors, bitmap64=bitmap64)):
            path = index / f"{stem}-{n}"
            path.write_bytes(written.data)
            out.append((path, deletion_vectors.KIND))
    path = index / "index-sample-hash-0"
    path.write_bytes(hash_index.encode_hashes(rng.integers(-(2**31), 2**31, size=1000, dtype=np.int64)))
    out.append((path, hash_index.KIND))
    bucket = root / "dt=2024-01-01" / "bucket-0"
    bucket.mkdir(parents=True, exist_ok=True)
    ids = rng.integers(0, 10_000, size=2000).tolist()
    names = [None if i % 17 == 0 else f"name-{i % 50}" for i in range(2000)]
    container = file_index.encode(
        {
            "case_format": 1,
            "kind": "file-index",
            "columns": [
                {
                    "name": "id",
                    "type": "BIGINT",
                    "values": ids,
                    "indexes": [
                        {"index_type": "bloom-filter", "options": {"items": 2000, "fpp": 0.01}},
                        {"index_type": "range-bitmap"},
                        {"index_type": "bsi"},
                    ],
                },
                {
                    "name": "name",
                    "type": "STRING",
                    "values": names,
                    "indexes": [
                        {"index_type": "bloom-filter", "options": {"items": 2000}},
                        {"index_type": "bitmap", "options": {"version": 2}},
                    ],
                },
            ],
        }
    )
    path = bucket / "data-sample-0.parquet.index"
    path.write_bytes(container)
    out.append((path, file_index.KIND))
    return out


SAMPLE_TYPES = {"id": "BIGINT", "name": "STRING"}
