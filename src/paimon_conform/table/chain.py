"""Follow a table's metadata: snapshots → manifest lists → manifests → data files, and the
index manifest → index files. Checks references (present, inside the root), manifest-list
summaries against the manifests, and Java's merge rules (FileEntry.mergeEntries); yields
the latest snapshot's live data files and index files for the file-level checks.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from paimon_conform.core.errors import LayoutError, checking
from paimon_conform.core.findings import Finding
from paimon_conform.core.findings import file_finding as _f
from paimon_conform.core.types import java_order
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.table import manifest_schema
from paimon_conform.table import table_layout as tl
from paimon_conform.table.metadata import (
    ADD,
    DELETE,
    IndexManifestEntry,
    ManifestEntry,
    ManifestFileMeta,
    MetadataProblem,
    Snapshot,
    index_manifest_entry,
    manifest_entry,
    manifest_file_meta,
    read_consumer,
    read_records,
    read_snapshot,
    read_statistics,
)
from paimon_conform.table.paths import OutsideRoot, contained, inside, is_file, list_names, plain_name
from paimon_conform.table.release_fit import ReleaseFit
from paimon_conform.table.schema import TableSchema

SNAPSHOT_NAME = re.compile(r"snapshot-([1-9][0-9]{0,18})")


@dataclass
class LiveFile:
    """A data file of the latest snapshot, with where its manifest entry puts it."""

    entry: ManifestEntry
    relative: str | None  # path under the root; None when the entry cannot be placed


@dataclass
class Chain:
    """What following the metadata found."""

    findings: list[Finding] = field(default_factory=list)
    latest: Snapshot | None = None
    live: list[LiveFile] = field(default_factory=list)
    changelog: list[LiveFile] = field(default_factory=list)
    index_files: list[IndexManifestEntry] = field(default_factory=list)
    older_index_files: dict[str, IndexManifestEntry] = field(default_factory=dict)  # kept snapshots', not live
    referenced: set[str] = field(default_factory=set)  # relative paths any kept snapshot refers to
    added: dict[str, ManifestEntry] = field(default_factory=dict)  # data file path → the entry that added it
    index_paths: dict[str, str] = field(default_factory=dict)  # index file name → its path under the root
    missing: list[tuple[Finding, str]] = field(default_factory=list)  # DATA_FILE_MISSING and the path
    refused: set[tuple[str, str]] = field(default_factory=set)  # (manifest, field) of escaping names reported
    needed: set[str] = field(default_factory=set)  # data files Java keeps for a snapshot, tag or changelog
    fit: ReleaseFit = field(default_factory=ReleaseFit)  # the releases the metadata's fields fit
    snapshots: int = 0
    tags: int = 0
    changelogs: int = 0


class _Loader:
    """Reads each metadata file once and reports each problem once."""

    def __init__(self, root: Path, chain: Chain, schema: TableSchema) -> None:
        self.root, self.chain, self.schema = root, chain, schema
        self.cache: dict[str, object] = {}
        self.folders: dict[tuple[bytes, int], str | LayoutError] = {}
        self.index_files: dict[str, IndexManifestEntry] = {}  # every index file a kept snapshot ADDs
        self.odd_partitions: dict[bytes, tuple[ManifestEntry, LayoutError]] = {}  # readable, not Java's bytes
        options = tl.LayoutOptions.of(schema.options)
        self.options = options
        self.data_root = f"{options.path_directory.strip('/')}/" if options.path_directory else ""
        self.partition = [(k, schema.field(k).type) for k in schema.partition_keys]

    def folder(self, e: ManifestEntry) -> str | LayoutError | None:
        """The bucket directory an entry's partition row and bucket put its files in (decoded once per pair).

        None when a partition type is one the kit does not model; the LayoutError when the row does not decode.
        """
        if any(t.root == "UNSUPPORTED" or t.is_binary for _, t in self.partition):
            return None  # no path form the kit can compute (binary: TABLE_PARTITION_TYPE)
        key = (e.partition, e.bucket)
        if key not in self.folders:
            types = [t for _, t in self.partition]
            try:
                _, values = binary_row.read_as_java(types, e.partition, serialized=True)
            except LayoutError as err:
                self.folders[key] = err
                return err
            try:
                binary_row.read(types, e.partition, serialized=True)
            except LayoutError as err:  # Java's getters read it; Java writes other bytes
                self.odd_partitions.setdefault(e.partition, (e, err))
            part = tl.partition_path(self.partition, values, self.options)
            self.folders[key] = f"{self.data_root}{part}{tl.bucket_dir(e.bucket)}"
        return self.folders[key]

    def index_folder(self, e: IndexManifestEntry) -> str:
        """Where an index file lives: index/, or its bucket directory with index-file-in-data-file-dir (1.3)."""
        if self.options.index_in_data_dir:
            folder = self.folder(e)
            if isinstance(folder, str):
                return folder
        return "index"

    def reference(self, owner: str, path: str, folder: str, name: str, code: str, required: bool = True) -> Path | None:
        """The file a metadata field names, or None (with a finding) when it escapes or is missing (no finding for
        a missing file that is not `required`: one Java may already have deleted)."""
        rel = f"{folder}/{name}" if folder else name
        if not plain_name(name):
            msg = f"{name[:200]!r} is not a plain file name; it would lead outside the table root; not followed"
            self.chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", owner, path, msg))
            return None
        try:
            target = contained(self.root, rel)
        except OutsideRoot as out:
            msg = f"{out.relative} {out.reason}; not followed"
            self.chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", owner, path, msg))
            return None
        if not target.is_file():
            if required:
                self.chain.referenced.add(rel)
                self.chain.findings.append(_f(code, "must", owner, path, f"refers to {rel}, which does not exist"))
            return None
        self.chain.referenced.add(rel)
        return target

    def records(self, rel: str, kind: str) -> list[dict] | None:
        """The records of a metadata file (None when unreadable: reported once)."""
        if rel in self.cache:
            return self.cache[rel]  # type: ignore[return-value]
        try:
            with checking(str(self.root / rel)):
                rf = read_records(contained(self.root, rel))
        except OutsideRoot as out:
            self.chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", rel, "", str(out)))
            self.cache[rel] = None
            return None
        except MetadataProblem as p:
            self.chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
            self.cache[rel] = None
            return None
        with checking(str(self.root / rel), "schema"):
            self.chain.findings.extend(
                manifest_schema.check(rf, kind, rel) + manifest_schema.check_versions(rf, kind, rel)
            )
            self.chain.fit.records(manifest_schema.fields_present(rf, kind), rel)
        self.cache[rel] = rf.records
        return rf.records

    def manifest_list(self, owner: str, path: str, name: str | None, required: bool = True) -> list[ManifestFileMeta]:
        """The manifests a manifest list names (each checked against its summary once)."""
        if name is None:
            return []
        target = self.reference(owner, path, "manifest", name, "SNAPSHOT_MISSING_MANIFEST_LIST", required)
        if target is None:
            return []
        rel = f"manifest/{name}"
        key = ("list", rel)
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        metas = []
        for i, rec in enumerate(self.records(rel, "manifest_file_meta") or []):
            try:
                metas.append(manifest_file_meta(rec, f"entries[{i}]"))
            except MetadataProblem as p:
                self.chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
        for i, m in enumerate(metas):
            self._check_manifest(rel, i, m)
        self.cache[key] = metas
        return metas

    def _check_manifest(self, owner: str, i: int, meta: ManifestFileMeta) -> None:
        target = self.reference(owner, f"entries[{i}]._FILE_NAME", "manifest", meta.file_name, "MANIFEST_MISSING")
        if target is None:
            return
        actual = target.stat().st_size
        if meta.file_size != actual:
            msg = f"_FILE_SIZE is {meta.file_size}, the manifest has {actual} bytes"
            self.chain.findings.append(_f("MANIFEST_LIST_FILE_SIZE", "must", owner, f"entries[{i}]._FILE_SIZE", msg))
        entries = self.entries(meta.file_name)
        if entries is None:
            return
        self._check_partition_stats(owner, i, meta, entries)
        counts = Counter(e.kind for e in entries)
        for kind, name in ((ADD, "_NUM_ADDED_FILES"), (DELETE, "_NUM_DELETED_FILES")):
            stated = meta.num_added_files if kind == ADD else meta.num_deleted_files
            if stated != counts[kind]:
                msg = f"{name} is {stated}, the manifest holds {counts[kind]} such entries"
                self.chain.findings.append(_f("MANIFEST_LIST_COUNTS", "must", owner, f"entries[{i}].{name}", msg))

    def _check_partition_stats(self, owner: str, i: int, meta: ManifestFileMeta, entries: list) -> None:
        """`_PARTITION_STATS` of a manifest-list record against its manifest's partitions, in Java's order: a
        partition outside [min, max] makes a partition filter skip the whole manifest (must)."""
        types = [t for _, t in self.partition]
        if not types or not entries or any(t.root == "UNSUPPORTED" for t in types):
            return
        try:
            _, lows = binary_row.read_as_java(types, meta.partition_stats.min_values, serialized=True)
            _, highs = binary_row.read_as_java(types, meta.partition_stats.max_values, serialized=True)
        except LayoutError:
            return  # an empty stats row (no partition stats): Java keeps the manifest
        values = []
        for part in {e.partition for e in entries}:
            try:
                values.append(binary_row.read_as_java(types, part, serialized=True)[1])
            except LayoutError:
                return  # reported as MANIFEST_BAD_PARTITION_ROW
        for f, (key, t) in enumerate(self.partition):
            present = [v[f] for v in values if v[f] is not None]
            lo, hi = lows[f], highs[f]
            if not present or lo is None or hi is None:
                continue
            order = java_order(t)
            below = min(present, key=order)
            above = max(present, key=order)
            for bound, actual, bad in ((lo, below, order(lo) > order(below)), (hi, above, order(hi) < order(above))):
                if bad:
                    side = "_MIN_VALUES" if bound is lo else "_MAX_VALUES"
                    msg = (
                        f"{key}: {bound!r} leaves out the manifest's partition value {actual!r}; a partition filter "
                        "on it skips the whole manifest (Java's order: NaN greatest, -0.0 < 0.0)"
                    )
                    at = f"entries[{i}]._PARTITION_STATS.{side}"
                    self.chain.findings.append(_f("MANIFEST_PARTITION_STATS", "must", owner, at, msg))

    def entries(self, name: str) -> list[ManifestEntry] | None:
        """The entries of one manifest (None when unreadable)."""
        rel = f"manifest/{name}"
        key = ("entries", rel)
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        records = self.records(rel, "manifest_entry")
        out: list[ManifestEntry] | None = None
        if records is not None:
            out = []
            for i, rec in enumerate(records):
                try:
                    out.append(manifest_entry(rec, rel, i))
                except MetadataProblem as p:
                    self.chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
        self.cache[key] = out
        return out

    def index_entries(self, owner: str, name: str | None, required: bool = True) -> list[IndexManifestEntry]:
        """The records of an index manifest."""
        if name is None:
            return []
        target = self.reference(owner, "indexManifest", "manifest", name, "SNAPSHOT_MISSING_INDEX_MANIFEST", required)
        if target is None:
            return []
        rel = f"manifest/{name}"
        key = ("index", rel)
        if key in self.cache:
            return self.cache[key]  # type: ignore[return-value]
        out = []
        for i, rec in enumerate(self.records(rel, "index_manifest_entry") or []):
            try:
                out.append(index_manifest_entry(rec, i))
            except MetadataProblem as p:
                self.chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
        for e in out:
            if e.external_path is not None:
                msg = f"the index file lives at the external path {e.external_path!r}; not opened"
                self.chain.findings.append(_f("TABLE_EXTERNAL_PATH", "warning", rel, f"entries[{e.index}]", msg))
                continue
            folder = self.index_folder(e)
            self.chain.index_paths.setdefault(e.file_name, f"{folder}/{e.file_name}")
            self.reference(rel, f"entries[{e.index}]._FILE_NAME", folder, e.file_name, "INDEX_FILE_MISSING")
            if e.kind == ADD:
                self.index_files.setdefault(e.file_name, e)
        self.cache[key] = out
        return out

    def statistics(self, owner: str, name: str | None, known_schemas: list[int], required: bool) -> None:
        """The statistics file a snapshot names (read once): Java reads it with its schema (StatsFileHandler)."""
        if name is None:
            return
        target = self.reference(owner, "statistics", "statistics", name, "STATISTICS_MISSING", required)
        rel = f"statistics/{name}"
        if target is None or ("statistics", rel) in self.cache:
            return
        self.cache[("statistics", rel)] = True
        try:
            stats = read_statistics(target)
        except MetadataProblem as p:
            self.chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
            return
        if stats.schema_id not in known_schemas:
            msg = f"schemaId {stats.schema_id} has no schema file; Java reads the statistics with that schema"
            self.chain.findings.append(_f("STATISTICS_MALFORMED", "must", rel, "schemaId", msg))


def snapshot_ids(root: Path, meta: str = "") -> list[int]:
    """Ids of the snapshot-N entries of snapshot/, ascending, whatever each is (OutsideRoot when snapshot/
    leads outside the root). Java lists the folder by name: an entry that is no readable file, or leads out
    of the table, is still a snapshot, and reading it is an error (never a fall-back to an older one)."""
    names = list_names(root, f"{meta}snapshot")
    return sorted(int(m.group(1)) for n in names if (m := SNAPSHOT_NAME.fullmatch(n)))


def merge(entries: list[ManifestEntry], owner: str) -> tuple[list[ManifestEntry], list[Finding]]:
    """FileEntry.mergeEntries over base + delta: ADDs minus their DELETEs, in order; Java's two errors."""
    live: dict[tuple, ManifestEntry] = {}
    findings = []
    for e in entries:
        ident = e.identifier
        if e.kind == ADD:
            if ident in live and live[ident].kind == ADD:
                msg = f"{e.file.file_name} is added twice (also in {live[ident].manifest}); Java fails the scan"
                findings.append(_f("MANIFEST_DUPLICATE_ADD", "must", e.manifest, f"entries[{e.index}]", msg))
            live[ident] = e
        elif ident in live and live[ident].kind == ADD:
            del live[ident]
        else:
            live[ident] = e
    out = []
    for e in live.values():
        if e.kind == DELETE:
            msg = f"deletes {e.file.file_name}, which no earlier entry added; Java fails the scan"
            findings.append(_f("MANIFEST_DELETE_UNKNOWN", "must", e.manifest, f"entries[{e.index}]", msg))
        else:
            out.append(e)
    return out, findings


