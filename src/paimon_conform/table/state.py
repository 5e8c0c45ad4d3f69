"""The latest snapshot's state, read for a write or a scan: live data files (manifest entries
merged as Java's FileEntry.mergeEntries does), live index files, the manifest-list records
a new snapshot carries over, and where each data file lives. Reads only the latest snapshot
(the validator's chain.py follows every kept one).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import live_index, merge, snapshot_ids
from paimon_conform.table.metadata import (
    IndexManifestEntry,
    ManifestEntry,
    MetadataProblem,
    Snapshot,
    index_manifest_entry,
    manifest_entry,
    manifest_file_meta,
    read_records,
    read_snapshot,
)
from paimon_conform.table.paths import OutsideRoot, contained, inside, plain_name
from paimon_conform.table.schema import TableSchema


@dataclass
class TableState:
    """What the latest snapshot holds."""

    snapshot: Snapshot | None
    list_records: list[dict] = field(default_factory=list)  # base + delta manifest-list records
    live: list[ManifestEntry] = field(default_factory=list)
    index_files: list[IndexManifestEntry] = field(default_factory=list)
    total_records: int = 0


class Placer:
    """The directory of a partition and bucket (partition rows decoded once)."""

    def __init__(self, schema: TableSchema) -> None:
        self.layout = tl.LayoutOptions.of(schema.options)
        self.partition = [(k, schema.field(k).type) for k in schema.partition_keys]
        self.types = [t for _, t in self.partition]
        self.prefix = f"{self.layout.path_directory.strip('/')}/" if self.layout.path_directory else ""
        self.cache: dict[bytes, tuple[list, str]] = {}

    def values(self, partition: bytes) -> list:
        """The partition's values (internal form)."""
        return self._entry(partition)[0]

    def folder(self, partition: bytes, bucket: int) -> str:
        """`<partition path>bucket-N` under the table root."""
        return f"{self._entry(partition)[1]}{tl.bucket_dir(bucket)}"

    def index_folder(self, e: IndexManifestEntry) -> str:
        """Where an index file lives: index/, or its bucket directory with index-file-in-data-file-dir (1.3)."""
        return self.folder(e.partition, e.bucket) if self.layout.index_in_data_dir else "index"

    def data_path(self, root: Path, e: ManifestEntry) -> Path:
        """Where an entry's data file is; UsageError when its name or place leads outside the root."""
        rel = f"{self.folder(e.partition, e.bucket)}/{e.file.file_name}"
        path = inside(root, rel) if plain_name(e.file.file_name) and e.file.external_path is None else None
        if path is None:
            raise UsageError(f"{root}: data file {e.file.file_name!r} is not inside the table; not opened")
        return path

    def _entry(self, partition: bytes) -> tuple[list, str]:
        if partition not in self.cache:
            _, values = binary_row.read_as_java(self.types, partition, serialized=True)
            path = self.prefix + tl.partition_path(self.partition, values, self.layout)
            self.cache[partition] = (values, path)
        return self.cache[partition]


def _records(root: Path, name: str) -> list[dict]:
    if not plain_name(name):
        raise OutsideRoot(root, name, "is not a plain manifest file name")
    path = contained(root, f"manifest/{name}")
    if not path.is_file():
        raise UsageError(f"{root}: manifest/{name}, named by the latest snapshot, is missing")
    try:
        return read_records(path).records
    except MetadataProblem as p:
        raise UsageError(f"{root}: manifest/{name}: {p.message}") from None


def _ranges(ids: list[int]) -> str:
    """`1-3, 7` for snapshot ids 1, 2, 3, 7 (sorted, as snapshot_ids gives them); `none` for none."""
    runs = roaring.to_ranges(np.asarray(ids, dtype=np.uint64))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs) or "none"


def latest_state(root: Path, schema: TableSchema, meta: str = "", snapshot: int | None = None) -> TableState:
    """The latest snapshot's live files and index files (UsageError when metadata is unusable); of the branch
    whose snapshot/ is at `meta` ('branch/branch-<name>/') when given; of snapshot `snapshot` (time travel) when
    given (UsageError when the table has no such snapshot)."""
    ids = snapshot_ids(root, meta)
    if snapshot is not None and (isinstance(snapshot, bool) or not isinstance(snapshot, int) or snapshot not in ids):
        raise UsageError(f"{root}: no {meta}snapshot {snapshot} (snapshots: {_ranges(ids)})")
    if not ids:
        return TableState(None)
    rel = f"{meta}snapshot/snapshot-{ids[-1] if snapshot is None else snapshot}"
    try:
        snap = read_snapshot(contained(root, rel))
        lists = []
        for name in (snap.base_manifest_list, snap.delta_manifest_list):
            lists += _records(root, name)
        entries = []
        for i, rec in enumerate(lists):
            name = manifest_file_meta(rec, f"entries[{i}]").file_name
            entries += [manifest_entry(r, name, j) for j, r in enumerate(_records(root, name))]
        index = []
        if snap.index_manifest:
            recs = _records(root, snap.index_manifest)
            index = live_index([index_manifest_entry(r, i) for i, r in enumerate(recs)])
    except MetadataProblem as p:
        raise UsageError(f"{root}: {rel}: {p.path}: {p.message}") from None
    live, findings = merge(entries, rel)
    if any(f.severity == "must" for f in findings):
        raise UsageError(f"{root}: {findings[0].line()}")
    total = snap.total_record_count
    if total is None:
        total = sum(e.file.row_count for e in live)
    return TableState(snap, lists, live, index, total)
