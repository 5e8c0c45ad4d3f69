"""One data file of a write: Java's column order, file name, statistics, file index.

Java's value statistics mode is `truncate(16)`: a string minimum keeps its first 16
characters, a maximum longer than that is cut to 16 with the last one incremented.
Key statistics and the min / max key are exact. Append tables have no key: their key
rows are the empty BinaryRow, as Java writes them.
"""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.hashing import fasthash
from paimon_conform.core.options import parse_memory_size
from paimon_conform.core.types import DataType, java_order
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.binary_row import codec as binary_row
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bitmap_index import entry as bitmap_index
from paimon_conform.layouts.bloom_filter import entry as bloom_filter
from paimon_conform.layouts.bsi import codec as bsi
from paimon_conform.layouts.bsi import entry as bsi_index
from paimon_conform.layouts.file_index import entry as file_index
from paimon_conform.layouts.range_bitmap import codec as range_bitmap
from paimon_conform.layouts.range_bitmap import entry as range_bitmap_index
from paimon_conform.table import table_layout as tl
from paimon_conform.table.paths import contained
from paimon_conform.table.write.plan import RETRACT, NewFile, TaskResult, WritePlan

FORMATS = ("parquet", "orc", "row")
STATS_TRUNCATE = 16
DEFAULT_IN_MANIFEST = 500
PAYLOADS = {  # each takes (type, the column as Arrow, the index's options)
    "bloom-filter": bloom_filter.build_values,
    "bitmap": bitmap_index.build_values,
    "range-bitmap": range_bitmap_index.build_values,
    "bsi": bsi_index.build_values,
}


# ---------------------------------------------------------------- statistics


def internal(column: pa.Array | pa.ChunkedArray, t: DataType) -> list[Any]:
    """Values of an Arrow column in the kit's internal form."""
    if isinstance(column, pa.Array):
        column = pa.chunked_array([column])
    return paimon_columns.internal_values(column, t)


def _truncate(value: Any, is_max: bool) -> Any:
    if not isinstance(value, str) or len(value) <= STATS_TRUNCATE:
        return value
    if not is_max:
        return value[:STATS_TRUNCATE]
    last = ord(value[STATS_TRUNCATE - 1])
    return value[: STATS_TRUNCATE - 1] + chr(last + 1) if last < 0x10FFFF else None


def _row(types: list[DataType], values: list[Any]) -> bytes:
    return binary_row.serialize_for_manifest(binary_row.write(types, values), len(types))


def stats(table: pa.Table, names: list[str], types: list[DataType], truncate: bool) -> dict:
    """SimpleStats of columns: serialized min and max rows, null counts."""
    mins, maxs, nulls = [], [], []
    for name, t in zip(names, types, strict=True):
        col = table.column(name)
        nulls.append(col.null_count)
        if pa.types.is_floating(col.type) and pc.any(pc.is_nan(col)).as_py():
            pair = None  # Java keeps no min / max when NaN is present
        elif t.is_binary:
            pair = None  # Java before 2.0 writes none, and its readers compare bytes signed (2.0: unsigned)
        else:
            pair = paimon_columns.min_max_rows(col)
        if pair is None:
            mins.append(None)
            maxs.append(None)
            continue
        lo, hi = internal(pair, t)
        mins.append(_truncate(lo, False) if truncate else lo)
        maxs.append(_truncate(hi, True) if truncate else hi)
    return {"_MIN_VALUES": _row(types, mins), "_MAX_VALUES": _row(types, maxs), "_NULL_COUNTS": nulls}


def stats_of_columns(types: list[DataType], columns: list[list[Any]]) -> dict:
    """SimpleStats of columns of internal values: exact min / max rows (Java's order) and null counts."""
    mins, maxs, nulls = [], [], []
    for t, col in zip(types, columns, strict=True):
        present = [v for v in col if v is not None]
        key = java_order(t)
        mins.append(min(present, key=key) if present else None)
        maxs.append(max(present, key=key) if present else None)
        nulls.append(len(col) - len(present))
    return {"_MIN_VALUES": _row(types, mins), "_MAX_VALUES": _row(types, maxs), "_NULL_COUNTS": nulls}


# ---------------------------------------------------------------- file index


def index_columns(options: dict[str, str]) -> list[tuple[str, list[tuple[str, dict]]]]:
    """(column, [(index kind, options)]) from `file-index.<kind>.columns`, in option order."""
    out: dict[str, list[tuple[str, dict]]] = {}
    for kind in PAYLOADS:
        for col in (c.strip() for c in options.get(f"file-index.{kind}.columns", "").split(",")):
            if not col:
                continue
            prefix = f"file-index.{kind}.{col}."
            opts = {k[len(prefix) :]: v for k, v in options.items() if k.startswith(prefix)}
            out.setdefault(col, []).append((kind, opts))
    return list(out.items())