def _place(loader: _Loader, e: ManifestEntry) -> LiveFile:
    """Where a live entry's file is under the root (findings when the entry cannot say)."""
    chain, owner = loader.chain, e.manifest
    folder = loader.folder(e)
    if folder is None:
        return LiveFile(e, None)
    if isinstance(folder, LayoutError):
        types = [str(t) for _, t in loader.partition]
        msg = f"the partition row does not decode with the partition types {types}: {folder.detail}"
        chain.findings.append(_f("MANIFEST_BAD_PARTITION_ROW", "must", owner, f"entries[{e.index}]._PARTITION", msg))
        return LiveFile(e, None)
    arity = int.from_bytes(e.partition[:4], "big", signed=True)
    if arity != len(loader.partition):
        msg = f"the partition row's arity is {arity}, not {len(loader.partition)}"
        chain.findings.append(_f("MANIFEST_BAD_PARTITION_ROW", "must", owner, f"entries[{e.index}]._PARTITION", msg))
    if e.file.external_path is not None:
        msg = f"the file lives at the external path {e.file.external_path!r}; not opened (outside the table root)"
        chain.findings.append(_f("TABLE_EXTERNAL_PATH", "warning", owner, f"entries[{e.index}]._FILE", msg))
        return LiveFile(e, None)
    name = e.file.file_name
    rel = f"{folder}/{name}"
    try:
        if not plain_name(name):
            raise OutsideRoot(loader.root, name, "is not a plain file name inside the bucket directory")
        contained(loader.root, rel)
    except OutsideRoot as out:
        msg = f"_FILE_NAME {out.relative} {out.reason}; not followed"
        chain.findings.append(
            _f("TABLE_REFERENCE_ESCAPES_ROOT", "must", owner, f"entries[{e.index}]._FILE._FILE_NAME", msg)
        )
        return LiveFile(e, None)
    return LiveFile(e, rel)


