"""Reading a data-evolution table (`data-evolution.enabled`, 1.3): files that share row ids merged by column, as
Java's DataEvolutionSplitRead does.

A bucket's files are grouped by overlapping row-id ranges (`_FIRST_ROW_ID`, `_ROW_COUNT`). In a group the
data files (not `.blob`) must all span the same range (Java refuses otherwise, and so does the kit); each
column of the current schema comes from the data file with the highest `_MAX_SEQUENCE_NUMBER` whose
`_WRITE_COLS` (all of its schema's columns when null) hold that column's field id, else from the `.blob` files
of that column, which tile the range in row-id order; a column no file holds reads as null. A group of one
file is that file.

The kit does not read (UsageError: refused, never guessed): groups of `.blob` files only, `.blob` files that
overlap (updated BLOB values), placeholder rows, ARRAY / MAP BLOB columns, and deletion vectors on a group.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from paimon_conform.core import budget
from paimon_conform.core.errors import LayoutError, UsageError
from paimon_conform.layouts.blob_file import codec as blob_codec
from paimon_conform.layouts.blob_file.elements import BLOB
from paimon_conform.table import features
from paimon_conform.table.read import data_files, evolution
from paimon_conform.table.schema import Schemas, TableSchema


@dataclass(frozen=True)
class RowIds:
    """A data-evolution file's place: its row-id range, the columns it holds, its sequence number."""

    first_row_id: int
    row_count: int
    write_cols: tuple[str, ...] | None
    max_sequence_number: int

    @property
    def end(self) -> int:
        return self.first_row_id + self.row_count


def groups(files: list) -> list[list]:
    """The files (each with `.row_ids`) in groups of overlapping row-id ranges, in row-id order."""
    out: list[list] = []
    end = None
    for f in sorted(files, key=lambda f: (f.row_ids.first_row_id, f.row_ids.end)):
        if out and f.row_ids.first_row_id < end:
            out[-1].append(f)
            end = max(end, f.row_ids.end)
        else:
            out.append([f])
            end = f.row_ids.end
    return out


def _refuse(root: Path, what: str) -> UsageError:
    return UsageError(f"{root}: {what}; the kit does not merge it (data evolution), not read")


def _columns_of(f, written: TableSchema) -> list:
    """The written schema's fields a data file holds (its `_WRITE_COLS`, or all)."""
    cols = f.row_ids.write_cols
    if cols is None:
        return list(written.fields)
    by_name = {x.name: x for x in written.fields}
    return [by_name[c] for c in cols if c in by_name]  # _ROW_ID / _SEQUENCE_NUMBER are not table columns


def _blob_values(root: Path, relative: str, rows: int) -> list[bytes | None]:
    """The values of a `.blob` file of a plain BLOB column, `rows` of them."""
    path = data_files.live_file(root, relative)
    size = path.stat().st_size
    budget.reserve(size, f"the blob file {relative}")
    data = path.read_bytes()
    try:
        values = blob_codec.values(data, blob_codec.load(data), BLOB)
    except LayoutError as exc:
        raise UsageError(f"{root}: {relative}: cannot read the blob file: {exc}") from None
    if len(values) != rows:
        raise UsageError(f"{root}: {relative}: {len(values)} rows, its manifest entry says {rows}; not read")
    if any(v is blob_codec.PLACEHOLDER for v in values):
        raise _refuse(root, f"{relative} holds placeholder rows (-2)")
    return values


def read_group(root: Path, schema: TableSchema, schemas: Schemas, group: list, read_file) -> pa.Table:
    """The rows of one group in the current schema's columns. `read_file(f, columns)` reads a data file's
    columns (deletion vector applied)."""
    data = [f for f in group if not features.is_blob(f.relative)]
    blobs = [f for f in group if features.is_blob(f.relative)]
    if not data:
        raise _refuse(root, f"row ids {group[0].row_ids.first_row_id}.. are held by .blob files only")
    if len({(f.row_ids.first_row_id, f.row_ids.row_count) for f in data}) > 1:
        names = ", ".join(f.relative for f in data)
        raise UsageError(f"{root}: data files {names} share row ids with other ranges; Java refuses them, not read")
    if any(f.deleted is not None for f in group) and len(group) > 1:
        raise _refuse(root, "a deletion vector on files merged by row id")
    first, count = data[0].row_ids.first_row_id, data[0].row_ids.row_count
    lone = data[0].deleted  # the deletion vector of a group of one file: its rows are the ones it keeps
    rows = count if lone is None else int(data_files.kept(count, lone).sum())
    data.sort(key=lambda f: -f.row_ids.max_sequence_number)
    source: dict[int, tuple] = {}  # current field id -> (file, its column name, its column's type)
    current = {fld.id for fld in schema.fields}
    for f in data:
        written = data_files.written_schema(root, schema, schemas, f.relative, f.schema_id)
        for c in _columns_of(f, written):
            if c.id in current:
                source.setdefault(c.id, (f, c.name, c.type))
    blob_runs = _blob_runs(root, schemas, schema, blobs, first, count)
    tables: dict[str, pa.Table] = {}
    columns, names = [], []
    for fld in schema.fields:
        if fld.id in source:
            f, name, old_type = source[fld.id]
            if f.relative not in tables:
                wanted = [n for (g, n, _) in source.values() if g is f]
                tables[f.relative] = read_file(f, wanted)
                if tables[f.relative].num_rows != rows:
                    raise UsageError(f"{root}: {f.relative}: {tables[f.relative].num_rows} rows, its range {rows}")
            col = tables[f.relative].column(name)
            if old_type != fld.type:
                col = evolution.cast(col, old_type, fld.type)
            columns.append(col)
        elif fld.id in blob_runs:
            columns.append(pa.array(blob_runs[fld.id], pa.binary()))
        else:
            columns.append(pa.nulls(rows))
        names.append(fld.name)
    return pa.table(columns, names=names)


def _blob_runs(root: Path, schemas: Schemas, schema: TableSchema, blobs: list, first: int, count: int) -> dict:
    """Each BLOB column's values over [first, first + count) by field id, from its `.blob` files in row-id
    order."""
    by_column: dict[int, list] = {}  # field id -> its .blob files
    for f in blobs:
        cols = f.row_ids.write_cols
        written = schema if f.schema_id is None else schemas.get(f.schema_id)
        if cols is None or len(cols) != 1 or written is None or cols[0] not in {x.name for x in written.fields}:
            raise _refuse(root, f"{f.relative}: a .blob file whose _WRITE_COLS is not one column of its schema")
        if features.blob_element_type(written, cols[0]) != BLOB:
            raise _refuse(root, f"{f.relative}: ARRAY / MAP BLOB values")
        by_column.setdefault(written.field(cols[0]).id, []).append(f)
    out = {}
    for column, files in by_column.items():
        files.sort(key=lambda f: f.row_ids.first_row_id)
        values: list = []
        at = first
        for f in files:
            if f.row_ids.first_row_id != at:
                raise _refuse(root, f"{f.relative} starts at row id {f.row_ids.first_row_id}, not {at}")
            values += _blob_values(root, f.relative, f.row_ids.row_count)
            at = f.row_ids.end
        if at != first + count:
            raise _refuse(
                root, f"the .blob files of field {column} end at row id {at}, the data files at {first + count}"
            )
        out[column] = values
    return out