TYPE_CHECKS = {  # EncodeError for a column type Java's index of that kind does not take
    "bloom-filter": fasthash.check_bloom_type,
    "bitmap": bitmap.key_kind,
    "range-bitmap": range_bitmap.key_kind,
    "bsi": bsi.check_type,
}


def check_index_types(options: dict[str, str], types: dict[str, DataType]) -> None:
    """UsageError for a file index on a column it does not take (as Java refuses), before any row is written."""
    for name, kinds in index_columns(options):
        if name not in types:
            raise UsageError(f"file-index option names {name!r}, which is not a column")
        for kind, _ in kinds:
            try:
                TYPE_CHECKS[kind](types[name])
            except EncodeError as exc:
                raise UsageError(f"column {name}: {exc}") from None


def build_index(table: pa.Table, plan: WritePlan) -> bytes | None:
    """The file-index container of a data file, or None when the table asks for none."""
    wanted = index_columns(plan.schema.options)
    if not wanted:
        return None
    columns = []
    for name, kinds in wanted:
        t = plan.schema.field(name).type
        column = table.column(name).combine_chunks()  # built from the Arrow column, no value by value
        # Java's defaults where an option is unset (a bloom filter sized for 10^6 items), except the bitmap version:
        # version 1 unless the options ask for 2, since Java before 1.1 cannot read version 2 (1.1's default)
        columns.append((name, [(kind, PAYLOADS[kind](t, column, _index_options(kind, opts))) for kind, opts in kinds]))
    return file_index.write(columns)


def _index_options(kind: str, opts: dict) -> dict:
    return {"version": "1"} | opts if kind == "bitmap" else opts


# ---------------------------------------------------------------- writing


def arrow_type(t: DataType) -> pa.DataType:
    """The Arrow type a Paimon column is read as (timestamps in microseconds; LTZ in UTC)."""
    if t.root in paimon_columns.ARROW_TYPES:
        return paimon_columns.ARROW_TYPES[t.root]
    if t.root == "DECIMAL":
        return pa.decimal128(t.precision, t.scale)
    if t.root == "TIME":
        return pa.time64("us")  # Spark's TIME; Paimon keeps milliseconds of the day
    if t.root == "TIMESTAMP":
        return pa.timestamp("us")
    if t.root == "TIMESTAMP_LTZ":
        return pa.timestamp("us", tz="UTC")
    raise UsageError(f"type {t} has no Arrow type in this kit")


def arrow_schema(plan: WritePlan, table: pa.Table) -> pa.Schema:
    """The data file's Arrow schema in Java's column order (system columns for primary-key tables)."""
    schema = plan.schema
    layout = tl.LayoutOptions.of(schema.options)
    system = tl.spec()["system_fields"]
    out = []
    for f in tl.data_file_fields(schema.fields, schema.primary_keys, schema.partition_keys, layout):
        if f.name == system["sequence_number"]["name"]:
            t = pa.int64()
        elif f.name == system["value_kind"]["name"]:
            t = pa.int8()
        else:
            is_key = f.id >= system["key_field_id_offset"]
            t = table.schema.field(f.name.removeprefix(system["key_prefix"]) if is_key else f.name).type
        out.append(pa.field(f.name, t, nullable=f.nullable))
    return pa.schema(out)


