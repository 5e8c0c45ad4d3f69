"""A data file against its manifest entry (DataFileMeta): size, row count, sequence
numbers, key range, delete count and value statistics."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.findings import file_finding as _f
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import DataType, java_equals, java_order
from paimon_conform.formats.columns import min_max_rows
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import LiveFile
from paimon_conform.table.metadata import ManifestEntry
from paimon_conform.table.read.data_files import DataFile, _internal, count_in, key_columns
from paimon_conform.table.schema import TableSchema


def _row_values(df: DataFile, cols: list[tuple[str, DataType]], row: int) -> list[Any]:
    small = DataFile(df.format, df.columns, df.table.slice(row, 1))
    return [_internal(small, name, t)[0] for name, t in cols]


def check_size_and_rows(e: ManifestEntry, size: int | None, rows: int | None) -> list[Finding]:
    """An entry's `_FILE_SIZE` and `_ROW_COUNT` against the file's size and rows (None: not known)."""
    owner, at, meta = e.manifest, f"entries[{e.index}]._FILE", e.file
    out = []
    if size is not None and meta.file_size != size:
        out.append(
            _f("MANIFEST_FILE_SIZE", "must", owner, f"{at}._FILE_SIZE", f"{meta.file_size}, the file has {size}")
        )
    if rows is not None and meta.row_count != rows:
        out.append(
            _f("MANIFEST_ROW_COUNT", "must", owner, f"{at}._ROW_COUNT", f"{meta.row_count}, the file has {rows}")
        )
    return out


def check_file_meta(df: DataFile, live: LiveFile, schema: TableSchema, root: Path) -> list[Finding]:
    """Findings of one data file against its manifest entry; reported on the manifest."""
    e, meta = live.entry, live.entry.file
    owner, at = e.manifest, f"entries[{e.index}]._FILE"
    size = (root / live.relative).stat().st_size if live.relative else None
    rows = df.table.num_rows
    out = check_size_and_rows(e, size, rows)
    if meta.row_count != rows:
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
        out += _key_stats(df, meta, schema, owner, at)
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
            _, values = binary_row.read_as_java(types, stated, serialized=True)
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
    columns = [(n, n, f.type) for n, f in zip(names, fields, strict=True)]
    return _stats(df, meta.value_stats, columns, owner, f"{at}._VALUE_STATS", "MANIFEST_VALUE_STATS")


def _key_stats(df: DataFile, meta: Any, schema: TableSchema, owner: str, at: str) -> list[Finding]:
    """`_KEY_STATS` over the trimmed primary key (Java filters primary-key files by them)."""
    cols = key_columns(df, schema)
    keys = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    columns = [(k, col, t) for k, (col, t) in zip(keys, cols, strict=True)]
    return _stats(df, meta.key_stats, columns, owner, f"{at}._KEY_STATS", "MANIFEST_KEY_STATS")


def _stats(df: DataFile, stats: Any, columns: list[tuple[str, str, DataType]], owner: str, path: str, code: str):
    """Stored statistics against the file, judged as Java's filters use them (LeafPredicate.test).

    Java evaluates a column's predicate only when its null count equals the row count or both min and
    max are set; otherwise it keeps the file. It then skips the file when: the null count is 0 (or -1)
    and rows are null (IS NULL); the null count equals the row count and some row is not null (every
    comparison, IN, IS NOT NULL); a value orders before min or after max (CompareUtils: Float.compare
    for floats, so NaN is greatest and -0.0 < 0.0; unsigned bytes for strings; BINARY signed before
    2.0 and unsigned in 2.0). Those are must-findings; other wrong counts or bounds are should.
    """
    types = [t for _, _, t in columns]
    if any(t.root == "UNSUPPORTED" for t in types) or not columns:
        return []
    try:
        _, mins = binary_row.read_as_java(types, stats.min_values, serialized=True)
        _, maxs = binary_row.read_as_java(types, stats.max_values, serialized=True)
    except LayoutError:
        return []  # stats-mode none or another schema: Java writes an empty row
    out = []
    rows = df.table.num_rows
    for i, (name, column, t) in enumerate(columns):
        if column not in df.table.column_names:
            continue
        col = df.table.column(column)
        nulls = col.null_count
        stated = stats.null_counts[i] if stats.null_counts and i < len(stats.null_counts) else None
        lo_s, hi_s = mins[i], maxs[i]
        evaluated = (stated is not None and stated == rows) or (lo_s is not None and hi_s is not None)
        if stated is not None and stated != nulls:
            skips = (stated == rows and nulls < rows) or (evaluated and stated <= 0 < nulls)
            msg = f"{name}: null count {stated}, the file holds {nulls} null(s)"
            if skips:
                msg += "; filters would skip matching rows" if stated == rows else "; IS NULL would skip the file"
            out.append(
                _f(
                    code,
                    "must" if skips else "should",
                    owner,
                    f"{path}._NULL_COUNTS[{i}]",
                    msg,
                )
            )
        if nulls == rows or (lo_s is None and hi_s is None):
            continue
        out += _bounds(df, name, column, t, col, lo_s, hi_s, owner, path, code)
    return out


def _bounds(df, name, column, t, col, lo_s, hi_s, owner, path, code) -> list[Finding]:
    """Stored min / max against the column's values in Java's order (both must be set for a skip)."""
    both = lo_s is not None and hi_s is not None
    out = []
    for side, stated in (("min", lo_s), ("max", hi_s)):
        if stated is None:
            continue
        if df.format == "orc" and t.root == "CHAR" and isinstance(stated, str):
            stated = stated.rstrip(" ")  # Java's ORC stats are of the padded values, its reader trims them
        bad = _beyond(df, column, t, col, stated, side)
        if bad is None:
            continue
        value, releases, nan_only = bad
        word = "minimum" if side == "min" else "maximum"
        rel = "above" if side == "min" else "below"
        msg = f"{name}: {word} {stated!r} is {rel} the file's {value!r}"
        if df.format == "orc" and _before_gregorian(t, stated, value):
            msg += (
                " before 1582-10-15, where Java's own ORC reader returns values in the Julian calendar while its "
                "statistics are proleptic Gregorian (Java writes this itself)"
            )
            out.append(_f(code, "should", owner, f"{path}._{side.upper()}_VALUES", msg))
            continue
        if not both:
            msg += " (the other bound is null, so Java keeps the file; Java would not have written it)"
            out.append(_f(code, "should", owner, f"{path}._{side.upper()}_VALUES", msg))
            continue
        if nan_only and df.format == "orc":
            msg += (
                " only in Java's order (NaN greatest, -0.0 < 0.0); filters on NaN or -0.0 would skip matching "
                "rows, but Java's own ORC writer writes such bounds"
            )
            out.append(_f(code, "should", owner, f"{path}._{side.upper()}_VALUES", msg))
            continue
        msg += "; filters would skip matching rows" + (" (Java's order: NaN greatest, -0.0 < 0.0)" if nan_only else "")
        finding = _f(code, "must", owner, f"{path}._{side.upper()}_VALUES", msg)
        if releases is not None:
            finding.java_releases = releases
            finding.message += " (by the byte order of those releases)"
        out.append(finding)
    return out


GREGORIAN_MILLIS = -12219292800000  # 1582-10-15T00:00Z
GREGORIAN_DAYS = -141427


def _before_gregorian(t: DataType, *values: Any) -> bool:
    """A TIMESTAMP / DATE value before the Gregorian cutover (where Java's ORC calendars disagree)."""
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return any(isinstance(v, tuple) and v[0] < GREGORIAN_MILLIS for v in values)
    if t.root == "DATE":
        return any(isinstance(v, int) and v < GREGORIAN_DAYS for v in values)
    return False


def _beyond(df, column, t, col, stated, side) -> tuple[Any, tuple[str, ...] | None, bool] | None:
    """A value of the column outside the stated bound, the releases whose order makes it so (None: all), and
    whether it is outside only in Java's float order (NaN, -0.0); None when every value is inside."""
    if t.root in ("FLOAT", "DOUBLE"):
        values = np.asarray(col.drop_null() if col.null_count else col, dtype=np.float64)
        return _float_beyond(t, values, stated, side)
    actual = _min_max(df, column, t, col)
    if actual is None:
        return None
    lo, hi = actual
    if t.is_binary:
        signed = _signed_min_max(col)
        out_unsigned = (stated > lo) if side == "min" else (stated < hi)
        s_lo, s_hi = signed
        key = _signed_key
        out_signed = (key(stated) > key(s_lo)) if side == "min" else (key(stated) < key(s_hi))
        if out_unsigned and out_signed:
            return (lo if side == "min" else hi), None, False
        if out_signed:
            return (s_lo if side == "min" else s_hi), between(None, "1.4"), False
        if out_unsigned:
            return (lo if side == "min" else hi), ("2.0",), False
        return None
    if side == "min" and stated > lo:
        return lo, None, False
    if side == "max" and stated < hi:
        return hi, None, False
    return None


def _float_beyond(t: DataType, values: np.ndarray, stated: float, side: str) -> tuple[Any, None, bool] | None:
    if values.size == 0:
        return None
    has_nan = bool(np.isnan(values).any())
    finite = values[~np.isnan(values)]
    if side == "min":
        actual = float(finite.min()) if finite.size else math.nan
        if actual == 0 and finite.size and bool(np.signbit(finite[finite == 0]).any()):
            actual = -0.0
    else:
        actual = math.nan if has_nan else float(finite.max())
        if actual == 0 and bool((~np.signbit(finite[finite == 0])).any()):
            actual = 0.0
    key = java_order(t)
    k_s, k_a = key(stated), key(actual)
    outside = k_s > k_a if side == "min" else k_s < k_a
    if not outside:
        return None
    # outside also when NaN is ignored and -0.0 == 0.0 (the plain numeric order)?
    if finite.size == 0 or math.isnan(stated):
        return actual, None, True
    plain = float(finite.min()) if side == "min" else float(finite.max())
    plain_outside = stated > plain if side == "min" else stated < plain
    return actual, None, not plain_outside


def _signed_key(b: bytes) -> tuple[int, ...]:
    return tuple(x - 256 if x > 127 else x for x in b)


def _signed_min_max(col: pa.ChunkedArray) -> tuple[bytes, bytes]:
    """Min / max of a binary column in the signed byte order Java readers before 2.0 use (CompareUtils)."""
    values = [v for v in pc.unique(col.combine_chunks()).to_pylist() if v is not None]
    return min(values, key=_signed_key), max(values, key=_signed_key)


def _min_max(df: DataFile, name: str, t: DataType, col: pa.ChunkedArray) -> tuple[Any, Any] | None:
    """The column's minimum and maximum as internal values (None when Arrow cannot order it)."""
    try:
        pair = min_max_rows(col)
        if pair is None:
            return None
        small = pa.table({name: pair})
    except (pa.ArrowException, TypeError, UnicodeDecodeError):  # DATA_FILE_BAD_UTF8 reports bad strings
        return None
    try:
        lo, hi = _internal(DataFile(df.format, df.columns, small), name, t)
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if lo is None or hi is None or _nan(lo) or _nan(hi):
        return None
    return lo, hi
