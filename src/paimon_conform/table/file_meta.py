"""A data file against its manifest entry (DataFileMeta): size, row count, sequence
numbers, key range, delete count and value statistics."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from .. import binary_row
from .. import table_layout as tl
from ..errors import LayoutError
from ..findings import Finding, Severity
from ..findings import file_finding as _f
from ..types import DataType, java_equals
from .chain import LiveFile
from .data_files import DataFile, _internal, count_in, key_columns
from .schema import TableSchema


def _row_values(df: DataFile, cols: list[tuple[str, DataType]], row: int) -> list[Any]:
    small = DataFile(df.format, df.columns, df.table.slice(row, 1))
    return [_internal(small, name, t)[0] for name, t in cols]


def check_file_meta(df: DataFile, live: LiveFile, schema: TableSchema, root: Path) -> list[Finding]:
    """Findings of one data file against its manifest entry; reported on the manifest."""
    e, meta = live.entry, live.entry.file
    owner, at = e.manifest, f"entries[{e.index}]._FILE"
    out = []
    size = (root / live.relative).stat().st_size if live.relative else None
    if size is not None and meta.file_size != size:
        out.append(
            _f("MANIFEST_FILE_SIZE", "must", owner, f"{at}._FILE_SIZE", f"{meta.file_size}, the file has {size}")
        )
    rows = df.table.num_rows
    if meta.row_count != rows:
        out.append(
            _f("MANIFEST_ROW_COUNT", "must", owner, f"{at}._ROW_COUNT", f"{meta.row_count}, the file has {rows}")
        )
        return out
    if schema.bucket > 0 and e.total_buckets != schema.bucket:
        msg = f"_TOTAL_BUCKETS is {e.total_buckets}, the table has bucket = {schema.bucket}"
        out.append(_f("MANIFEST_TOTAL_BUCKETS", "should", owner, f"entries[{e.index}]._TOTAL_BUCKETS", msg))
    if meta.level < 0 or (not schema.primary_keys and meta.level != 0):
        rule = "levels start at 0" if schema.primary_keys else "append files stay at level 0"
        msg = f"_LEVEL is {meta.level}; {rule}"
        out.append(_f("MANIFEST_LEVEL", "must", owner, f"{at}._LEVEL", msg))
    if schema.primary_keys and rows:
        out += _sequence(df, meta, owner, at)
        out += _deletes(df, meta, owner, at)
        out += _key_range(df, meta, schema, owner, at)
    out += _value_stats(df, meta, schema, owner, at)
    return out


def _sequence(df: DataFile, meta: Any, owner: str, at: str) -> list[Finding]:
    name = tl.spec()["system_fields"]["sequence_number"]["name"]
    if name not in df.table.column_names:
        return []
    mm = pc.min_max(df.table.column(name))
    lo, hi = mm["min"].as_py(), mm["max"].as_py()
    if (lo, hi) != (meta.min_sequence_number, meta.max_sequence_number):
        msg = (
            f"_MIN/_MAX_SEQUENCE_NUMBER are {meta.min_sequence_number}..{meta.max_sequence_number}, "
            f"the file holds {lo}..{hi}; a writer restoring from it would reuse sequence numbers"
        )
        return [_f("MANIFEST_SEQUENCE_RANGE", "must", owner, f"{at}._MIN_SEQUENCE_NUMBER", msg)]
    return []


def _deletes(df: DataFile, meta: Any, owner: str, at: str) -> list[Finding]:
    name = tl.spec()["system_fields"]["value_kind"]["name"]
    if meta.delete_row_count is None or name not in df.table.column_names:
        return []
    actual, _ = count_in(df.table.column(name), [tl.row_kind_byte("-U"), tl.row_kind_byte("-D")])
    if actual != meta.delete_row_count:
        msg = f"_DELETE_ROW_COUNT is {meta.delete_row_count}, the file holds {actual} -U/-D rows"
        return [_f("MANIFEST_DELETE_ROW_COUNT", "should", owner, f"{at}._DELETE_ROW_COUNT", msg)]
    return []


def _key_range(df: DataFile, meta: Any, schema: TableSchema, owner: str, at: str) -> list[Finding]:
    cols = key_columns(df, schema)
    if not cols or any(n not in df.table.column_names or t.root == "UNSUPPORTED" for n, t in cols):
        return []
    types = [t for _, t in cols]
    out = []
    for field_name, stated, row in (("_MIN_KEY", meta.min_key, 0), ("_MAX_KEY", meta.max_key, df.table.num_rows - 1)):
        try:
            _, values = binary_row.read(types, stated, serialized=True)
        except LayoutError as err:
            msg = f"does not decode as the trimmed primary key row: {err.detail}"
            out.append(_f("MANIFEST_KEY_RANGE", "must", owner, f"{at}.{field_name}", msg))
            continue
        actual = _row_values(df, cols, row)
        if not all(java_equals(t, a, b) for t, a, b in zip(types, values, actual, strict=True)):
            msg = f"{field_name} is {values}, the file's {'first' if row == 0 else 'last'} key is {actual}"
            out.append(_f("MANIFEST_KEY_RANGE", "must", owner, f"{at}.{field_name}", msg))
    return out


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _value_stats(df: DataFile, meta: Any, schema: TableSchema, owner: str, at: str) -> list[Finding]:
    names = list(meta.value_stats_cols) if meta.value_stats_cols is not None else [f.name for f in schema.fields]
    try:
        fields = [schema.field(n) for n in names]
    except KeyError:
        return []  # stats of another schema version: not compared
    stats = meta.value_stats
    types = [f.type for f in fields]
    if any(t.root == "UNSUPPORTED" for t in types) or not names:
        return []
    try:
        _, mins = binary_row.read(types, stats.min_values, serialized=True)
        _, maxs = binary_row.read(types, stats.max_values, serialized=True)
    except LayoutError:
        return []  # stats-mode none or another schema: Java writes an empty row
    out = []
    for i, (name, t) in enumerate(zip(names, types, strict=True)):
        if name not in df.table.column_names:
            continue
        col = df.table.column(name)
        nulls = col.null_count
        stated_nulls = stats.null_counts[i] if stats.null_counts and i < len(stats.null_counts) else None
        path = f"{at}._VALUE_STATS"
        if stated_nulls is not None and stated_nulls != nulls:
            severity: Severity = "must" if stated_nulls < nulls else "should"
            msg = f"{name}: null count {stated_nulls}, the file holds {nulls} null(s)"
            out.append(_f("MANIFEST_VALUE_STATS", severity, owner, f"{path}._NULL_COUNTS[{i}]", msg))
        if nulls == len(col) or (mins[i] is None and maxs[i] is None):
            continue
        actual = _min_max(df, name, t, col)
        if actual is None:
            continue
        lo, hi = actual
        if mins[i] is not None and not _nan(mins[i]) and mins[i] > lo:
            msg = f"{name}: minimum {mins[i]!r} is above the file's {lo!r}; filters would skip matching rows"
            out.append(_f("MANIFEST_VALUE_STATS", "must", owner, f"{path}._MIN_VALUES", msg))
        if maxs[i] is not None and not _nan(maxs[i]) and maxs[i] < hi:
            msg = f"{name}: maximum {maxs[i]!r} is below the file's {hi!r}; filters would skip matching rows"
            out.append(_f("MANIFEST_VALUE_STATS", "must", owner, f"{path}._MAX_VALUES", msg))
    return out


def _min_max(df: DataFile, name: str, t: DataType, col: pa.ChunkedArray) -> tuple[Any, Any] | None:
    """The column's minimum and maximum as internal values (None when Arrow cannot order it)."""
    try:
        mm = pc.min_max(col)
        small = pa.table({name: pa.array([mm["min"].as_py(), mm["max"].as_py()], type=col.type)})
    except (pa.ArrowException, TypeError, UnicodeDecodeError):  # DATA_FILE_BAD_UTF8 reports bad strings
        return None
    try:
        lo, hi = _internal(DataFile(df.format, df.columns, small), name, t)
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if lo is None or hi is None or _nan(lo) or _nan(hi):
        return None
    return lo, hi