def write_data(path: Path, table: pa.Table, fmt: str) -> None:
    """Write an Arrow table as a Parquet or ORC data file (zstd, as Java's default)."""
    buf = io.BytesIO()
    if fmt == "parquet":
        import pyarrow.parquet as pq

        # Java's encodings (ParquetSchemaConverter): compact DECIMAL as INT32 / INT64, TIMESTAMP(7..9) as INT96
        # (Java before 2.0 cannot read INT64 nanoseconds; pyarrow sets INT96 for every timestamp column or none)
        precise = [f.name for f in table.schema if pa.types.is_timestamp(f.type) and f.type.unit == "ns"]
        for name in precise:
            if pc.any(paimon_columns.negative_off_grid(table.column(name).cast(pa.int64()), 10**6)).as_py():
                raise UsageError(
                    f"column {name}: a TIMESTAMP(7..9) before 1970 with digits below the millisecond cannot be "
                    "written to Parquet as Java 0.9 / 1.0 read it (their INT96 reader throws on it)"
                )
        coarse = [f.name for f in table.schema if pa.types.is_timestamp(f.type) and f.type.unit != "ns"]
        if precise and coarse:
            raise UsageError(
                f"columns {precise} (TIMESTAMP(7..9), INT96 in Java's Parquet) and {coarse} (INT64) cannot share "
                "one Parquet file written by pyarrow; write them to separate tables or use ORC"
            )
        # no row-group statistics for a float column holding NaN: pyarrow would leave NaN out of them and Java's
        # Parquet reader would skip the NaN rows of `= NaN` (DATA_FILE_NAN_STATISTICS)
        with_nan = {
            f.name
            for f in table.schema
            if pa.types.is_floating(f.type) and pc.any(pc.is_nan(table.column(f.name))).as_py()
        }
        stats = [n for n in table.column_names if n not in with_nan] if with_nan else True
        pq.write_table(
            table,
            buf,
            compression="zstd",
            store_decimal_as_integer=True,
            use_deprecated_int96_timestamps=bool(precise),
            write_statistics=stats,
        )
    else:
        from pyarrow import orc

        _orc_writable(table)
        orc.write_table(table, buf, compression="zstd")
    path.write_bytes(buf.getvalue())


def write_row(path: Path, table: pa.Table, plan: WritePlan) -> None:
    """Write an Arrow table as a `.row` data file (layout `row_file`, Paimon 2.0) with the data-file columns'
    Paimon types, `file.block-size` and `file.compression.zstd-level` as Java's RowFormatWriter does."""
    from paimon_conform.layouts.row_file import codec as row_file
    from paimon_conform.layouts.row_file.types import atomic

    schema = plan.schema
    fields = tl.data_file_fields(
        schema.fields, schema.primary_keys, schema.partition_keys, tl.LayoutOptions.of(schema.options)
    )
    types = [atomic(f.type) for f in fields]
    columns = [paimon_columns.internal_values(table.column(f.name), f.type) for f in fields]
    block = schema.options.get("file.block-size")
    data = row_file.encode(
        types,
        [list(r) for r in zip(*columns, strict=True)] if columns else [],
        parse_memory_size(block) if block else row_file.DEFAULT_BLOCK_SIZE,
        int(schema.options.get("file.compression.zstd-level", row_file.DEFAULT_ZSTD_LEVEL)),
    )
    path.write_bytes(data)


def _orc_writable(table: pa.Table) -> None:
    """Refuse what pyarrow's ORC writer stores in a form Java cannot read: a timestamp before 1970 with a
    fraction of a second goes down as truncated seconds and negative nanoseconds, and Java's reader throws
    (Timestamp.fromEpochMillis; shown by conformance/test_orc_timestamps.py)."""
    for f in table.schema:
        if not pa.types.is_timestamp(f.type):
            continue
        units = table.column(f.name).cast(pa.int64())
        per_second = {"s": 1, "ms": 1000, "us": 1_000_000, "ns": 1_000_000_000}[f.type.unit]
        if pc.any(paimon_columns.negative_off_grid(units, per_second)).as_py():
            raise UsageError(
                f"column {f.name}: a timestamp before 1970 with a fraction of a second cannot be written to ORC "
                "as Java reads it (pyarrow's ORC writer stores negative nanoseconds); write Parquet"
            )


def _last_per_key(group: pa.Table, keys: list[str]) -> pa.Table:
    """The last row (highest sequence) of every key of a key-sorted group."""
    n = group.num_rows
    if n < 2 or not keys:
        return group
    change = np.zeros(n - 1, dtype=bool)
    for k in keys:
        col = group.column(k).combine_chunks()
        change |= np.asarray(pc.not_equal(col.slice(1), col.slice(0, n - 1)).to_numpy(zero_copy_only=False))
    last = np.append(change, True)
    return group.filter(pa.array(last)) if not last.all() else group


def place(plan: WritePlan, part_values: tuple, bucket: int, name_id: str) -> tuple[str, str]:
    """(folder under the root, file name) of a new data file, as Java names them."""
    schema = plan.schema
    layout = tl.LayoutOptions.of(schema.options)
    ptypes = [(k, schema.field(k).type) for k in schema.partition_keys]
    folder = tl.partition_path(ptypes, list(part_values), layout) + tl.bucket_dir(bucket)
    if layout.path_directory:
        folder = f"{layout.path_directory.strip('/')}/{folder}"
    fmt = schema.options.get("file.format", "parquet").lower()
    return folder, f"{layout.data_prefix}{name_id}.{fmt}"


