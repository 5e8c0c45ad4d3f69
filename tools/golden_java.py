#!/usr/bin/env python3
"""Regenerate the Java-written golden files with real Java Paimon 0.9.0.

    python tools/golden_java.py [--out DIR]

Defines the cases (seeded, so reruns are identical), has
tools/java/GoldenWriter.java write them with Paimon's own writers
(DeletionVectorsIndexFile, HashIndexFile, RoaringBitmap32) and read them
back with Paimon's own readers, then stores each file with a JSON sidecar:
the case (positions from the input, offsets and lengths as Paimon's
IndexFileMeta recorded them), what Java's reader returned, and provenance.
Output: <out>/<layout>/java-0.9.0/ (default out: golden/).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paimon_java

from paimon_conform import cases

ROOT = Path(__file__).resolve().parent.parent
PRODUCER_DIR = f"java-{paimon_java.PAIMON_VERSION}"
MAX32 = 2**31 - 1


def ranges_of(values: set[int] | list[int]) -> list[list[int]]:
    """Sorted unique values as inclusive runs."""
    out: list[list[int]] = []
    for v in sorted(set(values)):
        if out and v == out[-1][1] + 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


def _random_positions(rng: random.Random, n: int, span: int) -> list[list[int]]:
    return ranges_of({rng.randrange(span) for _ in range(n)})


def dv_cases() -> list[dict]:
    """Deletion-vector cases: name, target size and vectors (data file -> ranges)."""
    rng = random.Random(20261122)
    big = 2 * 1024 * 1024

    def case(name: str, vectors: list[list[list[int]]], target: int = big) -> dict:
        return {
            "name": name,
            "target_size": target,
            "vectors": [{"data_file": f"data-{name}-{i}.parquet", "ranges": r} for i, r in enumerate(vectors)],
        }

    mixed = [[0, 2], [10, 10]]  # array container
    mixed += [[65536 + 2 * i, 65536 + 2 * i] for i in range(3000)]  # array, 3000 values
    mixed += [[131072, 131072 + 9999]]  # run container
    mixed += ranges_of({196608 + 3 * i for i in range(6000)})  # bitmap container
    mixed += [[262144 + 100, 262144 + 5000], [262144 + 6000, 262144 + 6000]]
    return [
        case("no-vectors", []),
        case("empty-vector", [[], [[7, 7]]]),
        case("one-position", [[[0, 0]]]),
        case("max-position", [[[MAX32, MAX32]]]),
        case("dense-runs", [[[0, 99999]], [[5, 70000], [80000, 80010]]]),
        case("full-container", [[[0, 65535]], [[65536, 131071]]]),
        case("array-4096-vs-bitmap-4097", [ranges_of(range(0, 8192, 2)), ranges_of(range(0, 8194, 2))]),
        case("run-optimize-ties", [[[0, 2]], [[0, 3]], [[0, 1], [3, 4]], [[0, 1], [3, 5]]]),
        case("bitmap-containers", [_random_positions(rng, 10000, 3 * 65536), ranges_of(range(1, 2 * 65536, 2))]),
        case(
            "bitmap-2047-vs-2048-runs",
            [
                ranges_of(v for i in range(2047) for v in (32 * i, 32 * i + 1, 32 * i + 2)),
                ranges_of(v for i in range(2048) for v in (32 * i, 32 * i + 1, 32 * i + 2)),
            ],
        ),
        case("mixed-containers", [mixed]),
        case(
            "sparse-high",
            [
                ranges_of([0, 65535, 65536, 2**30, 2**31 - 65536, MAX32 - 1, MAX32]),
                ranges_of(range(MAX32 - 70000, MAX32 + 1, 7)),
            ],
        ),
        case("random", [_random_positions(rng, 20000, 2**31) for _ in range(3)]),
        case(
            "many-vectors",
            [_random_positions(rng, rng.randrange(1, 300), 1 << rng.randrange(8, 31)) for _ in range(60)],
        ),
        case("split-by-target-size", [_random_positions(rng, 600, 1 << 20) for _ in range(24)], target=8192),
    ]


def roaring32_cases() -> list[dict]:
    """Standalone RoaringBitmap32.serialize() cases."""
    return [
        {"name": "empty", "ranges": []},
        {"name": "three-values-array", "ranges": [[0, 2]]},
        {"name": "four-values-run", "ranges": [[0, 3]]},
        {"name": "three-containers-with-run", "ranges": [[0, 99], [70000, 70000], [140000, 140002]]},
        {"name": "four-containers-with-run", "ranges": [[0, 99], [70000, 70000], [140000, 140002], [200000, 200001]]},
        {"name": "unsigned-high", "ranges": [[0, 0], [2**31, 2**31 + 5], [2**32 - 3, 2**32 - 1]]},
        {"name": "full-container", "ranges": [[0, 65535]]},
        {"name": "array-4096", "ranges": ranges_of(range(0, 8192, 2))},
        {"name": "bitmap-4097", "ranges": ranges_of(range(0, 8194, 2))},
    ]


def hash_cases() -> list[dict]:
    """HASH index cases."""
    rng = random.Random(42)
    return [
        {"name": "empty", "hashes": []},
        {"name": "one", "hashes": [260196596]},
        {"name": "edge-values", "hashes": [0, -1, 1, 2**31 - 1, -(2**31), 260196596, -101922419, -1670924195]},
        {"name": "random", "hashes": [rng.randrange(-(2**31), 2**31) for _ in range(10000)]},
    ]


def provenance(how: str) -> dict:
    """Provenance of a file written by the Paimon 0.9.0 jar."""
    return {
        "producer": "java-paimon",
        "paimon_version": paimon_java.PAIMON_VERSION,
        "artifact": paimon_java.ARTIFACT,
        "artifact_sha256": paimon_java.JAR_SHA256,
        "how": how,
    }


def write_pair(folder: Path, stem: str, data: bytes, sidecar: dict) -> None:
    """Store `<stem>.bin` and its validated `<stem>.json`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.bin").write_bytes(data)
    (folder / f"{stem}.json").write_text(cases.dumps(cases.check(sidecar)))


