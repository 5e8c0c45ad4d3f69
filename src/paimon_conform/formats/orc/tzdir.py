"""pyarrow's time zone database: ORC C++ loads every stripe's writer zone from $TZDIR and fails the whole read
when it is missing; prepare_pyarrow gives it a private directory where Java's own IDs resolve."""

from __future__ import annotations

import atexit
import datetime as dt
import os
import re
import shutil
import tempfile
from pathlib import Path

from paimon_conform.formats.orc.errors import OrcError
from paimon_conform.formats.orc.java_zones import JAVA_OLD_IDS, java_zone
from paimon_conform.formats.orc.timestamps import writer_zones

_TZDIR: Path | None = None
_TZDIR_OWNER: int | None = None  # the process that made it (a forked one inherits the variable, not the directory)
_TZDIR_BEFORE: str | None = None  # TZDIR before it pointed there


def _system_zoneinfo() -> Path | None:
    for candidate in (os.environ.get("TZDIR"), "/usr/share/zoneinfo"):
        if candidate and Path(candidate, "UTC").is_file():
            return Path(candidate)
    try:
        import importlib.resources

        root = Path(str(importlib.resources.files("tzdata") / "zoneinfo"))
        return root if (root / "UTC").is_file() else None
    except (ImportError, ModuleNotFoundError, TypeError):
        return None


def _tzif_fixed(seconds: int) -> bytes:
    """A TZif (version 2) file for a fixed offset with no transitions."""
    import struct

    abbr = b"GMT\x00"
    header = b"TZif2" + b"\x00" * 15
    counts = struct.pack(">6l", 0, 0, 0, 0, 1, len(abbr))
    body = struct.pack(">lBB", seconds, 0, 0) + abbr
    sign = "-" if seconds > 0 else "+"  # POSIX TZ strings count west of Greenwich as positive
    h, rest = divmod(abs(seconds), 3600)
    footer = f"\n<GMT{'+' if seconds >= 0 else '-'}{h:02d}{rest // 60:02d}>{sign}{h}:{rest // 60:02d}\n".encode()
    return header + counts + body + header + counts + body + footer


def drop_private_tzdir() -> None:
    """Remove the private zone directory prepare_pyarrow made in this process, if any (a process that leaves
    by os._exit runs no exit handler); one a forked process inherited belongs to its parent and stays."""
    if _TZDIR is not None and os.getpid() == _TZDIR_OWNER:
        shutil.rmtree(_TZDIR, ignore_errors=True)
    _forget_tzdir()


def _forget_tzdir() -> None:
    """Stop using the private zone directory: TZDIR back to what it was before it."""
    global _TZDIR
    if _TZDIR is not None and os.environ.get("TZDIR") == str(_TZDIR):
        if _TZDIR_BEFORE is None:
            os.environ.pop("TZDIR", None)
        else:
            os.environ["TZDIR"] = _TZDIR_BEFORE
    _TZDIR = None


def prepare_pyarrow(path: str | Path) -> None:
    """Let pyarrow open `path` although a stripe's writer zone is no IANA name ('GMT+08:00', 'CTT').

    ORC C++ loads every stripe's writer zone from $TZDIR (default /usr/share/zoneinfo) and
    fails the whole read when it is missing. The first call points TZDIR at a private
    directory mirroring the system's zone files (or the tzdata package's); every call adds
    files for the IDs of `path` that are missing there (the zone Java means, or GMT).
    Call it before pyarrow opens the file, in a process of its own (it sets os.environ).
    pyarrow's timestamp values for those stripes still need `fix_table`.
    """
    global _TZDIR, _TZDIR_OWNER, _TZDIR_BEFORE
    if _TZDIR is not None and os.getpid() != _TZDIR_OWNER:
        _forget_tzdir()  # forked: the directory is the parent's, which may remove it; this process makes its own
    if _TZDIR is not None and os.environ.get("TZDIR") != str(_TZDIR):
        os.environ["TZDIR"] = str(_TZDIR)
    try:
        zones = {z for z in writer_zones(path) if z}
    except (OrcError, OSError):
        return
    if not zones:
        return
    if _TZDIR is None:
        source = _system_zoneinfo()
        if source is None:
            return
        target = Path(tempfile.mkdtemp(prefix="paimon-conform-tzdir-"))
        atexit.register(shutil.rmtree, target, True)
        for entry in source.iterdir():
            (target / entry.name).symlink_to(entry)
        _TZDIR_BEFORE = os.environ.get("TZDIR")
        os.environ["TZDIR"] = str(target)
        _TZDIR, _TZDIR_OWNER = target, os.getpid()
    for zone in zones:
        if not _SAFE_ZONE_ID.fullmatch(zone) or (_TZDIR / zone).exists() or (_TZDIR / zone).is_symlink():
            continue
        parent = _TZDIR
        for part in zone.split("/")[:-1]:  # never write through a link into the system's directory
            parent = parent / part
            if parent.is_symlink():
                linked = parent.resolve()
                parent.unlink()
                parent.mkdir()
                if linked.is_dir():
                    for entry in linked.iterdir():
                        (parent / entry.name).symlink_to(entry)
            parent.mkdir(exist_ok=True)
        target_id = JAVA_OLD_IDS.get(zone)
        alias = _TZDIR / target_id if target_id else None
        jz = java_zone(zone)
        if alias is not None and alias.is_file():
            (_TZDIR / zone).write_bytes(alias.read_bytes())
        else:
            (_TZDIR / zone).write_bytes(_tzif_fixed(jz.raw_seconds if isinstance(jz.tz, dt.timezone) else 0))


_SAFE_ZONE_ID = re.compile(r"[A-Za-z0-9_+\-:]+(/[A-Za-z0-9_+\-:]+)*")
