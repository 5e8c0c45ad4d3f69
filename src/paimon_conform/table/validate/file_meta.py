"""A data file against its manifest entry (DataFileMeta): size, row count, sequence
numbers, key range, delete count and value statistics."""

from __future__ import annotations

import math
from collections import defaultdict
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
from paimon_conform.formats.paimon_columns import min_max_rows
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import LiveFile
from paimon_conform.table.metadata import DataFileMeta, ManifestEntry
from paimon_conform.table.read.data_files import DataFile, WindowCheck, count_in, internal_of, key_columns, whole_key
from paimon_conform.table.schema import TableSchema


def _row_values(df: DataFile, cols: list[tuple[str, DataType]], row: int) -> list[Any]:
    small = DataFile(df.format, df.columns, df.table.slice(row, 1))
    return [internal_of(small, name, t)[0] for name, t in cols]


class FileFacts(WindowCheck):
    """What the checks against a manifest entry need of a file's rows, gathered window by window (read_windows):
    the rows, the sequence-number range, the -U/-D rows, the first and last key, and per column its nulls
    and a few of its values holding every extreme (minimum and maximum in Arrow's order, in signed byte order
    for binary, finite extremes, zeros and NaN for floats), so statistics are judged as over the whole file."""

    def __init__(self, df: DataFile, schema: TableSchema) -> None:
        self.format, self.columns, self.names = df.format, df.columns, df.table.column_names
        self.types = {f.name: f.type for f in schema.fields}
        self.keys = key_columns(df, schema)
        self.types.update(self.keys)
        self.rows = 0
        self.sequence: tuple[Any, Any] = (None, None)
        self.deletes = 0
        self.first_key: list[Any] | None = None  # the first row's key values (internal), and the last row's
        self.last_key: list[Any] | None = None
        self.nulls: dict[str, int] = defaultdict(int)
        self.parts: dict[str, list[pa.Array]] = defaultdict(list)
        self.unordered: set[str] = set()  # columns Arrow could not order in some window
        self.arrow_types: dict[str, pa.DataType] = {}
        self.zone_unknown: set[str] = set()  # ORC TIMESTAMP_LTZ columns whose values depend on the reader's zone

    def add(self, df: DataFile) -> None:
        table = df.table
        self.rows += table.num_rows
        if not table.num_rows:
            return
        seq = tl.spec()["system_fields"]["sequence_number"]["name"]
        if seq in table.column_names:
            mm = pc.min_max(table.column(seq))
            self.sequence = (_least(self.sequence[0], mm["min"].as_py()), _most(self.sequence[1], mm["max"].as_py()))
        kind = tl.spec()["system_fields"]["value_kind"]["name"]
        if kind in table.column_names:
            self.deletes += count_in(table.column(kind), [tl.row_kind_byte("-U"), tl.row_kind_byte("-D")])[0]
        if whole_key(self.keys, table.column_names):  # (values, not slices: a slice would keep the window)
            if self.first_key is None:
                self.first_key = _row_values(df, self.keys, 0)
            self.last_key = _row_values(df, self.keys, table.num_rows - 1)
        for name in table.column_names:
            t = self.types.get(name)
            if t is None or t.root == "UNSUPPORTED":
                continue
            col = table.column(name)
            self.arrow_types.setdefault(name, col.type)
            self.nulls[name] += col.null_count
            part = _extremes(col, t)
            if part is None:
                self.unordered.add(name)
            elif len(part):
                self.parts[name].append(part)

    def column(self, name: str) -> pa.ChunkedArray:
        """The values holding the column's extremes (no nulls)."""
        return pa.chunked_array(self.parts.get(name, []), type=self.arrow_types[name])


def _least(a: Any, b: Any) -> Any:
    return b if a is None else a if b is None else min(a, b)


def _most(a: Any, b: Any) -> Any:
    return b if a is None else a if b is None else max(a, b)


