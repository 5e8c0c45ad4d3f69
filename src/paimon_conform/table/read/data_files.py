"""Read one data file (Parquet, ORC or Avro) as Java's readers see it: its declared columns and their
storage families, its rows, the internal values of a column, the key columns and the bucket hash input;
and the columns of a file a scan or a compaction reads, with the rows its deletion vector keeps."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core import budget
from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType
from paimon_conform.formats import file_format
from paimon_conform.formats.avro import rows as avro_rows
from paimon_conform.formats.exact_ns import is_exact_ns
from paimon_conform.formats.paimon_columns import (
    internal_values,
    paimon_type,
    read_parquet,
)
from paimon_conform.table import table_layout as tl
from paimon_conform.table.paths import contained
from paimon_conform.table.schema import Schemas, TableSchema

_T = TypeVar("_T")

# Storage families: a data file column matches the schema type when both fall in one family.
FAMILY = {
    "BOOLEAN": "bool",
    "TINYINT": "int8",
    "SMALLINT": "int16",
    "INT": "int32",
    "BIGINT": "int64",
    "FLOAT": "float32",
    "DOUBLE": "float64",
    "CHAR": "string",
    "VARCHAR": "string",
    "BINARY": "binary",
    "VARBINARY": "binary",
    "DATE": "date",
    "TIME": "time",
    "TIMESTAMP": "timestamp",
    "TIMESTAMP_LTZ": "timestamp",
    "DECIMAL": "decimal",
}


@dataclass
class Column:
    """A column as the data file declares it."""

    name: str
    family: str | None
    field_id: int | None
    physical: str | None = None  # Parquet: the physical type (INT32, INT64, INT96, FIXED_LEN_BYTE_ARRAY, ...)
    unit: str | None = None  # Parquet INT64 timestamps: the logical unit (milliseconds, microseconds, nanoseconds)


@dataclass
class DataFile:
    """A data file's declared columns and its rows as Arrow."""

    format: str
    columns: list[Column]
    table: pa.Table
    parquet_metadata: Any = None  # Parquet: the footer (pyarrow FileMetaData) read with the rows
    start: int = 0  # a window of a larger file (read_windows): the number of its first row in the file
    file_rows: int | None = None  # a window: the rows of the whole file

    @property
    def total_rows(self) -> int:
        """Rows of the whole file (of this table when it is the whole file)."""
        return self.table.num_rows if self.file_rows is None else self.file_rows

    def header(self) -> DataFile:
        """The same file without its rows (what stays known of a window once the next is read)."""
        empty = pa.Table.from_batches([], schema=self.table.schema)  # Schema.empty_table() imports pandas
        return DataFile(self.format, self.columns, empty, self.parquet_metadata)


class WindowCheck(Protocol):
    """A check fed one data file window by window (read_windows: whole row groups, stripes or Avro blocks), so
    that no file is held whole; it is asked for its findings when the file ends (each check's `findings` takes
    what that check is judged against)."""

    def add(self, df: DataFile) -> None:
        """Take the next window's rows."""


def live_file(root: Path, relative: str) -> Path:
    """The path of a live data (or .blob) file the manifests name; UsageError when it is missing."""
    path = contained(root, relative)
    if not path.is_file():
        raise UsageError(f"{root}: {relative}, a live data file, is missing; not read")
    return path


def written_schema(root: Path, schema: TableSchema, schemas: Schemas, relative: str, schema_id: int | None):
    """The schema a data file was written with (the table's when it names none); UsageError when it names a
    schema without a schema file."""
    written = schema if schema_id is None else schemas.get(schema_id)
    if written is None:
        raise UsageError(f"{root}: {relative} names schema {schema_id}, which has no schema file; not read")
    return written


def arrow_family(t: pa.DataType) -> str | None:
    """The storage family of an Arrow column type (None when the kit has no mapping)."""
    pt = paimon_type(t)
    return None if pt is None else FAMILY.get(pt.root)


def _parquet(path: Path) -> DataFile:
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    table = read_parquet(path)  # one file: no hive-partition discovery from a dt=... parent; exact INT96
    return DataFile("parquet", _parquet_columns(pf, table), table, pf.metadata)


def _parquet_columns(pf: Any, table: pa.Table) -> list[Column]:
    """The columns a Parquet file declares: family, field id, physical type and timestamp unit."""
    leaves = {}
    for i in range(len(pf.schema)):
        leaf = pf.schema.column(i)
        if "." not in leaf.path:  # top-level primitive columns
            unit = getattr(leaf.logical_type, "to_json", lambda: "")()
            leaves[leaf.path] = (leaf.physical_type, _unit(unit))
    cols = []
    for f in table.schema:
        fid = (f.metadata or {}).get(b"PARQUET:field_id")
        physical, unit = leaves.get(f.name, (None, None))
        family = "timestamp" if physical == "INT96" else arrow_family(f.type)  # exact INT96: a decimal column
        cols.append(Column(f.name, family, int(fid) if fid is not None else None, physical, unit))
    return cols


