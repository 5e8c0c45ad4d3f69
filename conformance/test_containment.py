"""Containment: the validator, the reader and the writer never open a path outside the table root.

Each case damages a table the kit wrote so that one name or symlink leads to `outside/`, a
full copy of the same table beside it (so following the escape would find well-formed
files). A Python audit hook records every file the process opens and every directory it
lists; nothing under `outside/` may appear, and the escape must be reported (a must-finding
from `validate`, a UsageError from the reader and the writer).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext, suppress
from pathlib import Path

import fastavro
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.errors import UsageError
from paimon_conform.table import paths
from paimon_conform.table.read import reader
from paimon_conform.table.validate.table import validate_table
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("contract",)

_AUDIT: dict = {"watch": None, "seen": []}
EVENTS = {"open", "os.listdir", "os.scandir", "os.chdir", "shutil.copyfile", "os.rename", "os.remove", "os.link"}


def _hook(event: str, args: tuple) -> None:
    watch = _AUDIT["watch"]
    if watch is None or event not in EVENTS or not args:
        return
    target = args[0]
    if isinstance(target, int) or target is None:
        return
    _AUDIT["watch"] = None  # realpath below must not re-enter
    try:
        real = os.path.realpath(os.fsdecode(target))
        if real == watch or real.startswith(watch + os.sep):
            _AUDIT["seen"].append((event, os.fsdecode(target)))
    finally:
        _AUDIT["watch"] = watch


sys.addaudithook(_hook)


@contextmanager
def watching(outside: Path) -> Iterator[list]:
    """Record every open / listing of a path under `outside` made inside the block."""
    _AUDIT["seen"] = []
    _AUDIT["watch"] = os.path.realpath(outside)
    try:
        yield _AUDIT["seen"]
    finally:
        _AUDIT["watch"] = None


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A DV primary-key table with `.index` sidecars, two partitions, two buckets, two snapshots."""
    root = tmp_path_factory.mktemp("pristine") / "t"
    write_table(root, rows=60, buckets=2)
    return root


def _first(root: Path, pattern: str) -> Path:
    return sorted(root.glob(pattern))[0]


def _latest(root: Path) -> Path:
    return max(root.glob("snapshot/snapshot-*"), key=lambda p: int(p.name.split("-")[1]))


def _link(root: Path, rel: str) -> None:
    """Replace `root/rel` by a symlink to the same path in the copy beside the table."""
    target = root.parent / "outside" / rel
    path = root / rel
    shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    path.symlink_to(target, target_is_directory=target.is_dir())


def _link_first(pattern: str) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        _link(root, _first(root, pattern).relative_to(root).as_posix())

    return mutate


def _snapshot_field(name: str, value: Callable[[Path, dict], str]) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        path = _latest(root)
        doc = json.loads(path.read_text())
        doc[name] = value(root, doc)
        path.write_text(json.dumps(doc))

    return mutate


def _path_directory(root: Path) -> None:
    """`data-file.path-directory=../outside`: the data would be read from the copy's partitions."""
    schema = _first(root, "schema/schema-*")
    doc = json.loads(schema.read_text())
    doc["options"]["data-file.path-directory"] = "../outside"
    schema.write_text(json.dumps(doc))


def _manifest_field(change: Callable[[dict, Path], None]) -> Callable[[Path], None]:
    """Rewrite the manifests of the latest snapshot's lists, changing each ADD entry's file record."""

    def mutate(root: Path) -> None:
        for manifest in sorted((root / "manifest").glob("manifest-*")):
            if manifest.name.startswith("manifest-list"):
                continue
            with manifest.open("rb") as f:
                rd = fastavro.reader(f)
                schema, records = rd.writer_schema, list(rd)
            for r in records:
                if r["_KIND"] == 0:
                    change(r["_FILE"], root)
            with manifest.open("wb") as f:
                fastavro.writer(f, schema, records)

    return mutate


def _extra_index(record: dict, root: Path) -> None:
    record["_EXTRA_FILES"] = [f"../../../outside/{_first(root, '*/bucket-*/*.index').relative_to(root)}"]


def _file_name(record: dict, root: Path) -> None:
    record["_FILE_NAME"] = f"../../../outside/{_first(root, '*/bucket-*/data-*').relative_to(root)}"


def _new_partition_linked(root: Path) -> None:
    """A directory for a partition the table does not have yet, linked to the copy beside it."""
    target = root.parent / "outside" / NEW_PARTITION
    target.mkdir()
    (root / NEW_PARTITION).symlink_to(target, target_is_directory=True)


NEW_PARTITION = "dt=2099-01-01"

MUTATIONS: dict[str, Callable[[Path], None]] = {
    "snapshot dir symlinked": lambda r: _link(r, "snapshot"),
    "snapshot file symlinked": lambda r: _link(r, _latest(r).relative_to(r).as_posix()),
    "LATEST symlinked": lambda r: _link(r, "snapshot/LATEST"),
    "schema dir symlinked": lambda r: _link(r, "schema"),
    "schema file symlinked": _link_first("schema/schema-*"),
    "manifest dir symlinked": lambda r: _link(r, "manifest"),
    "manifest file symlinked": _link_first("manifest/manifest-list-*"),
    "index dir symlinked": lambda r: _link(r, "index"),
    "index file symlinked": _link_first("index/index-*"),
    "file index sidecar symlinked": _link_first("*/bucket-*/*.index"),
    "data file symlinked": _link_first("*/bucket-*/data-*.parquet"),
    "bucket dir symlinked": _link_first("*/bucket-*"),
    "partition dir symlinked": _link_first("dt=*"),
    "new partition dir symlinked": _new_partition_linked,
    "manifest list named ../": _snapshot_field(
        "baseManifestList", lambda r, d: f"../../outside/manifest/{d['baseManifestList']}"
    ),
    "index manifest named ../": _snapshot_field(
        "indexManifest", lambda r, d: f"../../outside/manifest/{d['indexManifest']}"
    ),
    "data-file.path-directory=../outside": _path_directory,
    "_EXTRA_FILES named ../": _manifest_field(_extra_index),
    "_FILE_NAME named ../": _manifest_field(_file_name),
}


