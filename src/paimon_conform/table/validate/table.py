"""Validate a whole table directory: `paimon-conform validate TABLE_DIR`."""

from __future__ import annotations

import copy
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from paimon_conform.core import budget, known_bugs
from paimon_conform.core.budget import BudgetExceeded
from paimon_conform.core.errors import PaimonConformError, UsageError, checking
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import NEWEST, judge
from paimon_conform.core.report import FileResult
from paimon_conform.formats import file_format
from paimon_conform.table import features
from paimon_conform.table import table_layout as tl
from paimon_conform.table.chain import Chain, LiveFile, load_chain
from paimon_conform.table.metadata import ManifestEntry
from paimon_conform.table.paths import OutsideRoot, contained, is_file, list_names, pinned_root
from paimon_conform.table.read import data_files
from paimon_conform.table.read.data_files import WindowCheck
from paimon_conform.table.read.index_files import IndexReader, IndexState, load_index_files
from paimon_conform.table.schema import Schemas, TableSchema, branch_folders, read_schema, schema_ids
from paimon_conform.table.validate import data_file_checks, file_scan, global_index
from paimon_conform.table.validate.blob_files import check_blob_file
from paimon_conform.table.validate.directories import DATA_SUFFIXES, BucketFile, kind_by_suffix, walk
from paimon_conform.table.validate.global_values import check_values
from paimon_conform.table.validate.index_files import (
    KeyHashes,
    check_hash_index,
    check_older_index_files,
    unknown_vectors,
)
from paimon_conform.table.validate.row_files import is_row_file, read_row_file
from paimon_conform.table.validate.row_ids import check_row_ids


@dataclass
class TableStats:
    """What a run looked at, for the summary and the benchmark."""

    data_files: int = 0
    blob_files: int = 0  # `.blob` files checked as layout blob_file
    rows: int = 0
    bucket_rows: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: defaultdict(float))

    def merge(self, other: TableStats) -> None:
        """Add another part of the run (the files one Spark task checked)."""
        self.data_files += other.data_files
        self.blob_files += other.blob_files
        self.rows += other.rows
        self.bucket_rows += other.bucket_rows
        for phase, seconds in other.seconds.items():
            self.seconds[phase] += seconds


def _read(
    run: FileRun, relative: str, entry: ManifestEntry | None
) -> tuple[Iterator[data_files.DataFile] | None, list[Finding]]:
    """A data file's windows of rows (read_windows; each read when asked for); a row file, which has no columns
    of its own, read whole with the types of the schema its entry names."""
    try:
        path = contained(run.root, relative)
    except OutsideRoot as out:
        return None, [Finding("TABLE_PATH_ESCAPES_ROOT", "must", "", None, str(out), relative)]
    if is_row_file(relative):
        schema = run.schemas.of_file(entry, [])
        if schema is None:  # the entry names a schema id without a schema file (reported once per id)
            return None, []
        df, found = read_row_file(path, relative, schema, entry.file.write_cols if entry else None)
        return (None if df is None else iter([df])), found
    mismatch = _suffix_mismatch(path)
    if mismatch:
        return None, [Finding("DATA_FILE_UNREADABLE", "must", "", None, mismatch, relative)]
    return data_files.read_windows(path), []


def _suffix_mismatch(path: Path) -> str | None:
    """Why Java cannot read a data file whose suffix names another format than its bytes: Java picks a data
    file's reader by the suffix of its name (every release fails: "... is not a Parquet file")."""
    claimed = path.suffix.removeprefix(".")
    if f".{claimed}" not in DATA_SUFFIXES:
        return None
    try:
        found = file_format(path)
    except OSError:
        return None  # read_windows reports it
    if found is None or found == claimed:
        return None
    return f"the name ends in .{claimed}, so Java reads it with its {claimed} reader, but the bytes are {found}"


def _unreferenced(root: Path, files: list[BucketFile], chain: Chain, referenced: set[str]) -> list[Finding]:
    """Files no kept snapshot of the table or of a branch refers to (left by failed commits or expired
    snapshots)."""
    if chain.snapshots == 0:
        return []
    out = []
    # a managed BLOB pack is reached through the descriptors in data files, never through a snapshot
    names = [f.relative for f in files if f.kind != "managed_blob"]
    for folder in ("manifest", "index", "statistics"):
        try:
            names += [f"{folder}/{n}" for n in list_names(root, folder) if is_file(root, f"{folder}/{n}")]
        except OutsideRoot:
            continue  # reported by the walk
    for rel in names:
        if rel not in referenced:
            msg = "no snapshot, tag or changelog refers to this file (an aborted commit or an expired snapshot left it)"
            out.append(Finding("TABLE_UNREFERENCED_FILE", "warning", "", None, msg, rel))
    return out


