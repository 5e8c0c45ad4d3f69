"""Writing a table in tasks: the part of a write that runs where the rows are (a Spark task, or
the calling process), before the driver commits (commit.py).

`prepare` (driver) fixes what every task needs: the table schema (read, or made from the
Arrow schema and Paimon's option names for a new table), the next sequence number and,
for dynamic buckets, the live HASH index files. `write_task` (task) buckets the rows with
the kit's vectorized BinaryRow hash, adds the system columns Java writes (`_KEY_*`,
`_SEQUENCE_NUMBER`, `_VALUE_KIND`), keeps the last row per key (a retraction too: level-0
files hold -U / -D rows as Java's do, and a deletion-vector table's commit compacts them
away), writes one data file per
partition and bucket (Java's column order and file names) with its file index (a separate
`.index` file, or embedded in the manifest entry when it is small), and returns a
picklable `TaskResult` for the commit.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.types import DataType
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.table import features
from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import TableSchema, bucket_rule, parse_schema, read_schema, schema_ids
from paimon_conform.table.write import files
from paimon_conform.table.write.plan import NewFile, TaskResult, WritePlan

SEQ_STRIDE = 1 << 40  # sequence numbers of task t start at base + t * SEQ_STRIDE
ROW_KINDS = tuple(name for _, name in sorted(tl.row_kind_bytes().items()))  # position = _VALUE_KIND byte


def arrow_to_paimon(t: pa.DataType, where: str) -> DataType:
    """The Paimon type a column of this Arrow type is stored as."""
    out = paimon_columns.paimon_type(t)
    if out is None or out.root == "TIME":
        raise UsageError(f"column {where}: Arrow type {t} has no Paimon type in this kit")
    return out


def new_schema(arrow_schema: pa.Schema, options: dict[str, str]) -> dict:
    """schema-0 JSON for a new table from the rows' Arrow schema and Paimon options."""
    kit_only = ("path", "primary-key", "partition", "paimon.release")
    table_options = {k: str(v) for k, v in options.items() if k not in kit_only}
    primary = bucketing.split_option(options.get("primary-key"))
    partition = bucketing.split_option(options.get("partition"))
    names = arrow_schema.names
    for key in (*primary, *partition):
        if key not in names:
            raise UsageError(f"option names column {key!r}, which the data does not have (columns: {names})")
    if primary and not set(partition) <= set(primary):
        raise UsageError(f"the primary key {primary} must contain the partition keys {partition}")
    fields = []
    for i, f in enumerate(arrow_schema):
        t = str(arrow_to_paimon(f.type, f.name))
        fields.append({"id": i, "name": f.name, "type": t if f.name not in primary else f"{t} NOT NULL"})
    if "bucket" not in table_options:
        table_options["bucket"] = "-1"
    return {
        "version": 3,
        "id": 0,
        "fields": fields,
        "highestFieldId": len(fields) - 1,
        "partitionKeys": partition,
        "primaryKeys": primary,
        "options": table_options,
        "timeMillis": int(time.time() * 1000),
    }


def check_options(schema: TableSchema) -> None:
    """Refuse option values this writer cannot honour, before any task runs."""
    o = schema.options
    bucket = schema.bucket
    if bucket == 0 or bucket < -1:
        raise UsageError(f"bucket must be a positive count or -1 (dynamic / unaware), not {bucket}")
    if not schema.primary_keys and bucket > 0 and not o.get("bucket-key"):
        raise UsageError("an append table with a fixed bucket count needs the bucket-key option")
    if schema.primary_keys and not tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys):
        raise UsageError(f"the primary key {schema.primary_keys} must not be the partition keys alone (as Java says)")
    rule = bucket_rule(schema)  # the bucket key SchemaValidation accepts
    if rule is not None and rule[2] == "hive":
        try:
            bucketing.check_hive_types([schema.field(k).type for k in rule[0]])
        except EncodeError as exc:
            raise UsageError(str(exc)) from None
    fmt = o.get("file.format", "parquet").lower()
    if fmt not in files.FORMATS:
        raise UsageError(f"file.format {fmt!r}: this writer writes {', '.join(files.FORMATS)}")
    rk = o.get("rowkind.field")
    if rk and rk not in {f.name for f in schema.fields}:
        raise UsageError(f"rowkind.field {rk!r} is not a column")
    if tl.bool_option(o.get("data-file.thin-mode", False)):
        raise UsageError("data-file.thin-mode is not written by this writer")
    if str(o.get("dynamic-bucket.max-buckets", "-1")).strip() != "-1":
        raise UsageError(
            "dynamic-bucket.max-buckets is not applied by this writer: Java applies it from 1.1 on, by rules that "
            "changed after 2.0.0 (layouts/hash_index/dynamic_bucket.py)"
        )
    files.check_index_types(o, {f.name: f.type for f in schema.fields})
    for problem in features.partition_types(schema):  # what the validator reports as TABLE_PARTITION_TYPE
        raise UsageError(problem.message)
    for name in bucketing.split_option(o.get("file-index.bitmap.columns")):
        if name in {f.name for f in schema.fields} and schema.field(name).type.root == "BOOLEAN":
            raise UsageError(
                f"a bitmap index on BOOLEAN column {name}: Java before 1.1 cannot write one and misreads it; "
                "use another index kind"
            )