def load_chain(root: Path, schema: TableSchema, known_schemas: list[int], meta: str = "") -> Chain:
    """Follow every kept snapshot, tag and long-lived changelog; keep the latest snapshot's live files for the
    file checks.

    `meta`: where snapshot/ is under the root ('' for the table, 'branch/branch-<name>/' for a branch, whose
    snapshots name manifests, index and data files in the table's own directories).
    """
    chain = Chain()
    loader = _Loader(root, chain, schema)
    try:
        ids = snapshot_ids(root, meta)
    except OutsideRoot as out:
        chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", f"{meta}snapshot", "", str(out)))
        ids = []
    chain.snapshots = len(ids)
    latest_live: list[ManifestEntry] = []
    latest_changelog: list[ManifestEntry] = []
    for sid in ids:
        rel = f"{meta}snapshot/snapshot-{sid}"
        with checking(str(root / rel)):
            latest = _follow(root, loader, SNAPSHOT, rel, known_schemas, sid, sid == ids[-1])
        if latest is not None:
            latest_live, latest_changelog = latest
    for role, folder, names in _retained(root, meta, chain):
        for name, sid in names:
            rel = f"{meta}{folder}/{name}"
            with checking(str(root / rel)):
                _follow(root, loader, role, rel, known_schemas, sid, False)
    _check_consumers(root, meta, chain)
    live_names = {e.file_name for e in chain.index_files}
    chain.older_index_files = {n: e for n, e in loader.index_files.items() if n not in live_names}
    if chain.latest is not None:
        chain.live = [_place(loader, e) for e in latest_live]
        chain.changelog = [_place(loader, e) for e in latest_changelog if e.kind == ADD]
        for e, err in loader.odd_partitions.values():
            msg = (
                f"Java's getters read the partition row, but Java writes other bytes for its values ({err.detail}); "
                "Java compares and hashes partition rows by their bytes"
            )
            chain.findings.append(
                _f("MANIFEST_BAD_PARTITION_ROW", "should", e.manifest, f"entries[{e.index}]._PARTITION", msg)
            )
        _check_hints(root, ids, chain, f"{meta}snapshot")
    return chain


