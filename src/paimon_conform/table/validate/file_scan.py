"""The checks of one data or changelog file over its windows (read_data_files.read_windows: whole row groups
at a time, so memory follows the largest row group, not the file): each check gathers what it needs window by
window and judges at the end, with the findings it would give over the file read whole."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from paimon_conform.core.budget import BudgetExceeded
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.findings import Finding, unreadable
from paimon_conform.core.java_releases import between
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.table import features
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import LiveFile
from paimon_conform.table.paths import contained, inside, plain_name
from paimon_conform.table.read import data_files
from paimon_conform.table.read.data_files import DataFile, WindowCheck
from paimon_conform.table.read.index_files import MAX_INDEX_BYTES, IndexState
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.validate import data_file_checks
from paimon_conform.table.validate.blob_files import InlineDescriptors
from paimon_conform.table.validate.directories import BucketFile
from paimon_conform.table.validate.file_meta import FileFacts, check_file_meta
from paimon_conform.table.validate.index_files import KeyHashes, check_vector

if TYPE_CHECKING:  # types only: the table check imports this module
    from paimon_conform.layouts.file_index.entry import AgainstData
    from paimon_conform.table.validate.table import TableStats

# Java reads thin-mode files from 1.0.0 on, with or without the option (apache/paimon#4651, FormatReaderMapping
# maps every _KEY_ column to its value column); 0.9 (and 1.0-SNAPSHOT builds before #4651) read _KEY_ columns.
PRE_THIN_MODE = between(None, "0.9")


class LayoutChecks(WindowCheck):
    """The layout checks of one data or changelog file: columns (from its first window), then over every window
    value kinds, inline blob descriptors, NaN statistics, INT96 before 1970, partition values and buckets."""

    def __init__(self, first: DataFile, ref: BucketFile, schema: TableSchema, write_cols: tuple[str, ...] | None):
        self.first, self.ref, self.schema = first, ref, schema
        self.partition_keys = frozenset(schema.partition_keys)
        self.found, thin = self._columns(write_cols)
        self.rows_ok = not any(f.code == "DATA_FILE_COLUMNS" for f in self.found) or thin is not None
        if thin is not None:
            self.found = thin  # the rows can still be checked: the key is in the value columns
        self.kinds = data_file_checks.ValueKinds()
        self.descriptors = InlineDescriptors(schema, ref.relative)
        self.nan: dict[str, None] = {}
        self.int96: set[str] = set()
        self.partition: dict[str, str] = {}
        self.buckets = data_file_checks.Buckets(ref, schema, ref.relative, first.table.column_names)
        self.bucket_seconds = 0.0

    def _columns(self, write_cols: tuple[str, ...] | None) -> tuple[list[Finding], list[Finding] | None]:
        """The column findings, and those of an undeclared thin-mode file (None when it is not one)."""
        df, schema, file = self.first, self.schema, self.ref.relative
        expected = features.expected_columns(schema, write_cols, [c.name for c in df.columns])
        found = data_file_checks.check_columns(df, expected, file, self.partition_keys)
        if any(f.code == "DATA_FILE_COLUMNS" for f in found):
            return found, _undeclared_thin_mode(df, schema, file)
        elif schema.primary_keys and tl.LayoutOptions.of(schema.options).thin_mode and _is_thin(df, schema):
            msg = (
                "a thin-mode file (no _KEY_ columns, data-file.thin-mode = true): Java before 1.0.0 does not know "
                "thin mode, reads _KEY_ columns and fails ('Required column is missing in data file')"
            )
            found.append(
                Finding(
                    "DATA_FILE_THIN_MODE",
                    "must",
                    "columns",
                    None,
                    msg,
                    file,
                    java_releases=PRE_THIN_MODE,
                    otherwise=None,
                )
            )
        return found, None

    def add(self, df: DataFile) -> None:
        if not self.rows_ok:
            return
        self.kinds.add(df)
        self.descriptors.add(df)
        self.nan.update(dict.fromkeys(data_file_checks.nan_columns(df, self.partition_keys)))
        self.int96 |= data_file_checks.int96_before_1970(df, self.partition_keys)
        for key, value in data_file_checks.partition_misses(df, self.ref, self.schema).items():
            self.partition.setdefault(key, value)
        t1 = time.perf_counter()
        self.buckets.add(df)
        self.bucket_seconds += time.perf_counter() - t1

    def findings(self, stats: TableStats) -> list[Finding]:
        if not self.rows_ok:
            return self.found
        df, file = self.first, self.ref.relative
        found = self.found + self.kinds.findings(file) + self.descriptors.findings()
        order = [c.name for c in df.columns]
        found += data_file_checks.check_parquet_nan_statistics(df, file, sorted(self.nan, key=order.index))
        found += data_file_checks.check_int96_before_1970(df, file, self.int96)
        found += data_file_checks.check_partition(self.ref, self.schema, file, self.partition)
        bucket_findings, rows = self.buckets.findings()
        stats.seconds["bucket"] += self.bucket_seconds
        stats.bucket_rows += rows
        return found + bucket_findings


def _thin_fields(schema: TableSchema) -> list[tl.Field]:
    return tl.data_file_fields(
        schema.fields,
        schema.primary_keys,
        schema.partition_keys,
        tl.LayoutOptions.of(schema.options | {"data-file.thin-mode": "true"}),
    )


def _is_thin(df: DataFile, schema: TableSchema) -> bool:
    return [c.name for c in df.columns] == [f.name for f in _thin_fields(schema)]


def _undeclared_thin_mode(df: DataFile, schema: TableSchema, file: str) -> list[Finding] | None:
    """Findings for a primary-key file in thin-mode layout in a table that does not declare it; else None."""
    if not schema.primary_keys or tl.LayoutOptions.of(schema.options).thin_mode or not _is_thin(df, schema):
        return None
    msg = (
        "the thin-mode layout (no _KEY_ columns) in a table without data-file.thin-mode = true; Java before "
        "1.0.0 reads _KEY_ columns there and fails ('Required column is missing in data file'); Java 1.0.0 and "
        "later read it (apache/paimon#4651) but write this layout only when the option is set"
    )
    return [
        Finding("DATA_FILE_COLUMNS", "must", "columns", None, msg, file, java_releases=PRE_THIN_MODE),
        *data_file_checks.check_columns(df, _thin_fields(schema), file),
    ]


class IndexCheck(WindowCheck):
    """One file-index container (a separate .index file or embedded bytes) against its data file's windows."""

    def __init__(self, data: bytes, df_path: Path, schema: TableSchema, owner: str) -> None:
        from paimon_conform.layouts.file_index import entry as file_index

        self.owner = owner
        self.against: AgainstData | None = None
        types = {f.name: f.type for f in schema.fields if f.type.root != "UNSUPPORTED"}
        try:
            self.found = file_index.validate(data, types)
        except BudgetExceeded:
            raise  # the kit cannot check it within the budget: the table is unusable, not the file at fault
        except PaimonConformError as exc:  # e.g. a payload of an index kind the column's type cannot have
            self.found = [Finding("FILE_INDEX_UNREADABLE", "must", "", None, str(exc))]
        if not unreadable(self.found) and df_path.suffix in (".parquet", ".orc", ".avro"):
            self._guard(lambda: setattr(self, "against", file_index.AgainstData(data, str(df_path), types)))

    def _guard(self, step: Callable[[], object]) -> None:
        try:
            step()
        except BudgetExceeded:
            raise
        except PaimonConformError as exc:
            self.found.append(Finding("FILE_INDEX_UNREADABLE", "must", "", None, str(exc)))
            self.against = None

    def add(self, df: DataFile) -> None:
        if self.against is not None:
            self._guard(lambda: self.against.add(df.table, df.start, df.total_rows))

    def findings(self) -> list[Finding]:
        if self.against is not None:
            self._guard(lambda: self.found.extend(self.against.findings()))
        for f in self.found:
            f.file = f.file or self.owner
        return self.found