def _named_by_snapshot(findings: list[Finding], referenced: set[str]) -> None:
    """A file with a name Java would not give it, that a snapshot refers to: Java opens every file by the name its
    metadata gives (pypaimon's index-manifest-<uuid> without -<n>, a data file a manifest names
    data-multi-row-groups.parquet, a statistics file a snapshot names), so should, not must: a name alone never
    makes a file Java reads unreadable."""
    for f in findings:
        if f.code != "TABLE_BAD_FILE_NAME" or f.file not in referenced or f.severity != "must":
            continue
        # a bucket file is read only when its suffix names a reader (checked like any data file then)
        if f.file.split("/", 1)[0] in ("manifest", "index", "statistics") or kind_by_suffix(f.file) is not None:
            f.severity = "should"
            f.message += "; a snapshot refers to it by this name, and Java opens it so"


def _misplaced(files: list[BucketFile], chain: Chain) -> None:
    """A missing file that exists under another partition or bucket: say where (the manifest row is wrong)."""
    where: dict[str, list[str]] = defaultdict(list)
    for f in files:
        where[f.relative.rsplit("/", 1)[-1]].append(f.relative)
    for finding, rel in chain.missing:
        found = where.get(rel.rsplit("/", 1)[-1])
        if found:
            finding.code = "MANIFEST_WRONG_LOCATION"
            finding.message = (
                f"the entry's partition and bucket put the file at {rel}, but it is at {found[0]}: "
                "_PARTITION or _BUCKET does not match the directory the file was written to"
            )


@dataclass
class FileRun:
    """What the per-file checks of one table share."""

    root: Path
    schema: TableSchema  # the newest
    schemas: Schemas
    stats: TableStats
    state: IndexState
    live_by_path: dict
    added: dict  # every data file a kept snapshot adds → that entry (its schema id)
    latest_data: set[str]
    dynamic: bool
    seen: KeyHashes
    referenced: set[str]  # every file a kept snapshot refers to


Progress = Callable[[str], None]


def check_here(run: FileRun, refs: list[BucketFile], progress: Progress | None, label: str) -> list[Finding]:
    """The per-file checks of `refs`, one after the other in this process (the default FileChecker)."""
    out: list[Finding] = []
    for i, ref in enumerate(refs):
        if progress and (i % 100 == 0 or i == len(refs) - 1):
            progress(f"data files{label} {i + 1}/{len(refs)}")
        with checking(f"{run.root}/{ref.relative}"):
            out += _check_one(run, ref)
    return out


# runs the per-file checks of a list of files of one run, returning their findings in file order, with the
# run's stats, key hashes and schema findings brought up to date (check_here, or spark.validate's)
FileChecker = Callable[[FileRun, list[BucketFile], Progress | None, str], list[Finding]]


@dataclass
class Workers:
    """Where a run's work on single files runs: the data files' checks (`check_files`) and the index files'
    reads (`read_index_files`, maps index_files.read_index_file over them in order); by default here, one
    after the other (spark.validate.spark_workers: in Spark tasks). What joins files stays with the caller."""

    check_files: FileChecker = check_here
    read_index_files: IndexReader | None = None


@dataclass
class Checked:
    """What checking one slice of a run's files apart from the run found (one Spark task's share)."""

    findings: list[Finding]
    stats: TableStats
    seen: KeyHashes
    schema_findings: list[Finding]
    error: PaimonConformError | None = None  # raised where the slice's results are merged, as here


def check_slice(run: FileRun, refs: list[BucketFile], max_memory: int) -> Checked:
    """Check `refs` on a copy of the run with its own stats, key hashes and schema findings, under the
    memory budget the run has; a kit error ends the slice and travels with it."""
    schemas = copy.copy(run.schemas)
    schemas.loaded, schemas.findings = dict(run.schemas.loaded), []
    own = replace(run, stats=TableStats(), seen=KeyHashes(), schemas=schemas)
    try:
        with budget.limited(max_memory):
            found = check_here(own, refs, None, "")
    except PaimonConformError as exc:
        return Checked([], own.stats, own.seen, schemas.findings, exc)
    return Checked(found, own.stats, own.seen, schemas.findings)


