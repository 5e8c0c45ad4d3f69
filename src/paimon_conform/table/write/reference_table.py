"""The reference table: a sample primary-key table.

`write_table` writes the sample table the main job and the tests use through the write
engine (write.py, commit.py): Parquet data files at level 5 with a bloom-filter `.index`
file each, deletion vectors for deleted keys, manifests and snapshots. Java 0.9.0 and 1.0
read it (conformance/test_table_writer.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import parse_type
from paimon_conform.table import table_layout as tl
from paimon_conform.table.write.files import arrow_type


@dataclass
class SampleTable:
    """What a reference table holds, for tests: rows kept, rows deleted."""

    root: Path
    rows: list[dict] = field(default_factory=list)  # the rows a reader must return
    deleted: list[dict] = field(default_factory=list)


FIELDS = [("dt", "STRING", False), ("id", "BIGINT", False), ("v", "DOUBLE", True), ("s", "STRING", True)]


def write_table(
    root: Path, rows: int = 400, buckets: int = 4, seed: int = 7, delete_every: int = 9, release: str = "0.9.0"
) -> SampleTable:
    """Write a primary-key table (dt, id, v, s) with `rows` rows over two partitions under `root`.

    Written by the write engine (write.py, commit.py) in two writes: every row (compacted to
    level 5), then every `delete_every`-th key deleted (deletion vectors). Options: 4 buckets by
    default, deletion vectors, a bloom-filter `.index` file per data file. `release`: the Java
    release whose manifest records to write (0.9.0: what both bundled jars write; 1.0.0 adds
    `_VALUE_STATS_COLS` and `_CARDINALITY`, written as null).
    """
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    rng = np.random.default_rng(seed)
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"{root} is not empty; the reference table writer writes into an empty directory")
    options = {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": str(buckets),
        "file.format": "parquet",
        "deletion-vectors.enabled": "true",
        "file-index.bloom-filter.columns": "s",
        "file-index.in-manifest-threshold": "1 b",
        "paimon.release": release,
    }
    table = [
        {
            "dt": ["2024-01-01", "2024-01-02"][i % 2],
            "id": int(i),
            "v": None if i % 11 == 0 else round(float(rng.uniform(-100, 100)), 3),
            "s": None if i % 13 == 0 else f"s{int(rng.integers(0, 50))}",
        }
        for i in range(rows)
    ]
    schema = pa.schema([pa.field(n, arrow_type(parse_type(t)), nullable=null) for n, t, null in FIELDS])
    out = SampleTable(root)
    out.deleted = [r for r in table if r["id"] % delete_every == 0]
    out.rows = [r for r in table if r["id"] % delete_every != 0]
    for batch, kind in ((table, "+I"), (out.deleted, "-D")):
        if not batch:
            continue
        plan = write.prepare(root, schema, options, False)
        kinds = np.full(len(batch), tl.row_kind_byte(kind), dtype=np.int8)
        commit.commit(plan, [write.write_task(plan, pa.Table.from_pylist(batch, schema).to_batches(), 0, kinds)])
    return out