def _extremes(col: pa.ChunkedArray, t: DataType) -> pa.Array | None:
    """A few values of the column that hold its extremes in every order the statistics checks use (nulls left
    out); None when Arrow cannot order it."""
    values = col.drop_null().combine_chunks() if col.null_count else col.combine_chunks()
    if not len(values):
        return pa.array([], values.type)
    if t.root in ("FLOAT", "DOUBLE"):
        v = np.asarray(values, dtype=np.float64)
        nan = np.isnan(v)
        picks = [int(np.flatnonzero(nan)[0])] if nan.any() else []
        finite = np.flatnonzero(~nan)
        if finite.size:
            picks += [int(finite[np.argmin(v[finite])]), int(finite[np.argmax(v[finite])])]
            zeros = finite[v[finite] == 0]
            for sign in (True, False):  # -0.0 and 0.0 apart (Java orders -0.0 first)
                hit = zeros[np.signbit(v[zeros]) == sign]
                picks += [int(hit[0])] if hit.size else []
        return values.take(sorted(set(picks)))
    try:
        pair = min_max_rows(values)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, UnicodeDecodeError):
        return None
    if pair is None:
        return pa.array([], values.type)
    if t.is_binary:
        lo, hi = _signed_min_max(pa.chunked_array([values]))
        pair = pa.concat_arrays([pair, pa.array([lo, hi], values.type)])
    return pair


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


def check_file_meta(facts: FileFacts, live: LiveFile, schema: TableSchema, root: Path) -> list[Finding]:
    """Findings of one data file (its facts, gathered over every window) against its manifest entry; reported on
    the manifest."""
    e, meta = live.entry, live.entry.file
    owner, at = e.manifest, f"entries[{e.index}]._FILE"
    size = (root / live.relative).stat().st_size if live.relative else None
    rows = facts.rows
    out = check_size_and_rows(e, size, rows)
    if meta.row_count != rows:
        return out
    if schema.bucket > 0 and e.total_buckets != schema.bucket:
        msg = f"_TOTAL_BUCKETS is {e.total_buckets}, the table has bucket = {schema.bucket}"
        out.append(_f("MANIFEST_TOTAL_BUCKETS", "should", owner, f"entries[{e.index}]._TOTAL_BUCKETS", msg))
    if meta.creation_time is None:
        out.append(_no_creation_time(schema, owner, at))
    if meta.level < 0 or (not schema.primary_keys and meta.level != 0):
        rule = "levels start at 0" if schema.primary_keys else "append files stay at level 0"
        msg = f"_LEVEL is {meta.level}; {rule}"
        out.append(_f("MANIFEST_LEVEL", "must", owner, f"{at}._LEVEL", msg))
    if schema.primary_keys and rows:
        out += _sequence(facts, meta, owner, at)
        out += _deletes(facts, meta, owner, at)
        out += _key_range(facts, meta, owner, at)
        out += _key_stats(facts, meta, schema, owner, at)
    out += _value_stats(facts, meta, schema, owner, at)
    return out


def _no_creation_time(schema: TableSchema, owner: str, at: str) -> Finding:
    """A live file without `_CREATION_TIME`: Java writes one for every file. In a partitioned table Java 0.9's
    compaction fails on it (PartitionEntry.fromManifestEntry, NullPointerException in
    DataFileMeta.creationTimeEpochMillis: Paimon's Spark connector 0.9.0 running CALL sys.compact)."""
    msg = "_CREATION_TIME is null; Java writes a creation time for every file"
    if not schema.partition_keys:
        return _f("MANIFEST_CREATION_TIME", "should", owner, f"{at}._CREATION_TIME", msg)
    msg += (
        "; Java's compaction of a partitioned table fails on it (NullPointerException in "
        "DataFileMeta.creationTimeEpochMillis)"
    )
    finding = _f("MANIFEST_CREATION_TIME", "must", owner, f"{at}._CREATION_TIME", msg)
    finding.java_releases, finding.otherwise = ("0.9",), "should"
    return finding


