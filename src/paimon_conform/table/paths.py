"""Keep every path the validator touches inside the table root."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath


def plain_name(name: str) -> bool:
    """Whether a name a metadata file gives is one path element (no separator, not `.` or `..`)."""
    return not ("/" in name or "\\" in name or name in ("", ".", ".."))


def inside(root: Path, relative: str) -> Path | None:
    """`root/relative` when it stays under the root (no absolute path, no `..`, no symlink out); else None."""
    rel = PurePosixPath(relative)
    if rel.is_absolute() or ".." in rel.parts or "\x00" in relative:
        return None
    candidate = root.joinpath(*rel.parts)
    try:
        resolved = candidate.resolve(strict=False)
        base = root.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    return candidate if resolved == base or base in resolved.parents else None


def escapes(root: Path, entry: os.DirEntry) -> bool:
    """Whether a directory entry is a symlink that leads outside the root."""
    if not entry.is_symlink():
        return False
    return inside(root, os.path.relpath(entry.path, root)) is None