@dataclass(frozen=True)
class Role:
    """What Java keeps for one kind of snapshot-JSON file, so what must still exist when the file does."""

    name: str
    data: bool  # the base and delta manifest lists, and the files live in them (time travel reads them)
    changelog: bool  # the changelog manifest list and the files it adds (streaming reads)
    index: bool  # the index manifest and its files
    statistics: bool  # the statistics file


SNAPSHOT = Role("snapshot", True, True, True, True)
# TagManager / FileDeletionBase.manifestSkippingSet: a tag keeps its data manifests, index manifest and statistics;
# its changelog manifest list expires with the snapshot.
TAG = Role("tag", True, False, True, True)
# ChangelogDeletion / SnapshotDeletion with decoupled changelog retention: a long-lived changelog keeps its changelog
# manifest list, or (changelog-producer none) its delta list and the APPEND files in it; the base list, the index
# manifest and the statistics go with the snapshot.
CHANGELOG = Role("changelog", False, True, False, False)
CHANGELOG_NAME = re.compile(r"changelog-([1-9][0-9]{0,18})")
TAG_PREFIX = "tag-"
CONSUMER_PREFIX = "consumer-"
COMPACT_SOURCE = 1  # FileSource.COMPACT; 0 is APPEND, and a file without a source counts as APPEND