@pytest.fixture
def damaged(pristine, tmp_path, request) -> tuple[Path, Path]:
    """(table, outside): a copy of the pristine table with one escape, and the copy it escapes to."""
    root = tmp_path / "t"
    shutil.copytree(pristine, root, symlinks=True)
    outside = tmp_path / "outside"
    shutil.copytree(pristine, outside, symlinks=True)
    MUTATIONS[request.param](root)
    return root, outside


def _must_codes(root: Path) -> list[str]:
    return [f.code for r in validate_table(root) for f in r.findings if f.severity == "must"] + [
        f"UNUSABLE: {r.unusable}" for r in validate_table(root) if r.unusable
    ]


@pytest.mark.parametrize("damaged", sorted(MUTATIONS), indirect=True)
def test_validate_reports_the_escape_and_never_reads_outside(damaged):
    root, outside = damaged
    with watching(outside) as seen:
        results = validate_table(root)
    assert seen == [], f"the validator opened paths outside the table: {seen[:5]}"
    lines = [f.line() for r in results for f in r.findings if f.severity == "must"]
    lines += [r.unusable for r in results if r.unusable]
    assert any("outside the table" in line or "ESCAPES_ROOT" in line for line in lines), lines


@pytest.mark.parametrize("damaged", sorted(MUTATIONS), indirect=True)
def test_reader_refuses_or_reads_only_inside(damaged):
    root, outside = damaged
    with watching(outside) as seen, suppress(UsageError):
        reader.read_latest(root)
    assert seen == [], f"the reader opened paths outside the table: {seen[:5]}"


@pytest.mark.parametrize("damaged", sorted(MUTATIONS), indirect=True)
def test_writer_never_writes_or_reads_outside(damaged):
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    root, outside = damaged
    rows = pa.table(
        {
            "dt": ["2024-01-01", "2099-01-01"],
            "id": pa.array([10_000, 10_001], pa.int64()),
            "v": [1.0, 2.0],
            "s": ["a", "b"],
        }
    )
    with watching(outside) as seen:
        try:
            plan = write.prepare(root, rows.schema, {}, overwrite=False)
            commit.commit(plan, [write.write_task(plan, rows.to_batches(), 0)])
        except UsageError:
            pass
    assert seen == [], f"the writer touched paths outside the table: {seen[:5]}"


def test_a_clean_copy_is_followed(pristine, tmp_path):
    """Control: the same audit sees the reads when the table itself is the watched directory."""
    root = tmp_path / "t"
    shutil.copytree(pristine, root)
    with watching(root) as seen:
        results = validate_table(root)
    assert not [f for r in results for f in r.findings if f.severity == "must"]
    opened = {Path(p).name for _, p in seen}
    assert any(n.startswith("snapshot-") for n in opened)
    assert any(n.endswith(".index") for n in opened)


@pytest.mark.parametrize("folder", ["manifest", "snapshot", "schema", "index"])
def test_a_new_table_whose_metadata_folder_leads_outside_is_not_written_through(tmp_path, folder):
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    root, outside = tmp_path / "t", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / folder).symlink_to(outside, target_is_directory=True)
    rows = pa.table({"k": pa.array([1, 2], pa.int64()), "v": ["a", "b"]})
    options = {"primary-key": "k", "bucket": "-1"}  # dynamic bucket: a HASH file goes to index/

    def write_once() -> None:
        plan = write.prepare(root, rows.schema, options, overwrite=False)
        commit.commit(plan, [write.write_task(plan, rows.to_batches(), 0)])

    with watching(outside) as seen, pytest.raises(UsageError, match="outside the table"):
        write_once()
    assert seen == []
    assert list(outside.iterdir()) == []


_ELEMENT = st.sampled_from(["a", "b", "f", "l1", "l2", "l3", "nope"])
_TARGET = st.sampled_from(["a", "b", "a/b", "../out", "/", "f", "l1", "l2", "nope", "a/l2", "../t/a", "."])


@given(
    links=st.lists(st.tuples(st.sampled_from(["l1", "a/l2", "a/b/l3"]), _TARGET), max_size=3, unique_by=lambda t: t[0]),
    names=st.lists(st.lists(_ELEMENT, min_size=0, max_size=5), min_size=1, max_size=8),
)
def test_resolving_below_the_real_root_equals_realpath(tmp_path_factory, links, names):
    """contained()'s walk below the root's real path gives os.path.realpath's answer for every name: plain
    directories and files, missing elements, a file named as a directory, symlinks in and out, chains, loops."""
    top = tmp_path_factory.mktemp("walk")
    (top / "out").mkdir()
    root = top / "t"
    (root / "a" / "b").mkdir(parents=True)
    (root / "f").write_text("x")
    for name, target in links:
        (root / name).symlink_to(target)
    base = os.path.realpath(root)
    for parts in names:
        rel = "/".join(parts)
        want = os.path.realpath(os.path.join(root, *parts))
        assert paths._real_below(base, tuple(parts)) == want, rel
        outside = not (want == base or want.startswith(base + os.sep))
        for pinned in (False, True):  # validate_table resolves the root once per run (paths.pinned_root)
            with paths.pinned_root(root) if pinned else nullcontext():
                if outside:
                    with pytest.raises(paths.OutsideRoot):
                        paths.contained(root, rel)
                else:
                    assert str(paths.contained(root, rel)) == want
