"""Whole-table validation with the per-file checks in Spark tasks.

    from paimon_conform.spark import source, validate
    session = source.session("local[2]")        # or any SparkSession whose executors see the table's path
    results = validate.validate_on_spark(session, "/data/warehouse/db.db/orders")

The driver does what joins files (the schema, the snapshot chain, the manifests, the directory walk, a second
deletion vector or HASH file for one data file or bucket, the HASH-index and global-index checks against the
rows) exactly as `validate_table` does; the index files (deletion-vector files and their vectors, HASH files,
global-index files) are read and checked in Spark tasks, and so are the data files (columns, value kinds,
partition and bucket of every row, file statistics, file indexes, deletion vectors against the row count, key
hashes), a contiguous slice of files per task; the slices' findings, vectors, statistics and key hashes are
joined in file order, so the reports equal the single-process run's. The table's path must be readable at the
same name on every executor (a local path on local[N], a shared mount on a cluster).
"""

from __future__ import annotations

import uuid
from pathlib import Path

from pyspark import cloudpickle

from paimon_conform.core import budget
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import NEWEST
from paimon_conform.core.report import FileResult
from paimon_conform.table.read.index_files import IndexFileRead
from paimon_conform.table.validate.directories import BucketFile
from paimon_conform.table.validate.table import (
    Checked,
    FileRun,
    Progress,
    TableStats,
    Workers,
    check_slice,
    merge_slices,
    validate_table,
)

# the run a Python worker unpickled, by a key made with the broadcast: a worker taking several slices reads it once
_RUNS: dict[str, FileRun] = {}
SLICES_PER_CORE = 4  # several slices per core: a slice of large files does not hold up the rest


def validate_on_spark(
    spark,
    root: str | Path,
    progress: Progress | None = None,
    stats: TableStats | None = None,
    java_version: str = NEWEST,
    slices: int | None = None,
) -> list[FileResult]:
    """`validate_table` with the data files checked in Spark tasks of `spark` (at most `slices` tasks per
    list of files; default four per core of the session)."""
    return validate_table(root, progress, stats, java_version, spark_workers(spark, slices))


def spark_workers(spark, slices: int | None = None) -> Workers:
    """Workers that check a run's data files and read its index files in Spark tasks of `spark`, one contiguous
    slice of files each (at most `slices` per list of files; default four per core of the session)."""
    sc = spark.sparkContext

    def cut(items: list) -> list[list]:
        n = min(len(items), slices or max(1, sc.defaultParallelism) * SLICES_PER_CORE)
        return [items[i * len(items) // n : (i + 1) * len(items) // n] for i in range(n)]

    def check(run: FileRun, refs: list[BucketFile], progress: Progress | None, label: str) -> list[Finding]:
        if not refs:
            return []
        parts = cut(refs)
        shared, key = sc.broadcast(cloudpickle.dumps(run)), uuid.uuid4().hex
        max_memory = budget.current().max_memory
        try:
            checked = sc.parallelize(parts, len(parts)).map(lambda p: _check_part(shared, key, p, max_memory)).collect()
        finally:
            shared.unpersist()
        if progress:
            progress(f"data files{label} {len(refs)}/{len(refs)} in {len(parts)} Spark task(s)")
        return merge_slices(run, checked)

    def read_index_files(read, jobs: list) -> list[IndexFileRead]:
        if not jobs:
            return []
        parts, max_memory = cut(jobs), budget.current().max_memory
        done = sc.parallelize(parts, len(parts)).map(lambda p: _read_part(read, p, max_memory)).collect()
        return [r for part in done for r in part]

    return Workers(check, read_index_files)


def _read_part(read, part: list, max_memory: int) -> list[IndexFileRead]:
    """One task: the reads of its slice of index files, under the run's memory budget."""
    with budget.limited(max_memory):
        return [read(job) for job in part]


def _check_part(shared, key: str, part: list[BucketFile], max_memory: int) -> Checked:
    """One task: the run (broadcast, unpickled once per worker) and the checks of its slice of files."""
    run = _RUNS.get(key)
    if run is None:
        _RUNS.clear()  # only the newest run is kept: a worker serves one table at a time
        run = _RUNS[key] = cloudpickle.loads(shared.value)
    return check_slice(run, part, max_memory)
