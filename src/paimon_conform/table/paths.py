"""Containment: the one way the kit turns a name from a table into a path it opens.

Every file and directory the validator, the reader and the writer open under a table is
resolved here: the name must be relative (no absolute path, no `..`, no NUL), each element
short enough for a file system (NAME_MAX), and its real path (every symlink resolved) must
lie under the real path of the table root. Anything else raises OutsideRoot (a UsageError)
and is never opened; the validator reports it as a finding. Files a manifest places at an
external path (`data-file.external-paths`, Paimon 1.1+) are reported and not opened.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path, PurePosixPath

from paimon_conform.core.errors import UsageError

NAME_MAX = 255  # bytes of one path element (Linux, macOS)
PATH_MAX = 4096  # bytes of a whole path


class OutsideRoot(UsageError):
    """A name from a table that does not resolve to a path under its root: never opened."""

    def __init__(self, root: Path | str, relative: str, reason: str) -> None:
        shown = relative if len(relative) <= 200 else relative[:200] + f"... ({len(relative)} characters)"
        super().__init__(f"{root}: {shown!r} {reason}; not opened")
        self.root, self.relative, self.reason = str(root), shown, reason


def plain_name(name: str) -> bool:
    """Whether a name a metadata file gives is one path element (no separator, not `.` or `..`)."""
    return not ("/" in name or "\\" in name or "\x00" in name or name in ("", ".", ".."))


def _short(element: str) -> bool:
    return len(element) <= NAME_MAX and len(element.encode("utf-8", "surrogatepass")) <= NAME_MAX


def _real(path: Path | str) -> str:
    return os.path.realpath(path)


_PINNED: ContextVar[dict[str, str] | None] = ContextVar("paimon_conform_pinned_roots", default=None)


@contextmanager
def pinned_root(root: Path | str) -> Iterator[None]:
    """Resolve the root's real path once for the block (one validation run) instead of once per name: the
    containment check itself is unchanged, every name is still resolved below that real path."""
    key = os.fspath(root)
    token = _PINNED.set({**(_PINNED.get() or {}), key: _real(root)})
    try:
        yield
    finally:
        _PINNED.reset(token)


def _real_root(root: Path | str) -> str:
    pinned = _PINNED.get()
    base = pinned.get(os.fspath(root)) if pinned else None
    return base if base is not None else _real(root)


def _real_below(base: str, parts: tuple[str, ...]) -> str:
    """os.path.realpath(base/parts...) for a real `base` and plain parts (no `.`, `..` or empty element):
    one lstat per part below the base instead of one per element from `/`. A symlink on the way hands the
    whole path to realpath; a missing element ends the walk, as in realpath (nothing under it can exist)."""
    path = base
    for i, part in enumerate(parts):
        path = os.path.join(path, part)
        try:
            mode = os.lstat(path).st_mode
        except OSError:  # missing, or a file where a directory was named: realpath keeps the rest as written
            return os.path.join(path, *parts[i + 1 :])
        if stat.S_ISLNK(mode):
            return _real(os.path.join(base, *parts))
    return path


def _under(real: str, base: str) -> bool:
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def contained(root: Path, relative: str) -> Path:
    """The real path of `root/relative`; OutsideRoot when the name or a symlink on the way leads out of the root."""
    if "\x00" in relative:
        raise OutsideRoot(root, relative, "contains a NUL character")
    if len(relative) > PATH_MAX:
        raise OutsideRoot(root, relative, f"is longer than {PATH_MAX} characters")
    rel = PurePosixPath(relative)
    if rel.is_absolute() or "\\" in relative:
        raise OutsideRoot(root, relative, "is not a relative path")
    if ".." in rel.parts:
        raise OutsideRoot(root, relative, "contains '..'")
    if not all(_short(p) for p in rel.parts):
        raise OutsideRoot(root, relative, f"has an element longer than {NAME_MAX} bytes")
    try:
        base = _real_root(root)
        real = _real_below(base, rel.parts)
    except (OSError, RuntimeError, ValueError) as exc:
        raise OutsideRoot(root, relative, f"cannot be resolved ({exc.__class__.__name__})") from None
    if not _under(real, base):
        raise OutsideRoot(root, relative, "leads outside the table root (a symlink)")
    return Path(real)


def inside(root: Path, relative: str) -> Path | None:
    """The real path of `root/relative` when it stays under the root, else None."""
    try:
        return contained(root, relative)
    except OutsideRoot:
        return None


def is_file(root: Path, relative: str) -> bool:
    """Whether `relative` is a regular file under the root (False when it escapes)."""
    path = inside(root, relative)
    return path is not None and path.is_file()


def is_dir(root: Path, relative: str) -> bool:
    """Whether `relative` is a directory under the root (False when it escapes)."""
    path = inside(root, relative)
    return path is not None and path.is_dir()


def list_names(root: Path, relative: str) -> list[str]:
    """Names in a directory under the root, sorted ([] when missing; OutsideRoot when it escapes)."""
    folder = contained(root, relative)
    if not folder.is_dir():
        return []
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def escapes(root: Path, entry: os.DirEntry) -> bool:
    """Whether a directory entry is a symlink that leads outside the root."""
    if not entry.is_symlink():
        return False
    return inside(root, os.path.relpath(entry.path, root)) is None