def _sequence(facts: FileFacts, meta: DataFileMeta, owner: str, at: str) -> list[Finding]:
    name = tl.spec()["system_fields"]["sequence_number"]["name"]
    if name not in facts.names:
        return []
    lo, hi = facts.sequence
    if (lo, hi) != (meta.min_sequence_number, meta.max_sequence_number):
        msg = (
            f"_MIN/_MAX_SEQUENCE_NUMBER are {meta.min_sequence_number}..{meta.max_sequence_number}, "
            f"the file holds {lo}..{hi}; a writer restoring from it would reuse sequence numbers"
        )
        return [_f("MANIFEST_SEQUENCE_RANGE", "must", owner, f"{at}._MIN_SEQUENCE_NUMBER", msg)]
    return []


def _deletes(facts: FileFacts, meta: DataFileMeta, owner: str, at: str) -> list[Finding]:
    name = tl.spec()["system_fields"]["value_kind"]["name"]
    if meta.delete_row_count is None or name not in facts.names:
        return []
    if facts.deletes != meta.delete_row_count:
        msg = f"_DELETE_ROW_COUNT is {meta.delete_row_count}, the file holds {facts.deletes} -U/-D rows"
        return [_f("MANIFEST_DELETE_ROW_COUNT", "should", owner, f"{at}._DELETE_ROW_COUNT", msg)]
    return []


def _key_range(facts: FileFacts, meta: DataFileMeta, owner: str, at: str) -> list[Finding]:
    if not whole_key(facts.keys, facts.names):
        return []
    types = [t for _, t in facts.keys]
    out = []
    edges = (("_MIN_KEY", meta.min_key, facts.first_key), ("_MAX_KEY", meta.max_key, facts.last_key))
    for field_name, stated, edge in edges:
        try:
            _, values = binary_row.read_as_java(types, stated, serialized=True)
        except LayoutError as err:
            msg = f"does not decode as the trimmed primary key row: {err.detail}"
            out.append(_f("MANIFEST_KEY_RANGE", "must", owner, f"{at}.{field_name}", msg))
            continue
        actual = edge
        if not all(java_equals(t, a, b) for t, a, b in zip(types, values, actual, strict=True)):
            which = "first" if field_name == "_MIN_KEY" or facts.rows == 1 else "last"
            msg = f"{field_name} is {values}, the file's {which} key is {actual}"
            zoned = [n for n, _ in facts.keys if n in facts.zone_unknown]
            pairs = zip(types, values, actual, strict=True)
            if facts.format == "orc" and any(_before_gregorian(t, a, b) for t, a, b in pairs):
                msg += (
                    " before 1582-10-15, where Java's own ORC reader returns keys in the Julian calendar while the "
                    "range it wrote is proleptic Gregorian (Java writes this itself)"
                )
                out.append(_f("MANIFEST_KEY_RANGE", "should", owner, f"{at}.{field_name}", msg))
            elif zoned and all(
                java_equals(t, a, b) or (n in zoned and _within_a_zone(a, b))
                for (n, t), a, b in zip(facts.keys, values, actual, strict=True)
            ):
                msg += (
                    f": within a zone's offset of {zoned[0]}, a TIMESTAMP_LTZ of an ORC file that records no writer "
                    "zone (Java reads it shifted by the reader zone's offset; the kit reads it as in UTC)"
                )
                out.append(_f("MANIFEST_KEY_RANGE", "should", owner, f"{at}.{field_name}", msg))
            elif _wider(types, field_name, values, actual):
                msg += (
                    ": the range holds every key of the file (a lookup may open the file for a key it does not "
                    "hold, and misses keys of another file of its level whose range it reaches)"
                )
                out.append(_f("MANIFEST_KEY_RANGE", "should", owner, f"{at}.{field_name}", msg))
            else:
                msg += ": a lookup of the keys outside the range skips the file"
                out.append(_f("MANIFEST_KEY_RANGE", "must", owner, f"{at}.{field_name}", msg))
    return out