def _unit(logical_json: str) -> str | None:
    """The timeUnit of a Parquet Timestamp logical type (from its JSON form), else None."""
    for unit in ("milliseconds", "microseconds", "nanoseconds"):
        if f'"timeUnit": "{unit}"' in logical_json or f'"timeUnit":"{unit}"' in logical_json:
            return unit
    return None


def _orc(path: Path) -> DataFile:
    from paimon_conform.formats.orc.worker import read_orc

    return _orc_file(read_orc(path))


def _orc_file(table: pa.Table, start: int = 0, file_rows: int | None = None) -> DataFile:
    """An ORC file's (or window's) rows with the columns they declare."""
    cols = [Column(f.name, "timestamp" if is_exact_ns(f) else arrow_family(f.type), None) for f in table.schema]
    return DataFile("orc", cols, table, None, start, file_rows)


def _avro(path: Path) -> DataFile:
    (whole,) = avro_rows.read(path)
    return _avro_file(whole)


def _avro_file(w: avro_rows.Window) -> DataFile:
    """An Avro file's (or window's) rows with the columns its writer schema declares."""
    return DataFile("avro", [Column(n, fam, None) for n, fam in w.fields], w.table, None, w.start, w.file_rows)


def read_data_file(path: Path) -> DataFile:
    """Columns and rows of a Parquet, ORC or Avro data file (chosen by magic bytes)."""
    df = _guarded(_read_known, path)
    if df is None:
        raise UsageError("not a Parquet, ORC or Avro file")
    return df


def _read_known(path: Path) -> DataFile | None:
    read = {"parquet": _parquet, "orc": _orc, "avro": _avro}.get(file_format(path))
    return None if read is None else read(path)


def _guarded(read: Callable[..., _T], *args: object) -> _T:
    """`read(*args)` with a damaged file's many exception kinds turned into UsageError."""
    try:
        return read(*args)
    except (budget.BudgetExceeded, MemoryError):  # the kit cannot read it within the budget: not a finding
        raise
    except Exception as exc:  # noqa: BLE001 - pyarrow and fastavro raise many kinds on a damaged file
        raise UsageError(f"cannot read the data file: {exc.__class__.__name__}: {exc}") from None


WINDOW_SHARE = 16  # a window of rows takes at most this share of the memory budget, in uncompressed bytes


def read_windows(path: Path) -> Iterator[DataFile]:
    """The data file as consecutive windows of whole Parquet row groups or ORC stripes, each at most
    1/WINDOW_SHARE of the memory budget in uncompressed bytes (ORC's estimated: orc.tail.stripe_estimates;
    a larger row group or stripe is a window of its own), so the memory of a check follows the largest row
    group or stripe, not the file; an Avro file as windows of whole blocks, their decoded records each passing
    that share (avro_rows.read); a Parquet or ORC file within one window whole (read_data_file). A window's
    `start` numbers its first row in the file."""
    window_bytes = budget.current().max_memory // WINDOW_SHARE
    fmt = _guarded(file_format, path)
    windows = None
    if fmt == "parquet":
        windows = _guarded(_parquet_window_reads, path, window_bytes)
    elif fmt == "orc":
        windows = _orc_window_reads(path, window_bytes)
    elif fmt == "avro":
        windows = (_avro_file(w) for w in avro_rows.read(path, window_bytes))
    if windows is None:
        yield read_data_file(path)
        return
    while (df := _guarded(next, windows, None)) is not None:  # each read guarded as read_data_file's
        yield df


def _grouped(sizes: list[int], window_bytes: int) -> list[list[int]] | None:
    """Consecutive parts (row groups, stripes) of the given sizes grouped into windows of at most
    `window_bytes` (a larger part alone); None when they fit one window."""
    windows: list[list[int]] = []
    size = 0
    for i, n in enumerate(sizes):
        n = max(n, 0)
        if not windows or size + n > window_bytes:
            windows.append([])
            size = 0
        windows[-1].append(i)
        size += n
    return windows if len(windows) > 1 else None


