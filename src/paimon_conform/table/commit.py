"""The driver side of a write: turn the tasks' files into snapshots, as Java's commit does.

One write makes one APPEND snapshot (OVERWRITE with `overwrite`): a manifest of the new
level-0 files (and, for an overwrite, DELETE entries for every live file), the manifest
lists (base: the previous snapshot's manifests; delta: the new one), the dynamic-bucket
HASH files of the touched buckets and the index manifest. Deletion-vector tables get a
COMPACT snapshot after it, the state Java reaches after compaction with deletion vectors:
the new files are upgraded to a free level above 0 (the newest lowest), and every older
row whose key a newer row (or a retraction) replaced is marked in its file's deletion
vector; a bucket with no free level, or with level-0 files left, is rewritten as one
level-5 file. Metadata files are written first; a snapshot becomes visible by an atomic
link of its file, which fails when another writer took the id. On any failure the files
this write made are removed.
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

from .. import table_layout as tl
from ..errors import UsageError
from ..layouts import deletion_vectors, hash_index
from . import files
from .dynamic import load_hashes
from .metadata import DataFileMeta, DeletionVectorRange, IndexManifestEntry, ManifestEntry, SimpleStats
from .schema import TableSchema
from .state import Placer, TableState, latest_state
from .write import RETRACT, NewFile, TaskResult, WritePlan

MAX_LEVEL = 5  # num-levels 6: a full compaction writes level 5
ENTRY_VERSION, FILE_META_VERSION, INDEX_ENTRY_VERSION = 2, 2, 1
BATCH_COMMIT_IDENTIFIER = 9223372036854775807
FILE_SOURCE_COMPACT = 1


class CommitConflict(UsageError):
    """Another writer committed to the table since this write was planned."""


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
        "_CREATION_TIME": None,
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


# ---------------------------------------------------------------- the commit


@dataclass
class _Commit:
    plan: WritePlan
    uid: str = field(default_factory=lambda: str(uuid.uuid4()))
    user: str = field(default_factory=lambda: str(uuid.uuid4()))
    written: list[Path] = field(default_factory=list)
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

    def put(self, path: Path, data: bytes) -> int:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.written.append(path)
        return len(data)

    def avro(self, kind: str, records: list[dict], prefix: str) -> tuple[str, int]:
        from .writer import avro_bytes

        name = self.name(prefix)
        return name, self.put(self.root / "manifest" / name, avro_bytes(kind, records, self.plan.release))

    # ------------------------------------------------------------ one snapshot

    def snapshot(
        self, state: TableState, entries: list[_Entry], index: list[dict] | None, kind: str, placer: Placer
    ) -> int:
        """Write the manifest, lists and index manifest of one snapshot and publish it; its id."""
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
            "commitUser": self.user,
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
        publish_snapshot(self.root, sid, doc)
        return sid

    def partition_stats(self, entries: list[_Entry], placer: Placer) -> dict:
        rows = [placer.values(p) for p in sorted({e.partition for e in entries})]
        columns = [list(c) for c in zip(*rows, strict=True)] if rows else [[] for _ in placer.types]
        return files.stats_of_columns(placer.types, columns)


def publish_snapshot(root: Path, sid: int, doc: dict) -> None:
    """Make snapshot `sid` visible atomically (link; fails if it exists), then move the hints."""
    folder = root / "snapshot"
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".snapshot-{sid}.{uuid.uuid4()}.tmp"
    tmp.write_text(json.dumps(doc, indent=2))
    try:
        os.link(tmp, folder / f"snapshot-{sid}")
    except FileExistsError:
        raise CommitConflict(f"{root}: snapshot {sid} was committed by another writer; retry the write") from None
    finally:
        tmp.unlink()
    for hint, value in (("LATEST", sid), ("EARLIEST", None)):
        path = folder / hint
        if value is None and path.exists():
            continue
        part = folder / f".{hint}.{uuid.uuid4()}.tmp"
        part.write_text(str(sid if value is None else value))
        os.replace(part, path)


def commit(plan: WritePlan, results: list[TaskResult]) -> list[int]:
    """Commit the tasks' files: the ids of the snapshots made (none when nothing was written)."""
    root = Path(plan.root)
    ids: list[int] = []
    schema = plan.schema
    c = _Commit(plan)
    try:
        if plan.schema_json is not None:
            _create_schema(root, plan.schema_json, c)
        state = latest_state(root, schema)
        now = None if state.snapshot is None else state.snapshot.id
        if now != plan.base_snapshot:
            raise CommitConflict(f"{root}: snapshot {now} was committed since this write began at {plan.base_snapshot}")
        placer = Placer(schema)
        new = [f for r in results for f in r.files]
        retractions = _retractions(results)
        entries = [_Entry(1, e.partition, e.bucket, file_record(e.file)) for e in state.live] if plan.overwrite else []
        entries += [_Entry(0, f.partition, f.bucket, f.record) for f in new]
        index = _hash_index(c, state, results) if schema.bucket == -1 and schema.primary_keys else None
        if plan.overwrite and index is None:
            index = []  # an overwrite drops every index file; _hash_index keeps only the new HASH files
        if entries or index:
            ids.append(c.snapshot(state, entries, index, "OVERWRITE" if plan.overwrite else "APPEND", placer))
            state = latest_state(root, schema)
        if plan.dv and (new or retractions):
            ids.append(_compact(c, state, new, retractions, placer))
    except BaseException:
        for path in reversed(c.written):
            path.unlink(missing_ok=True)
        if not ids:
            abort(plan, results)
        raise
    return ids


