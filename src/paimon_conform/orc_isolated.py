"""Read ORC files in a worker process.

pyarrow 19's ORC reader can crash the whole process (a segmentation fault in
`ORCFile.__init__`) on a damaged file, which a validator must survive: damaged files are
its normal input. Every ORC read therefore goes to one long-lived worker process (spawned
on first use, so the parent's threads are never forked); the table comes back as Arrow
IPC. A crashed worker turns into a UsageError for that file, and the next read starts a
fresh worker.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pyarrow as pa

from .errors import UsageError

_pool: ProcessPoolExecutor | None = None


def _read_ipc(path: str) -> bytes:
    """(worker) The ORC file's rows as an Arrow IPC stream."""
    import pyarrow.orc as po

    table = po.ORCFile(path).read()
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def _executor() -> ProcessPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    return _pool


def read_orc(path: str | Path) -> pa.Table:
    """All rows of an ORC file; UsageError when the file is unreadable or crashes the reader."""
    global _pool
    try:
        data = _executor().submit(_read_ipc, str(path)).result()
    except BrokenProcessPool:
        _pool = None
        raise UsageError("the ORC reader crashed on this file (damaged ORC structure)") from None
    except Exception as exc:  # noqa: BLE001 - whatever the worker raised, for this one file
        raise UsageError(f"cannot read the ORC file: {exc.__class__.__name__}: {exc}") from None
    return pa.ipc.open_stream(data).read_all()
