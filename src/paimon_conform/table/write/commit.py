"""The driver side of a write: turn the tasks' files into snapshots, as Java's commit does.

One write makes one APPEND snapshot (OVERWRITE with `overwrite`): a manifest of the new
level-0 files (and, for an overwrite, DELETE entries for every live file), the manifest
lists (base: the previous snapshot's manifests; delta: the new one), the dynamic-bucket
HASH files of the touched buckets and the index manifest. Deletion-vector tables get a
COMPACT snapshot after it, the state Java reaches after compaction with deletion vectors:
every bucket of the table that has level-0 files is compacted, not only the ones this
write touched. Its level-0 files are upgraded to free levels above 0 (the newest lowest),
a level-0 file holding retractions (-U / -D rows) rewritten without them (as Java's
lookup compaction does), and every older row whose key a newer row (or a retraction)
replaced is marked in its file's deletion vector; a bucket with no free level is
rewritten as one level-5 file.

Concurrent writers. Metadata files are written first; a snapshot becomes visible by an
atomic link of its file, which fails when another writer took the id. Each attempt reads
the latest snapshot, so a write planned on an older one commits on the newest (its
sequence numbers stay the plan's: concurrent writes of one key are not ordered, as in
Java). A lost id is retried on the new latest snapshot, as Java's
FileStoreCommitImpl.tryCommit does, up to `commit.max-retries` (default 10) times:
- an APPEND (or OVERWRITE) is made again without a conflict check (an OVERWRITE deletes
  the files live in the new base); only a dynamic-bucket write whose new key another
  writer put in another bucket, or a new table whose schema-0 another writer made
  differently, fails (CommitConflict); so does running out of retries;
- a COMPACT is computed again from the new base (so every file it deletes is live
  there); when another writer's COMPACT already took this write's level-0 files, there
  is none to make. When the retries run out, or the writer dies between its two
  snapshots, the APPEND stays as Java leaves an uncompacted commit: readable, its
  level-0 files invisible to a deletion-vector batch scan (as in Java) until the next
  write into the table, whichever buckets it touches, compacts them. The commit then
  returns the APPEND's id alone, without raising: the write has landed.
A failed attempt removes only the files it wrote for the snapshot it did not publish;
files of a published snapshot are never removed, and neither is schema-0 once it exists
(an empty table is a valid table, and another writer may already have read it). When the
commit fails with nothing published, `abort` removes the tasks' data files; it keeps
them when a snapshot of this write (its commit user) was published.

`step` is a test hook (conformance/test_concurrency.py): it is called with the step's
name before each step that publishes or removes files.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.deletion_vectors import entry as deletion_vectors
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.table import table_layout as tl
from paimon_conform.table.avro_records import avro_bytes
from paimon_conform.table.chain import snapshot_ids
from paimon_conform.table.metadata import (
    DataFileMeta,
    DeletionVectorRange,
    IndexManifestEntry,
    ManifestEntry,
    SimpleStats,
)
from paimon_conform.table.paths import contained, inside
from paimon_conform.table.read import data_files
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.state import Placer, TableState, latest_state
from paimon_conform.table.write import files
from paimon_conform.table.write.dynamic import load_hashes
from paimon_conform.table.write.plan import RETRACT, TaskResult, WritePlan

MAX_LEVEL = 5  # num-levels 6: a full compaction writes level 5
ENTRY_VERSION, FILE_META_VERSION, INDEX_ENTRY_VERSION = 2, 2, 1
BATCH_COMMIT_IDENTIFIER = 9223372036854775807
FILE_SOURCE_COMPACT = 1
DEFAULT_MAX_RETRIES = 10  # CoreOptions.COMMIT_MAX_RETRIES


class CommitConflict(UsageError):
    """Another writer committed to the table in a way this write cannot be committed on."""


class SnapshotTaken(CommitConflict):
    """Another writer published the snapshot id this attempt wanted: retry on the new base."""


def step(name: str) -> None:
    """Test hook, called before each step of a commit that publishes or removes files.

    Names: `schema` (link schema-0), `append` / `overwrite` / `compact` (publish that
    snapshot; its metadata files are written), `hints` (the snapshot is published; move
    LATEST / EARLIEST), `discard` (remove the files of an attempt that was not published),
    `abort` (remove the tasks' data files). Does nothing; the concurrency tests replace it
    in writer processes to hold a writer at a step or kill it there.
    """


# ---------------------------------------------------------------- records


def _stats_record(s: SimpleStats) -> dict:
    return {"_MIN_VALUES": s.min_values, "_MAX_VALUES": s.max_values, "_NULL_COUNTS": list(s.null_counts or [])}


def file_record(f: DataFileMeta) -> dict:
    """The `_FILE` record of a live data file, as read from its manifest."""
    return {
        "_FILE_NAME": f.file_name,
        "_FILE_SIZE": f.file_size,
        "_ROW_COUNT": f.row_count,
        "_MIN_KEY": f.min_key,
        "_MAX_KEY": f.max_key,
        "_KEY_STATS": _stats_record(f.key_stats),
        "_VALUE_STATS": _stats_record(f.value_stats),
        "_MIN_SEQUENCE_NUMBER": f.min_sequence_number,
        "_MAX_SEQUENCE_NUMBER": f.max_sequence_number,
        "_SCHEMA_ID": f.schema_id,
        "_LEVEL": f.level,
        "_EXTRA_FILES": list(f.extra_files),
        "_CREATION_TIME": f.creation_time,  # kept when a file moves up a level, as Java's upgrade() keeps it
        "_DELETE_ROW_COUNT": f.delete_row_count,
        "_EMBEDDED_FILE_INDEX": f.embedded_index,
        "_FILE_SOURCE": f.file_source,
        "_VALUE_STATS_COLS": None if f.value_stats_cols is None else list(f.value_stats_cols),
        "_EXTERNAL_PATH": f.external_path,
    }


def index_record(e: IndexManifestEntry) -> dict:
    """The index-manifest record of a live index file."""
    ranges = None
    if e.dv_ranges is not None:
        ranges = [
            {"f0": r.data_file, "f1": r.offset, "f2": r.length, "_CARDINALITY": r.cardinality} for r in e.dv_ranges
        ]
    return {
        "_VERSION": INDEX_ENTRY_VERSION,
        "_KIND": 0,
        "_PARTITION": e.partition,
        "_BUCKET": e.bucket,
        "_INDEX_TYPE": e.index_type,
        "_FILE_NAME": e.file_name,
        "_FILE_SIZE": e.file_size,
        "_ROW_COUNT": e.row_count,
        "_DELETIONS_VECTORS_RANGES": ranges,
    }


@dataclass
class _Entry:
    """A manifest entry being written: kind, place, `_FILE` record."""

    kind: int
    partition: bytes
    bucket: int
    record: dict


# ---------------------------------------------------------------- one attempt


@dataclass
class _Commit:
    """One commit's attempts: the files the current attempt wrote, removed unless it is published."""

    plan: WritePlan
    uid: str = field(default_factory=lambda: str(uuid.uuid4()))
    written: list[Path] = field(default_factory=list)  # files of the attempt not published (yet)
    counter: int = 0

    @property
    def schema(self) -> TableSchema:
        return self.plan.schema

    @property
    def root(self) -> Path:
        return Path(self.plan.root)

    def name(self, kind: str) -> str:
        self.counter += 1
        return f"{kind}-{self.uid}-{self.counter - 1}"

    def put(self, relative: str, data: bytes) -> int:
        """Write a new metadata or index file under the root (never through a symlink out of it)."""
        contained(self.root, relative.rsplit("/", 1)[0]).mkdir(parents=True, exist_ok=True)
        path = contained(self.root, relative)
        self.written.append(path)
        path.write_bytes(data)
        return len(data)

    def avro(self, kind: str, records: list[dict], prefix: str) -> tuple[str, int]:
        name = self.name(prefix)
        return name, self.put(f"manifest/{name}", avro_bytes(kind, records, self.plan.release))

    def discard(self) -> None:
        """Remove the files of an attempt that was not published."""
        if self.written:
            step("discard")
        for path in reversed(self.written):
            path.unlink(missing_ok=True)
        self.written.clear()

    def snapshot(
        self, state: TableState, entries: list[_Entry], index: list[dict] | None, kind: str, placer: Placer
    ) -> int:
        """Write the manifest, lists and index manifest of one snapshot on `state` and publish it; its id.

        SnapshotTaken when another writer published that id first (the files stay in `written`)."""
        total_buckets = self.schema.bucket
        records = [
            {
                "_VERSION": ENTRY_VERSION,
                "_KIND": e.kind,
                "_PARTITION": e.partition,
                "_BUCKET": e.bucket,
                "_TOTAL_BUCKETS": total_buckets,
                "_FILE": e.record,
            }
            for e in entries
        ]
        delta_metas = []
        if records:
            name, size = self.avro("manifest_entry", records, "manifest")
            delta_metas.append(
                {
                    "_VERSION": FILE_META_VERSION,
                    "_FILE_NAME": name,
                    "_FILE_SIZE": size,
                    "_NUM_ADDED_FILES": sum(e.kind == 0 for e in entries),
                    "_NUM_DELETED_FILES": sum(e.kind == 1 for e in entries),
                    "_PARTITION_STATS": self.partition_stats(entries, placer),
                    "_SCHEMA_ID": self.schema.id,
                }
            )
        base, _ = self.avro("manifest_file_meta", state.list_records, "manifest-list")
        delta, _ = self.avro("manifest_file_meta", delta_metas, "manifest-list")
        if index is None:
            index_manifest = None if state.snapshot is None else state.snapshot.index_manifest
        elif index:
            index_manifest, _ = self.avro("index_manifest_entry", index, "index-manifest")
        else:
            index_manifest = None
        delta_rows = sum(e.record["_ROW_COUNT"] * (1 if e.kind == 0 else -1) for e in entries)
        sid = 1 if state.snapshot is None else state.snapshot.id + 1
        doc = {
            "version": 3,
            "id": sid,
            "schemaId": self.schema.id,
            "baseManifestList": base,
            "deltaManifestList": delta,
            "changelogManifestList": None,
            "indexManifest": index_manifest,
            "commitUser": self.plan.commit_user,
            "commitIdentifier": BATCH_COMMIT_IDENTIFIER,
            "commitKind": kind,
            "timeMillis": int(time.time() * 1000),
            "logOffsets": {},
            "totalRecordCount": state.total_records + delta_rows,
            "deltaRecordCount": delta_rows,
            "changelogRecordCount": 0,
        }
        if index_manifest is None:
            del doc["indexManifest"]
        if self.plan.schema_json is not None:
            step("schema")
            _create_schema(self.root, self.plan.schema_json)
        step(kind.lower())
        _link_snapshot(self.root, sid, doc)
        self.written.clear()  # published: these files belong to snapshot `sid` now
        step("hints")
        _move_hints(self.root, sid)
        return sid

    def partition_stats(self, entries: list[_Entry], placer: Placer) -> dict:
        rows = [placer.values(p) for p in sorted({e.partition for e in entries})]
        columns = [list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in placer.types]
        return files.stats_of_columns(placer.types, columns)


def _link_new(path: Path, data: str) -> bool:
    """Create `path` atomically with `data` (a temporary file linked into place); False when it exists."""
    tmp = path.with_name(f".{path.name}.{uuid.uuid4()}.tmp")  # Java's Path.createTempPath
    try:
        tmp.write_text(data)
        os.link(tmp, path)
    except FileExistsError:
        return False
    finally:
        tmp.unlink(missing_ok=True)
    return True


def _link_snapshot(root: Path, sid: int, doc: dict) -> None:
    """Make snapshot `sid` visible atomically; SnapshotTaken when it exists."""
    folder = contained(root, "snapshot")
    folder.mkdir(parents=True, exist_ok=True)
    if not _link_new(folder / f"snapshot-{sid}", json.dumps(doc, indent=2)):
        raise SnapshotTaken(f"{root}: snapshot {sid} was committed by another writer")


def _move_hints(root: Path, sid: int) -> None:
    """LATEST names `sid`; EARLIEST, when missing, the earliest snapshot (both hints only, as in Java)."""
    folder = contained(root, "snapshot")
    values = [("LATEST", sid)]
    if not (folder / "EARLIEST").exists():
        values.append(("EARLIEST", snapshot_ids(root)[0]))
    for hint, value in values:
        part = folder / f".{hint}.{uuid.uuid4()}.tmp"
        part.write_text(str(value))
        os.replace(part, folder / hint)


def _create_schema(root: Path, doc: dict) -> None:
    """schema-0 of a new table, unless another writer made the same one first (CommitConflict if another)."""
    contained(root, "schema").mkdir(parents=True, exist_ok=True)
    path = contained(root, "schema/schema-0")
    if path.exists() or not _link_new(path, json.dumps(doc, indent=2)):
        try:
            theirs = json.loads(path.read_text())
        except (OSError, ValueError):
            theirs = None
        same = isinstance(theirs, dict) and {k: v for k, v in theirs.items() if k != "timeMillis"} == {
            k: v for k, v in doc.items() if k != "timeMillis"
        }
        if not same:
            raise CommitConflict(f"{root}: the table was created by another writer, with another schema")


# ---------------------------------------------------------------- the commit


def max_retries(schema: TableSchema) -> int:
    """`commit.max-retries`: how often a commit retries on a new latest snapshot."""
    text = schema.options.get("commit.max-retries", DEFAULT_MAX_RETRIES)
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UsageError(f"commit.max-retries {text!r} is not an integer") from None
    if value < 0:
        raise UsageError(f"commit.max-retries must not be negative, not {value}")
    return value


def commit(plan: WritePlan, results: list[TaskResult]) -> list[int]:
    """Commit the tasks' files: the ids of the snapshots made (none when nothing was written)."""
    c = _Commit(plan)
    ids: list[int] = []
    try:
        placer = Placer(plan.schema)
        retries = max_retries(plan.schema)
        appended = _append(c, results, placer, retries)
        if appended is not None:
            ids.append(appended)
        if plan.schema.deletion_vectors and plan.schema.primary_keys:
            compacted = _compact_latest(c, placer, retries)
            if compacted is not None:
                ids.append(compacted)
    except BaseException:
        c.discard()
        if not ids:
            abort(plan, results)
        raise
    return ids


def _append(c: _Commit, results: list[TaskResult], placer: Placer, retries: int) -> int | None:
    """The APPEND (OVERWRITE) snapshot, retried on each new base; None when the write holds nothing."""
    plan = c.plan
    new = [f for r in results for f in r.files]
    kind = "OVERWRITE" if plan.overwrite else "APPEND"
    for _ in range(retries + 1):
        state = latest_state(c.root, plan.schema)
        entries = [_Entry(1, e.partition, e.bucket, file_record(e.file)) for e in state.live] if plan.overwrite else []
        entries += [_Entry(0, f.partition, f.bucket, f.record) for f in new]
        index = _hash_index(c, state, results) if plan.schema.bucket == -1 and plan.schema.primary_keys else None
        if plan.overwrite and index is None:
            index = []  # an overwrite drops every index file; _hash_index keeps only the new HASH files
        if not (entries or index):
            return None
        try:
            return c.snapshot(state, entries, index, kind, placer)
        except SnapshotTaken:
            c.discard()
    raise CommitConflict(
        f"{plan.root}: other writers took the next snapshot id {retries + 1} times (commit.max-retries = {retries})"
    )


def _compact_latest(c: _Commit, placer: Placer, retries: int) -> int | None:
    """The COMPACT snapshot of the latest state, retried on each new base; None when nothing is at level 0
    or the retries ran out (the level-0 files wait for the next write: the module docstring)."""
    for _ in range(retries + 1):
        state = latest_state(c.root, c.schema)
        try:
            return _compact(c, state, placer)
        except SnapshotTaken:
            c.discard()
    return None


def _published(plan: WritePlan) -> bool:
    """Whether a snapshot after the write's base was published by this write (its commit user)."""
    root = Path(plan.root)
    for sid in snapshot_ids(root):
        if plan.base_snapshot is not None and sid <= plan.base_snapshot:
            continue
        try:
            doc = json.loads(contained(root, f"snapshot/snapshot-{sid}").read_text())
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("commitUser") == plan.commit_user:
            return True
    return False


def abort(plan: WritePlan, results: list[TaskResult]) -> None:
    """Remove the files the tasks wrote (a failed or abandoned write), unless a snapshot of it was published."""
    root = Path(plan.root)
    if not any(r.files for r in results) or _published(plan):
        return
    step("abort")
    for r in results:
        for f in r.files:
            for rel in (f.relative, *([f"{f.relative.rsplit('/', 1)[0]}/{f.index_file}"] if f.index_file else [])):
                path = inside(root, rel)  # never a file a symlink put outside the table
                if path is not None:
                    path.unlink(missing_ok=True)


# ---------------------------------------------------------------- dynamic buckets


def _hash_index(c: _Commit, state: TableState, results: list[TaskResult]) -> list[dict]:
    """The live index files after this write's new key hashes are added to their buckets' HASH files."""
    new: dict[tuple[bytes, int], list[np.ndarray]] = defaultdict(list)
    for r in results:
        for key, hashes in r.new_hashes.items():
            new[key].append(hashes)
    owner: dict[tuple[bytes, int], int] = {}
    for (partition, bucket), arrays in sorted(new.items()):
        for h in np.unique(np.concatenate(arrays)).tolist():
            other = owner.setdefault((partition, h), bucket)
            if other != bucket:
                raise UsageError(
                    f"key hash {h} was placed in buckets {other} and {bucket} by different tasks: a dynamic-bucket "
                    "write needs each key in one task (repartition by the primary key)"
                )
    if state.snapshot is not None and state.snapshot.id != c.plan.base_snapshot and not c.plan.overwrite:
        _check_moved_keys(c, state, new)
    keep = [e for e in state.index_files if not (e.index_type == "HASH" and (e.partition, e.bucket) in new)]
    if c.plan.overwrite:
        keep = []
    out = [index_record(e) for e in keep]
    old = {(e.partition, e.bucket): e.file_name for e in state.index_files if e.index_type == "HASH"}
    for key, arrays in sorted(new.items()):
        hashes = np.concatenate(arrays)
        if key in old and not c.plan.overwrite:
            hashes = np.concatenate([load_hashes(c.root, old[key]), hashes])
        hashes = _stable_unique(hashes)
        name = c.name("index")
        size = c.put(f"index/{name}", hash_index.encode_hashes(hashes))
        out.append(index_record(IndexManifestEntry(0, key[0], key[1], "HASH", name, size, len(hashes), None, None, 0)))
    return out


def _stable_unique(values: np.ndarray) -> np.ndarray:
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


def _check_moved_keys(c: _Commit, state: TableState, new: dict[tuple[bytes, int], list[np.ndarray]]) -> None:
    """CommitConflict when another writer, committing since this write was planned, put a key hash this write
    places in one bucket into another bucket of the partition (the key would live in two buckets)."""
    partitions = {p for p, _ in new}
    for e in state.index_files:
        if e.index_type != "HASH" or e.partition not in partitions:
            continue
        theirs = load_hashes(c.root, e.file_name)
        for (partition, bucket), arrays in new.items():
            if partition == e.partition and bucket != e.bucket:
                clash = np.intersect1d(np.concatenate(arrays), theirs)
                if len(clash):
                    raise CommitConflict(
                        f"{c.root}: key hash {int(clash[0])} that this write places in bucket {bucket} was put in "
                        f"bucket {e.bucket} by another writer since this write began; retry the write"
                    )


# ---------------------------------------------------------------- deletion vectors


def _key_names(schema: TableSchema) -> list[str]:
    prefix = tl.spec()["system_fields"]["key_prefix"]
    return [prefix + k for k in tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)]