def _wider(types: list[DataType], field_name: str, stated: list[Any], edge: list[Any]) -> bool:
    """Whether a stated _MIN_KEY is below the file's first key (a _MAX_KEY above its last) in Java's key order
    (fields in turn; strings by code point, which is UTF-8's byte order)."""
    orders = [java_order(t) for t in types]
    try:
        stated_key = tuple(o(v) for o, v in zip(orders, stated, strict=True))
        edge_key = tuple(o(v) for o, v in zip(orders, edge, strict=True))
        return stated_key < edge_key if field_name == "_MIN_KEY" else stated_key > edge_key
    except TypeError:  # a value of another kind than the column's (None in a key): not provably wider
        return False


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _value_stats(facts: FileFacts, meta: DataFileMeta, schema: TableSchema, owner: str, at: str) -> list[Finding]:
    names = list(meta.value_stats_cols) if meta.value_stats_cols is not None else [f.name for f in schema.fields]
    try:
        fields = [schema.field(n) for n in names]
    except KeyError:
        return []  # stats of another schema version: not compared
    columns = [(n, n, f.type) for n, f in zip(names, fields, strict=True)]
    return _stats(facts, meta.value_stats, columns, owner, f"{at}._VALUE_STATS", "MANIFEST_VALUE_STATS")


def _key_stats(facts: FileFacts, meta: DataFileMeta, schema: TableSchema, owner: str, at: str) -> list[Finding]:
    """`_KEY_STATS` over the trimmed primary key (Java filters primary-key files by them)."""
    keys = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    columns = [(k, col, t) for k, (col, t) in zip(keys, facts.keys, strict=True)]
    return _stats(facts, meta.key_stats, columns, owner, f"{at}._KEY_STATS", "MANIFEST_KEY_STATS")


def _stats(facts: FileFacts, stats: Any, columns: list[tuple[str, str, DataType]], owner: str, path: str, code: str):
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
    rows = facts.rows
    for i, (name, column, t) in enumerate(columns):
        if column not in facts.names:
            continue
        nulls = facts.nulls[column]
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
        out += _bounds(facts, name, column, t, lo_s, hi_s, owner, path, code)
    return out


def _bounds(facts, name, column, t, lo_s, hi_s, owner, path, code) -> list[Finding]:
    """Stored min / max against the column's values in Java's order (both must be set for a skip)."""
    both = lo_s is not None and hi_s is not None
    out = []
    for side, stated in (("min", lo_s), ("max", hi_s)):
        if stated is None:
            continue
        if facts.format == "orc" and t.root == "CHAR" and isinstance(stated, str):
            stated = stated.rstrip(" ")  # Java's ORC stats are of the padded values, its reader trims them
        bad = _beyond(facts, column, t, stated, side)
        if bad is None:
            continue
        value, releases, nan_only = bad
        word = "minimum" if side == "min" else "maximum"
        rel = "above" if side == "min" else "below"
        msg = f"{name}: {word} {stated!r} is {rel} the file's {value!r}"
        if facts.format == "orc" and _before_gregorian(t, stated, value):
            msg += (
                " before 1582-10-15, where Java's own ORC reader returns values in the Julian calendar while its "
                "statistics are proleptic Gregorian (Java writes this itself)"
            )
            out.append(_f(code, "warning", owner, f"{path}._{side.upper()}_VALUES", msg))  # what Java writes
            continue
        if not both:
            msg += " (the other bound is null, so Java keeps the file; Java would not have written it)"
            out.append(_f(code, "should", owner, f"{path}._{side.upper()}_VALUES", msg))
            continue
        if column in facts.zone_unknown and _within_a_zone(stated, value):
            msg += (
                f"; the ORC file records no writer zone, and Java reads its TIMESTAMP_LTZ values shifted by the "
                f"offset between the writer's and the reader's zones (up to {ZONE_SPAN_MS // 3_600_000} h): the "
                "kit reads them as in UTC"
            )
            out.append(_f(code, "should", owner, f"{path}._{side.upper()}_VALUES", msg))
            continue
        if nan_only and facts.format == "orc":
            msg += (
                " only in Java's order (NaN greatest, -0.0 < 0.0); filters on NaN or -0.0 would skip matching "
                "rows, but Java's own ORC writer writes such bounds"
            )
            out.append(_f(code, "warning", owner, f"{path}._{side.upper()}_VALUES", msg))  # what Java writes
            continue
        msg += "; filters would skip matching rows" + (" (Java's order: NaN greatest, -0.0 < 0.0)" if nan_only else "")
        finding = _f(code, "must", owner, f"{path}._{side.upper()}_VALUES", msg)
        if releases is not None:
            finding.java_releases = releases
            finding.message += " (by the byte order of those releases)"
        out.append(finding)
    return out


