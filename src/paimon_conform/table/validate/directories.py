"""Walk a table directory and check names and directories against specs/table_layout.yaml."""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from paimon_conform.core.findings import Finding
from paimon_conform.table import table_layout as tl
from paimon_conform.table.paths import OutsideRoot, contained, escapes
from paimon_conform.table.schema import TableSchema


@dataclass(frozen=True)
class BucketFile:
    """A file found in a bucket directory, with where the path puts it."""

    relative: str
    kind: str  # data, changelog or file_index
    partition: tuple[str, ...]  # unescaped path values, in partition-key order
    bucket: int
    default_prefix: bool = False  # named with Java's default prefix although the table sets another


DATA_SUFFIXES = (".parquet", ".orc", ".avro")


def kind_by_suffix(name: str) -> str | None:
    """What a file with a name Java would not give it is, by its suffix alone (Java reads a file by the name its
    manifest gives, and picks the reader by the suffix): still checked when a manifest refers to it."""
    if name.endswith(".index"):
        return "file_index"
    return "data" if name.endswith(DATA_SUFFIXES) else None


def _default_prefixes(options: tl.LayoutOptions) -> tl.LayoutOptions:
    """The same options with Java's default data and changelog prefixes."""
    return dataclasses.replace(
        options,
        data_prefix=str(tl.option_default("data-file.prefix")),
        changelog_prefix=str(tl.option_default("changelog-file.prefix")),
    )


def _finding(code: str, severity: str, file: str, message: str) -> Finding:
    return Finding(code, severity, "", None, message, file)


def _escaping(rel: str) -> Finding:
    return _finding(
        "TABLE_PATH_ESCAPES_ROOT", "must", rel, "a symlink that leads outside the table root (not followed)"
    )


@cache
def _temp_name() -> re.Pattern:
    names = tl.spec()["file_names"]
    return re.compile(names["temp_file"]["pattern"].replace("{uuid}", names["uuid"]))


def is_temp_name(name: str) -> bool:
    """Whether `name` is a temporary file's (`.<name>.<uuid>.tmp`, Java's Path.createTempPath)."""
    return _temp_name().match(name) is not None


def _temp(rel: str) -> Finding:
    msg = (
        "a temporary file (.<name>.<uuid>.tmp): a write stopped before renaming it into place left it; "
        "Java ignores it (no snapshot refers to it)"
    )
    return _finding("TABLE_UNREFERENCED_FILE", "warning", rel, msg)


def _entries(folder: Path) -> Iterator[os.DirEntry]:
    try:
        with os.scandir(folder) as it:
            yield from sorted(it, key=lambda e: e.name)
    except OSError:
        return


def walk(root: Path, schema: TableSchema) -> tuple[list[BucketFile], list[Finding]]:
    """Every file under partition / bucket directories, and the layout findings of the whole tree."""
    options = tl.LayoutOptions.of(schema.options)
    root_dirs = tl.spec()["file_names"]["root_dirs"]
    findings: list[Finding] = []
    files: list[BucketFile] = []
    data_root: Path | None = root
    skip = set(root_dirs)
    if options.path_directory:
        try:
            contained(root, options.path_directory.strip("/"))
            data_root = root / options.path_directory.strip("/")
        except OutsideRoot as out:
            msg = f"data-file.path-directory {out.reason}; the data directories are not walked"
            findings.append(_finding("TABLE_PATH_ESCAPES_ROOT", "must", schema.file, msg))
            data_root = None
        skip.add(options.path_directory.strip("/").split("/")[0])
    for entry in _entries(root):
        rel = entry.name
        if escapes(root, entry):
            findings.append(_escaping(rel))
            continue
        if entry.name in root_dirs and entry.is_dir(follow_symlinks=False):
            findings += _check_root_dir(root, entry.name, options)
    if data_root is not None:
        start = data_root if data_root.is_dir() else root
        _descend(root, start, schema, options, (), skip if start == root else set(), files, findings)
    ignored = [f for f in files if f.default_prefix]
    if ignored:
        findings.append(
            _finding(
                "TABLE_PREFIX_OPTION_IGNORED",
                "warning",
                ignored[0].relative,
                f"{len(ignored)} file(s) use the default prefix although the table sets data-file.prefix="
                f"{options.data_prefix!r} / changelog-file.prefix={options.changelog_prefix!r}; "
                "writers before Paimon 1.0 ignore these options (readers find files through the manifests)",
            )
        )
    return files, findings