SEQ, KIND = (tl.spec()["system_fields"][k]["name"] for k in ("sequence_number", "value_kind"))


def _compact(c: _Commit, state: TableState, placer: Placer) -> int | None:
    """The COMPACT snapshot of every bucket with level-0 files in `state` (see the module docstring); None when
    there is none. SnapshotTaken when another writer published that snapshot id first."""
    from paimon_conform.table.read.index_files import load_index_files

    buckets = sorted({(e.partition, e.bucket) for e in state.live if e.file.level == 0})
    if not buckets:
        return None
    live: dict[tuple[bytes, int], list[ManifestEntry]] = defaultdict(list)
    for e in state.live:
        live[(e.partition, e.bucket)].append(e)
    chosen = set(buckets)
    here = [e for e in state.index_files if (e.partition, e.bucket) in chosen]  # the others keep theirs
    vectors = load_index_files(c.root, here, "").vectors
    entries: list[_Entry] = []
    dv_files: dict[tuple[bytes, int], dict[str, np.ndarray]] = {}
    for key in buckets:
        old_dv = {n: v[2] for n, v in vectors.get(key, {}).items()}
        made, dv_files[key] = _compact_bucket(c, key, live[key], old_dv, placer)
        entries += made
    index = [
        index_record(e)
        for e in state.index_files
        if not (e.index_type == "DELETION_VECTORS" and (e.partition, e.bucket) in dv_files)
    ]
    bitmap64 = tl.bool_option(c.schema.options.get("deletion-vectors.bitmap64", False))
    for key, vecs in sorted(dv_files.items()):
        if not vecs:
            continue
        for written in deletion_vectors.write_files(vecs, bitmap64=bitmap64):
            name = c.name("index")
            size = c.put(f"index/{name}", written.data)
            ranges = tuple(DeletionVectorRange(f, *where) for f, where in written.ranges.items())
            entry = IndexManifestEntry(0, key[0], key[1], "DELETION_VECTORS", name, size, len(ranges), ranges, None, 0)
            index.append(index_record(entry))
    return c.snapshot(state, entries, index, "COMPACT", placer)


