"""Row ids of row-tracking and data-evolution tables (Paimon 1.3+): the ranges Java's readers rely on.

A data file's rows have the ids `_FIRST_ROW_ID` .. `_FIRST_ROW_ID + _ROW_COUNT - 1`. Java's commit
assigns them from the snapshot's `nextRowId` to APPEND files that have none
(RowTrackingCommitUtils), so a row-tracking table's ranges never overlap. A data-evolution table
shares ids on purpose: files holding other columns (`_WRITE_COLS`) of the same rows carry the same
range, and the reader (DataEvolutionSplitRead.mergeRangesAndSort, DataEvolutionSplitGenerator in
1.3) groups a bucket's files by overlapping ranges and merges each group column by column, the
newest sequence number first. It refuses a group whose data files differ in range, a file without
`_FIRST_ROW_ID` (1.4+), and `.blob` files that do not cover the group's rows exactly.

The snapshot's `nextRowId` is not checked: Java leaves it behind files committed with their ids
already assigned (data-evolution writes), so a lower value is no fault of the writer.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.table.features import Features, is_blob
from paimon_conform.table.metadata import ManifestEntry
from paimon_conform.table.schema import TableSchema

MAX_LONG = 2**63 - 1
DATA_EVOLUTION_READ = between("1.3")  # every release with the data-evolution reader
NON_NULL_RANGE = between("1.4")  # DataFileMeta.nonNullRowIdRange on every file of the bucket (1.3 reads it alone)
BLOB_RANGES = between("1.4")  # .blob files exist from 1.4


@dataclass(frozen=True)
class _Range:
    """One live file's row ids, inclusive."""

    first: int
    last: int
    entry: ManifestEntry

    @property
    def where(self) -> str:
        return f"entries[{self.entry.index}]._FILE._FIRST_ROW_ID"


def check_row_ids(entries: Iterable[ManifestEntry], schema: TableSchema) -> list[Finding]:
    """Findings on the row-id ranges of the live data files of a row-tracking or data-evolution table."""
    features = Features.of(schema)
    if not (features.row_tracking or features.data_evolution):
        return []
    out: list[Finding] = []
    buckets: dict[tuple[bytes, int], list[_Range]] = defaultdict(list)
    for e in entries:
        first, rows = e.file.first_row_id, e.file.row_count
        if not features.data_evolution and is_blob(e.file.file_name):
            continue  # .blob files share their data files' ids; Java writes them with data evolution only
        if first is None:
            if features.data_evolution:
                out.append(_missing(e))
            continue
        if first < 0 or rows < 1 or first + rows - 1 > MAX_LONG:
            out.append(_bad_range(e))
            continue
        buckets[(e.partition, e.bucket)].append(_Range(first, first + rows - 1, e))
    for ranges in buckets.values():
        for group in _overlapping(ranges):
            if features.data_evolution:
                out += _group_findings(group)
            elif len(group) > 1:
                out.append(_overlap(group))
    return out + _across_buckets(buckets)


def _across_buckets(buckets: dict[tuple[bytes, int], list[_Range]]) -> list[Finding]:
    """Row ids two partitions or buckets share: Java assigns ids table-wide from the snapshot's nextRowId (run:
    1.4.2 and 2.0.0 give a second partition's first file the ids after the first's), and a global index of one
    partition's range filters every file whose ids fall in it (run: Java 1.4.2 loses rows of the other partition)."""
    spans = []
    for key, ranges in buckets.items():
        for a, b in _union(ranges):
            spans.append((a, b, key, next(r for r in ranges if r.first == a)))
    spans.sort(key=lambda x: (x[0], x[1]))
    out = []
    end, owner = -1, None
    for first, last, key, r in spans:
        if first <= end and owner is not None and owner[0] != key:
            other = owner[1]
            msg = (
                f"{r.entry.file.file_name} holds row ids {first}..{last}, which {other.entry.file.file_name} of "
                "another partition or bucket also holds: Java assigns row ids table-wide (each commit from the "
                "snapshot's nextRowId), and a global index over these ids filters the rows of both"
            )
            out.append(Finding("ROW_ID_OVERLAP", "should", r.where, None, msg, r.entry.manifest))
        if last > end:
            end, owner = last, (key, r)
    return out