def _check_root_dir(root: Path, name: str, options: tl.LayoutOptions) -> list[Finding]:
    kinds = [k for k in tl.kinds_in_dir(name) if k in tl.spec()["file_names"]["kinds"]]
    if not kinds:
        return []  # branch/, tag/, consumer/...: not part of this layout spec
    out = []
    for entry in _entries(root / name):
        rel = f"{name}/{entry.name}"
        if escapes(root, entry):
            out.append(_escaping(rel))
        elif is_temp_name(entry.name) and not entry.is_dir(follow_symlinks=False):
            out.append(_temp(rel))
        elif entry.is_dir(follow_symlinks=False) or tl.classify_file_name(entry.name, name, options) is None:
            expected = ", ".join(kinds)
            out.append(_finding("TABLE_BAD_FILE_NAME", "must", rel, f"not a well-formed name for {name}/ ({expected})"))
    return out


def _descend(
    root: Path,
    folder: Path,
    schema: TableSchema,
    options: tl.LayoutOptions,
    values: tuple[str, ...],
    skip: set[str],
    files: list[BucketFile],
    findings: list[Finding],
) -> None:
    level = len(values)
    keys = schema.partition_keys
    for entry in _entries(folder):
        if entry.name in skip:
            continue
        rel = os.path.relpath(entry.path, root).replace(os.sep, "/")
        if escapes(root, entry):
            findings.append(_escaping(rel))
            continue
        if not entry.is_dir(follow_symlinks=False):
            findings.append(_finding("TABLE_UNKNOWN_ENTRY", "warning", rel, "a file outside any bucket directory"))
            continue
        if level < len(keys):
            parts = tl.split_partition_path(entry.name, [keys[level]])
            if parts is None:
                findings.append(
                    _finding(
                        "TABLE_BAD_PARTITION_DIR",
                        "must",
                        rel,
                        f"expected the directory of partition key {keys[level]!r} ({keys[level]}=<value>)",
                    )
                )
                continue
            _descend(root, Path(entry.path), schema, options, (*values, parts[0]), set(), files, findings)
            continue
        bucket = tl.parse_bucket_dir(entry.name)
        defaults = _default_prefixes(options)
        if bucket is None:
            findings.append(_finding("TABLE_BAD_BUCKET_DIR", "must", rel, "not a bucket directory (bucket-<N>)"))
            continue
        for f in _entries(Path(entry.path)):
            frel = f"{rel}/{f.name}"
            if escapes(root, f):
                findings.append(_escaping(frel))
                continue
            if is_temp_name(f.name) and not f.is_dir(follow_symlinks=False):
                findings.append(_temp(frel))
                continue
            kind = None if f.is_dir(follow_symlinks=False) else tl.classify_file_name(f.name, "bucket", options)
            fallback = kind is None and not f.is_dir(follow_symlinks=False) and options != defaults
            if fallback:
                kind = tl.classify_file_name(f.name, "bucket", defaults)
            if kind is None:
                findings.append(
                    _finding(
                        "TABLE_BAD_FILE_NAME",
                        "must",
                        frel,
                        f"not a data ({options.data_prefix}<uuid>-<n>.<format>), changelog "
                        f"({options.changelog_prefix}...) or file-index (<data file>.index) name",
                    )
                )
                kind = None if f.is_dir(follow_symlinks=False) else kind_by_suffix(f.name)
                if kind is None:
                    continue
            files.append(BucketFile(frel, kind, values, bucket, fallback))
