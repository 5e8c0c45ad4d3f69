"""The cases a testee is run on, from the golden corpus: each valid file decoded (to its sidecar's content)
and encoded (to its bytes), each must-reject file decoded (to an error), and each Java-written BinaryRow key
hashed (to Java's row bytes, hashCode and buckets)."""

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
    expect: str  # "content", "bytes", "error" or "hash"
    expected: Any = None


OPS = ("decode", "encode", "hash")


def golden_cases(root: Path, ops: tuple[str, ...] = OPS, kinds: list[str] | None = None) -> list[Case]:
    """The cases of every layout file under a golden root (tables and bucket sequences are not layout files),
    of the given kinds only when `kinds` names some."""
    out: list[Case] = []
    for sidecar in sidecars(root):
        try:
            case = json.loads(sidecar.read_text())
            kind = case.get("kind")
            if kind not in LAYOUTS or (kinds and kind not in kinds):
                continue
            cases.check(case)
        except (PaimonConformError, ValueError, AttributeError):
            continue  # the corpus check reports a broken sidecar
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
        if "hash" in ops and kind == "binary-row" and "hash" in case and "buckets" in case:
            out.append(_hash_case(name, case, data))
    return out


def _hash_case(name: str, case: dict[str, Any], data: bytes) -> Case:
    """A key's row, hashCode and buckets as Java computed them (fixed buckets, the default bucket function)."""
    request = {
        "op": "hash",
        "types": [f["type"] for f in case["fields"]],
        "values": [f["value"] for f in case["fields"]],
        "buckets": sorted(int(n) for n in case["buckets"]),
        "bucket_function": "default",
    }
    expected = {"row": data.hex(), "hash": case["hash"], "buckets": case["buckets"]}
    return Case(f"hash:{name}", "hash", "binary-row", request, "hash", expected)
