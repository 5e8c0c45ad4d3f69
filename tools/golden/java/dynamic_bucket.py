"""Dynamic-bucket assignment sequences from Java Paimon 0.9.0 (BucketGoldenWriter): real writes and
SimpleHashBucketAssigner."""

from __future__ import annotations

import random
from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance
from paimon_conform.core import cases


def dynamic_cases() -> list[dict]:
    """Dynamic-bucket writes: rounds of (partition, key) records, a target row number per round."""
    rng = random.Random(20261122)

    def keys(n: int, prefix: str) -> list[str]:
        return [f"{prefix}{i}" for i in range(n)]

    grow = keys(24, "k")
    return [
        {
            "name": "one-channel",
            "partitioned": False,
            "channels": 1,
            "initial_buckets": None,
            "targets": [5, 5],
            "rounds": [[[0, k] for k in grow[:13] + grow[:3]], [[0, k] for k in grow[5:] + keys(4, "new")]],
        },
        {
            "name": "partitions-three-channels",
            "partitioned": True,
            "channels": 3,
            "initial_buckets": None,
            "targets": [4, 4, 6],
            "rounds": [
                [[rng.choice([1, 2]), f"a{rng.randrange(40)}"] for _ in range(40)],
                [[rng.choice([1, 2, 3]), f"a{rng.randrange(60)}"] for _ in range(50)],
                [[rng.choice([1, 2]), f"b{rng.randrange(30)}"] for _ in range(30)],
            ],
        },
        {
            "name": "initial-buckets-below-channels",
            "partitioned": True,
            "channels": 4,
            "initial_buckets": 2,
            "targets": [3, 3],
            "rounds": [[[7, k] for k in keys(20, "x")], [[7, k] for k in keys(30, "x")[10:]]],
        },
        {
            "name": "hashmap-order-after-reload",
            "partitioned": False,
            "channels": 3,
            "initial_buckets": None,
            "targets": [2, 3],
            "rounds": [[[0, k] for k in keys(90, "m")], [[0, k] for k in keys(60, "n")]],
        },
        {
            "name": "hashmap-shared-bins",
            "partitioned": False,
            "channels": 2,
            "initial_buckets": None,
            "targets": [2, 3],
            "rounds": [[[0, k] for k in keys(46, "s")], [[0, k] for k in keys(40, "t")]],
        },
    ]


def simple_cases() -> list[dict]:
    """SimpleHashBucketAssigner sequences: (assign id, partition or None, key hash)."""
    rng = random.Random(7)
    hashes = [rng.randrange(-(2**31), 2**31) for _ in range(40)]
    return [
        {
            "name": "simple-two-assigners",
            "assigners": 2,
            "target": 3,
            "keys": [[i % 2, None, h] for i, h in enumerate(hashes + hashes[:5])],
        },
        {
            "name": "simple-partitions",
            "assigners": 3,
            "target": 2,
            "keys": [[i % 3, [1, 2][(i // 3) % 2], h] for i, h in enumerate(hashes)],
        },
    ]


def store_sequences(report: dict, dynamic: list[dict], simple: list[dict], out: Path) -> None:
    """dynamic_bucket fixtures: Java's assignment sequences with their inputs."""
    folder = out / "dynamic_bucket" / PRODUCER_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for spec, r in zip(dynamic, report["dynamic"], strict=True):
        fixture = {
            "case_format": 1,
            "kind": "dynamic-bucket",
            "assigner": "hash",
            "table": {
                "partition_keys": ["p"] if spec["partitioned"] else [],
                "primary_keys": ["p", "k"] if spec["partitioned"] else ["k"],
                "types": {"p": "INT", "k": "STRING", "v": "INT"},
            },
            "channels": spec["channels"],
            "initial_buckets": spec["initial_buckets"],
            "assigners": r["assigners"],
            "rounds": r["rounds"],
            "provenance": provenance(
                "tools/java/BucketGoldenWriter.java: primary-key table, bucket = -1; per round a HashBucketAssigner "
                "per channel (records routed by BucketAssigner.computeAssigner), then BatchTableWrite.write(row, "
                "bucket) and commit; index_before lists the HASH files (IndexFileHandler.scanEntries) a round loads"
            ),
        }
        (folder / f"{spec['name']}.json").write_text(cases.dumps(fixture))
    for spec, r in zip(simple, report["simple"], strict=True):
        fixture = {
            "case_format": 1,
            "kind": "dynamic-bucket",
            "assigner": "simple",
            "assigners": spec["assigners"],
            "target": spec["target"],
            "records": [
                {"assign_id": a, "partition": p, "key_hash": h, "bucket": b}
                for (a, p, h), b in zip(spec["keys"], r["buckets"], strict=True)
            ],
            "provenance": provenance(
                "tools/java/BucketGoldenWriter.java: SimpleHashBucketAssigner(assigners, id, target).assign per key"
            ),
        }
        (folder / f"{spec['name']}.json").write_text(cases.dumps(fixture))