def _compact_bucket(
    c: _Commit, key: tuple[bytes, int], live: list[ManifestEntry], old_dv: dict[str, np.ndarray], placer: Placer
) -> tuple[list[_Entry], dict[str, np.ndarray]]:
    """One bucket's compaction: its manifest entries, and its deletion vectors afterwards."""
    fresh = sorted((e for e in live if e.file.level == 0), key=lambda e: e.file.min_sequence_number, reverse=True)
    older = sorted((e for e in live if e.file.level > 0), key=lambda e: -e.file.level)  # the oldest first
    top = min((e.file.level for e in older), default=MAX_LEVEL + 1)
    if top - len(fresh) < 1 or any(e.file.file_name in old_dv for e in fresh):
        return _rewrite(c, key, older + fresh, old_dv, placer), {}
    keys = _key_names(c.schema)
    trimmed = tl.trimmed_primary_keys(c.schema.primary_keys, c.schema.partition_keys)
    entries: list[_Entry] = []
    parts: list[pa.Table] = []
    outputs: list[str] = []  # the data file each `__file` of the parts is
    for rank, e in enumerate(older):
        t = data_files.read_columns(placer.data_path(c.root, e), [*keys, SEQ])
        pos = np.flatnonzero(data_files.kept(t.num_rows, old_dv.get(e.file.file_name)))
        parts.append(_tag(t.take(pa.array(pos)), keys, pos, len(outputs), rank, False))
        outputs.append(e.file.file_name)
    for i, e in enumerate(fresh):  # the newest first: it gets the lowest level, and wins ties of sequence number
        level, rank = top - len(fresh) + i, len(older) + len(fresh) - i
        entries.append(_Entry(1, key[0], key[1], file_record(e.file)))
        path = placer.data_path(c.root, e)
        if e.file.delete_row_count == 0:
            t = data_files.read_columns(path, [*keys, SEQ])
            full, retract, pos = None, np.zeros(t.num_rows, dtype=bool), np.arange(t.num_rows)
        else:  # sorted as the rewrite writes it, so positions in the new file are known
            full = _full_rows(c.schema, path)
            full = full.append_column("__row", pa.array(np.arange(full.num_rows)))
            full = full.sort_by([(k, "ascending") for k in trimmed] + [("__seq", "ascending"), ("__row", "ascending")])
            retract = np.isin(np.asarray(full.column("__kind").to_numpy()), RETRACT)
            t = pa.table({k: full.column(n) for k, n in zip(keys, trimmed, strict=True)} | {SEQ: full.column("__seq")})
            pos = np.asarray(full.column("__row").to_numpy(), dtype=np.int64)
        if full is None or not retract.any():  # upgraded as it is
            upgraded = file_record(e.file) | {"_LEVEL": level, "_FILE_SOURCE": FILE_SOURCE_COMPACT}
            entries.append(_Entry(0, key[0], key[1], upgraded))
            parts.append(_tag(t, keys, pos, len(outputs), rank, True))
            outputs.append(e.file.file_name)
            continue
        # a level-0 file with retractions is rewritten without them (Java: dropping deletes needs a rewrite)
        gone = t.filter(pa.array(retract))
        parts.append(_tag(gone, keys, np.full(gone.num_rows, -1), -1, rank, True))
        survivors = full.filter(pa.array(~retract)).drop_columns(["__row"])
        made = _write_rows(c, key, survivors, level, placer)
        if made is None:
            continue
        if made.record["_ROW_COUNT"] != survivors.num_rows:
            raise UsageError(f"{path}: a level-0 file holds a key twice; not compacted")
        entries.append(made)
        parts.append(_tag(t.filter(pa.array(~retract)), keys, np.arange(survivors.num_rows), len(outputs), rank, True))
        outputs.append(made.record["_FILE_NAME"])
    merged = dict(old_dv)
    for i, positions in _losers(parts, keys).items():
        name = outputs[i]
        merged[name] = np.union1d(merged.get(name, np.empty(0, dtype=np.int64)), positions)
    return entries, {n: p for n, p in merged.items() if len(p)}


