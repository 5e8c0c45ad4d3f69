"""Index files against the table, after the reader loaded them: deletion vectors (positions below
the data file's row count, no vector for a file that is not live), dynamic-bucket HASH files (each
key's hash in its own bucket's file and in no other bucket of the partition), and the index files
only older snapshots use (each must still parse)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from paimon_conform.core.findings import Finding
from paimon_conform.core.findings import file_finding as _f
from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.table.metadata import IndexManifestEntry
from paimon_conform.table.paths import inside, plain_name
from paimon_conform.table.read.index_files import (
    DV_TYPE,
    HASH_TYPE,
    MAX_INDEX_BYTES,
    IndexState,
    on_file,
    replaced_data_file,
)


def check_older_index_files(
    root: Path, entries: dict[str, IndexManifestEntry], paths: dict[str, str] | None = None
) -> list[Finding]:
    """Index files only older kept snapshots use: each must still parse (no data cross-checks)."""
    out = []
    for name, e in sorted(entries.items()):
        rel = (paths or {}).get(name, f"index/{name}")
        path = inside(root, rel) if plain_name(name) else None
        if path is None or not path.is_file() or path.stat().st_size > MAX_INDEX_BYTES:
            continue
        data = path.read_bytes()
        if e.file_size != len(data):
            msg = f"an older snapshot's index manifest records _FILE_SIZE {e.file_size}; the file has {len(data)} bytes"
            out.append(_f("INDEX_MANIFEST_FILE_SIZE", "must", rel, "", msg))
        if e.index_type == DV_TYPE:
            out += on_file(rel, dv.validate(data))
        elif e.index_type == HASH_TYPE:
            out += on_file(rel, hash_index.validate(data))
    return out


def check_vector(state: IndexState, partition: bytes, bucket: int, name: str, rows: int) -> list[Finding]:
    """A data file's deletion vector: every position below its row count."""
    vec = state.vectors.get((partition, bucket), {}).get(name)
    if vec is None:
        return []
    rel, i, positions = vec
    if positions.size and int(positions.max()) >= rows:
        msg = f"deletes position {int(positions.max())} of {name}, which has {rows} row(s)"
        return [_f("DV_POSITION_PAST_END", "must", rel, f"vectors[{i}]", msg)]
    return []


def unknown_vectors(
    root: Path, state: IndexState, live: dict[tuple[bytes, int, str], str], owner: str
) -> list[Finding]:
    """Deletion vectors for data files that are not live in their partition and bucket (`live`: each live file's
    path under the root): a warning for a file a compaction replaced, a must for any other (misaddressed: the file
    it was meant for goes without it, and every reader returns that file's deleted rows)."""
    out = []
    folders = {(p, b): rel.rsplit("/", 1)[0] for (p, b, _), rel in live.items() if "/" in rel}
    live_names = {name for _, _, name in live}
    for (partition, bucket), files in state.vectors.items():
        for name, (rel, i, _) in files.items():
            if (partition, bucket, name) in live:
                continue
            folder = folders.get((partition, bucket))
            msg = f"a deletion vector for {name}, which is not a live data file of bucket {bucket}"
            if folder is not None and replaced_data_file(root, folder, name, live_names):
                msg += ": a file a compaction replaced, still in the bucket; no reader applies it (Java 1.2.0-1.4.2)"
                out.append(_f("DV_UNKNOWN_DATA_FILE", "warning", rel, f"vectors[{i}]", msg))
            else:
                msg += ": the file it was meant for goes without it, and its deleted rows come back"
                out.append(_f("DV_UNKNOWN_DATA_FILE", "must", rel, f"vectors[{i}]", msg))
    return out


@dataclass
class KeyHashes:
    """The key hashes seen in each bucket of each partition (dynamic-bucket tables)."""

    by_bucket: dict[tuple[bytes, int], list[np.ndarray]] = field(default_factory=lambda: defaultdict(list))
    first_file: dict[tuple[bytes, int], str] = field(default_factory=dict)

    def add(self, partition: bytes, bucket: int, hashes: np.ndarray, file: str) -> None:
        """Record one data file's key hashes."""
        self.by_bucket[(partition, bucket)].append(np.asarray(hashes, dtype=np.int32))
        self.first_file.setdefault((partition, bucket), file)

    def merge(self, later: KeyHashes) -> None:
        """Add what `later` saw (the files checked after this one's, e.g. in the next Spark task)."""
        for key, parts in later.by_bucket.items():
            self.by_bucket[key].extend(parts)
        for key, file in later.first_file.items():
            self.first_file.setdefault(key, file)


def check_hash_index(state: IndexState, seen: KeyHashes) -> list[Finding]:
    """Each key hash of a bucket's rows is in that bucket's HASH file and in no other bucket's."""
    out = []
    by_partition: dict[bytes, list[int]] = defaultdict(list)
    for partition, bucket in state.hashes:
        by_partition[partition].append(bucket)
    for (partition, bucket), parts in seen.by_bucket.items():
        keys = np.unique(np.concatenate(parts))
        file = seen.first_file[(partition, bucket)]
        own = state.hashes.get((partition, bucket))
        if own is None:
            msg = f"bucket {bucket} has rows but no HASH index file; Java would assign its keys again"
            out.append(_f("HASH_INDEX_MISSING", "must", file, "", msg))
            continue
        missing = keys[~np.isin(keys, own[1])]
        if missing.size:
            msg = f"{missing.size} key hash(es) of bucket {bucket}'s rows are not in its HASH file, e.g. {missing[0]}"
            out.append(_f("HASH_INDEX_MISSING_KEY", "must", own[0], "", msg))
        for other in by_partition[partition]:
            if other == bucket:
                continue
            rel, hashes = state.hashes[(partition, other)]
            both = keys[np.isin(keys, hashes)]
            if both.size:
                msg = f"{both.size} key hash(es) of bucket {bucket}'s rows are also in bucket {other}'s HASH file"
                out.append(_f("HASH_INDEX_KEY_IN_TWO_BUCKETS", "must", rel, "", msg))
    return out
