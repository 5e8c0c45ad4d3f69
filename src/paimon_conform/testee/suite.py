"""The cases a testee is run on, from the golden corpus: each valid file decoded (to its sidecar's content)
and encoded (to its bytes), each must-reject file decoded (to an error)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from paimon_conform.core import cases
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.golden import sidecars
from paimon_conform.layouts.registry import LAYOUTS

TYPE_KEYS = ("type", "types", "fields", "columns")  # the case keys that state column types
NOT_SENT = ("provenance", "notes", "java_reader", "data_file")  # annotations a testee never needs


@dataclass(frozen=True)
class Case:
    """One exchange: `request` (without its id) and what passes: a case's content, bytes, or an error."""

    id: str
    op: str
    kind: str
    request: dict[str, Any]
    expect: str  # "content", "bytes" or "error"
    expected: Any = None


def golden_cases(root: Path, ops: tuple[str, ...] = ("decode", "encode")) -> list[Case]:
    """The cases of every layout file under a golden root (tables and bucket sequences are not layout files)."""
    out: list[Case] = []
    for sidecar in sidecars(root):
        try:
            case = cases.check(json.loads(sidecar.read_text()))
        except (PaimonConformError, ValueError):
            continue  # the corpus check reports a broken sidecar
        kind = case.get("kind")
        if kind not in LAYOUTS:
            continue
        name = str(sidecar.relative_to(root).with_suffix(""))
        data = sidecar.with_suffix(".bin").read_bytes()
        types = {k: case[k] for k in TYPE_KEYS if k in case}
        decode = {"op": "decode", "kind": kind, "data": data.hex()} | ({"types": types} if types else {})
        if "must_reject" in case:
            if "decode" in ops:
                out.append(Case(f"decode:{name}", "decode", kind, decode, "error", case["must_reject"]))
            continue
        if "decode" in ops:
            out.append(Case(f"decode:{name}", "decode", kind, decode, "content", cases.content(case)))
        if "encode" in ops:
            sent = {k: v for k, v in case.items() if k not in NOT_SENT}
            out.append(Case(f"encode:{name}", "encode", kind, {"op": "encode", "case": sent}, "bytes", data.hex()))
    return out
