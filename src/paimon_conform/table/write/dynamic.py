"""Dynamic buckets (`bucket = -1` with a primary key) in a write: each task is one assigner.

A key hash already in the partition's HASH index keeps its bucket; new key hashes fill
the non-full buckets in Java HashMap order, then new buckets with the smallest unused
ids, `dynamic-bucket.target-row-num` key hashes each (Java's PartitionIndex.assign,
vectorized: the same sequence as assigning one key at a time with one assigner). Tasks
assign independently, so a bucket may pass the target by what several tasks add in one
write; one key must not reach two tasks (the commit refuses a key hash placed in two buckets).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.hash_index import dynamic_bucket
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.table.write.plan import TaskResult, WritePlan

MAX_HASH_FILE = 1 << 30


def load_hashes(root: Path, name: str) -> np.ndarray:
    """The key hashes of one HASH index file."""
    from paimon_conform.table.paths import inside, plain_name

    path = inside(root, f"index/{name}") if plain_name(name) else None
    if path is None:
        raise UsageError(f"HASH index file name {name!r} leads outside the table")
    if path.stat().st_size > MAX_HASH_FILE:
        raise UsageError(f"{path}: larger than {MAX_HASH_FILE} bytes")
    return hash_index.load(path.read_bytes())


def _fill(index: dynamic_bucket.PartitionIndex, fresh: int, target: int) -> np.ndarray:
    """Buckets for `fresh` new key hashes, in assignment order."""
    out, left = [], fresh
    for bucket, count in list(index.non_full.items()):
        take = min(left, max(0, target - count))
        out.append(np.full(take, bucket, dtype=np.int32))
        left -= take
        if not left:
            break
    candidate = 0
    while left:
        while candidate in index.buckets:
            candidate += 1
        if candidate >= dynamic_bucket.SHORT_MAX:
            raise EncodeError("more than 32767 buckets in one partition: raise dynamic-bucket.target-row-num")
        take = min(left, target)
        out.append(np.full(take, candidate, dtype=np.int32))
        index.buckets.add(candidate)
        left -= take
    return np.concatenate(out) if out else np.empty(0, dtype=np.int32)


def assign_dynamic(
    plan: WritePlan,
    table: pa.Table,
    trimmed: list[str],
    part_ids: np.ndarray,
    partitions: list[bytes],
    result: TaskResult,
) -> np.ndarray:
    """The bucket of every row; new key hashes recorded in `result.new_hashes`."""
    schema = plan.schema
    target = int(schema.options.get("dynamic-bucket.target-row-num", dynamic_bucket.DEFAULT_TARGET_ROW_NUM))
    hashes = bucketing.hash_columns([schema.field(k).type for k in trimmed], [table.column(k) for k in trimmed])
    out = np.empty(table.num_rows, dtype=np.int32)
    root = Path(plan.root)
    for pid, partition in enumerate(partitions):
        rows = np.flatnonzero(part_ids == pid)
        if not rows.size:
            continue
        files = sorted((b, load_hashes(root, n)) for (p, b), n in plan.hash_files.items() if p == partition)
        index = dynamic_bucket.PartitionIndex.load(files, target, lambda h: True, lambda b: True)
        known_hashes = np.fromiter(index.hash_to_bucket.keys(), dtype=np.int64, count=len(index.hash_to_bucket))
        known_buckets = np.fromiter(index.hash_to_bucket.values(), dtype=np.int32, count=len(index.hash_to_bucket))
        h = hashes[rows].astype(np.int64)
        order = np.argsort(known_hashes)
        pos = np.searchsorted(known_hashes[order], h)
        pos = np.minimum(pos, max(len(order) - 1, 0))
        found = (known_hashes[order][pos] == h) if len(order) else np.zeros(len(h), dtype=bool)
        buckets = np.empty(len(h), dtype=np.int32)
        if len(order):
            buckets[found] = known_buckets[order][pos[found]]
        new, first = np.unique(h[~found], return_index=True)
        new = new[np.argsort(first)]  # first-appearance order
        assigned = _fill(index, len(new), target)
        by_hash = np.argsort(new)
        buckets[~found] = assigned[by_hash][np.searchsorted(new[by_hash], h[~found])]
        out[rows] = buckets
        for b in np.unique(assigned):
            result.new_hashes[(partition, int(b))] = new[assigned == b].astype(np.int32)
    return out
