"""`.row` data files (Paimon 2.0, `file.format = row`) in a table: the file checked as layout `row_file` with
the column types of the schema it was written with, then its rows handed to the data-file checks as a
DataFile, like a Parquet or ORC file's.

A row file does not record its columns, so they are the data-file columns Java writes for the schema (the
entry's `_WRITE_COLS` under data evolution). Row-tracking files may carry `_ROW_ID` / `_SEQUENCE_NUMBER`
at the end or not; the layout whose rows decode and fill the blocks exactly is taken, as the names of a
Parquet file tell it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from paimon_conform.core import budget
from paimon_conform.core.errors import UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.layouts.row_file import entry as row_file
from paimon_conform.layouts.row_file import types as rtypes
from paimon_conform.table import features
from paimon_conform.table import table_layout as tl
from paimon_conform.table.read import row_arrow
from paimon_conform.table.read.data_files import Column, DataFile, arrow_family
from paimon_conform.table.schema import TableSchema


def is_row_file(relative: str) -> bool:
    """A row-format data file (`data-<uuid>-<n>.row`, or a changelog file of the format)."""
    return relative.endswith(".row")


def _type(f: tl.Field, schema: TableSchema) -> rtypes.RowFieldType:
    """A column's row-file type: the kit's atomic type, else the schema's JSON for it (nested, VARIANT, BLOB)."""
    if f.type.root != "UNSUPPORTED":
        return rtypes.atomic(f.type)
    prefix = tl.spec()["system_fields"]["key_prefix"]
    raw = schema.unreadable_types.get(f.name, schema.unreadable_types.get(f.name.removeprefix(prefix)))
    return rtypes.parse(raw)


def candidates(schema: TableSchema, write_cols: tuple[str, ...] | None) -> list[list[tl.Field]]:
    """The column lists Java writes for a file of this schema: without, then with the row-tracking tail."""
    base = features.expected_columns(schema, write_cols, [])
    out = [base]
    if features.Features.of(schema).row_tracking and not schema.primary_keys:
        tail = [f for f in features.ROW_TRACKING_FIELDS if f.name not in {b.name for b in base}]
        if tail:
            out.append(base + tail)
    return out


def read_row_file(
    path: Path, relative: str, schema: TableSchema, write_cols: tuple[str, ...] | None
) -> tuple[DataFile | None, list[Finding]]:
    """The rows of the row file at `path` (inside the table root; `relative` names it in findings) as a
    DataFile (None when a must-finding stops the read), and its layout findings."""
    try:
        budget.reserve(path.stat().st_size, f"reading {path.name}")
        data = path.read_bytes()
    except OSError as exc:
        return None, [Finding("DATA_FILE_UNREADABLE", "must", "", None, f"cannot read the row file: {exc}", relative)]
    tried: list[tuple[list[tl.Field], list[Any], list[Finding], Any]] = []
    for fields in candidates(schema, write_cols):
        try:
            types = [_type(f, schema) for f in fields]
        except UsageError as exc:
            msg = f"a column type Java's row format cannot hold ({exc}): the rows are not read"
            return None, [Finding("FEATURE_NOT_CHECKED", "warning", "", None, msg, relative)]
        found, rf = row_file.findings(data, types)
        tried.append((fields, types, found, rf))
        if rf is not None and not any(f.code == "ROW_FILE_ROW_GAP" for f in found):
            break  # the rows fill the blocks exactly: these are the file's columns
    else:  # none fits exactly: the first that read (its findings say why), else the first
        tried.append(next((t for t in tried if t[3] is not None), tried[0]))
    fields, types, found, rf = tried[-1]
    for f in found:
        f.file = relative
    if rf is None:
        return None, found
    names = [f.name for f in fields]
    table, exact = row_arrow.table(names, types, rf.rows)
    cols = [
        Column(n, "timestamp" if n in exact else arrow_family(table.schema.field(n).type), f.id)
        for n, f in zip(names, fields, strict=True)
    ]
    return DataFile("row", cols, table), found
