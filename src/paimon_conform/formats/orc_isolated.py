"""Read ORC files in a worker process.

pyarrow 19's ORC reader can crash the whole process (a segmentation fault in
`ORCFile.__init__`) on a damaged file, which a validator must survive: damaged files are
its normal input. Every ORC read therefore goes to one long-lived worker, started as
`python -m paimon_conform.formats.orc_isolated` (a plain subprocess: nothing of the caller's
`__main__` is re-run, unlike multiprocessing's spawn). The protocol on its pipes: a request
per line in (a path, or a path, NUL, the first stripe, NUL, the number of stripes); a status
byte, a big-endian length and an Arrow IPC stream (or an error text) out. A crashed worker
turns into a UsageError for that file, and the next read starts a fresh worker.
"""

from __future__ import annotations

import atexit
import struct
import subprocess
import sys
from pathlib import Path

import pyarrow as pa

from paimon_conform.core.errors import UsageError

_worker: subprocess.Popen | None = None


def _read_ipc(request: str) -> bytes:
    """(worker) The ORC file's rows (or those of some stripes) as Java Paimon's reader returns them, as an
    Arrow IPC stream.

    Timestamps come from orc_timestamps (Java's arithmetic and zones: pyarrow reads them a second off near
    the epoch, TIMESTAMP_LTZ shifted by the writer's zone, and cannot open files of Java-only zone ids),
    for some stripes always as exact decimal nanoseconds (so every window of a file has one type);
    CHAR(n) values right-trimmed, as Java's reader returns them.
    """
    import pyarrow.compute as pc
    import pyarrow.orc as po

    from paimon_conform.formats.orc_timestamps import char_columns, fix_table, prepare_pyarrow

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


def _serve() -> None:
    """(worker) Answer read requests until stdin closes."""
    out = sys.stdout.buffer
    for line in sys.stdin:
        try:
            status, payload = b"0", _read_ipc(line.rstrip("\n"))
        except Exception as exc:  # noqa: BLE001 - reported to the caller as text
            status, payload = b"1", f"{exc.__class__.__name__}: {exc}".encode()
        out.write(status + struct.pack(">Q", len(payload)) + payload)
        out.flush()


def _stop() -> None:
    global _worker
    if _worker is not None:
        _worker.stdin.close()  # type: ignore[union-attr]
        _worker.wait(timeout=10)
        _worker = None


def _start() -> subprocess.Popen:
    global _worker
    if _worker is None or _worker.poll() is not None:
        cmd = [sys.executable, "-m", "paimon_conform.formats.orc_isolated"]
        _worker = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=False)
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
    if status != b"0":
        raise UsageError(f"cannot read the ORC file: {payload.decode(errors='replace')}")
    return pa.ipc.open_stream(payload).read_all()


if __name__ == "__main__":
    _serve()
