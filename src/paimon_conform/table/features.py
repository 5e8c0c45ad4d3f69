"""Table features of Paimon 1.1-2.0 that change what a valid table looks like.

Each is either followed as Java defines it, or named once per table in a
FEATURE_NOT_CHECKED warning that says what was skipped; a valid table never gets
a must-finding from a feature the kit does not know.

* row tracking (`row-tracking.enabled`, 1.3): append-table data files may carry
  `_ROW_ID` and `_SEQUENCE_NUMBER` after the table columns (SpecialFields);
* data evolution (`data-evolution.enabled`, 1.3): a data file holds the columns its
  manifest entry lists in `_WRITE_COLS`, in that order; files sharing row ids are merged
  (their ranges: validate/row_ids.py);
* `index-file-in-data-file-dir` (1.3, apache/paimon#6132): HASH and DV index files live
  in the bucket directory of their partition and bucket;
* BLOB files (1.4): `.blob` files are checked as layout `blob_file` (validate/blob_files.py);
* global indexes (1.4): bitmap ones in the 1.4 layout checked (validate/global_index.py), others
  recognized. Branches are validated as tables of their own (validate/table.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paimon_conform.core.errors import UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.blob_file.elements import ElementType, element_type
from paimon_conform.table import table_layout as tl
from paimon_conform.table.paths import OutsideRoot, list_names
from paimon_conform.table.schema import TableSchema, data_file_fields

ROW_ID = tl.Field(2147483642, "_ROW_ID", parse_type("BIGINT"), False)  # SpecialFields.ROW_ID, MAX_VALUE - 5
ROW_SEQUENCE = tl.Field(2147483646, "_SEQUENCE_NUMBER", parse_type("BIGINT"), True)
ROW_TRACKING_FIELDS = (ROW_ID, ROW_SEQUENCE)
# Java before 1.3.0 looks for index files under index/ only (IndexFileMeta has no external path there).
PRE_INDEX_IN_DATA_DIR = between(None, "1.2")


@dataclass(frozen=True)
class Features:
    """The 1.1+ features a table schema turns on."""

    row_tracking: bool
    data_evolution: bool

    @classmethod
    def of(cls, schema: TableSchema) -> Features:
        o = schema.options
        return cls(
            row_tracking=tl.bool_option(o.get("row-tracking.enabled", False)),
            data_evolution=tl.bool_option(o.get("data-evolution.enabled", False)),
        )


def expected_columns(schema: TableSchema, write_cols: tuple[str, ...] | None, columns: list[str]) -> list[tl.Field]:
    """The columns a data file written under `schema` may hold, given its entry's `_WRITE_COLS` and its own
    column names (row tracking adds `_ROW_ID`, `_SEQUENCE_NUMBER` only to files that carry them)."""
    features = Features.of(schema)
    base = data_file_fields(schema)
    if features.data_evolution and write_cols is not None and not schema.primary_keys:
        by_name = {f.name: f for f in base} | {f.name: f for f in ROW_TRACKING_FIELDS}
        if all(c in by_name for c in write_cols):
            base = [by_name[c] for c in write_cols]
    if features.row_tracking and not schema.primary_keys:
        tail = list(ROW_TRACKING_FIELDS)
        names = [f.name for f in base]
        if columns == names + [f.name for f in tail] and not any(f.name in names for f in tail):
            base = base + tail
    return base


def not_checked(feature: str, skipped: str, where: str = "") -> Finding:
    """The one warning per table for a feature the kit recognizes but does not check."""
    return Finding("FEATURE_NOT_CHECKED", "warning", "", None, f"{feature}: {skipped}", where)


def index_in_data_dir(schema: TableSchema) -> list[Finding]:
    """Index files in bucket directories: readable by Java 1.3.0 and later only."""
    if not tl.LayoutOptions.of(schema.options).index_in_data_dir:
        return []
    msg = (
        "index-file-in-data-file-dir = true: HASH and deletion-vector index files live in the bucket directories; "
        "Java before 1.3.0 looks for them under index/ and fails (apache/paimon#6132)"
    )
    return [
        Finding(
            "TABLE_INDEX_IN_DATA_DIR",
            "must",
            "options.index-file-in-data-file-dir",
            None,
            msg,
            schema.file,
            java_releases=PRE_INDEX_IN_DATA_DIR,
            otherwise=None,
        )
    ]


# Java before 1.4.0 has no BLOB type: its DataTypeJsonParser refuses the schema (run: 0.9.0-1.3.1 fail reading the
# BLOB tables 1.4.2 and 2.0.0 wrote, "Could not parse type ... Input type string: BLOB")
PRE_BLOB = between(None, "1.3")


def blob_type_unknown(schema: TableSchema) -> list[Finding]:
    """A BLOB column (in any nesting): a must for the releases whose type parser does not know BLOB; a BLOB inside
    an ARRAY or MAP (2.0) also for 1.4, whose `.blob` reader takes top-level BLOB columns only (run: Java 1.4.2
    fails every read of the ARRAY<BLOB> and MAP<INT, BLOB> tables Java 2.0.0 wrote, 'Read type of a blob format
    does not contain any blob field')."""
    out = []
    plain = plain_blob_columns(schema)
    for name in sorted(blob_columns(schema)):
        raw = str(schema.unreadable_types[name])[:80]
        msg = f"column {name} is of type {raw}: Java before 1.4.0 cannot parse the BLOB type and cannot open the table"
        out.append(_unknown_type(name, msg, schema, PRE_BLOB))
        if name not in plain:
            msg = (
                f"column {name} is of type {raw}: Java 1.4 reads BLOB values from .blob files only for top-level BLOB "
                "columns and fails every read of the table ('Read type of a blob format does not contain any blob "
                "field'); nested BLOBs are Java 2.0's"
            )
            out.append(_unknown_type(name, msg, schema, NESTED_BLOB_UNREAD))
    return out


NESTED_BLOB_UNREAD = ("1.4",)


def _unknown_type(name: str, msg: str, schema: TableSchema, releases: tuple[str, ...]) -> Finding:
    return Finding(
        "SCHEMA_TYPE_UNKNOWN_TO_READER",
        "must",
        f"fields.{name}",
        None,
        msg,
        schema.file,
        java_releases=releases,
        otherwise=None,
    )


# data-file formats Java writes that the kit does not read (FileFormatFactory identifiers up to 2.0.0)
UNREAD_FORMATS = ("csv", "json", "text", "lance", "mosaic", "vortex")


def unread_format(relative: str) -> str | None:
    """The format of a data file the kit does not read (by the name's suffixes), else None."""
    suffixes = relative.rsplit("/", 1)[-1].split(".")[1:]
    return next((s for s in suffixes if s in UNREAD_FORMATS), None)


MANAGED_BLOB_KINDS = ("managed_blob", "blob_reference")  # file kinds of managed BLOB storage (2.0)


def is_blob(relative: str) -> bool:
    """A BLOB data file (`data-<uuid>-<n>.blob`, Paimon 1.4): layout `blob_file`, not Parquet or ORC."""
    return relative.endswith(".blob")


_BLOB_NAME = re.compile(r"(^|[<,\s])BLOB\b", re.I)  # BLOB as a type name (BLOB, ARRAY<BLOB>, MAP<INT, BLOB>)
MAX_TYPE_DEPTH = 32
DESCRIPTOR_FIELDS = ("blob-descriptor-field", "blob.stored-descriptor-fields")


def descriptor_columns(schema: TableSchema) -> list[str]:
    """The columns `blob-descriptor-field` (fallback key `blob.stored-descriptor-fields`, 1.4) stores inline as
    serialized BlobDescriptors (CoreOptions.parseCommaSeparatedSet: split on commas, trimmed, blanks dropped)."""
    text = next((schema.options[k] for k in DESCRIPTOR_FIELDS if schema.options.get(k)), None)
    return sorted({n.strip() for n in str(text).split(",") if n.strip()}) if text else []


def _type_texts(raw: Any, depth: int = 0) -> Iterator[str]:
    """The type names in a schema field's type (nested ARRAY / MAP / MULTISET / ROW forms), never its field names."""
    if isinstance(raw, str):
        yield raw
    elif isinstance(raw, dict) and depth < MAX_TYPE_DEPTH:
        for key in ("type", "element", "key", "value"):
            yield from _type_texts(raw.get(key), depth + 1)
        for f in raw.get("fields") or []:
            if isinstance(f, dict):
                yield from _type_texts(f.get("type"), depth + 1)


def blob_columns(schema: TableSchema) -> set[str]:
    """The columns Java writes into `.blob` files: BLOB, and (Paimon 2.0) ARRAY<BLOB> and MAP<K, BLOB>."""
    return {
        name for name, raw in schema.unreadable_types.items() if any(_BLOB_NAME.search(t) for t in _type_texts(raw))
    }


def plain_blob_columns(schema: TableSchema) -> set[str]:
    """The top-level BLOB columns (not ARRAY<BLOB> or MAP<K, BLOB>): their rows read as the data of one value."""
    return {c for c in blob_columns(schema) if (e := blob_element_type(schema, c)) is not None and e.kind == "blob"}


def blob_element_type(schema: TableSchema, column: str) -> ElementType | None:
    """How a BLOB column's `.blob` files frame its rows (BLOB, ARRAY<BLOB>, MAP<K, BLOB>); None for a column that
    is not one Java writes into `.blob` files (BlobType.isBlobFileField)."""
    if column not in blob_columns(schema):
        return None
    try:
        return element_type(schema.unreadable_types[column])
    except UsageError:
        return None


def _names(root: Path, folder: str) -> list[str]:
    """Names in a folder of the table ([] when it is missing or leads outside the root: the walk reports that)."""
    try:
        return list_names(root, folder)
    except OutsideRoot:
        return []


def recognized(root: Path, files: list, schema: TableSchema) -> list[Finding]:
    """One FEATURE_NOT_CHECKED warning per feature of the table the kit recognizes but does not check."""
    out = []
    where = schema.file
    f = Features.of(schema)
    if f.row_tracking:
        out.append(
            not_checked(
                "row tracking (row-tracking.enabled, Paimon 1.3)",
                "the files' row-id ranges are checked; the snapshot's nextRowId is not compared with them (Java "
                "leaves it behind files committed with their row ids already assigned)",
                where,
            )
        )
    managed = [b for b in files if b.kind in MANAGED_BLOB_KINDS]
    if managed:
        out.append(
            not_checked(
                "managed BLOB storage (blob-field in a primary-key table, Paimon 2.0)",
                f"{len(managed)} .managed.blob pack(s) and .blobref sidecar(s) are named and followed by name, not "
                "read: Java 2.0 reads the packs only at the offsets the data files' descriptors give and reads "
                "no .blobref",
                where,
            )
        )
    unread = sorted({u for b in files if (u := unread_format(b.relative))})
    if unread:
        out.append(
            not_checked(
                f"data files of format {', '.join(unread)}",
                "the kit reads Parquet, ORC, Avro, row and blob files; these are named and followed by their "
                "manifest entries, their contents are not read",
                where,
            )
        )
    descriptor_fields = descriptor_columns(schema)
    if descriptor_fields:
        out.append(
            not_checked(
                f"BLOB descriptors stored inline (blob-descriptor-field = {', '.join(descriptor_fields)}, Paimon 1.4)",
                "each value of those data-file columns is decoded as layout blob_descriptor; the blob data it "
                "points to (its URI, offset and length) is not opened",
                where,
            )
        )
    options = tl.LayoutOptions.of(schema.options)
    global_files = [n for n in _names(root, "index") if tl.classify_file_name(n, "index", options) == "global_index"]
    if global_files:
        out.append(
            not_checked(
                f"global indexes ({len(global_files)} index/*-global-index-*.index file(s), Paimon 1.4)",
                "their index-manifest entries are followed; bitmap indexes are checked as layout bitmap_index "
                "(Java 1.4's layout) or bitmap_global_index (2.0's BGIX) and BTree indexes as btree_global_index, "
                "against their entries (row range, _INDEX_META) and against the rows they index where one data "
                "file holds each row's value; the bytes of vector and full-text indexes are not checked",
                where,
            )
        )
    return out


def partition_types(schema: TableSchema) -> list[Finding]:
    """Partition keys of a type Java cannot name a directory for."""
    out = []
    for k in schema.partition_keys:
        t = schema.field(k).type
        if t.is_binary:
            msg = (
                f"partition key {k} is {t}: Java names the directory from byte[].toString(), an identity hash "
                "(k=[B@...), so no reader, Java's own included, finds the files again; partition paths not checked"
            )
            out.append(Finding("TABLE_PARTITION_TYPE", "must", f"partitionKeys.{k}", None, msg, schema.file))
    return out


def dense_stats(entries: list, schemas) -> list[Finding]:
    """Entries whose `_VALUE_STATS_COLS` (1.0.0, metadata.stats-dense-store) is not every column: Java 0.9
    ignores the field and reads `_VALUE_STATS` as one field per table column. One finding per manifest."""
    seen: set[str] = set()
    out = []
    for e in entries:
        cols = e.file.value_stats_cols
        if cols is None or e.manifest in seen:
            continue
        schema = schemas.get(e.file.schema_id)
        if schema is None or list(cols) == [f.name for f in schema.fields]:
            continue
        seen.add(e.manifest)
        msg = (
            f"_VALUE_STATS_COLS lists {len(cols)} of {len(schema.fields)} columns (dense stats, Java 1.0.0): Java "
            "before 1.0.0 ignores it and reads _VALUE_STATS as one field per column, so filtered reads fail or "
            "use another column's statistics"
        )
        out.append(
            Finding(
                "MANIFEST_VALUE_STATS_COLS",
                "must",
                f"entries[{e.index}]._FILE._VALUE_STATS_COLS",
                None,
                msg,
                e.manifest,
                java_releases=between(None, "0.9"),
                otherwise=None,
            )
        )
    return out


# Java before 1.3.0 does not merge a data-evolution table's files by row id: it reads each file as whole rows (run:
# 0.9.0-1.2.0 read 34 rows for the 13 of the tables 1.3.1 and 2.0.0 wrote, the rows of each partial file again
# with its other columns null)
PRE_DATA_EVOLUTION = between(None, "1.2")


def partial_files(entries: list, schemas) -> list[Finding]:
    """Live data files that hold only some columns of their schema (`_WRITE_COLS`, data evolution 1.3): a must for
    the releases that read every file as whole rows. One finding per table, on the first such entry."""
    system = {f.name for f in ROW_TRACKING_FIELDS}
    partial = []
    for e in entries:
        cols = e.file.write_cols
        schema = None if cols is None else schemas.get(e.file.schema_id)
        if schema is not None and {c for c in cols if c not in system} != {f.name for f in schema.fields}:
            partial.append(e)
    if not partial:
        return []
    first = partial[0]
    msg = (
        f"{len(partial)} live data file(s) hold only some columns (_WRITE_COLS, data evolution, Java 1.3.0), e.g. "
        f"{first.file.file_name} with {list(first.file.write_cols)}: Java before 1.3.0 reads every file as whole "
        "rows, so each of their rows is read again with the other columns null"
    )
    return [
        Finding(
            "DATA_FILE_PARTIAL_COLUMNS",
            "must",
            f"entries[{first.index}]._FILE._WRITE_COLS",
            None,
            msg,
            first.manifest,
            java_releases=PRE_DATA_EVOLUTION,
            otherwise=None,
        )
    ]


def dv_level0(entries: list, schema) -> list[Finding]:
    """Rows in level-0 files of a deletion-vector table: batch reads (Java's, the kit's) skip level 0, so they are
    not read until a compaction moves them up. Java's writers compact before they commit unless run write-only
    (a separate compaction job), so this is a warning: one per table, on the first such entry."""
    if not schema.deletion_vectors:
        return []
    level0 = [e for e in entries if e.file.level == 0]
    if not level0:
        return []
    first, rows = level0[0], sum(e.file.row_count for e in level0)
    msg = (
        f"{rows} row(s) in {len(level0)} level-0 file(s) of a deletion-vector table, e.g. {first.file.file_name}: "
        "batch reads skip level 0, so no reader returns them until a compaction moves them up (Java's writers "
        "compact before they commit unless run write-only beside a compaction job)"
    )
    at = f"entries[{first.index}]._FILE._LEVEL"
    return [Finding("TABLE_DV_LEVEL0_ROWS", "warning", at, None, msg, first.manifest)]