def _retained(root: Path, meta: str, chain: Chain) -> list[tuple[Role, str, list[tuple[str, int | None]]]]:
    """The tag files (tag/tag-<name>) and long-lived changelog files (changelog/changelog-<id>) of the table."""
    out = []
    for role, folder in ((TAG, "tag"), (CHANGELOG, "changelog")):
        try:
            names = list_names(root, f"{meta}{folder}")
        except OutsideRoot as out_:
            chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", f"{meta}{folder}", "", str(out_)))
            continue
        kept: list[tuple[str, int | None]] = []
        for n in names:
            if not is_file(root, f"{meta}{folder}/{n}"):
                continue
            if role is TAG and n.startswith(TAG_PREFIX) and len(n) > len(TAG_PREFIX):
                kept.append((n, None))
            elif role is CHANGELOG and (m := CHANGELOG_NAME.fullmatch(n)):
                kept.append((n, int(m.group(1))))
        if role is CHANGELOG and kept:
            ids = sorted(sid for _, sid in kept if sid is not None)
            _check_hints(root, ids, chain, f"{meta}changelog")
            chain.changelogs = len(ids)
        if role is TAG:
            chain.tags = len(kept)
        out.append((role, folder, sorted(kept, key=lambda k: (k[1] or 0, k[0]))))
    return out