def _parquet_window_reads(path: Path, window_bytes: int) -> Iterator[DataFile] | None:
    """The windows of a Parquet file, each read when the caller asks for it; None when it fits one window."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    meta = pf.metadata
    windows = _grouped([meta.row_group(g).total_byte_size for g in range(meta.num_row_groups)], window_bytes)
    return None if windows is None else _parquet_reads(path, pf, windows)


def _parquet_reads(path: Path, pf: Any, windows: list[list[int]]) -> Iterator[DataFile]:
    start = 0
    for groups in windows:
        table = read_parquet(path, row_groups=groups, exact=True)
        df = DataFile("parquet", _parquet_columns(pf, table), table, pf.metadata, start, pf.metadata.num_rows)
        start += table.num_rows
        del table
        yield df
        del df  # (the next window is read without this one's rows held here)


def _orc_window_reads(path: Path, window_bytes: int) -> Iterator[DataFile] | None:
    """The windows of an ORC file (consecutive stripes), each read by the ORC worker when the caller asks
    for it, planned from the file's tail; None when it fits one window or its tail cannot be decoded (the
    whole-file read then says why)."""
    from paimon_conform.formats.orc.errors import OrcError
    from paimon_conform.formats.orc.tail import stripe_estimates

    try:
        stripes = stripe_estimates(path)
    except (OSError, OrcError):
        return None
    windows = _grouped([size for _, size in stripes], window_bytes)
    return None if windows is None else _orc_reads(path, windows, sum(rows for rows, _ in stripes))


def _orc_reads(path: Path, windows: list[list[int]], file_rows: int) -> Iterator[DataFile]:
    from paimon_conform.formats.orc.worker import read_orc

    start = 0
    for stripes in windows:
        df = _orc_file(read_orc(path, range(stripes[0], stripes[-1] + 1)), start, file_rows)
        start += df.table.num_rows
        yield df
        del df


def count_in(col: pa.ChunkedArray, values: list[int]) -> tuple[int, int]:
    """(rows whose value is in `values`, first row that is not, or -1): pyarrow compute, no pandas import."""

    inside = pc.fill_null(pc.is_in(col, value_set=pa.array(values, col.type)), False)
    hits = pc.sum(inside).as_py() or 0
    first_out = pc.index(inside, False).as_py() if hits < len(col) else -1
    return hits, first_out


def internal_of(df: DataFile, name: str, t: DataType) -> list[Any]:
    """Column `name` of a read data file as Paimon's internal values of type `t` (what the validate side
    compares with indexes, statistics and buckets)."""
    col = df.table.column(name)
    if df.format == "avro" and t.root == "DECIMAL":
        with localcontext(Context(prec=100)):  # the default 28 digits would round DECIMAL(38, s)
            return [
                None if v is None else (int(Decimal(v).scaleb(t.scale)), t.precision, t.scale) for v in col.to_pylist()
            ]
    if df.format == "avro" and t.root in ("FLOAT",):
        return [None if v is None else float(np.float32(v)) for v in col.to_pylist()]
    return internal_values(col, t)


def key_columns(df: DataFile, schema: TableSchema) -> list[tuple[str, DataType]]:
    """The columns holding the trimmed primary key (`_KEY_<k>`, or `<k>` in thin-mode files), with types."""
    prefix = tl.spec()["system_fields"]["key_prefix"]
    keys = tl.trimmed_primary_keys(schema.primary_keys, schema.partition_keys)
    return [(prefix + k if prefix + k in df.table.column_names else k, schema.field(k).type) for k in keys]


def whole_key(keys: list[tuple[str, DataType]], names: list[str]) -> bool:
    """The file holds every key column (key_columns), each of a type the kit reads."""
    return bool(keys) and all(n in names and t.root != "UNSUPPORTED" for n, t in keys)


def hash_input(df: DataFile, name: str, t: DataType) -> Any:
    """A column as bucketing.hash_columns takes it (Avro rows are converted to internal values first)."""
    return df.table.column(name) if df.format != "avro" else internal_of(df, name, t)


def read_columns(path: Path, columns: list[str]) -> pa.Table:
    """Some columns of a data file: Parquet read column by column, ORC and Avro through the validator's
    reader (ORC in its worker process). UsageError when the file is damaged or lacks a column."""
    table = None
    if file_format(path) == "parquet":
        import pyarrow.parquet as pq

        try:
            pf = pq.ParquetFile(path)
            if set(columns) <= set(pf.schema_arrow.names):
                table = read_parquet(path, columns)
        except (budget.BudgetExceeded, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - pyarrow raises many kinds on a damaged file
            raise UsageError(f"{path}: cannot read the data file: {exc.__class__.__name__}: {exc}") from None
    if table is None:
        table = read_data_file(path).table
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise UsageError(f"{path}: the data file has no column {missing[0]!r}; not read")
    return table.select(columns)


def kept(num_rows: int, deleted: np.ndarray | None) -> np.ndarray:
    """Which rows of a file its deletion vector leaves (positions past the end are ignored)."""
    keep = np.ones(num_rows, dtype=bool)
    if deleted is not None and len(deleted):
        keep[deleted[deleted < num_rows]] = False
    return keep
