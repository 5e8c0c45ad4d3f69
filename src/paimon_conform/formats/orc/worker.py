"""Read ORC files in a worker process.

pyarrow 19's ORC reader can crash the whole process (a segmentation fault in
`ORCFile.__init__`) on a damaged file, which a validator must survive: damaged files are
its normal input. Every ORC read therefore goes to one long-lived worker, started as
`python -m paimon_conform.formats.orc.worker` (a plain subprocess: nothing of the caller's
`__main__` is re-run, unlike multiprocessing's spawn). The protocol on its pipes: a request
per line in (a path, or a path, NUL, the first stripe, NUL, the number of stripes); a status
byte, a big-endian length and an Arrow IPC stream (or an error text) out. A crashed worker
turns into a UsageError for that file, and the next read starts a fresh worker.

A process that is about to read many ORC files and is still single-threaded, with nothing read
through Arrow yet (a worker the corpus check has just forked), can instead fork its worker with
`fork_worker`: the same protocol on the same kind of pipes, without a new interpreter importing
pyarrow (about 0.4 s of CPU a worker). A fork is taken only there: forking a process whose
threads may hold locks is not safe, so every other process starts the subprocess.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import BinaryIO

import pyarrow as pa

from paimon_conform.core.errors import UsageError

_worker: subprocess.Popen | _Forked | None = None
_owner: int | None = None  # the process that started _worker (a forked process inherits the variable only)


def _read_ipc(request: str) -> bytes:
    """(worker) The ORC file's rows (or those of some stripes) as Java Paimon's reader returns them, as an
    Arrow IPC stream.

    Timestamps come from orc.timestamps (Java's arithmetic and zones: pyarrow reads them a second off near
    the epoch, TIMESTAMP_LTZ shifted by the writer's zone, and cannot open files of Java-only zone ids),
    for some stripes always as exact decimal nanoseconds (so every window of a file has one type);
    CHAR(n) values right-trimmed, as Java's reader returns them.
    """
    import pyarrow.compute as pc
    import pyarrow.orc as po

    from paimon_conform.formats.orc.tail import char_columns
    from paimon_conform.formats.orc.timestamps import fix_table
    from paimon_conform.formats.orc.tzdir import prepare_pyarrow

    path, *window = request.split("\0")
    prepare_pyarrow(path)  # before pyarrow opens the file: its writer zone must resolve
    if window:
        first, count = int(window[0]), int(window[1])
        stripes = range(first, first + count)
        f = po.ORCFile(path)
        table = pa.Table.from_batches([f.read_stripe(i) for i in stripes], f.schema)
        table = fix_table(path, table, stripes=stripes, exact=True)
    else:
        table = fix_table(path, po.ORCFile(path).read())
    for name in char_columns(path):
        if name in table.column_names and pa.types.is_string(table.schema.field(name).type):
            table = table.set_column(table.column_names.index(name), name, pc.utf8_rtrim(table.column(name), " "))
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return sink.getvalue().to_pybytes()


def _serve(requests: BinaryIO | None = None, out: BinaryIO | None = None) -> None:
    """(worker) Answer read requests until the request pipe (stdin by default) closes."""
    requests = requests if requests is not None else sys.stdin.buffer
    out = out if out is not None else sys.stdout.buffer
    for raw in requests:
        try:
            status, payload = b"0", _read_ipc(raw.decode("utf-8", "surrogateescape").rstrip("\n"))
        except MemoryError as exc:  # the worker ran out: the caller's MemoryError, never a fault of the file
            status, payload = b"2", f"{exc.__class__.__name__}: {exc}".encode()
        except Exception as exc:  # noqa: BLE001 - reported to the caller as text
            status, payload = b"1", f"{exc.__class__.__name__}: {exc}".encode()
        out.write(status + struct.pack(">Q", len(payload)) + payload)
        out.flush()


def warm() -> None:
    """Import what a read needs, so that a worker forked from this process (fork_worker) starts ready."""
    import pyarrow.compute
    import pyarrow.orc  # noqa: F401

    import paimon_conform.formats.orc.timestamps
    import paimon_conform.formats.orc.tzdir  # noqa: F401


class _Forked:
    """A worker forked from this process (fork_worker), with the part of subprocess.Popen's interface the
    reads use: stdin / stdout pipes, poll, kill, wait."""

    def __init__(self) -> None:
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker: serve, then leave without the parent's exit handlers or buffers
            code = 1
            try:
                os.close(request_w)
                os.close(reply_r)
                with open(request_r, "rb") as requests, open(reply_w, "wb") as replies:
                    _serve(requests, replies)
                code = 0
            finally:
                from paimon_conform.formats.orc import tzdir

                tzdir.drop_private_tzdir()
                os._exit(code)
        os.close(request_r)
        os.close(reply_w)
        self.pid = pid
        self.stdin = open(request_w, "wb")  # noqa: SIM115 - closed by _stop / _close
        self.stdout = open(reply_r, "rb")  # noqa: SIM115
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped already, or not this process's child
                done, status = self.pid, 0
            if done:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)

    def wait(self, timeout: float | None = None) -> int:
        if timeout is not None:
            deadline = time.monotonic() + timeout
            while self.poll() is None:
                if time.monotonic() > deadline:
                    raise subprocess.TimeoutExpired(f"ORC worker {self.pid}", timeout)
                time.sleep(0.01)
        if self.returncode is None:
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:
                status = 0
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def fork_worker() -> None:
    """Fork this process's ORC worker now (see the module's note: only in a process that is single-threaded
    and has read nothing through Arrow yet); call warm() before, in the process this one was forked from."""
    global _worker, _owner
    _close()
    _worker, _owner = _Forked(), os.getpid()
    atexit.register(_stop)


def _close() -> None:
    """Let go of the current worker, if any: close this process's ends of its pipes; end and reap it when this
    process started it (one inherited from the process this one was forked from is that process's, and runs on)."""
    global _worker
    if _worker is not None:
        for stream in (_worker.stdin, _worker.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        if _owner == os.getpid():
            _worker.kill()
            _worker.wait()
        _worker = None


def _drop_inherited() -> None:
    """Let go of a worker this process inherited through a fork (its parent's, which it must not end)."""
    if _worker is not None and _owner != os.getpid():
        _close()


def _stop() -> None:
    global _worker
    _drop_inherited()
    if _worker is not None:
        _worker.stdin.close()  # type: ignore[union-attr]
        try:
            _worker.wait(timeout=10)
        except subprocess.TimeoutExpired:  # the request pipe still open elsewhere (a process forked since)
            _worker.kill()
            _worker.wait()
        _worker = None


def _start() -> subprocess.Popen:
    global _worker, _owner
    _drop_inherited()
    if _worker is None or _worker.poll() is not None:
        cmd = [sys.executable, "-m", "paimon_conform.formats.orc.worker"]
        _worker = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=False)
        _owner = os.getpid()
        atexit.register(_stop)
    return _worker


def _read_exact(stream, n: int) -> bytes:
    data = stream.read(n)
    if data is None or len(data) != n:
        raise EOFError
    return data


def read_orc(path: str | Path, stripes: range | None = None) -> pa.Table:
    """All rows of an ORC file, or those of some consecutive `stripes` (timestamps then exact decimal
    nanoseconds); UsageError when the file is unreadable or crashes the reader."""
    global _worker
    text = str(Path(path).resolve())
    if "\n" in text or "\0" in text:
        raise UsageError("an ORC path with a line break or NUL cannot be passed to the reader")
    if stripes is not None:
        text += f"\0{stripes.start}\0{len(stripes)}"
    worker = _start()
    try:
        worker.stdin.write(text.encode() + b"\n")  # type: ignore[union-attr]
        worker.stdin.flush()  # type: ignore[union-attr]
        status = _read_exact(worker.stdout, 1)
        (size,) = struct.unpack(">Q", _read_exact(worker.stdout, 8))
        payload = _read_exact(worker.stdout, size)
    except (OSError, EOFError, struct.error):
        worker.kill()
        worker.wait()
        _worker = None
        raise UsageError("the ORC reader crashed on this file (damaged ORC structure)") from None
    if status == b"2":
        raise MemoryError(f"the ORC reader ran out of memory: {payload.decode(errors='replace')}")
    if status != b"0":
        raise UsageError(f"cannot read the ORC file: {payload.decode(errors='replace')}")
    return pa.ipc.open_stream(payload).read_all()


if __name__ == "__main__":
    _serve()