def abort(plan: WritePlan, results: list[TaskResult]) -> None:
    """Remove the files the tasks wrote (a failed or abandoned write)."""
    root = Path(plan.root)
    for r in results:
        for f in r.files:
            (root / f.relative).unlink(missing_ok=True)
            if f.index_file:
                (root / f.relative).with_name(f.index_file).unlink(missing_ok=True)


def _create_schema(root: Path, doc: dict, c: _Commit) -> None:
    path = root / "schema" / "schema-0"
    if path.exists():
        raise CommitConflict(f"{root}: the table was created by another writer since this write began")
    c.put(path, json.dumps(doc, indent=2).encode())


def _retractions(results: list[TaskResult]) -> dict[tuple[bytes, int], list[pa.Table]]:
    out: dict[tuple[bytes, int], list[pa.Table]] = defaultdict(list)
    for r in results:
        for key, blob in r.retractions.items():
            out[key].append(pa.ipc.open_stream(blob).read_all())
    return out


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
        size = c.put(c.root / "index" / name, hash_index.encode_hashes(hashes))
        out.append(index_record(IndexManifestEntry(0, key[0], key[1], "HASH", name, size, len(hashes), None, None, 0)))
    return out


def _stable_unique(values: np.ndarray) -> np.ndarray:
    _, first = np.unique(values, return_index=True)
    return values[np.sort(first)]


# ---------------------------------------------------------------- deletion vectors


def _key_names(schema: TableSchema) -> list[str]:
    prefix = tl.spec()["system_fields"]["key_prefix"]
    return [prefix + k for k in tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)]


SEQ, KIND = (tl.spec()["system_fields"][k]["name"] for k in ("sequence_number", "value_kind"))