def zone_unknown_columns(path: Path, facts: FileFacts) -> set[str]:
    """The TIMESTAMP_LTZ columns of an ORC file none of whose stripes records a writer zone: Java Paimon stores
    such a value as the writer zone's wall clock and its reader adds the reader JVM's offset back, so what Java
    reads from it depends on a zone the file does not name (ORC Java records one only beside a plain timestamp
    column; run: test_timestamp_zones_java)."""
    from paimon_conform.formats.orc.errors import OrcError
    from paimon_conform.formats.orc.timestamps import writer_zones

    ltz = {n for n, t in facts.types.items() if t.root == "TIMESTAMP_LTZ"}
    if not ltz:
        return set()
    try:
        zones = writer_zones(path)
    except (OrcError, OSError):
        return set()  # the file's own checks report it
    return ltz if zones and not any(zones) else set()


Slot = Finding | tuple[IndexCheck, str]  # a finding known before any row is read, or a check and its path prefix


def index_checks(root: Path, live: LiveFile, schema: TableSchema) -> list[Slot]:
    """The data file's file indexes, separate `.index` extra files and embedded bytes, in that order."""
    meta = live.entry.file
    out: list[Slot] = []
    folder = live.relative.rsplit("/", 1)[0]
    data_path = contained(root, live.relative)  # read already: inside the root
    for extra in meta.extra_files:
        path = inside(root, f"{folder}/{extra}") if plain_name(extra) else None  # else reported by the chain
        if not extra.endswith(".index") or path is None or not path.is_file():  # a missing one: DATA_FILE_MISSING
            continue
        if path.stat().st_size > MAX_INDEX_BYTES:
            msg = f"larger than {MAX_INDEX_BYTES} bytes; not read"
            out.append(Finding("FILE_INDEX_UNREADABLE", "must", "", None, msg, f"{folder}/{extra}"))
            continue
        out.append((IndexCheck(path.read_bytes(), data_path, schema, f"{folder}/{extra}"), ""))
    if meta.embedded_index is not None:
        prefix = f"entries[{live.entry.index}]._FILE._EMBEDDED_FILE_INDEX."
        out.append((IndexCheck(meta.embedded_index, data_path, schema, live.entry.manifest), prefix))
    return out