def target_schema(root: Path, arrow_schema: pa.Schema, options: dict[str, str]) -> tuple[TableSchema, dict | None]:
    """The schema a write goes into: the table's newest, or (with its schema-0 JSON) a new one from the options."""
    if not (root.is_dir() and schema_ids(root)):
        doc = new_schema(arrow_schema, options)
        return parse_schema(json.dumps(doc), "new table"), doc
    return read_schema(root), None


def prepare(root: str | Path, arrow_schema: pa.Schema, options: dict[str, str], overwrite: bool) -> WritePlan:
    """The plan of one write into the table at `root` (created at commit when it does not exist)."""
    from paimon_conform.table.chain import load_chain

    root = Path(root)
    release = str(options.get("paimon.release", "1.0.0"))
    schema, doc = target_schema(root, arrow_schema, options)
    if doc is not None:
        check_options(schema)
        return WritePlan(str(root), schema, doc, None, 0, overwrite, release)
    names = [f.name for f in schema.fields]
    if arrow_schema.names != names:
        raise UsageError(f"{root}: the data has columns {arrow_schema.names}, the table {names}")
    for f, af in zip(schema.fields, arrow_schema, strict=True):
        if arrow_to_paimon(af.type, af.name).root != f.type.root:
            raise UsageError(f"{root}: column {f.name} is {f.type} in the table, {af.type} in the data")
    check_options(schema)
    chain = load_chain(root, schema, schema_ids(root))
    problems = [f for f in chain.findings if f.severity == "must"]
    if problems:
        raise UsageError(f"{root}: will not write into a table with must-level problems: {problems[0].line()}")
    latest = chain.latest
    next_seq = 0
    for lf in chain.live:
        next_seq = max(next_seq, lf.entry.file.max_sequence_number + 1)
    hash_files = {}
    if not overwrite:
        for e in chain.index_files:
            if e.index_type == "HASH":
                hash_files[(e.partition, e.bucket)] = e.file_name
    base = None if latest is None else latest.id
    return WritePlan(str(root), schema, None, base, next_seq, overwrite, release, hash_files)


# ---------------------------------------------------------------- the task


def _row_kinds(table: pa.Table, column: str | None) -> np.ndarray:
    if column is None:
        return np.zeros(table.num_rows, dtype=np.int8)
    text = table.column(column)
    if text.null_count:
        raise UsageError(f"rowkind.field {column!r} holds nulls")
    codes = pc.index_in(text, value_set=pa.array(ROW_KINDS))
    if codes.null_count:
        bad = pc.filter(text, pc.is_null(codes))[0].as_py()
        raise UsageError(f"rowkind.field {column!r} holds {bad!r}; row kinds are {', '.join(ROW_KINDS)}")
    return np.asarray(codes.to_numpy(zero_copy_only=False), dtype=np.int8)


def _partition_keys(plan: WritePlan, table: pa.Table) -> tuple[np.ndarray, list[tuple]]:
    """A group id per row and the distinct partition value tuples (internal values)."""
    keys = plan.schema.partition_keys
    if not keys:
        return np.zeros(table.num_rows, dtype=np.int64), [()]
    codes, dictionaries = [], []
    for k in keys:
        enc = pc.dictionary_encode(table.column(k).combine_chunks(), null_encoding="encode")
        codes.append(np.asarray(enc.indices.to_numpy(zero_copy_only=False), dtype=np.int64))
        dictionaries.append(
            paimon_columns.internal_values(pa.chunked_array([enc.dictionary]), plan.schema.field(k).type)
        )
    combined = codes[0]
    for c, d in zip(codes[1:], dictionaries[1:], strict=True):
        combined = combined * len(d) + c
    distinct, ids = np.unique(combined, return_inverse=True)
    values = []
    for code in distinct.tolist():
        row = []
        for d in reversed(dictionaries):
            code, at = divmod(code, len(d))
            row.append(d[at])
        values.append(tuple(reversed(row)))
    return ids.astype(np.int64), values


