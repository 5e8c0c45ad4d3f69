"""Plan and read a table's latest snapshot as Java's batch scan does, in splits a Spark task can read.

A split is one bucket of a primary-key table without deletion vectors (its files are merged
by key as the table's merge engine merges them: read/merge.py), or one data file otherwise
(its deletion vector applied). With deletion vectors (and with the first-row engine), level-0
files are not yet compacted and Java's batch scan skips them; so does this one.

Filters are a conjunction of `query.Leaf` predicates. They prune partitions (on the
partition values), fixed buckets (when every bucket-key column is pinned by `=` or `IN`),
and files through their file index (embedded or `.index`): a merged bucket is skipped only
when every one of its files is, since skipping one file could bring back an older row.
Pruning only drops what cannot match; the caller still applies the filters to the rows.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from paimon_conform.core.errors import LayoutError, UsageError
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.file_index import query
from paimon_conform.table import features
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import load_chain, snapshot_ids
from paimon_conform.table.metadata import DataFileMeta, MetadataProblem, read_snapshot
from paimon_conform.table.paths import contained, inside, is_file, plain_name
from paimon_conform.table.read import data_evolution, data_files, evolution, merge
from paimon_conform.table.read.index_files import load_index_files, replaced_data_file
from paimon_conform.table.schema import Schemas, TableSchema, bucket_rule, read_schema, schema_ids
from paimon_conform.table.state import Placer, TableState, latest_state

MAX_INDEX_BYTES = 64 << 20
MAX_PINNED_BUCKET_KEYS = 4096


@dataclass
class SplitFile:
    """One data file of a split."""

    relative: str
    level: int
    deleted: np.ndarray | None  # deletion-vector positions
    embedded_index: bytes | None
    index_file: str | None  # relative path of a separate .index file
    schema_id: int | None = None  # the schema the file was written with (None: the current one)
    row_ids: data_evolution.RowIds | None = None  # data-evolution tables: the file's rows and columns by row id


@dataclass
class Split:
    """Files read together: one bucket to merge, or one file."""

    partition_values: tuple
    bucket: int
    merge: bool
    files: list[SplitFile] = field(default_factory=list)
    by_row_id: bool = False  # a data-evolution bucket: files merged by row id (read/data_evolution.py)


@dataclass
class ScanStats:
    """How much the filters pruned (for tests and the benchmark)."""

    partitions_pruned: int = 0
    buckets_pruned: int = 0
    files_skipped_by_index: int = 0


# ---------------------------------------------------------------- filters on values


def _compare(op: str, value: Any, literals: list[Any]) -> bool | None:
    """A leaf on one value; None when it cannot be decided (incomparable values)."""
    try:
        if op == "is_null":
            return value is None
        if op == "is_not_null":
            return value is not None
        if value is None:
            return False
        if op in ("in", "not_in"):
            hit = value in literals
            return hit if op == "in" else not hit
        lit = literals[0]
        return {
            "eq": value == lit,
            "not_eq": value != lit,
            "lt": value < lit,
            "lte": value <= lit,
            "gt": value > lit,
            "gte": value >= lit,
        }[op]
    except (TypeError, KeyError, IndexError):
        return None


def literals_of(leaf: query.Leaf, schema: TableSchema) -> list[Any]:
    """A leaf's literals as the column's internal values."""
    t = schema.field(leaf.column).type
    return [query.literal_value(t, lit) for lit in leaf.literals]


def _partition_matches(leaves: list[query.Leaf], schema: TableSchema, values: list[Any]) -> bool:
    by_name = dict(zip(schema.partition_keys, values, strict=True))
    for leaf in leaves:
        if leaf.column in by_name and _compare(leaf.op, by_name[leaf.column], literals_of(leaf, schema)) is False:
            return False
    return True


def _buckets(leaves: list[query.Leaf], schema: TableSchema) -> set[int] | None:
    """The fixed buckets the pinned bucket-key values hash to; None when not all are pinned."""
    rule = bucket_rule(schema)
    if rule is None:
        return None
    keys, count, function = rule
    pinned: dict[str, list[Any]] = {}
    for leaf in leaves:
        if leaf.column in keys and leaf.op in ("eq", "in"):
            values = literals_of(leaf, schema)
            pinned[leaf.column] = [v for v in values if v in pinned.get(leaf.column, values)]
    if set(pinned) != set(keys):
        return None
    combos = 1
    for k in keys:
        combos *= len(pinned[k])
    if combos > MAX_PINNED_BUCKET_KEYS:
        return None
    types = [schema.field(k).type for k in keys]
    return {
        bucketing.bucket(function, types, list(combo), count) for combo in itertools.product(*(pinned[k] for k in keys))
    }


def _leaves_for(leaves: list[query.Leaf], schema: TableSchema, written: TableSchema) -> list[query.Leaf]:
    """The leaves as Java pushes them to a file of an older schema: renamed to the file's column names; a leaf
    on a column the file lacks or holds in another type is not pushed (apache/paimon#4705)."""
    if written.id == schema.id:
        return leaves
    by_id = {f.id: f for f in written.fields}
    out = []
    for leaf in leaves:
        now = next((f for f in schema.fields if f.name == leaf.column), None)
        old = by_id.get(now.id) if now is not None else None
        if old is not None and old.type == now.type:
            out.append(dataclasses.replace(leaf, column=old.name))
    return out


def _index_skips(
    root: Path, f: SplitFile, leaves: list[query.Leaf], schema: TableSchema, schemas: Schemas | None = None
) -> bool:
    """Whether the file's index proves no row matches."""
    if schemas is not None and f.schema_id is not None and f.schema_id != schema.id:
        written = schemas.get(f.schema_id)
        if written is None:
            return False
        leaves, schema = _leaves_for(leaves, schema, written), written
        if not leaves:
            return False
    data = f.embedded_index
    if data is None and f.index_file is not None:
        path = inside(root, f.index_file)
        if path is None or not path.is_file() or path.stat().st_size > MAX_INDEX_BYTES:
            return False
        data = path.read_bytes()
    if data is None:
        return False
    try:
        columns = query.open_container(data, {c.name: c.type for c in schema.fields})
        return query.evaluate(query.Compound("and", list(leaves)), columns) == query.SKIP
    except (LayoutError, UsageError):
        return False  # an index that cannot be read proves nothing


# ---------------------------------------------------------------- planning


def _checked_vectors(root: Path, state: TableState, placer: Placer) -> dict:
    """The live deletion vectors, refused (UsageError) when their metadata is damaged: a reader that skipped a
    vector it cannot read, or applied one to the wrong rows, would return deleted rows without a word."""
    live = {(e.partition, e.bucket, e.file.file_name): e.file.row_count for e in state.live}
    live_names = {name for _, _, name in live}
    for e in state.index_files:
        if e.index_type != "DELETION_VECTORS":
            continue
        where = f"index file {e.file_name!r}"
        if e.external_path is not None:
            raise UsageError(f"{root}: {where} lives at an external path; the kit does not read deletion vectors there")
        if not plain_name(e.file_name) or not is_file(root, f"{placer.index_folder(e)}/{e.file_name}"):
            raise UsageError(f"{root}: {where} of the latest snapshot is missing or outside the table; not read")
    loaded = load_index_files(root, state.index_files, "index manifest", _index_paths(state, placer))
    bad = [f for f in loaded.findings if f.severity == "must" and f.code != "DV_BITMAP_KIND"]
    if bad:
        raise UsageError(f"{root}: the deletion vectors cannot be trusted: {bad[0].line()}")
    for (partition, bucket), by_file in loaded.vectors.items():
        for name, (index_file, _, positions) in by_file.items():
            rows = live.get((partition, bucket, name))
            if rows is None:
                if replaced_data_file(root, placer.folder(partition, bucket), name, live_names):
                    continue  # never applied
                raise UsageError(
                    f"{root}: {index_file} holds a deletion vector for {name!r}, which is neither a live data file "
                    f"of bucket {bucket} nor a replaced one still in it; the deletion vectors cannot be trusted"
                )
            if len(positions) and int(positions.max()) >= rows:
                raise UsageError(
                    f"{root}: {index_file}: the deletion vector of {name} marks position {int(positions.max())}, "
                    f"but the file has {rows} rows; the deletion vectors cannot be trusted"
                )
    return loaded.vectors


def _index_paths(state: TableState, placer: Placer) -> dict[str, str]:
    return {e.file_name: f"{placer.index_folder(e)}/{e.file_name}" for e in state.index_files}


def checked_state(root: Path, schema: TableSchema, meta: str = "", snapshot: int | None = None) -> TableState:
    """The latest snapshot's state (snapshot `snapshot`'s when given), after the checks every reader makes (the
    reader, the Spark source, the writer's base): the snapshot chain as the validator follows it, refused
    (UsageError) at its first must-level problem. The latest snapshot is the highest snapshot-N in snapshot/
    whatever it is; one that cannot be read or leads outside the table is an error, never a fall-back to an
    older one."""
    chain = load_chain(root, schema, schema_ids(root, meta), meta)
    problems = [f for f in chain.findings if f.severity == "must"]
    if problems:
        raise UsageError(f"{root}: cannot read: {problems[0].line()}")
    return latest_state(root, schema, meta, snapshot)


def read_schema_at(root: Path, snapshot: int | None, meta: str = "") -> TableSchema:
    """The schema a read uses: the newest, or the one snapshot `snapshot` names (time travel)."""
    if snapshot is None:
        return read_schema(root, meta=meta)
    return read_schema(root, snapshot_schema(root, snapshot, meta), meta)


def snapshot_schema(root: Path, snapshot: int, meta: str = "") -> int:
    """The schema id snapshot `snapshot` names (UsageError when there is no such snapshot or it cannot be read)."""
    if snapshot not in snapshot_ids(root, meta):
        raise UsageError(f"{root}: no {meta}snapshot {snapshot} to read")
    rel = f"{meta}snapshot/snapshot-{snapshot}"
    try:
        return read_snapshot(contained(root, rel)).schema_id
    except MetadataProblem as p:
        raise UsageError(f"{root}: {rel}: {p.path}: {p.message}") from None


def plan(
    root: str | Path, leaves: list[query.Leaf] | None = None, meta: str = "", snapshot: int | None = None
) -> tuple[TableSchema, list[Split], ScanStats]:
    """The splits of the latest snapshot that may hold rows matching `leaves` (UsageError for a table whose
    metadata has must-level problems: checked_state); of the branch at `meta` ('branch/branch-<name>/', whose
    snapshots name the table's own manifests and files) when given; of snapshot `snapshot` (time travel, read
    with the schema that snapshot names, as Java's scan.snapshot-id reads) when given."""
    root = Path(root)
    schema = read_schema_at(root, snapshot, meta)
    schemas = Schemas(root, schema, meta)
    state = checked_state(root, schema, meta, snapshot)
    stats = ScanStats()
    if state.snapshot is None:
        return schema, [], stats
    leaves = leaves or []
    placer = Placer(schema)
    pk, dv = bool(schema.primary_keys), schema.deletion_vectors
    by_row_id = not pk and features.Features.of(schema).data_evolution
    how = merge.engine(schema) if pk and not dv else None  # refused here when the kit cannot merge its rows
    skip_level0 = dv or (how is not None and how.skips_level0)
    vectors = _checked_vectors(root, state, placer)
    wanted_buckets = _buckets(leaves, schema)
    groups: dict[tuple[bytes, int], list[SplitFile]] = {}
    pruned_parts: set[bytes] = set()
    for e in state.live:
        key = (e.partition, e.bucket)
        if e.partition in pruned_parts:
            continue
        if key not in groups:
            if not _partition_matches(leaves, schema, placer.values(e.partition)):
                pruned_parts.add(e.partition)
                stats.partitions_pruned += 1
                continue
            groups[key] = []
            if wanted_buckets is not None and e.bucket not in wanted_buckets:
                stats.buckets_pruned += 1
        if wanted_buckets is not None and e.bucket not in wanted_buckets:
            continue
        f = e.file
        placer.data_path(root, e)  # refuses a name that leads outside the table
        if skip_level0 and f.level == 0:
            continue
        folder = placer.folder(e.partition, e.bucket)
        vec = vectors.get(key, {}).get(f.file_name)
        index_file = next((x for x in f.extra_files if x.endswith(".index") and plain_name(x)), None)
        groups[key].append(
            SplitFile(
                f"{folder}/{f.file_name}",
                f.level,
                None if vec is None else vec[2],
                f.embedded_index,
                None if index_file is None else f"{folder}/{index_file}",
                f.schema_id,
                _row_ids(root, f) if by_row_id else None,
            )
        )
    splits = []
    for (partition, bucket), split_files in groups.items():
        values = tuple(placer.values(partition))
        if by_row_id:  # no file is skipped by its index: it may hold only some of a row's columns
            if split_files:
                splits.append(Split(values, bucket, False, split_files, by_row_id=True))
            continue
        if pk and not dv:
            # a merged row of a partial-update or aggregation table may hold values no file holds (a sum, columns
            # from two files): only a row that is one of the files' rows lets their indexes rule the bucket out
            prunable = how is not None and how.returns_a_written_row
            if (
                split_files
                and leaves
                and prunable
                and all(_index_skips(root, f, leaves, schema, schemas) for f in split_files)
            ):
                stats.files_skipped_by_index += len(split_files)
                continue
            if split_files:
                splits.append(Split(values, bucket, True, split_files))
            continue
        for f in split_files:
            if leaves and _index_skips(root, f, leaves, schema, schemas):
                stats.files_skipped_by_index += 1
                continue
            splits.append(Split(values, bucket, False, [f]))
    return schema, splits, stats


# ---------------------------------------------------------------- reading


def _file_rows(root: Path, f: SplitFile, columns: list[str]) -> pa.Table:
    table = data_files.read_columns(data_files.live_file(root, f.relative), columns)
    if f.deleted is not None and len(f.deleted):
        if int(f.deleted.max()) >= table.num_rows:
            raise UsageError(
                f"{root}: {f.relative}: its deletion vector marks position {int(f.deleted.max())}, the file has "
                f"{table.num_rows} rows; the deletion vectors cannot be trusted"
            )
        table = table.filter(pa.array(data_files.kept(table.num_rows, f.deleted)))
    return table


def _row_ids(root: Path, f: DataFileMeta) -> data_evolution.RowIds:
    """A data-evolution file's row ids and columns (UsageError when it has no `_FIRST_ROW_ID`)."""
    if f.first_row_id is None:
        raise UsageError(f"{root}: {f.file_name} has no _FIRST_ROW_ID in a data-evolution table; not read")
    return data_evolution.RowIds(f.first_row_id, f.row_count, f.write_cols, f.max_sequence_number)


def read_split(root: str | Path, schema: TableSchema, split: Split, schemas: Schemas | None = None) -> pa.Table:
    """The rows of one split, in the table's columns (files of older schemas evolved as Java reads them)."""
    root = Path(root)
    schemas = schemas or Schemas(root, schema)
    if split.by_row_id:
        parts = [
            data_evolution.read_group(root, schema, schemas, g, lambda f, cols: _file_rows(root, f, cols))
            for g in data_evolution.groups(split.files)
        ]
        rows = paimon_columns.concat_exact(parts) if parts else empty(schema)
        return _partition_from_row(rows, schema, split).select([f.name for f in schema.fields])
    names = [f.name for f in schema.fields]
    seq, kind = (tl.spec()["system_fields"][k]["name"] for k in ("sequence_number", "value_kind"))
    system = [seq, kind] if split.merge else []
    parts = []
    for f in split.files:
        written = data_files.written_schema(root, schema, schemas, f.relative, f.schema_id)
        rows = _file_rows(root, f, evolution.source_columns(schema, written) + system)
        parts.append(_partition_from_row(evolution.evolve(rows, schema, written, system), schema, split))
    if not parts:
        return empty(schema)
    rows = paimon_columns.concat_exact(parts)
    if split.merge:
        rows = merge.merge(rows, schema.primary_keys, seq, kind, merge.engine(schema))
    return rows.select(names)


def _partition_from_row(rows: pa.Table, schema: TableSchema, split: Split) -> pa.Table:
    """Partition columns as Java reads them: from the manifest's partition row, never from the data file
    (apache/paimon#3608, 0.9.0; pypaimon writes TIMESTAMP(9) partition rows at microseconds)."""
    for key, value in zip(schema.partition_keys, split.partition_values, strict=True):
        if key in rows.column_names:
            i = rows.column_names.index(key)
            column = paimon_columns.constant_column(
                schema.field(key).type, value, rows.num_rows, rows.schema.field(i).type
            )
            rows = rows.set_column(i, key, column)
    return rows


def empty(schema: TableSchema) -> pa.Table:
    """A table with the schema's columns and no rows (null-typed columns)."""
    return pa.table({f.name: pa.array([], pa.null()) for f in schema.fields})