def _check_consumers(root: Path, meta: str, chain: Chain) -> None:
    """consumer/consumer-<id> files: Java's snapshot expiration reads every one (ConsumerManager.minNextSnapshot)
    and fails, after ten tries, on one it cannot read."""
    folder = f"{meta}consumer"
    try:
        names = list_names(root, folder)
    except OutsideRoot as out:
        chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", folder, "", str(out)))
        return
    for n in names:
        rel = f"{folder}/{n}"
        if not n.startswith(CONSUMER_PREFIX) or not is_file(root, rel):
            continue
        try:
            read_consumer(contained(root, rel))
        except OutsideRoot as out:
            chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", rel, "", str(out)))
        except MetadataProblem as p:
            msg = f"{p.message}; Java's snapshot expiration reads every consumer and fails on this one"
            chain.findings.append(_f(p.code, "must", rel, p.path, msg))


def _follow(
    root: Path, loader: _Loader, role: Role, rel: str, known_schemas: list[int], sid: int | None, is_latest: bool
) -> tuple[list[ManifestEntry], list[ManifestEntry]] | None:
    """One kept snapshot, tag or long-lived changelog: its manifest lists, manifests, index manifest, statistics
    and data-file references. A file it names is a finding when missing only if Java keeps it for this role.

    For the latest snapshot, its live data entries (base + delta merged) and its changelog entries.
    """
    chain = loader.chain
    try:
        snap = read_snapshot(contained(root, rel))
    except OutsideRoot as out:
        chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", rel, "", str(out)))
        return None
    except MetadataProblem as p:
        chain.findings.append(_f(p.code, "must", rel, p.path, p.message))
        return None
    chain.fit.snapshot(snap.keys, snap.writer_version, rel)
    if sid is not None and snap.id != sid:
        name = rel.rsplit("/", 1)[-1]
        chain.findings.append(_f("SNAPSHOT_ID_MISMATCH", "must", rel, "id", f"id is {snap.id} in {name}"))
    if snap.schema_id not in known_schemas:
        msg = f"schemaId {snap.schema_id} has no schema file (known: {known_schemas})"
        chain.findings.append(_f("SNAPSHOT_SCHEMA_UNKNOWN", "must", rel, "schemaId", msg))
    produced = snap.changelog_manifest_list is not None
    base = loader.manifest_list(rel, "baseManifestList", snap.base_manifest_list, role.data)
    delta = loader.manifest_list(rel, "deltaManifestList", snap.delta_manifest_list, role.data or not produced)
    changelog = loader.manifest_list(rel, "changelogManifestList", snap.changelog_manifest_list, role.changelog)

    def listed(metas: list[ManifestFileMeta]) -> list[ManifestEntry]:
        return [e for m in metas for e in loader.entries(m.file_name) or []]

    delta_entries = listed(delta)
    entries = listed(base) + delta_entries
    logs = listed(changelog)
    index = loader.index_entries(rel, snap.index_manifest, role.index)
    loader.statistics(rel, snap.statistics, known_schemas, role.statistics)
    live: list[ManifestEntry] = []
    if role.data:
        live, found = merge(entries, rel)
        if is_latest:
            chain.findings.extend(found)
        needed = {id(e) for e in live}
    else:  # changelog-producer none: the streaming read takes the delta's APPEND files
        needed = {
            id(e) for e in delta_entries if not produced and e.kind == ADD and e.file.file_source != COMPACT_SOURCE
        }
    if role.changelog:
        needed |= {id(e) for e in logs if e.kind == ADD}
    for e in entries + logs:
        _reference_data(loader, e, id(e) in needed)
    if not is_latest:
        return None
    chain.latest = snap
    chain.index_files = live_index(index)
    _check_counts(chain, rel, snap, base, delta, loader)
    return live, logs


