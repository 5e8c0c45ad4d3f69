"""HASH index files written by Java Paimon 0.9.0 (GoldenWriter: HashIndexFile): the cases and how each is stored."""

from __future__ import annotations

import random
from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance, write_pair


def hash_cases() -> list[dict]:
    """HASH index cases."""
    rng = random.Random(42)
    return [
        {"name": "empty", "hashes": []},
        {"name": "one", "hashes": [260196596]},
        {"name": "edge-values", "hashes": [0, -1, 1, 2**31 - 1, -(2**31), 260196596, -101922419, -1670924195]},
        {"name": "random", "hashes": [rng.randrange(-(2**31), 2**31) for _ in range(10000)]},
    ]


def store_hash(report: dict, spec: dict, work: Path, out: Path) -> None:
    """Sidecar for one HASH index file."""
    data = (work / "hash_index" / spec["name"] / report["file_name"]).read_bytes()
    if report["read_hashes"] != spec["hashes"]:
        raise SystemExit(f"Java read back different hashes for {spec['name']}")
    sidecar = {
        "case_format": 1,
        "kind": "hash-index",
        "count": len(spec["hashes"]),
        "hashes": spec["hashes"],
        "provenance": provenance("tools/java/GoldenWriter.java: HashIndexFile.write(IntIterator.create(int[]))"),
        "java_reader": {"method": "HashIndexFile.read(String)", "count": len(report["read_hashes"])},
    }
    write_pair(out / "hash_index" / PRODUCER_DIR, spec["name"], data, sidecar)