def merge_slices(run: FileRun, slices: list[Checked]) -> list[Finding]:
    """The findings of slices checked in file order, with their stats, key hashes and schema findings added
    to the run as check_here would have left them; the first slice's error is raised."""
    out: list[Finding] = []
    for part in slices:
        if part.error is not None:
            raise part.error
        out += part.findings
        run.stats.merge(part.stats)
        run.seen.merge(part.seen)
        run.schemas.findings += [f for f in part.schema_findings if f not in run.schemas.findings]
    return out


def validate_table(
    root: str | Path,
    progress: Progress | None = None,
    stats: TableStats | None = None,
    java_version: str | None = NEWEST,
    workers: Workers | None = None,
) -> list[FileResult]:
    """One FileResult per file with findings (and one for the table itself), judged for one Java release (None:
    not judged, each finding as found with the releases it is about, for a caller that judges it for several).
    `workers` run the checks of single data and index files (default: one after the other here;
    `spark.validate` runs them in Spark tasks); the metadata and the findings that join files stay here."""
    root = Path(root)
    stats = stats if stats is not None else TableStats()
    if not os.path.isdir(root):  # False for a name the OS refuses (too long, NUL), not an OSError
        return [FileResult(str(root), "table", unusable="not a directory")]
    try:
        with checking(str(root)), pinned_root(root):
            return _validate(root, progress, stats, java_version, workers or Workers())
    except UsageError as exc:  # metadata the checks need is unusable (a damaged option, an escaping folder)
        return [FileResult(str(root), "table", unusable=str(exc))]


@dataclass
class _Prepared:
    """The table, or one of its branches, with its metadata followed: ready for the per-file checks."""

    run: FileRun
    chain: Chain
    findings: list[Finding]


def _prepare(
    root: Path, meta: str, schema: TableSchema, files: list[BucketFile], stats: TableStats, workers: Workers
) -> _Prepared:
    """Follow the snapshots at `meta` ('' or 'branch/branch-<name>/') and load what the file checks need."""
    schemas = Schemas(root, schema, meta)
    findings: list[Finding] = []
    blobs = features.blob_columns(schema)
    for name, raw in schema.unreadable_types.items():
        msg = f"column {name}: type {str(raw)[:80]} is not one the kit models; checks that need it are skipped"
        if name in blobs:
            msg += " (its .blob files are checked as layout blob_file)"
        findings.append(Finding("SCHEMA_TYPE_NOT_MODELLED", "warning", f"fields.{name}", None, msg, schema.file))
    t0 = time.perf_counter()
    chain = load_chain(root, schema, schema_ids(root, meta), meta)
    findings += chain.findings
    index_owner = f"manifest/{chain.latest.index_manifest}" if chain.latest and chain.latest.index_manifest else ""
    bitmap64 = tl.bool_option(schema.options.get("deletion-vectors.bitmap64", False))
    types = global_index.field_types(schema)
    live_entries = [lf.entry for lf in chain.live]
    live_ids = global_index.live_row_ids(live_entries)
    check_global = partial(global_index.check_global_file, owner=index_owner, types=types, live=live_ids)
    state = load_index_files(
        root, chain.index_files, index_owner, chain.index_paths, bitmap64, check_global, workers.read_index_files
    )
    findings += state.findings + check_older_index_files(root, chain.older_index_files, chain.index_paths)
    findings += features.index_in_data_dir(schema) + features.blob_type_unknown(schema)
    findings += features.recognized(root, files, schema)
    findings += features.partition_types(schema) + features.dense_stats(live_entries, schemas)
    findings += features.partial_files(live_entries, schemas) + features.dv_level0(live_entries, schema)
    findings += check_row_ids(live_entries, schema)
    stats.seconds["metadata"] += time.perf_counter() - t0
    live_keys = {(lf.entry.partition, lf.entry.bucket, lf.entry.file.file_name): lf.relative or "" for lf in chain.live}
    findings += unknown_vectors(root, state, live_keys, index_owner)
    run = FileRun(
        root=root,
        schema=schema,
        schemas=schemas,
        stats=stats,
        state=state,
        live_by_path={lf.relative: lf for lf in chain.live + chain.changelog if lf.relative is not None},
        added=chain.added,
        latest_data={lf.relative for lf in chain.live},
        dynamic=schema.bucket == -1 and bool(schema.primary_keys),
        seen=KeyHashes(),
        referenced=chain.referenced,
    )
    return _Prepared(run, chain, findings)