def _full_rows(schema: TableSchema, path: Path) -> pa.Table:
    """Every column of a data file a compaction rewrites: the table's, `__seq` and `__kind`."""
    names = [f.name for f in schema.fields]
    t = data_files.read_columns(path, [*names, SEQ, KIND])
    return t.rename_columns([{SEQ: "__seq", KIND: "__kind"}.get(n, n) for n in t.column_names])


def _tag(t: pa.Table, keys: list[str], positions: np.ndarray, file: int, rank: int, new: bool) -> pa.Table:
    """Key rows for `_losers`: which output file (-1: a retraction), where in it, how new."""
    n = t.num_rows
    out = t.select([*keys, SEQ])
    out = out.append_column("__file", pa.array(np.full(n, file, dtype=np.int32)))
    out = out.append_column("__pos", pa.array(np.asarray(positions, dtype=np.int64)))
    out = out.append_column("__rank", pa.array(np.full(n, rank, dtype=np.int32)))
    return out.append_column("__new", pa.array(np.full(n, new, dtype=bool)))


def _losers(parts: list[pa.Table], keys: list[str]) -> dict[int, np.ndarray]:
    """Positions, per output file, of rows a newer row or a retraction of the same key replaced.

    A key's winner is its row with the highest sequence number (of those, the highest `__rank`: two
    writers may have used the same numbers); when the winner is a retraction, every row of the key
    loses. Only keys a level-0 file brings (`__new`) can be contested: the other rows are narrowed to
    those keys first.
    """
    new_parts = [p for p in parts if p.num_rows and p.column("__new")[0].as_py()]
    old_parts = [p for p in parts if p.num_rows and not p.column("__new")[0].as_py()]
    if not new_parts:
        return {}
    rows = pa.concat_tables(new_parts, promote_options="permissive")
    if old_parts:
        old = pa.concat_tables(old_parts, promote_options="permissive")
        if len(keys) == 1:
            old = old.filter(pc.is_in(old.column(keys[0]), value_set=pc.unique(rows.column(keys[0]))))
        else:
            old = old.join(rows.select(keys).group_by(keys).aggregate([]), keys=keys, join_type="left semi")
        rows = pa.concat_tables([rows, old.cast(rows.schema)])
    counts = rows.group_by(keys).aggregate([(SEQ, "count"), (SEQ, "max")])
    contested = counts.filter(pc.greater(counts.column(f"{SEQ}_count"), 1))
    if contested.num_rows == 0:
        return {}
    rows = rows.join(contested.select([*keys, f"{SEQ}_max"]), keys=keys, join_type="inner")
    at_max = rows.filter(pc.equal(rows.column(SEQ), rows.column(f"{SEQ}_max")))
    rows = rows.join(at_max.group_by(keys).aggregate([("__rank", "max")]), keys=keys, join_type="inner")

    def winner(t: pa.Table) -> pa.ChunkedArray:
        top = pc.equal(t.column(SEQ), t.column(f"{SEQ}_max"))
        return pc.and_(top, pc.equal(t.column("__rank"), t.column("__rank_max")))

    won = winner(rows)
    dead = rows.filter(pc.and_(won, pc.equal(rows.column("__file"), -1))).select(keys)
    lose = pc.invert(won)
    if dead.num_rows:
        rows = rows.join(dead.append_column("__dead", pa.array(np.ones(dead.num_rows, dtype=bool))), keys=keys)
        lose = pc.or_(pc.invert(winner(rows)), pc.fill_null(rows.column("__dead"), False))
    lost = rows.filter(pc.and_(lose, pc.greater_equal(rows.column("__file"), 0)))
    file_ids = np.asarray(lost.column("__file").to_numpy())
    positions = np.asarray(lost.column("__pos").to_numpy())
    return {i: np.sort(positions[file_ids == i]) for i in np.unique(file_ids).tolist()}