class EntryChecks(WindowCheck):
    """A live data file against its manifest entry, deletion vector, file indexes and (dynamic buckets) the
    HASH index, over its windows."""

    def __init__(self, first: DataFile, live: LiveFile, schema: TableSchema, root: Path, hashes: bool) -> None:
        self.live, self.schema, self.root = live, schema, root
        self.facts = FileFacts(first, schema)
        if first.format == "orc":
            self.facts.zone_unknown = zone_unknown_columns(contained(root, live.relative), self.facts)
        self.indexes = index_checks(root, live, schema)
        keys = data_files.key_columns(first, schema) if hashes else []
        self.key_cols = keys if data_files.whole_key(keys, first.table.column_names) else []
        self.hashes: list[np.ndarray] = []

    def add(self, df: DataFile) -> None:
        self.facts.add(df)
        for slot in self.indexes:
            if not isinstance(slot, Finding):
                slot[0].add(df)
        if self.key_cols:
            cols = self.key_cols
            types = [t for _, t in cols]
            self.hashes.append(bucketing.hash_columns(types, [data_files.hash_input(df, n, t) for n, t in cols]))

    def findings(self, state: IndexState, seen: KeyHashes, relative: str) -> list[Finding]:
        found = check_file_meta(self.facts, self.live, self.schema, self.root)
        e = self.live.entry
        found += check_vector(state, e.partition, e.bucket, e.file.file_name, self.facts.rows)
        for slot in self.indexes:
            if isinstance(slot, Finding):
                found.append(slot)
                continue
            check, prefix = slot
            for f in check.findings():
                if prefix:
                    f.path = f"{prefix}{f.path}".rstrip(".")
                found.append(f)
        if self.key_cols:
            seen.add(e.partition, e.bucket, np.concatenate(self.hashes), relative)
        return found