ZONE_SPAN_MS = 18 * 3_600_000  # java.time.ZoneOffset's range: no zone is further from UTC


def _within_a_zone(stated: Any, value: Any) -> bool:
    """Two TIMESTAMP_LTZ values (millis, nanos) no further apart than a zone's offset from UTC."""
    return isinstance(stated, tuple) and isinstance(value, tuple) and abs(stated[0] - value[0]) <= ZONE_SPAN_MS


GREGORIAN_MILLIS = -12219292800000  # 1582-10-15T00:00Z
GREGORIAN_DAYS = -141427


def _before_gregorian(t: DataType, *values: Any) -> bool:
    """A TIMESTAMP / DATE value before the Gregorian cutover (where Java's ORC calendars disagree)."""
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return any(isinstance(v, tuple) and v[0] < GREGORIAN_MILLIS for v in values)
    if t.root == "DATE":
        return any(isinstance(v, int) and v < GREGORIAN_DAYS for v in values)
    return False


def _beyond(facts: FileFacts, column, t, stated, side) -> tuple[Any, tuple[str, ...] | None, bool] | None:
    """A value of the column outside the stated bound, the releases whose order makes it so (None: all), and
    whether it is outside only in Java's float order (NaN, -0.0); None when every value is inside."""
    col = facts.column(column)
    if t.root in ("FLOAT", "DOUBLE"):
        return _float_beyond(t, np.asarray(col, dtype=np.float64), stated, side)
    if column in facts.unordered:
        return None
    actual = _min_max(facts, column, t, col)
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
    if not _comparable(stated, lo):
        return None  # the file's column holds values of another type: DATA_FILE_* type findings say so
    if side == "min" and stated > lo:
        return lo, None, False
    if side == "max" and stated < hi:
        return hi, None, False
    return None


def _comparable(stated: Any, actual: Any) -> bool:
    """Whether a stated bound and a value the file holds are of one kind (a damaged file may hold another
    type than its schema's: a boolean column where the statistics are of strings)."""
    kinds = (bool, int, float, str, bytes, tuple)
    kind = next((k for k in kinds if isinstance(stated, k)), None)
    other = next((k for k in kinds if isinstance(actual, k)), None)
    if kind is bool or other is bool:
        return kind is other
    numbers = (int, float)
    return kind is other or (kind in numbers and other in numbers)


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


def _min_max(facts: FileFacts, name: str, t: DataType, col: pa.ChunkedArray) -> tuple[Any, Any] | None:
    """The column's minimum and maximum as internal values (None when Arrow cannot order it)."""
    try:
        pair = min_max_rows(col)
        if pair is None:
            return None
        small = pa.table({name: pair})
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, UnicodeDecodeError):  # DATA_FILE_BAD_UTF8 reports bad strings
        return None
    try:
        lo, hi = internal_of(DataFile(facts.format, facts.columns, small), name, t)
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except (pa.ArrowException, TypeError, ValueError):
        return None
    if lo is None or hi is None or _nan(lo) or _nan(hi):
        return None
    return lo, hi
