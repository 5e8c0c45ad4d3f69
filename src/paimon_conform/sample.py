"""A small sample written by the reference encoder, for the main job.

It is laid out as the `index/` folder of a table: one deletion-vector file
per bitmap kind and one HASH index file. (Later work widens this into a whole
sample table.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .layouts import deletion_vectors, hash_index


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
    return out