def _write_rows(c: _Commit, key: tuple[bytes, int], rows: pa.Table, level: int, placer: Placer) -> _Entry | None:
    """One data file of a compaction at `level` from rows with `__seq` and `__kind` (retractions dropped, as
    the table's deletion vectors need); None when no row survives."""
    from paimon_conform.table.write.tasks import write_group_rows

    if rows.num_rows == 0:
        return None
    trimmed = tl.trimmed_primary_keys(c.schema.primary_keys, c.schema.partition_keys)
    made = write_group_rows(c.plan, rows, trimmed, placer.values(key[0]), key[0], key[1])
    if made is None:
        return None
    folder = placer.folder(*key)
    c.written.append(c.root / folder / made.record["_FILE_NAME"])
    if made.index_file:
        c.written.append(c.root / folder / made.index_file)
    return _Entry(0, key[0], key[1], made.record | {"_LEVEL": level, "_FILE_SOURCE": FILE_SOURCE_COMPACT})


def _rewrite(
    c: _Commit, key: tuple[bytes, int], entries: list[ManifestEntry], old_dv: dict[str, np.ndarray], placer: Placer
) -> list[_Entry]:
    """Full compaction of one bucket: every live row merged into one level-5 file."""
    parts = []
    for e in entries:
        t = _full_rows(c.schema, placer.data_path(c.root, e))
        pos = np.flatnonzero(data_files.kept(t.num_rows, old_dv.get(e.file.file_name)))
        parts.append(t.take(pa.array(pos)) if len(pos) != t.num_rows else t)
    out = [_Entry(1, key[0], key[1], file_record(e.file)) for e in entries]
    if parts:
        made = _write_rows(c, key, pa.concat_tables(parts, promote_options="permissive"), MAX_LEVEL, placer)
        if made is not None:
            out.append(made)
    return out
