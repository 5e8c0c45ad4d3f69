"""The ORC reader's worker process (formats/orc/worker.py) when the corpus check forks it (`fork_worker`)
instead of starting a Python subprocess: the same rows for every golden ORC file, a crash reported for the
file and the next read served by a fresh worker, nothing left running after the stop."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pyarrow as pa
import pytest

from paimon_conform.core.errors import UsageError
from paimon_conform.formats.orc import worker as orc_worker

EVIDENCE = ("kit", "contract")

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
ORC_FILES = sorted(str(p) for p in (GOLDEN / "tables").rglob("*.orc"))


def _forked_pool() -> ProcessPoolExecutor:
    """A one-process pool set up as the corpus check sets up its workers."""
    orc_worker.warm()
    return ProcessPoolExecutor(1, mp_context=mp.get_context("fork"), initializer=orc_worker.fork_worker)


def _same(a: pa.Table, b: pa.Table) -> bool:
    """Equal schemas and values, NaN equal to NaN (Table.equals says no; the IPC bytes differ in null slots)."""
    return a.schema == b.schema and repr(a.to_pylist()) == repr(b.to_pylist())


def _read_in_worker(path: str) -> tuple[str, object]:
    worker = orc_worker._worker
    return type(worker).__name__, orc_worker.read_orc(path)


def test_the_forked_worker_reads_what_the_subprocess_reads():
    assert len(ORC_FILES) >= 10
    with _forked_pool() as pool:
        forked = list(pool.map(_read_in_worker, ORC_FILES))
    for path, (kind, table) in zip(ORC_FILES, forked, strict=True):
        assert kind == "_Forked"
        assert _same(table, orc_worker.read_orc(path)), path  # this process: the subprocess worker
    assert type(orc_worker._worker).__name__ == "Popen"


def _crash_then_read(path: str) -> list[str]:
    seen = []
    orc_worker.read_orc(path)
    first = orc_worker._worker
    os.kill(first.pid, signal.SIGKILL)  # what a segmentation fault in the reader does to the worker
    try:
        orc_worker.read_orc(path)
        seen.append("read")
    except UsageError as exc:
        seen.append(str(exc))
    with pytest.raises(ChildProcessError):  # the crashed worker was reaped
        os.waitpid(first.pid, os.WNOHANG)
    table = orc_worker.read_orc(path)
    seen.append(f"{type(orc_worker._worker).__name__} {table.num_rows}")
    forked = orc_worker._worker
    orc_worker._stop()
    seen.append(f"stopped {forked.returncode}")
    return seen


def test_a_crash_is_the_files_error_and_the_next_read_has_a_fresh_worker():
    rows = orc_worker.read_orc(ORC_FILES[0]).num_rows
    with _forked_pool() as pool:
        seen = pool.submit(_crash_then_read, ORC_FILES[0]).result()
    assert seen == [
        "the ORC reader crashed on this file (damaged ORC structure)",
        f"Popen {rows}",  # after a crash: the plain subprocess, as in any other process
        "stopped 0",
    ]


def _stop_forked(path: str) -> tuple[int, int | None]:
    orc_worker.read_orc(path)
    worker = orc_worker._worker
    orc_worker._stop()
    try:
        os.waitpid(worker.pid, os.WNOHANG)
        reaped = False
    except ChildProcessError:
        reaped = True
    return int(reaped), worker.returncode


def test_the_stop_ends_and_reaps_the_forked_worker():
    with _forked_pool() as pool:
        assert pool.submit(_stop_forked, ORC_FILES[0]).result() == (1, 0)


def test_a_forked_reader_leaves_its_parents_zone_directory(tmp_path, monkeypatch):
    """This process has a private zone directory (prepare_pyarrow made one, as an in-process read does): the
    workers forked from it inherit the variable, never remove the directory, and read as before."""
    from paimon_conform.formats.orc import tzdir

    private = tmp_path / "tzdir"  # as prepare_pyarrow makes it: the system's zone files linked
    private.mkdir()
    for entry in Path("/usr/share/zoneinfo").iterdir():
        (private / entry.name).symlink_to(entry)
    monkeypatch.setattr(tzdir, "_TZDIR", private)
    monkeypatch.setattr(tzdir, "_TZDIR_OWNER", os.getpid())
    monkeypatch.setattr(tzdir, "_TZDIR_BEFORE", os.environ.get("TZDIR"))
    monkeypatch.setenv("TZDIR", str(private))
    with _forked_pool() as pool:  # a reader stopped before its first read
        pool.submit(orc_worker._stop).result()
    assert private.is_dir()
    with _forked_pool() as pool:
        forked = list(pool.map(_read_in_worker, ORC_FILES))
        seen = pool.submit(_crash_then_read, ORC_FILES[0]).result()
    assert private.is_dir()
    assert (private / "UTC").is_symlink()
    assert [kind for kind, _ in forked] == ["_Forked"] * len(ORC_FILES)
    assert seen[0].startswith("the ORC reader crashed")


def test_workers_forked_from_a_reading_process_leave_its_reader_running():
    """This process reads through its own subprocess worker; the pool's workers inherit it through the fork,
    fork their own, and must not end this one: its next read is served by the same process, not a crash."""
    rows = orc_worker.read_orc(ORC_FILES[0]).num_rows
    mine = orc_worker._worker
    with _forked_pool() as pool:
        kinds = [kind for kind, _ in pool.map(_read_in_worker, ORC_FILES[:3])]
        pool.submit(orc_worker._stop).result()
    assert kinds == ["_Forked"] * 3
    assert orc_worker.read_orc(ORC_FILES[0]).num_rows == rows
    assert orc_worker._worker is mine
    assert mine.poll() is None