def _buckets(plan: WritePlan, table: pa.Table, part_ids: np.ndarray, partitions: list[bytes], result: TaskResult):
    schema = plan.schema
    rule = bucket_rule(schema)
    if rule is not None:
        names, count, function = rule
        types = [schema.field(n).type for n in names]
        return np.asarray(
            bucketing.bucket_columns(types, [table.column(n) for n in names], count, function), dtype=np.int32
        )
    if not schema.primary_keys:
        return np.zeros(table.num_rows, dtype=np.int32)
    from paimon_conform.table.write.dynamic import assign_dynamic

    trimmed = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    return assign_dynamic(plan, table, trimmed, part_ids, partitions, result)


def write_task(
    plan: WritePlan, batches: Iterable[pa.RecordBatch], task_id: int, kinds: np.ndarray | None = None
) -> TaskResult:
    """Write the rows of one task into data files; what the commit needs.

    Row kinds come from `rowkind.field`, or from `kinds` (bytes of tl.row_kind_byte) when given.
    """
    batches = list(batches)
    result = TaskResult()
    if not batches or sum(b.num_rows for b in batches) == 0:
        return result
    schema = plan.schema
    names = [f.name for f in schema.fields]
    table = pa.Table.from_batches(batches).select(names)
    kinds = _row_kinds(table, plan.rowkind_field) if kinds is None else np.asarray(kinds, dtype=np.int8)
    if len(kinds) != table.num_rows:
        raise UsageError(f"{len(kinds)} row kinds for {table.num_rows} rows")
    if not schema.primary_keys and bool((kinds != 0).any()):
        raise UsageError("an append table takes only +I rows (rowkind.field holds another kind)")
    for f in schema.fields:
        if not f.nullable and table.column(f.name).null_count:
            raise UsageError(f"column {f.name} is NOT NULL (a primary-key field) and holds nulls")
    part_ids, part_values = _partition_keys(plan, table)
    ptypes = [schema.field(k).type for k in schema.partition_keys]
    partitions = [
        binary_row.serialize_for_manifest(binary_row.write(ptypes, list(v)), len(ptypes)) for v in part_values
    ]
    buckets = _buckets(plan, table, part_ids, partitions, result)
    seq = plan.next_sequence + task_id * SEQ_STRIDE + np.arange(table.num_rows, dtype=np.int64)
    trimmed = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    work = table.append_column("__part", pa.array(part_ids)).append_column("__bucket", pa.array(buckets))
    work = work.append_column("__seq", pa.array(seq)).append_column("__kind", pa.array(kinds))
    order = [("__part", "ascending"), ("__bucket", "ascending")] + [(k, "ascending") for k in trimmed]
    work = work.sort_by([*order, ("__seq", "ascending")])
    p = np.asarray(work.column("__part").to_numpy())
    b = np.asarray(work.column("__bucket").to_numpy())
    cuts = np.flatnonzero((p[1:] != p[:-1]) | (b[1:] != b[:-1])) + 1
    starts, ends = np.concatenate([[0], cuts]), np.concatenate([cuts, [len(p)]])
    uid = str(uuid.uuid4())
    for n, (s, e) in enumerate(zip(starts, ends, strict=True)):
        group = work.slice(int(s), int(e - s))
        pid, bucket = int(p[s]), int(b[s])
        name = f"{uid}-{n}"
        files.write_group(plan, group, trimmed, part_values[pid], partitions[pid], bucket, name, result, False)
    return result


def write_group_rows(
    plan: WritePlan, rows: pa.Table, trimmed: list[str], part_values: tuple, partition: bytes, bucket: int
) -> NewFile | None:
    """One data file from rows with `__seq` and `__kind` (a compaction's output); None when none survive."""
    rows = rows.sort_by([(k, "ascending") for k in trimmed] + [("__seq", "ascending")])
    result = TaskResult()
    name = str(uuid.uuid4()) + "-0"
    files.write_group(plan, rows, trimmed, part_values, partition, bucket, name, result, plan.dv)
    return result.files[0] if result.files else None