def _overlapping(ranges: list[_Range]) -> list[list[_Range]]:
    """The ranges in groups of transitively overlapping ones (RangeHelper.mergeOverlappingRanges)."""
    groups: list[list[_Range]] = []
    end = -1
    for r in sorted(ranges, key=lambda r: (r.first, r.last)):
        if groups and r.first <= end:
            groups[-1].append(r)
            end = max(end, r.last)
        else:
            groups.append([r])
            end = r.last
    return groups


def _group_findings(group: list[_Range]) -> list[Finding]:
    """A data-evolution group: its data files share one range, and each BLOB column's files cover it exactly."""
    data = [r for r in group if not is_blob(r.entry.file.file_name)]
    if not data:
        return []
    first, last = data[0].first, data[0].last
    odd = next((r for r in data if (r.first, r.last) != (first, last)), None)
    if odd is not None:
        msg = (
            f"{odd.entry.file.file_name} holds row ids {odd.first}..{odd.last}, overlapping "
            f"{data[0].entry.file.file_name} with {first}..{last}: Java merges the files of overlapping ranges "
            "column by column and refuses data files whose ranges differ ('Data files ... should be all row id "
            "ranges same'; 1.3: 'overlapping files in the split' or 'should have the same row count'), so no "
            "read of this bucket succeeds"
        )
        return [_finding("DATA_EVOLUTION_ROW_RANGES", odd, msg, DATA_EVOLUTION_READ)]
    blobs: dict[tuple[str, ...], list[_Range]] = defaultdict(list)
    for r in group:
        if is_blob(r.entry.file.file_name):
            blobs[r.entry.file.write_cols or ()].append(r)
    out = []
    for cols, files in blobs.items():
        covered = _union(files)
        if covered != [(first, last)]:
            shown = ", ".join(f"{a}..{b}" for a, b in covered)
            msg = (
                f".blob files of {', '.join(cols) or 'a BLOB column'} cover row ids {shown}, the data files "
                f"{first}..{last}: Java reads a BLOB column's files as one contiguous run aligned with the data "
                "files ('Blob file bunch should always contain a contiguous row range', 'first row id should be "
                "continuous'), and fails"
            )
            out.append(_finding("DATA_EVOLUTION_ROW_RANGES", files[0], msg, BLOB_RANGES))
    return out


def _union(ranges: list[_Range]) -> list[tuple[int, int]]:
    """The row ids the ranges cover, as sorted disjoint runs (touching runs joined)."""
    runs: list[tuple[int, int]] = []
    for r in sorted(ranges, key=lambda r: r.first):
        if runs and r.first <= runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], max(runs[-1][1], r.last))
        else:
            runs.append((r.first, r.last))
    return runs


def _finding(code: str, r: _Range, msg: str, releases: tuple[str, ...]) -> Finding:
    return Finding(code, "must", r.where, None, msg, r.entry.manifest, java_releases=releases, otherwise=None)


def _missing(e: ManifestEntry) -> Finding:
    msg = (
        f"{e.file.file_name} has no _FIRST_ROW_ID in a data-evolution table: Java 1.4 and later take every file's "
        "row-id range to merge a bucket's files ('First row id should not be null') and fail on the whole bucket"
    )
    where = f"entries[{e.index}]._FILE._FIRST_ROW_ID"
    return Finding("ROW_ID_MISSING", "must", where, None, msg, e.manifest, java_releases=NON_NULL_RANGE, otherwise=None)


def _bad_range(e: ManifestEntry) -> Finding:
    f = e.file
    msg = (
        f"_FIRST_ROW_ID {f.first_row_id} with _ROW_COUNT {f.row_count}: row ids are 0 or more and the last "
        f"(first + count - 1) fits a long; Java assigns them from 0 and never writes such a range"
    )
    return Finding("ROW_ID_RANGE", "should", f"entries[{e.index}]._FILE._FIRST_ROW_ID", None, msg, e.manifest)


def _overlap(group: list[_Range]) -> Finding:
    a, b = group[0], group[1]
    msg = (
        f"{b.entry.file.file_name} holds row ids {b.first}..{b.last}, overlapping {a.entry.file.file_name} "
        f"({a.first}..{a.last}) in a row-tracking table without data evolution: the rows share _ROW_ID values; "
        "Java assigns each appended file fresh ids from the snapshot's nextRowId"
    )
    return Finding("ROW_ID_OVERLAP", "should", b.where, None, msg, b.entry.manifest)