def _reference_data(loader: _Loader, e: ManifestEntry, needed: bool) -> None:
    """Mark an entry's data file and extra files as referenced; a `needed` one (live in a kept snapshot or tag,
    or read from a kept changelog) that is missing is a finding."""
    folder = loader.folder(e)
    if e.file.external_path is not None or not isinstance(folder, str):
        return
    chain = loader.chain
    if e.kind == ADD and plain_name(e.file.file_name):
        chain.added.setdefault(f"{folder}/{e.file.file_name}", e)
    for i, name in enumerate((e.file.file_name, *e.file.extra_files)):
        rel = f"{folder}/{name}"
        where = f"entries[{e.index}]._FILE" + ("._FILE_NAME" if i == 0 else f"._EXTRA_FILES[{i - 1}]")
        if i and not plain_name(name) and (e.manifest, where) not in chain.refused:
            chain.refused.add((e.manifest, where))
            msg = f"{name[:200]!r} is not a plain file name; it would lead outside the bucket directory; not followed"
            chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", e.manifest, where, msg))
        if not plain_name(name) or (rel in chain.referenced and (not needed or rel in chain.needed)):
            continue
        chain.referenced.add(rel)
        if not needed:
            continue
        chain.needed.add(rel)
        if inside(loader.root, rel) is not None and not is_file(loader.root, rel):
            finding = _f("DATA_FILE_MISSING", "must", e.manifest, where, f"names {rel}, which does not exist")
            chain.findings.append(finding)
            chain.missing.append((finding, rel))


def live_index(entries: list[IndexManifestEntry]) -> list[IndexManifestEntry]:
    live: dict[tuple, IndexManifestEntry] = {}
    for e in entries:
        ident = (e.partition, e.bucket, e.index_type, e.file_name)
        if e.kind == ADD:
            live[ident] = e
        else:
            live.pop(ident, None)
    return list(live.values())


def _check_counts(chain: Chain, rel: str, snap: Snapshot, base: list, delta: list, loader: _Loader) -> None:
    """totalRecordCount and deltaRecordCount against the manifests (Java's scan statistics)."""

    def signed(metas: list[ManifestFileMeta]) -> int | None:
        total = 0
        for m in metas:
            entries = loader.entries(m.file_name)
            if entries is None:
                return None
            total += sum(e.file.row_count if e.kind == ADD else -e.file.row_count for e in entries)
        return total

    for name, stated, metas in (
        ("totalRecordCount", snap.total_record_count, base + delta),
        ("deltaRecordCount", snap.delta_record_count, delta),
    ):
        actual = signed(metas)
        if stated is not None and actual is not None and stated != actual:
            msg = f"{name} is {stated}, the manifests add up to {actual}"
            chain.findings.append(_f("SNAPSHOT_RECORD_COUNT", "should", rel, name, msg))


def _check_hints(root: Path, ids: list[int], chain: Chain, folder: str) -> None:
    """LATEST / EARLIEST hints name existing snapshots or changelogs (Java falls back to listing when they do
    not)."""
    for hint, want in (("LATEST", ids[-1]), ("EARLIEST", ids[0])):
        rel = f"{folder}/{hint}"
        try:
            path = contained(root, rel)
        except OutsideRoot as out:
            chain.findings.append(_f("TABLE_REFERENCE_ESCAPES_ROOT", "must", rel, "", str(out)))
            continue
        if not path.is_file():
            continue
        try:
            if path.stat().st_size > 64:
                raise ValueError("longer than 64 bytes")
            value = int(path.read_text(encoding="ascii").strip())
        except (OSError, UnicodeDecodeError, ValueError):
            chain.findings.append(_f("SNAPSHOT_HINT", "warning", rel, "", "not a snapshot id"))
            continue
        if value not in ids:
            kind = folder.rsplit("/", 1)[-1]
            msg = f"names {kind} {value}, which does not exist (the {hint.lower()} is {want})"
            chain.findings.append(_f("SNAPSHOT_HINT", "warning", rel, "", msg))
