"""Read a table's latest snapshot the way Java's batch reader does: live data files from the
manifests, deletion vectors applied, and for primary-key tables (deduplicate merge engine)
the row with the highest sequence number per key, retractions (-U, -D) dropped. With
deletion vectors enabled, Java's batch scan skips level-0 files (not yet compacted), and
so does this reader. Planning and split reading live in scan.py (the Spark source reads
the same splits in its tasks).
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from paimon_conform.core.errors import UsageError, checking
from paimon_conform.core.types import DataType
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.file_index import query
from paimon_conform.table.chain import snapshot_ids
from paimon_conform.table.read import data_files, scan
from paimon_conform.table.schema import Schemas, TableSchema


def read_latest(
    root: str | Path, leaves: list[query.Leaf] | None = None, branch: str | None = None, snapshot: int | None = None
) -> tuple[TableSchema, pa.Table]:
    """(schema, rows) of the latest snapshot: the table's columns in schema order; of branch `branch`
    (branch/branch-<name>/) when given; of snapshot `snapshot` (time travel, in the schema it names) when given.

    Refuses a table whose metadata has must-level problems; `leaves` prune as in scan.plan
    (rows of surviving splits are returned unfiltered).
    """
    root = Path(root)
    with checking(str(root)):
        if branch is not None and (not branch or "/" in branch or branch in (".", "..")):
            raise UsageError(f"{root}: {branch!r} is not a branch name")
        return _read_latest(root, leaves, "" if branch is None else f"branch/branch-{branch}/", snapshot)


def _read_latest(
    root: Path, leaves: list[query.Leaf] | None, meta: str, snapshot: int | None
) -> tuple[TableSchema, pa.Table]:
    if not snapshot_ids(root, meta):
        raise UsageError(f"{root}: no {meta}snapshot to read")
    # the snapshot chain checked as the Spark source checks it
    schema, splits, _ = scan.plan(root, leaves, meta, snapshot)
    schemas = Schemas(root, schema, meta)
    parts = [scan.read_split(root, schema, s, schemas) for s in splits]
    if not parts:
        return schema, scan.empty(schema)
    return schema, paimon_columns.concat_exact(parts)


def logical_rows(schema: TableSchema, rows: pa.Table) -> list[list]:
    """Rows in the kit's logical JSON form (what golden sidecars hold), schema column order."""
    from paimon_conform.core.types import to_json
    from paimon_conform.table import features

    df = data_files.DataFile("parquet", [], rows)
    blobs = features.plain_blob_columns(schema)
    columns = []
    for f in schema.fields:
        t: DataType = f.type
        if f.name in blobs and pa.types.is_binary(rows.schema.field(f.name).type):  # BLOB: the data, as hex
            columns.append([None if v is None else v.hex() for v in rows.column(f.name).to_pylist()])
            continue
        values = data_files.internal_of(df, f.name, t)
        columns.append([None if v is None else to_json(t, v) for v in values])
    return [list(r) for r in zip(*columns, strict=True)] if columns else []
