"""Validate a whole table directory: `paimon-conform validate TABLE_DIR`."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .. import table_layout as tl
from ..errors import UsageError
from ..findings import Finding
from ..report import FileResult
from . import data_files
from .layout import BucketFile, walk
from .schema import TableSchema, read_schema


@dataclass
class TableStats:
    """What a run looked at, for the summary and the benchmark."""

    data_files: int = 0
    rows: int = 0
    bucket_rows: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))


def expected_fields(schema: TableSchema) -> list[tl.Field]:
    """The data-file columns Java writes for this table."""
    options = tl.LayoutOptions.of(schema.options)
    return tl.data_file_fields(schema.fields, schema.primary_keys, schema.partition_keys, options)


def check_data_file(root: Path, ref: BucketFile, schema: TableSchema, stats: TableStats) -> list[Finding]:
    """All checks of one data or changelog file."""
    t0 = time.perf_counter()
    try:
        df = data_files.read_data_file(root / ref.relative)
    except UsageError as exc:
        return [Finding("DATA_FILE_UNREADABLE", "must", "", None, str(exc), ref.relative)]
    stats.seconds["read"] += time.perf_counter() - t0
    stats.data_files += 1
    stats.rows += df.table.num_rows
    found = data_files.check_columns(df, expected_fields(schema), ref.relative)
    if any(f.code == "DATA_FILE_COLUMNS" for f in found):
        return found
    found += data_files.check_value_kinds(df, ref.relative)
    found += data_files.check_partition(df, ref, schema, ref.relative)
    t1 = time.perf_counter()
    bucket_findings, rows = data_files.check_buckets(df, ref, schema, ref.relative)
    stats.seconds["bucket"] += time.perf_counter() - t1
    stats.bucket_rows += rows
    return found + bucket_findings


def validate_table(
    root: str | Path, progress: Callable[[str], None] | None = None, stats: TableStats | None = None
) -> list[FileResult]:
    """One FileResult per file with findings (and one for the table itself)."""
    root = Path(root)
    stats = stats if stats is not None else TableStats()
    if not root.is_dir():
        return [FileResult(str(root), "table", unusable="not a directory")]
    try:
        schema = read_schema(root)
    except UsageError as exc:
        return [FileResult(str(root), "table", unusable=str(exc))]
    files, findings = walk(root, schema)
    data = [f for f in files if f.kind in ("data", "changelog")]
    for i, ref in enumerate(data):
        if progress and (i % 100 == 0 or i == len(data) - 1):
            progress(f"data files {i + 1}/{len(data)}")
        findings += check_data_file(root, ref, schema, stats)
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for f in findings:
        by_file[f.file].append(f)
    results = [FileResult(str(root), "table", by_file.pop("", []))]
    for name in sorted(by_file):
        results.append(FileResult(f"{root}/{name}", _kind_of(name), by_file[name]))
        for f in by_file[name]:
            f.file = f"{root}/{name}"
    return results


def _kind_of(relative: str) -> str:
    head = relative.split("/")[0]
    return head if head in tl.spec()["file_names"]["root_dirs"] else "data-file"


def stderr_progress(message: str) -> None:
    """Progress lines on stderr (kept off stdout so reports stay parseable)."""
    print(f"paimon-conform: {message}", file=sys.stderr, flush=True)
