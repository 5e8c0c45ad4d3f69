"""Deletion-vector index files written by Java Paimon 0.9.0 (GoldenWriter: DeletionVectorsIndexFile): the cases
and how each is stored."""

from __future__ import annotations

import random
from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance, ranges_of, write_pair


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


MAX32 = 2**31 - 1
