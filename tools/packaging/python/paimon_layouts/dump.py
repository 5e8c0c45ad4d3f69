"""Print a parsed file as the language-neutral JSON tree (tree_schema.json says which), the reference form.

    python -m paimon_layouts.dump ROOT FILE [PARAM ...]   # one file; PARAMs as JSON values
    python -m paimon_layouts.dump --jobs JOBS.tsv         # one job per line: ID, ROOT, FILE, PARAM ... by tabs
    python -m paimon_layouts.dump --bench RUNS ROOT FILE [PARAM ...]   # {"best_ms"}: parse + walk, best of RUNS

A PARAM is a JSON scalar: a hex string for bytes, a number (an enum by its
id), true or false. Prints one JSON line per file: {"id", "ok": true, "tree"} or {"id", "ok": false, "error"}.
Every language's dump program takes the same arguments and prints the same lines.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import math
import sys
from functools import cache
from importlib import resources
from typing import Any

from kaitaistruct import KaitaiStream, KaitaiStruct


@cache
def tree_schema() -> dict[str, Any]:
    """The tree schema stored beside the parsers."""
    return json.loads(resources.files("paimon_layouts").joinpath("tree_schema.json").read_text())


def _value(v: Any) -> Any:
    if isinstance(v, KaitaiStruct):
        return tree(v)
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return int(v)  # an IntEnum gives its id
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if isinstance(v, bytes | bytearray):
        return {"$bytes": bytes(v).hex()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    raise TypeError(f"no tree form for {type(v).__name__}")


def tree(obj: KaitaiStruct) -> dict[str, Any]:
    """The tree of one parsed struct: its fields in schema order, each evaluated."""
    fields = tree_schema()["types"].get(type(obj).__qualname__)
    if fields is None:
        raise TypeError(f"{type(obj).__qualname__} is not in the tree schema")
    return {name: _value(_field(obj, name)) for name in fields}


def _field(obj: KaitaiStruct, name: str) -> Any:
    """An instance (a property, evaluated now) or a seq field (None when its `if` left it out)."""
    if isinstance(getattr(type(obj), name, None), property):
        return getattr(obj, name)
    return vars(obj).get(name)


def parse(root: str, data: bytes, params: list[Any]) -> KaitaiStruct:
    """Parse `data` with the spec `root` and its parameters (JSON values, in order: bytes as hex, an enum as
    its id, which the generated code compares equal to its IntEnum member)."""
    entry = tree_schema()["roots"][root]
    cls = getattr(importlib.import_module(f"paimon_layouts.{root}"), entry["class"])
    if len(params) != len(entry["params"]):
        raise ValueError(f"{root} takes {len(entry['params'])} parameters, got {len(params)}")
    args = [bytes.fromhex(v) if p["kind"] == "bytes" else v for p, v in zip(entry["params"], params, strict=True)]
    return cls(*args, KaitaiStream(io.BytesIO(data)))


def dump(root: str, data: bytes, params: list[Any]) -> dict[str, Any]:
    """{"ok": true, "tree"} or {"ok": false, "error"} for one file."""
    try:
        return {"ok": True, "tree": tree(parse(root, data, params))}
    except Exception as exc:  # noqa: BLE001 - any parse failure is a rejection, printed as such
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", help="a file of jobs, one per line: ID, ROOT, FILE, PARAM ... separated by tabs")
    ap.add_argument("--bench", type=int, metavar="RUNS", help="time parse + tree walk (no printing), best of RUNS")
    ap.add_argument("root", nargs="?")
    ap.add_argument("file", nargs="?")
    ap.add_argument("params", nargs="*")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(10_000)
    if args.jobs:
        with open(args.jobs, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
        jobs = [{"id": r[0], "root": r[1], "file": r[2], "params": [json.loads(p) for p in r[3:]]} for r in rows]
    else:
        if not args.root or not args.file:
            ap.error("give ROOT FILE [PARAM ...] or --jobs FILE")
        jobs = [{"id": args.file, "root": args.root, "file": args.file, "params": [json.loads(p) for p in args.params]}]
    out = sys.stdout
    if args.bench:
        return _bench(args.bench, jobs[0])
    for job in jobs:
        with open(job["file"], "rb") as f:
            data = f.read()
        line = {"id": job["id"]} | dump(job["root"], data, job.get("params", []))
        out.write(json.dumps(line, separators=(",", ":"), allow_nan=False) + "\n")
    return 0


def _bench(runs: int, job: dict[str, Any]) -> int:
    """Print the best time of parsing one file and walking its whole tree (what a dump does, less the printing)."""
    import time

    with open(job["file"], "rb") as f:
        data = f.read()
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        tree(parse(job["root"], data, job["params"]))
        best = min(best, time.perf_counter() - t)
    print(json.dumps({"best_ms": best * 1e3}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
