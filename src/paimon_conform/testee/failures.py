"""Failure lists with protobuf's conformance semantics: a listed case that fails passes as an expected
failure (with its reason); a listed case that now passes fails the run, so the list only shrinks; `fix`
writes the list the run found."""

from __future__ import annotations

from pathlib import Path

from paimon_conform.core.errors import UsageError

MAX_LIST_BYTES = 16 << 20


def load(path: Path) -> dict[str, str]:
    """Case id -> reason, from lines `<case id>  # reason` (blank lines and lines starting with # skipped)."""
    try:
        if path.stat().st_size > MAX_LIST_BYTES:
            raise UsageError(f"the failure list {path} is larger than {MAX_LIST_BYTES} bytes")
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise UsageError(f"cannot read the failure list {path}: {exc}") from None
    out: dict[str, str] = {}
    for line in text.splitlines():
        body = line.strip()
        if not body or body.startswith("#"):
            continue
        case, _, reason = body.partition("#")
        out[case.strip()] = reason.strip()
    return out


def render(failures: dict[str, str]) -> str:
    """The list's text: one case per line with its reason, sorted."""
    head = "# paimon-conform testee failure list: <case id>  # reason (a listed case that passes fails the run)\n"
    return head + "".join(f"{c}  # {r}\n" if r else f"{c}\n" for c, r in sorted(failures.items()))
