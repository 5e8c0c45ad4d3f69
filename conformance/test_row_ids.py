"""Row ids of row-tracking and data-evolution tables: the range checks agree with a pairwise model of Java's
reader on any set of files, the Java-written corpus tables are clean, and changed ranges in copies of them
get the finding Java's reader would give."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from support.environment import corpus_table
from support.java_mutations import rewrite_avro

from paimon_conform.core.java_releases import judge
from paimon_conform.table.metadata import DataFileMeta, ManifestEntry, SimpleStats
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.validate.row_ids import check_row_ids
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("third-party", "kit")

NO_STATS = SimpleStats(b"", b"", ())
TRACKING = {"row-tracking.enabled": "true"}
EVOLUTION = TRACKING | {"data-evolution.enabled": "true"}


def _entry(i: int, first: int | None, rows: int, bucket: int = 0, blob: str | None = None) -> ManifestEntry:
    name = f"data-{i}-1.blob" if blob else f"data-{i}-0.parquet"
    meta = DataFileMeta(
        name, 100, rows, b"", b"", NO_STATS, NO_STATS, 1, 1, 0, 0, (), None, None, 0, None, None,
        write_cols=(blob,) if blob else None, first_row_id=first,
    )  # fmt: skip
    return ManifestEntry(0, b"", bucket, -1, meta, "manifest-x-0", i)


def _schema(options: dict[str, str]) -> TableSchema:
    return TableSchema(0, [], [], [], options)


def _overlap(a: ManifestEntry, b: ManifestEntry) -> bool:
    fa, fb = a.file, b.file
    return (
        a.bucket == b.bucket
        and fa.first_row_id <= fb.first_row_id + fb.row_count - 1
        and (fb.first_row_id <= fa.first_row_id + fa.row_count - 1)
    )


def _shared_across_buckets(entries: list[ManifestEntry]) -> bool:
    """Two files of different buckets hold a common row id (Java assigns ids table-wide)."""
    return any(
        a.bucket != b.bucket and _overlap(b, dataclasses.replace(a, bucket=b.bucket))
        for i, a in enumerate(entries)
        for b in entries[i + 1 :]
    )


def _components(entries: list[ManifestEntry]) -> list[list[ManifestEntry]]:
    """Files linked by pairwise overlap (the model: a graph search, not the sweep the kit uses)."""
    left, out = list(entries), []
    while left:
        group, todo = [], [left.pop()]
        while todo:
            e = todo.pop()
            group.append(e)
            linked = [o for o in left if _overlap(e, o)]
            left = [o for o in left if o not in linked]
            todo += linked
        out.append(group)
    return out


def _range(e: ManifestEntry) -> tuple[int, int]:
    return e.file.first_row_id, e.file.first_row_id + e.file.row_count - 1


def _expected_evolution(entries: list[ManifestEntry]) -> bool:
    """Java's data-evolution reader fails on a bucket: data files of one group differ in range, or a BLOB
    column's files do not cover the group's data range exactly."""
    for group in _components(entries):
        data = [e for e in group if e.file.write_cols is None]
        if len({_range(e) for e in data}) > 1:
            return True
        if not data:
            continue
        lo, hi = _range(data[0])
        for col in {e.file.write_cols for e in group if e.file.write_cols}:
            ids = set()
            for e in group:
                if e.file.write_cols == col:
                    ids |= set(range(_range(e)[0], _range(e)[1] + 1))
            if ids != set(range(lo, hi + 1)):
                return True
    return False


files = st.lists(
    st.tuples(st.integers(0, 12), st.integers(1, 5), st.integers(0, 1), st.sampled_from([None, None, "b1", "b2"])),
    max_size=7,
)


@given(files)
def test_data_evolution_ranges_agree_with_a_pairwise_model(spec):
    entries = [_entry(i, first, rows, bucket, blob) for i, (first, rows, bucket, blob) in enumerate(spec)]
    codes = {f.code for f in check_row_ids(entries, _schema(EVOLUTION))}
    assert codes <= {"DATA_EVOLUTION_ROW_RANGES", "ROW_ID_OVERLAP"}
    by_bucket = [[e for e in entries if e.bucket == b] for b in (0, 1)]
    assert ("DATA_EVOLUTION_ROW_RANGES" in codes) == any(_expected_evolution(es) for es in by_bucket)
    assert ("ROW_ID_OVERLAP" in codes) == _shared_across_buckets(entries)


@given(files)
def test_row_tracking_ranges_may_not_overlap_and_blob_files_are_left_to_data_evolution(spec):
    entries = [_entry(i, first, rows, bucket, blob) for i, (first, rows, bucket, blob) in enumerate(spec)]
    found = check_row_ids(entries, _schema(TRACKING))
    assert {(f.code, f.severity) for f in found} <= {("ROW_ID_OVERLAP", "should")}
    data = [e for e in entries if e.file.write_cols is None]
    overlapping = any(_overlap(a, b) for i, a in enumerate(data) for b in data[i + 1 :])
    assert bool(found) == (overlapping or _shared_across_buckets(data))
    assert check_row_ids(entries, _schema({})) == []  # neither feature on: row ids are not Java's business


def test_a_file_without_first_row_id_fails_data_evolution_reads_from_1_4():
    entries = [_entry(0, 0, 3), _entry(1, None, 3)]
    [f] = check_row_ids(entries, _schema(EVOLUTION))
    assert (f.code, f.severity, f.path) == ("ROW_ID_MISSING", "must", "entries[1]._FILE._FIRST_ROW_ID")
    assert judge([f], "1.3") == []
    assert check_row_ids(entries, _schema(TRACKING)) == []  # a compacted row-tracking file carries _ROW_ID itself


def test_ranges_past_a_long_or_below_zero_are_should():
    entries = [_entry(0, -1, 3), _entry(1, 2**63 - 2, 3), _entry(2, 2**63 - 3, 3)]
    found = check_row_ids(entries, _schema(TRACKING))
    assert [(f.code, f.severity, f.path) for f in found] == [
        ("ROW_ID_RANGE", "should", "entries[0]._FILE._FIRST_ROW_ID"),
        ("ROW_ID_RANGE", "should", "entries[1]._FILE._FIRST_ROW_ID"),
    ]


# ---------------------------------------------------------------------------------------------
# Java-written tables of the corpus (paimon-cpp's test tables)

TABLES = (
    "data_evolution_with_index",
    "blob_append_table_alter_table_with_cast_with_data_evolution",
    "append_table_row_tracking_with_compact",
)


def _row_findings(root: Path, java_version: str = "2.0") -> list[tuple[str, str, str]]:
    codes = ("ROW_ID_MISSING", "ROW_ID_RANGE", "ROW_ID_OVERLAP", "DATA_EVOLUTION_ROW_RANGES")
    results = validate_table(root, java_version=java_version)
    return sorted((f.code, f.severity, f.path) for r in results for f in r.findings if f.code in codes)


def _set_first_row_id(root: Path, file_suffix: str, value: int | None) -> None:
    """Give the ADD entry of the data file whose name ends in `file_suffix` another _FIRST_ROW_ID."""
    hits = []

    def change(r: dict) -> dict:
        if r["_KIND"] == 0 and r["_FILE"]["_FILE_NAME"].endswith(file_suffix):
            r["_FILE"]["_FIRST_ROW_ID"] = value
            hits.append(r["_FILE"]["_FILE_NAME"])
        return r

    rewrite_avro(root, "manifest", record_fn=change)
    assert len(hits) == 1


def test_java_written_row_tracking_tables_have_no_row_id_finding(tmp_path):
    for name in TABLES:
        assert _row_findings(corpus_table(tmp_path, name)) == [], name


def test_a_data_file_shifted_by_one_row_id_breaks_its_group(tmp_path):
    root = corpus_table(tmp_path, "data_evolution_with_index")
    _set_first_row_id(root, "760e-0.parquet", 1)  # f2, f3 of rows 0..3, now 1..4: overlaps 0..3 and 4..5
    [(code, severity, _)] = _row_findings(root)
    assert (code, severity) == ("DATA_EVOLUTION_ROW_RANGES", "must")
    assert _row_findings(root, "1.2") == []  # before data evolution: not this reader's rule


def test_a_file_without_first_row_id_in_a_java_table_is_a_must_from_1_4(tmp_path):
    root = corpus_table(tmp_path, "data_evolution_with_index")
    _set_first_row_id(root, "760e-1.parquet", None)
    [(code, severity, _)] = _row_findings(root)
    assert (code, severity) == ("ROW_ID_MISSING", "must")
    assert _row_findings(root, "1.3") == []


def test_a_blob_file_leaving_a_gap_is_a_must(tmp_path):
    root = corpus_table(tmp_path, "blob_append_table_alter_table_with_cast_with_data_evolution")
    _set_first_row_id(root, "6b332c6-2.blob", 9)  # f5's rows 8..9 moved to 9..10: 8 uncovered, 10 beyond
    found = _row_findings(root)
    assert [(c, s) for c, s, _ in found] == [("DATA_EVOLUTION_ROW_RANGES", "must")]