def _compact(
    c: _Commit,
    state: TableState,
    new: list[NewFile],
    retractions: dict[tuple[bytes, int], list[pa.Table]],
    placer: Placer,
) -> int:
    """The COMPACT snapshot of a deletion-vector write (see the module docstring)."""
    from .index_files import load_index_files

    schema = c.schema
    new_names = {f.record["_FILE_NAME"] for f in new}
    touched = {(f.partition, f.bucket) for f in new} | set(retractions)
    live: dict[tuple[bytes, int], list[ManifestEntry]] = defaultdict(list)
    for e in state.live:
        if (e.partition, e.bucket) in touched:
            live[(e.partition, e.bucket)].append(e)
    here = [e for e in state.index_files if (e.partition, e.bucket) in touched]  # untouched buckets keep theirs
    vectors = load_index_files(c.root, here, "").vectors
    entries: list[_Entry] = []
    dv_files: dict[tuple[bytes, int], dict[str, np.ndarray]] = {}
    for key in sorted(touched):
        files_here = live.get(key, [])
        fresh = sorted(
            (e for e in files_here if e.file.file_name in new_names), key=lambda e: e.file.min_sequence_number
        )
        older = [e for e in files_here if e.file.file_name not in new_names]
        old_dv = {n: v[2] for n, v in vectors.get(key, {}).items()}
        folder = placer.folder(*key)
        top = min((e.file.level for e in older), default=MAX_LEVEL + 1)
        if any(e.file.level == 0 for e in older) or top - len(fresh) < 1:
            entries += _rewrite(c, key, folder, older + fresh, old_dv, retractions.get(key, []), placer)
            dv_files[key] = {}
            continue
        for i, e in enumerate(fresh):
            upgraded = file_record(e.file) | {"_LEVEL": top - len(fresh) + i, "_FILE_SOURCE": FILE_SOURCE_COMPACT}
            entries += [_Entry(1, key[0], key[1], file_record(e.file)), _Entry(0, key[0], key[1], upgraded)]
        paths = [placer.data_path(c.root, e) for e in older + fresh]
        losers = _losers(older + fresh, paths, new_names, old_dv, retractions.get(key, []), _key_names(schema))
        merged = dict(old_dv)
        for name, positions in losers.items():
            merged[name] = np.union1d(merged.get(name, np.empty(0, dtype=np.int64)), positions)
        dv_files[key] = {n: p for n, p in merged.items() if len(p)}
    index = [
        index_record(e)
        for e in state.index_files
        if not (e.index_type == "DELETION_VECTORS" and (e.partition, e.bucket) in dv_files)
    ]
    bitmap64 = tl.bool_option(schema.options.get("deletion-vectors.bitmap64", False))
    for key, vecs in sorted(dv_files.items()):
        if not vecs:
            continue
        for written in deletion_vectors.write_files(vecs, bitmap64=bitmap64):
            name = c.name("index")
            size = c.put(c.root / "index" / name, written.data)
            ranges = tuple(DeletionVectorRange(f, *where) for f, where in written.ranges.items())
            entry = IndexManifestEntry(0, key[0], key[1], "DELETION_VECTORS", name, size, len(ranges), ranges, None, 0)
            index.append(index_record(entry))
    return c.snapshot(state, entries, index, "COMPACT", placer)