def _branches(
    root: Path, files: list[BucketFile], stats: TableStats, workers: Workers
) -> tuple[list[_Prepared], list[Finding]]:
    """Every branch (branch/branch-<name>/ with its own schema/ and snapshot/), followed as its own table."""
    out, findings = [], []
    for meta in branch_folders(root):
        name = meta.split("/")[1]
        if not name.startswith("branch-"):
            continue
        try:
            schema = read_schema(root, meta=meta)
        except UsageError as exc:  # OutsideRoot included
            findings.append(Finding("SCHEMA_UNREADABLE", "must", "", None, f"branch {name}: {exc}", f"{meta}schema"))
            continue
        with checking(f"{root}/{meta}"):
            out.append(_prepare(root, meta, schema, files, stats, workers))
    return out, findings


def _validate(
    root: Path, progress: Progress | None, stats: TableStats, java_version: str | None, workers: Workers
) -> list[FileResult]:
    try:
        schema = read_schema(root)
    except UsageError as exc:
        return [FileResult(str(root), "table", unusable=str(exc))]
    files, findings = walk(root, schema)
    main = _prepare(root, "", schema, files, stats, workers)
    branches, branch_findings = _branches(root, files, stats, workers)
    findings += branch_findings
    referenced = set().union(main.chain.referenced, *(b.chain.referenced for b in branches))
    _misplaced(files, main.chain)
    _named_by_snapshot(findings, referenced)
    findings += _unreferenced(root, files, main.chain, referenced)
    data = [f for f in files if f.kind in ("data", "changelog")]
    checked: set[str] = set()
    for table in (main, *branches):
        run = table.run
        if table is main:
            run.referenced = referenced  # a file only a branch refers to was written by a finished commit
        findings += table.findings
        # the table checks its own files and those nobody refers to; a branch, those only branches refer to
        mine = [
            f
            for f in data
            if f.relative not in checked
            and (f.relative in table.chain.referenced or (table is main and f.relative not in referenced))
        ]
        checked.update(f.relative for f in mine)
        label = f" of {table.run.schemas.meta.rstrip('/')}" if table is not main else ""
        findings += workers.check_files(run, mine, progress, label)
        if run.dynamic:
            findings += check_hash_index(run.state, run.seen)
        chain = table.chain
        if any(e.global_index is not None for e in chain.index_files):
            findings += check_values(root, chain.live, chain.index_files, chain.index_paths, run)
        findings += run.schemas.findings
    by_file: dict[str, list[Finding]] = defaultdict(list)
    for f in known_bugs.name(judge(_distinct(findings), java_version) if java_version else _distinct(findings)):
        by_file[f.file].append(f)
    fit = main.chain.fit
    for b in branches:
        fit.merge(b.chain.fit)
    info = {"java_release_judged": java_version, "metadata_releases": fit.describe()}
    text = f"{fit.text()}; judged for Java {java_version}"
    results = [FileResult(str(root), "table", by_file.pop("", []), info=info, info_text=text)]
    for name in sorted(by_file):
        results.append(FileResult(f"{root}/{name}", _kind_of(name), by_file[name]))
        for f in by_file[name]:
            f.file = f"{root}/{name}"
    return results


