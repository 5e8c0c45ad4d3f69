"""Dump jobs over the golden corpus: every parse the kit's spec layer does on a golden file, with its parameters.

A golden file is validated as the kit validates it, and every call of the
generated parsers it makes (the file itself, a payload inside it, with the
parameters the kit derives from the sidecar's types) becomes a job: spec,
bytes, parameters. Every language's dump program runs the same jobs; Python's
tree is the reference (paimon_layouts.dump).
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any

from kaitaistruct import KaitaiStream
from paimon_layouts import dump as reference

from paimon_conform.core import structure
from paimon_conform.layouts.registry import get
from support.environment import GOLDEN


@dataclass(frozen=True)
class Job:
    """One parse: the spec, the bytes' SHA-256 (their file name), the parameters as JSON scalars."""

    root: str
    digest: str
    params: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.root}/{self.digest[:16]}{'(' + ','.join(self.params) + ')' if self.params else ''}"


def _param(value: Any) -> str:
    if isinstance(value, bytes | bytearray):
        return json.dumps(bytes(value).hex())
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, IntEnum | int):
        return str(int(value))
    raise TypeError(f"no job form for a {type(value).__name__} parameter")


def _params(root: str, make_debug: Any) -> tuple[str, ...]:
    """The parameters a kit call passed: read back from the debug build's object, which reads nothing yet."""
    spec = reference.tree_schema()["roots"][root]["params"]
    if not spec:
        return ()
    obj = make_debug(KaitaiStream(io.BytesIO(b"")))
    return tuple(_param(getattr(obj, p["id"])) for p in spec)


def collect(out_dir: Path) -> tuple[list[Job], dict[str, list[str]]]:
    """Jobs of every golden layout file (bytes written to out_dir by digest); job id -> golden files."""
    seen: dict[Job, list[str]] = {}
    calls: list[tuple[str, bytes, Any]] = []
    real_parse = structure.parse

    def recording(layout: str, data: bytes, make: Any = None, make_debug: Any = None) -> Any:
        calls.append((layout, bytes(data), make_debug))
        return real_parse(layout, data, make, make_debug)

    structure.parse = recording
    try:
        for sidecar in sorted(GOLDEN.glob("*/*/*.json")):
            if sidecar.parts[-3] == "tables" or not sidecar.with_suffix(".bin").is_file():
                continue
            case = json.loads(sidecar.read_text())
            layout = get(case["kind"])
            calls.clear()
            layout.validate(sidecar.with_suffix(".bin").read_bytes(), layout.case_types(case))
            rel = str(sidecar.with_suffix(".bin").relative_to(GOLDEN))
            for root, data, make_debug in calls:
                digest = hashlib.sha256(data).hexdigest()
                (out_dir / digest).write_bytes(data)
                seen.setdefault(Job(root, digest, _params(root, make_debug)), []).append(rel)
    finally:
        structure.parse = real_parse
    jobs = sorted(seen, key=lambda j: j.id)
    return jobs, {j.id: seen[j] for j in jobs}


def write_jobs(jobs: list[Job], data_dir: Path, path: Path) -> None:
    """The jobs file every dump program reads: ID, ROOT, FILE, PARAM ... separated by tabs."""
    lines = ["\t".join([j.id, j.root, str(data_dir / j.digest), *j.params]) for j in jobs]
    path.write_text("\n".join(lines) + "\n")


FUZZ_SEED = 20261129  # fixed: the same mutants in every run and every language
MUTANTS_PER_JOB = 16


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """One mutant: a flipped byte, a random 4-byte word (a count, length or offset), a cut or an insertion, at a
    position near the start or the end half the time (headers and footers), anywhere otherwise."""
    n = len(data)
    if n == 0:
        return bytes([rng.randrange(256)])
    edge = rng.random() < 0.5
    pos = (
        (rng.randrange(min(n, 64)) if rng.random() < 0.5 else n - 1 - rng.randrange(min(n, 64)))
        if edge
        else rng.randrange(n)
    )
    kind = rng.randrange(4)
    out = bytearray(data)
    if kind == 0:
        out[pos] ^= rng.randrange(1, 256)
    elif kind == 1:
        out[pos : pos + 4] = rng.randbytes(4)
    elif kind == 2:
        del out[pos:]
    else:
        out[pos:pos] = rng.randbytes(rng.randrange(1, 9))
    return bytes(out)


def fuzz_jobs(jobs: list[Job], data_dir: Path) -> list[Job]:
    """MUTANTS_PER_JOB mutants of every job (same spec and parameters), from FUZZ_SEED; bytes written by digest."""
    out: dict[Job, None] = {}
    for j in jobs:
        rng = random.Random(f"{FUZZ_SEED}/{j.id}")
        data = (data_dir / j.digest).read_bytes()
        for _ in range(MUTANTS_PER_JOB):
            mutant = _mutate(data, rng)
            digest = hashlib.sha256(mutant).hexdigest()
            (data_dir / digest).write_bytes(mutant)
            out[Job(j.root, digest, j.params)] = None
    return sorted(out, key=lambda j: j.id)


def main(argv: list[str]) -> int:
    """`python -m support.tree_jobs OUT`: the corpus's jobs and their mutants, in a child process (collecting
    patches the kit's parse function, which a background job must not do inside the suite's process): OUT/data,
    OUT/corpus.tsv, OUT/fuzz.tsv and OUT/where.json (job id -> golden files)."""
    out = Path(argv[0])
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    jobs, where = collect(data)
    write_jobs(jobs, data, out / "corpus.tsv")
    write_jobs(fuzz_jobs(jobs, data), data, out / "fuzz.tsv")
    (out / "where.json").write_text(json.dumps(where))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
