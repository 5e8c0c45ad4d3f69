"""The values a global index records against the rows of the data files it was built from.

A global-index file (`_GLOBAL_INDEX`: a column's field id and a row-id range) maps each relative row to the
column's value there; Java's filtered scans with `global-index.enabled` select rows by it. The kit decodes
each live bitmap (1.4 payload, 2.0 BGIX) or BTree index to a row -> key map and compares it with the column
read from the live data files covering the range, in every partition (row ids are table-wide, and Java filters
any file whose ids fall in an index's range by it). Rows written again by data evolution (several files
holding the column over one row-id range) are read as Java's DataEvolutionSplitRead merges them: the
field from the file with the largest max sequence number. Rows a deletion vector deletes are not compared
(Java's read drops them whatever the index says). Two such files with the same max sequence number and
ranges that overlap only in part are not compared; a FEATURE_NOT_CHECKED warning says so once per table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise
from pathlib import Path
from typing import Any

from paimon_conform.core import budget
from paimon_conform.core.errors import LayoutError, PaimonConformError, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType
from paimon_conform.layouts import global_index_query
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.sorted_index import key_bytes
from paimon_conform.table import features
from paimon_conform.table.chain import LiveFile
from paimon_conform.table.metadata import IndexManifestEntry
from paimon_conform.table.paths import OutsideRoot, contained
from paimon_conform.table.read import data_files
from paimon_conform.table.read.index_files import IndexState
from paimon_conform.table.schema import Schemas
from paimon_conform.table.validate import global_index

NULL = object()  # a NULL row in a decoded index
ABSENT = object()  # a row the index does not record
ROW_BYTES = 64  # one row of a decoded index or column
MAX_SHOWN = 3


def _decode(data: bytes, e: IndexManifestEntry, t: DataType) -> tuple[dict[int, Any], Callable[[Any], Any]] | None:
    """The relative row -> key map of a global-index file, and the key of a column value; None when the file
    is of another type or does not decode (its own findings say why)."""
    try:
        kind = None  # the sorted-key layouts: a BTree file, or a bitmap index in 2.0's BGIX layout
        if e.index_type == global_index.BTREE_TYPE:
            kind = "btree-global-index"
        elif e.index_type == global_index.BITMAP_TYPE and global_index.is_bgix(data):
            kind = "bitmap-global-index"
        if kind is not None:
            keys, key_rows, nulls = global_index_query.key_rows(kind, data)
            pairs: Iterable = zip(keys, key_rows, strict=True)
            keyer: Callable[[Any], Any] = lambda v: key_bytes(t, v)  # noqa: E731
        elif e.index_type == global_index.BITMAP_TYPE:
            payload = bitmap.read(data, t)
            pairs, nulls = payload.rows.items(), payload.nulls
            keyer = lambda v: bitmap.map_key(t, v)  # noqa: E731
        else:
            return None
    except (LayoutError, ValueError):
        return None
    out: dict[int, Any] = {}
    for key, rows in pairs:
        for r in rows:
            out[int(r)] = key
    for r in nulls:
        out[int(r)] = NULL
    return out, keyer


def _holds(lf: LiveFile, field_id: int, schemas: Schemas) -> str | None:
    """The name under which a live data file holds the column of `field_id` (None when it does not)."""
    schema = schemas.get(lf.entry.file.schema_id)
    if schema is None or features.is_blob(lf.relative or ""):
        return None
    name = next((f.name for f in schema.fields if f.id == field_id), None)
    cols = lf.entry.file.write_cols
    return name if name is not None and (cols is None or name in cols) else None


def check_values(
    root: Path, live: list[LiveFile], index_entries: list[IndexManifestEntry], index_paths: dict[str, str], run
) -> list[Finding]:
    """GLOBAL_INDEX_VALUES findings for every live global index whose rows one data file each holds."""
    types = global_index.field_types(run.schema)
    out: list[Finding] = []
    skipped = 0
    for e in index_entries:
        meta = e.global_index
        if meta is None or e.index_type not in (global_index.BITMAP_TYPE, global_index.BTREE_TYPE):
            continue
        t = types.get(meta.index_field_id)
        if t is None:
            continue
        found = _check_one(root, live, e, t, index_paths, run)
        if found is None:
            skipped += 1
        else:
            out += found
    if skipped:
        out.append(
            features.not_checked(
                "global index values",
                f"{skipped} global index file(s) not compared with the rows: rows written again by data evolution "
                "in two files of one max sequence number (or over ranges overlapping in part), a column the "
                "data files cannot give, or more rows than the memory budget holds",
                run.schema.file,
            )
        )
    return out


def _by_range(files: list) -> dict[tuple[int, int], list]:
    """The files holding the column, by the row-id range (first, count) they cover."""
    out: dict[tuple[int, int], list] = {}
    for f in files:
        out.setdefault((f[0], f[1]), []).append(f)
    return out


def _deleted(state: IndexState, lf: LiveFile, group: list) -> set[int]:
    """Positions (from the range's first row) a deletion vector of any file over the range deletes: Java
    applies a data-evolution group's vector to the merged rows of the range (DeletionVectorWithRange)."""
    vectors = getattr(state, "vectors", {}).get((lf.entry.partition, lf.entry.bucket), {})
    out: set[int] = set()
    for _, _, other, _ in group:
        hit = vectors.get(other.entry.file.file_name)
        if hit is not None:
            out.update(int(p) for p in hit[2])
    return out


def _newest_per_range(by_range: dict[tuple[int, int], list]) -> list | None:
    """The file Java reads the column from for each row-id range (first, count): of the files that wrote it
    there, the one with the largest max sequence number (DataEvolutionSplitRead sorts them newest first and
    takes each field from the first). None when two files tie for newest or ranges overlap only in part."""
    out = []
    for group in by_range.values():
        group.sort(key=lambda f: f[2].entry.file.max_sequence_number, reverse=True)
        if len(group) > 1 and group[0][2].entry.file.max_sequence_number == group[1][2].entry.file.max_sequence_number:
            return None  # which file wins depends on the order Java lists them in
        out.append(group[0])
    out.sort(key=lambda f: f[0])
    if any(a[0] + a[1] > b[0] for a, b in pairwise(out)):
        return None  # ranges that overlap in part: DATA_EVOLUTION_ROW_RANGES says Java refuses them
    return out


def _check_one(root: Path, live: list[LiveFile], e: IndexManifestEntry, t: DataType, index_paths, run):
    """The findings of one index file, or None when its rows cannot be compared."""
    meta = e.global_index
    start, end = meta.row_range_start, meta.row_range_end
    span = end - start + 1
    if not budget.fits(ROW_BYTES * 2 * max(span, 0)):
        return None  # an index over more rows than the memory budget holds twice: left, not a reason to stop
    # Row ids are table-wide: the index filters the files of every partition whose ids fall in its range (run:
    # Java 1.4.2 on a table whose partitions share ids). Each partition's files are merged on their own.
    by_partition: dict[bytes, list] = {}
    for lf in live:
        first, n = lf.entry.file.first_row_id, lf.entry.file.row_count
        if first is None or lf.relative is None or first > end or first + n - 1 < start:
            continue
        name = _holds(lf, meta.index_field_id, run.schemas)
        if name is not None:
            by_partition.setdefault(lf.entry.partition, []).append((first, n, lf, name))
    files, groups = [], {}
    for in_partition in by_partition.values():
        ranges = _by_range(in_partition)
        newest = _newest_per_range(ranges)
        if newest is None:
            return None
        files += newest
        groups.update({(f[0], f[1], f[2].entry.partition): ranges[(f[0], f[1])] for f in newest})
    rel = index_paths.get(e.file_name, f"index/{e.file_name}")
    try:
        data = contained(root, rel).read_bytes()
    except (OutsideRoot, OSError):
        return None
    decoded = _decode(data, e, t)
    if decoded is None:
        return None
    index, keyer = decoded
    wrong: list[int] = []
    checked = 0
    for first, n, lf, name in files:
        try:
            table = data_files.read_columns(root / lf.relative, [name])
        except (UsageError, PaimonConformError):
            return None
        fmt = lf.relative.rsplit(".", 1)[-1]
        values = data_files.internal_of(data_files.DataFile(fmt, [], table), name, t)
        deleted = _deleted(run.state, lf, groups[(first, n, lf.entry.partition)])
        for i, v in enumerate(values):
            row = first + i - start
            if not 0 <= row < span or i in deleted:
                continue
            checked += 1
            if index.get(row, ABSENT) != (NULL if v is None else keyer(v)):
                wrong.append(row)
    if not wrong:
        return []
    shown = ", ".join(str(start + r) for r in wrong[:MAX_SHOWN])
    msg = (
        f"{len(wrong)} of the {checked} row(s) the data files hold have another value (or none) in the index "
        f"(row ids {shown}{', ...' if len(wrong) > MAX_SHOWN else ''}): Java's filtered scans with "
        "global-index.enabled select rows by the index and return other rows than the data holds"
    )
    readers = {"btree": global_index.BTREE_READERS}.get(
        e.index_type, global_index.ONLY_BGIX if global_index.is_bgix(data) else ("1.4",)
    )
    return [Finding("GLOBAL_INDEX_VALUES", "must", "", None, msg, rel, java_releases=readers, otherwise=None)]