def store_dv(report: dict, spec: dict, work: Path, out: Path) -> None:
    """Sidecars for the files of one DV case."""
    by_file = {v["data_file"]: v["ranges"] for v in spec["vectors"]}
    files = report["files"]
    for n, meta in enumerate(files):
        data = (work / "deletion_vectors" / spec["name"] / meta["file_name"]).read_bytes()
        assert meta["file_size"] == len(data), meta
        vectors, reader = [], []
        for v in meta["vectors"]:
            if not (
                v["all_expected_positions_deleted"]
                and v["read_cardinality"] == v["expected_cardinality"]
                and v["read_all_cardinality"] == v["expected_cardinality"]
            ):
                raise SystemExit(f"Java read back different positions for {spec['name']} {v['data_file']}")
            vectors.append(
                {
                    "data_file": v["data_file"],
                    "bitmap": "bitmap32",
                    "offset": v["offset"],
                    "length": v["length"],
                    "cardinality": v["expected_cardinality"],
                    "ranges": by_file[v["data_file"]],
                }
            )
            reader.append(
                {
                    "data_file": v["data_file"],
                    "cardinality": v["read_cardinality"],
                    "all_positions_deleted": v["all_expected_positions_deleted"],
                }
            )
        stem = spec["name"] if len(files) == 1 else f"{spec['name']}-{n}"
        how = (
            f"tools/java/GoldenWriter.java: BitmapDeletionVector.delete() per position, "
            f"DeletionVectorsIndexFile(target size {spec['target_size']} B).write(LinkedHashMap); "
            f"offsets/lengths from IndexFileMeta.deletionVectorsRanges(); file {n + 1} of {len(files)}"
        )
        sidecar = {
            "case_format": 1,
            "kind": "deletion-vectors",
            "version": 1,
            "vectors": vectors,
            "provenance": provenance(how),
            "java_reader": {
                "method": "DeletionVectorsIndexFile.readDeletionVector(DeletionFile) and "
                "readAllDeletionVectors(IndexFileMeta)",
                "row_count": meta["row_count"],
                "vectors": reader,
            },
        }
        write_pair(out / "deletion_vectors" / PRODUCER_DIR, stem, data, sidecar)


def store_roaring(report: dict, spec: dict, work: Path, out: Path) -> None:
    """Sidecar for one RoaringBitmap32 file."""
    data = (work / "roaring32" / spec["name"] / report["file_name"]).read_bytes()
    if ranges_of(report["read_values"]) != spec["ranges"]:
        raise SystemExit(f"Java read back different values for roaring32 {spec['name']}")
    card = sum(b - a + 1 for a, b in spec["ranges"])
    sidecar = {
        "case_format": 1,
        "kind": "roaring32",
        "cardinality": card,
        "ranges": spec["ranges"],
        "provenance": provenance("tools/java/GoldenWriter.java: RoaringBitmap32.add() per value, serialize()"),
        "java_reader": {"method": "RoaringBitmap32.deserialize(byte[])", "cardinality": report["read_cardinality"]},
    }
    write_pair(out / "roaring32" / PRODUCER_DIR, spec["name"], data, sidecar)


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    spec = {"deletion_vectors": dv_cases(), "roaring32": roaring32_cases(), "hash_index": hash_cases()}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cases.json").write_text(json.dumps(spec))
        paimon_java.run_java("GoldenWriter", str(work / "cases.json"), str(work))
        report = json.loads((work / "java-report.json").read_text())
        for layout in ("deletion_vectors", "roaring32", "hash_index"):
            target = args.out / layout / PRODUCER_DIR
            if target.exists():
                shutil.rmtree(target)
        for r, s in zip(report["deletion_vectors"], spec["deletion_vectors"], strict=True):
            store_dv(r, s, work, args.out)
        for r, s in zip(report["roaring32"], spec["roaring32"], strict=True):
            store_roaring(r, s, work, args.out)
        for r, s in zip(report["hash_index"], spec["hash_index"], strict=True):
            store_hash(r, s, work, args.out)
    print(f"golden_java: wrote Java {paimon_java.PAIMON_VERSION} goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
