"""Read a table's latest snapshot the way Java's batch reader does (the reading side of issue 7's
Spark source): live data files from the manifests, deletion vectors applied, and for
primary-key tables (deduplicate merge engine) the row with the highest sequence number
per key, retractions (-U, -D) dropped. With deletion vectors enabled, Java's batch scan
skips level-0 files (not yet compacted), and so does this reader.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import table_layout as tl
from ..errors import UsageError
from ..types import DataType
from . import data_files
from .chain import load_chain
from .index_files import load_index_files
from .schema import TableSchema, read_schema, schema_ids


def _file_rows(root: Path, relative: str, deleted: np.ndarray | None) -> pa.Table:
    df = data_files.read_data_file(root / relative)
    table = df.table
    if deleted is not None and len(deleted):
        keep = np.ones(table.num_rows, dtype=bool)
        keep[deleted[deleted < table.num_rows]] = False
        table = table.filter(pa.array(keep))
    return table


def read_latest(root: str | Path) -> tuple[TableSchema, pa.Table]:
    """(schema, rows) of the latest snapshot: the table's columns in schema order."""
    root = Path(root)
    schema = read_schema(root)
    chain = load_chain(root, schema, schema_ids(root))
    if chain.latest is None:
        raise UsageError(f"{root}: no snapshot to read")
    problems = [f for f in chain.findings if f.severity == "must"]
    if problems:
        raise UsageError(f"{root}: cannot read: {problems[0].line()}")
    state = load_index_files(root, chain.index_files, "")
    skip_level0 = bool(schema.primary_keys) and tl.bool_option(schema.options.get("deletion-vectors.enabled", False))
    names = [f.name for f in schema.fields]
    seq, kind = (tl.spec()["system_fields"][k]["name"] for k in ("sequence_number", "value_kind"))
    parts = []
    for lf in chain.live:
        if lf.relative is None or (skip_level0 and lf.entry.file.level == 0):
            continue
        vec = state.vectors.get((lf.entry.partition, lf.entry.bucket), {}).get(lf.entry.file.file_name)
        table = _file_rows(root, lf.relative, None if vec is None else vec[2])
        keep = names + ([seq, kind] if schema.primary_keys else [])
        parts.append(table.select(keep))
    if not parts:
        return schema, pa.table({n: pa.array([], pa.null()) for n in names})
    rows = pa.concat_tables(parts, promote_options="permissive")
    if schema.primary_keys:
        rows = _merge(rows, schema.primary_keys, seq, kind)
    return schema, rows.select(names)


def _merge(rows: pa.Table, keys: list[str], seq: str, kind: str) -> pa.Table:
    """Deduplicate merge: per key the row with the highest sequence number; retractions dropped."""
    latest = rows.group_by(keys).aggregate([(seq, "max")]).rename_columns([*keys, seq])
    winners = rows.join(latest, keys=[*keys, seq], join_type="inner")
    retract = pa.array([tl.row_kind_byte("-U"), tl.row_kind_byte("-D")], winners.schema.field(kind).type)
    return winners.filter(pc.invert(pc.is_in(winners.column(kind), value_set=retract)))


def logical_rows(schema: TableSchema, rows: pa.Table) -> list[list]:
    """Rows in the kit's logical JSON form (what golden sidecars hold), schema column order."""
    from ..types import to_json

    df = data_files.DataFile("parquet", [], rows)
    columns = []
    for f in schema.fields:
        t: DataType = f.type
        values = data_files._internal(df, f.name, t)
        columns.append([None if v is None else to_json(t, v) for v in values])
    return [list(r) for r in zip(*columns, strict=True)] if columns else []