def _distinct(findings: list[Finding]) -> list[Finding]:
    """Each finding once: a branch and the table share manifests and files, and both may report one of them."""
    seen: set[tuple] = set()
    out = []
    for f in findings:
        key = (f.code, f.severity, f.file, f.path, f.offset, f.message)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _check_one(run: FileRun, ref: BucketFile) -> list[Finding]:
    """Every check of one data or changelog file, against the schema it was written with, window by window."""
    lf = run.live_by_path.get(ref.relative)
    entry = lf.entry if lf else run.added.get(ref.relative)
    if features.is_blob(ref.relative):
        schema = run.schemas.get(entry.file.schema_id) if entry else None
        run.stats.blob_files += 1
        return check_blob_file(run.root, ref.relative, entry, schema)
    if features.unread_format(ref.relative):  # named once per table by features.recognized
        return []
    t0 = time.perf_counter()
    windows, findings = _read(run, ref.relative, entry)  # (a row file is read here, whole)
    run.stats.seconds["read"] += time.perf_counter() - t0
    scan = None if windows is None else _Scan(run, ref, lf, entry)
    while windows is not None:
        t0 = time.perf_counter()
        try:
            df = next(windows, None)
        except BudgetExceeded:
            raise  # the table is unusable within the budget (exit 2 with the reason), not a finding
        except UsageError as exc:  # a damaged file (or row group): nothing of it is judged but that
            findings, scan = [Finding("DATA_FILE_UNREADABLE", "must", "", None, str(exc), ref.relative)], None
            break
        run.stats.seconds["read"] += time.perf_counter() - t0
        if df is None:
            break
        scan.add(df)
        del df  # (the next window is read without this one's rows held here)
    if scan is None:
        if ref.relative not in run.referenced and run.referenced:
            for f in findings:  # a write killed while writing it: Java never opens a file no snapshot names
                f.severity = "warning"
                f.message += "; no snapshot refers to this file (a write that did not finish), and Java never reads it"
        return findings
    run.stats.data_files += 1
    run.stats.rows += scan.rows
    return findings + scan.findings()


class _Scan(WindowCheck):
    """One file's checks fed window by window: UTF-8 first (a file with invalid strings gets no row-level
    check, as no value of it can be decoded), then the layout checks and, for a live file, the entry checks."""

    def __init__(self, run: FileRun, ref: BucketFile, lf: LiveFile | None, entry: ManifestEntry | None) -> None:
        self.run, self.ref, self.lf, self.entry = run, ref, lf, entry
        self.rows = 0
        self.first: data_files.DataFile | None = None
        self.bad_strings: dict[str, Finding] = {}
        self.schema: TableSchema | None = None
        self.layout: file_scan.LayoutChecks | None = None
        self.entry_checks: file_scan.EntryChecks | None = None
        self.entry_seconds = 0.0

    def add(self, df: data_files.DataFile) -> None:
        run, ref = self.run, self.ref
        self.rows += df.table.num_rows
        for f in data_file_checks.check_strings(df, ref.relative, set(self.bad_strings)):
            self.bad_strings[f.path.split(".", 1)[1]] = f
        if self.first is None:
            self.first = df.header()
            if not self.bad_strings:  # (the schema is not looked up for a file whose values cannot be decoded)
                self.schema = run.schemas.of_file(self.entry, df.table.column_names)
            if self.schema is not None:
                write_cols = self.entry.file.write_cols if self.entry else None
                self.layout = file_scan.LayoutChecks(self.first, ref, self.schema, write_cols)
                if self.lf is not None:
                    t1 = time.perf_counter()
                    hashes = run.dynamic and ref.relative in run.latest_data
                    self.entry_checks = file_scan.EntryChecks(self.first, self.lf, self.schema, run.root, hashes)
                    self.entry_seconds += time.perf_counter() - t1
        if self.bad_strings or self.layout is None:
            return
        self.layout.add(df)
        if self.entry_checks is not None:
            t1 = time.perf_counter()
            self.entry_checks.add(df)
            self.entry_seconds += time.perf_counter() - t1

    def findings(self) -> list[Finding]:
        if self.bad_strings:  # values that cannot be decoded: no row-level check can run on them
            order = self.first.table.column_names
            return [self.bad_strings[n] for n in sorted(self.bad_strings, key=order.index)]
        if self.layout is None:  # the entry names a schema id without a schema file (reported once per id)
            return []
        found = self.layout.findings(self.run.stats)
        if self.entry_checks is not None:
            t1 = time.perf_counter()
            found += self.entry_checks.findings(self.run.state, self.run.seen, self.ref.relative)
            self.run.stats.seconds["entries"] += self.entry_seconds + time.perf_counter() - t1
        return found


def _kind_of(relative: str) -> str:
    head = relative.split("/")[0]
    return head if head in tl.spec()["file_names"]["root_dirs"] else "data-file"


def stderr_progress(message: str) -> None:
    """Progress lines on stderr (kept off stdout so reports stay parseable)."""
    print(f"paimon-conform: {message}", file=sys.stderr, flush=True)