def _losers(
    entries: list[ManifestEntry],
    paths: list[Path],
    fresh: set[str],
    old_dv: dict[str, np.ndarray],
    retractions: list[pa.Table],
    keys: list[str],
) -> dict[str, np.ndarray]:
    """Positions, per data file, of rows a newer row or a retraction of the same key replaced.

    Only keys this write brings (in `fresh` files or retractions) can be contested: the older
    files' rows are narrowed to those keys before the per-key maximum is taken.
    """
    new_parts, old_parts = [], []
    for i, e in enumerate(entries):
        t = files.read_columns(paths[i], [*keys, SEQ])
        pos = np.flatnonzero(files.kept(t.num_rows, old_dv.get(e.file.file_name)))
        t = t.take(pa.array(pos)) if len(pos) != t.num_rows else t
        t = t.append_column("__file", pa.array(np.full(t.num_rows, i, dtype=np.int32)))
        t = t.append_column("__pos", pa.array(pos.astype(np.int64)))
        (new_parts if e.file.file_name in fresh else old_parts).append(t)
    for r in retractions:
        t = pa.table({k: r.column(j) for j, k in enumerate(keys)} | {SEQ: r.column("__seq")})
        t = t.append_column("__file", pa.array(np.full(t.num_rows, -1, dtype=np.int32)))
        new_parts.append(t.append_column("__pos", pa.array(np.full(t.num_rows, -1, dtype=np.int64))))
    if not new_parts:
        return {}
    new = pa.concat_tables(new_parts, promote_options="permissive")
    if old_parts:
        old = pa.concat_tables(old_parts, promote_options="permissive")
        if len(keys) == 1:
            old = old.filter(pc.is_in(old.column(keys[0]), value_set=pc.unique(new.column(keys[0]))))
        else:
            old = old.join(new.select(keys).group_by(keys).aggregate([]), keys=keys, join_type="left semi")
        new = pa.concat_tables([new, old.cast(new.schema)])
    rows = new
    counts = rows.group_by(keys).aggregate([(SEQ, "count"), (SEQ, "max")])
    contested = counts.filter(pc.greater(counts.column(f"{SEQ}_count"), 1))
    if contested.num_rows == 0:
        return {}
    rows = rows.join(contested.select([*keys, f"{SEQ}_max"]), keys=keys, join_type="inner")
    winner = pc.equal(rows.column(SEQ), rows.column(f"{SEQ}_max"))
    retracted = rows.filter(pc.and_(winner, pc.equal(rows.column("__file"), -1))).select(keys)
    lose = pc.invert(winner)
    if retracted.num_rows:
        marked = rows.join(retracted.append_column("__dead", pa.array(np.ones(retracted.num_rows, bool))), keys=keys)
        rows = marked
        lose = pc.or_(
            pc.invert(pc.equal(rows.column(SEQ), rows.column(f"{SEQ}_max"))), pc.fill_null(rows.column("__dead"), False)
        )
    lost = rows.filter(pc.and_(lose, pc.greater_equal(rows.column("__file"), 0)))
    out: dict[str, list] = {}
    file_ids = np.asarray(lost.column("__file").to_numpy())
    positions = np.asarray(lost.column("__pos").to_numpy())
    for i in np.unique(file_ids).tolist():
        out[entries[i].file.file_name] = np.sort(positions[file_ids == i])
    return out


def _rewrite(
    c: _Commit,
    key: tuple[bytes, int],
    folder: str,
    entries: list[ManifestEntry],
    old_dv: dict[str, np.ndarray],
    retractions: list[pa.Table],
    placer: Placer,
) -> list[_Entry]:
    """Full compaction of one bucket: every live row merged into one level-5 file."""
    from .write import write_group_rows

    schema = c.schema
    names = [f.name for f in schema.fields]
    trimmed = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    parts = []
    for e in entries:
        t = files.read_columns(placer.data_path(c.root, e), [*names, SEQ, KIND])
        pos = np.flatnonzero(files.kept(t.num_rows, old_dv.get(e.file.file_name)))
        parts.append(t.take(pa.array(pos)) if len(pos) != t.num_rows else t)
    rows = pa.concat_tables(parts, promote_options="permissive") if parts else None
    for r in retractions:
        gone = {k: r.column(k) for k in trimmed} | {SEQ: r.column("__seq")}
        t = pa.table(gone).append_column(KIND, pa.array(np.full(r.num_rows, RETRACT[1], dtype=np.int8)))
        rows = t if rows is None else pa.concat_tables([rows, t], promote_options="permissive")
    out = [_Entry(1, key[0], key[1], file_record(e.file)) for e in entries]
    if rows is None or rows.num_rows == 0:
        return out
    rows = rows.rename_columns([{SEQ: "__seq", KIND: "__kind"}.get(n, n) for n in rows.column_names])
    record = write_group_rows(c.plan, rows, trimmed, placer.values(key[0]), key[0], key[1])
    if record is not None:
        c.written.append(c.root / folder / record.record["_FILE_NAME"])
        if record.index_file:
            c.written.append(c.root / folder / record.index_file)
        out.append(
            _Entry(0, key[0], key[1], record.record | {"_LEVEL": MAX_LEVEL, "_FILE_SOURCE": FILE_SOURCE_COMPACT})
        )
    return out