def write_group(
    plan: WritePlan,
    group: pa.Table,
    trimmed: list[str],
    part_values: tuple,
    partition: bytes,
    bucket: int,
    name_id: str,
    result: TaskResult,
    drop_retractions: bool,
) -> None:
    """Write one partition-and-bucket group as a data file (+ index) and record it.

    `group` holds the table's columns, `__seq` and `__kind`, sorted by key and sequence. A task's level-0
    file keeps its retractions (-U / -D rows), as Java's do; a deletion-vector compaction's output
    (`drop_retractions`) leaves them out, their keys being marked in deletion vectors instead.
    """
    schema = plan.schema
    pk = bool(schema.primary_keys)
    if pk:
        group = _last_per_key(group, trimmed)
        retract = np.isin(np.asarray(group.column("__kind").to_numpy()), RETRACT)
        if drop_retractions and retract.any():
            group = group.filter(pa.array(~retract))
            if group.num_rows == 0:
                return
    folder, name = place(plan, part_values, bucket, name_id)
    root = Path(plan.root)
    contained(root, folder).mkdir(parents=True, exist_ok=True)  # never a directory a symlink puts outside
    names = [f.name for f in schema.fields]
    if pk:
        cols = [group.column(k) for k in trimmed] + [group.column("__seq"), group.column("__kind")]
        cols += [group.column(c) for c in names]
        file_table = pa.Table.from_arrays(cols, schema=arrow_schema(plan, group))
    else:
        file_table = group.select(names).cast(arrow_schema(plan, group))
    target = contained(root, f"{folder}/{name}")
    fmt = schema.options.get("file.format", "parquet").lower()
    if fmt == "row":
        write_row(target, file_table, plan)
    else:
        write_data(target, file_table, fmt)
    result.files.append(describe(plan, group, trimmed, part_values, partition, bucket, folder, name))


def describe(
    plan: WritePlan,
    group: pa.Table,
    trimmed: list[str],
    part_values: tuple,
    partition: bytes,
    bucket: int,
    folder: str,
    name: str,
) -> NewFile:
    """The manifest record of a written data file whose rows are `group` (file index written beside it
    or embedded), as a NewFile for the commit."""
    schema = plan.schema
    root = Path(plan.root)
    names = [f.name for f in schema.fields]
    index = build_index(group, plan)
    threshold = parse_memory_size(schema.options.get("file-index.in-manifest-threshold", f"{DEFAULT_IN_MANIFEST} b"))
    embedded, index_file = None, None
    if index is not None and len(index) > threshold:
        index_file = f"{name}.index"
        contained(root, f"{folder}/{index_file}").write_bytes(index)
    elif index is not None:
        embedded = index
    key_types = [schema.field(k).type for k in trimmed]
    if schema.primary_keys:
        last = group.num_rows - 1
        lo = [internal(group.column(k).slice(0, 1), t)[0] for k, t in zip(trimmed, key_types, strict=True)]
        hi = [internal(group.column(k).slice(last, 1), t)[0] for k, t in zip(trimmed, key_types, strict=True)]
        min_key, max_key = _row(key_types, lo), _row(key_types, hi)
        key_stats = stats(group, trimmed, key_types, truncate=False)
        deletes = int(np.isin(np.asarray(group.column("__kind").to_numpy()), RETRACT).sum())
    else:
        min_key = max_key = _row([], [])
        key_stats = {"_MIN_VALUES": min_key, "_MAX_VALUES": min_key, "_NULL_COUNTS": []}
        deletes = 0
    seqs = pc.min_max(group.column("__seq"))
    record = {
        "_FILE_NAME": name,
        "_FILE_SIZE": (root / folder / name).stat().st_size,
        "_ROW_COUNT": group.num_rows,
        "_MIN_KEY": min_key,
        "_MAX_KEY": max_key,
        "_KEY_STATS": key_stats,
        "_VALUE_STATS": stats(group, names, [f.type for f in schema.fields], truncate=True),
        "_MIN_SEQUENCE_NUMBER": seqs["min"].as_py(),
        "_MAX_SEQUENCE_NUMBER": seqs["max"].as_py(),
        "_SCHEMA_ID": schema.id,
        "_LEVEL": 0,
        "_EXTRA_FILES": [index_file] if index_file else [],
        "_CREATION_TIME": datetime.fromtimestamp(time.time(), UTC),
        "_DELETE_ROW_COUNT": deletes,
        "_EMBEDDED_FILE_INDEX": embedded,
        "_FILE_SOURCE": 0,
        "_VALUE_STATS_COLS": None,
    }
    return NewFile(partition, part_values, bucket, f"{folder}/{name}", record, index_file)
