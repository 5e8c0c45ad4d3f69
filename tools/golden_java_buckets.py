#!/usr/bin/env python3
"""Regenerate the Java-written BinaryRow and dynamic-bucket goldens with real Java Paimon 0.9.0.

    python tools/golden_java_buckets.py [--out DIR]

tools/java/BucketGoldenWriter.java builds each key row with Paimon's generated
projection and takes its hashCode, its manifest serialization and its bucket
from FixedBucketRowKeyExtractor; it runs dynamic-bucket writes on a real
primary-key table (HashBucketAssigner per channel, HASH index written and
reloaded between rounds) and SimpleHashBucketAssigner sequences.
Output (default golden/):
  binary_row/java-0.9.0/<name>.bin + .json             the row bytes
  binary_row_serialized/java-0.9.0/<name>.bin + .json  arity prefix + row
  dynamic_bucket/java-0.9.0/<name>.json                assignment sequences
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
from golden_java import PRODUCER_DIR, java_value, provenance, write_pair

from paimon_conform.core import cases
from paimon_conform.core.types import parse_type, to_internal, to_json
from paimon_conform.layouts.binary_row.entry import BUCKET_COUNTS

ROOT = Path(__file__).resolve().parent.parent
LAYOUTS = ("binary_row", "binary_row_serialized", "dynamic_bucket")

# (name, types, values): every key type, nulls, inline / variable strings, compact and not
ROWS = [
    ("int-5", ["INT"], [5]),
    ("int-null", ["INT"], [None]),
    ("empty-row", [], []),
    ("int-5-6", ["INT", "INT"], [5, 6]),
    ("int-5-6-7", ["INT", "INT", "INT"], [5, 6, 7]),
    ("int-extremes", ["INT", "INT"], [-(2**31), 2**31 - 1]),
    ("bigint-extremes", ["BIGINT", "BIGINT"], [-(2**63), 2**63 - 1]),
    ("tinyint-smallint", ["TINYINT", "SMALLINT", "TINYINT"], [-1, -32768, 127]),
    ("boolean", ["BOOLEAN", "BOOLEAN", "BOOLEAN"], [True, False, None]),
    ("float-double", ["FLOAT", "DOUBLE"], [1.5, -2.25]),
    ("float-specials", ["FLOAT", "DOUBLE", "FLOAT", "DOUBLE"], ["NaN", "-Infinity", -0.0, 1e-300]),
    ("date-time", ["DATE", "TIME", "DATE"], ["2024-01-01", "12:34:56.789", "1900-01-01"]),
    ("string-empty", ["STRING"], [""]),
    ("string-7-bytes", ["STRING"], ["abcdefg"]),
    ("string-8-bytes", ["STRING"], ["abcdefgh"]),
    ("string-non-ascii", ["STRING", "STRING"], ["caf\u00e9", "\U0001f600 emoji \u00fc\u00f6\u00e4 long"]),
    ("char-varchar", ["CHAR(5)", "VARCHAR(20)"], ["ab", "a value of 19 bytes"]),
    ("binary", ["BINARY(3)", "VARBINARY(20)", "BYTES"], ["00ff10", "", "000102030405060708090a"]),
    ("strings-with-nulls", ["STRING", "INT", "STRING", "STRING"], ["x" * 30, None, None, "yy" * 5]),
    (
        "decimal-compact",
        ["DECIMAL(10, 3)", "DECIMAL(18, 0)", "DECIMAL(5, 5)"],
        ["12.345", "-999999999999999999", "0.00001"],
    ),
    ("decimal-38", ["DECIMAL(38, 2)"], ["-1.28"]),
    ("decimal-38-wide", ["DECIMAL(38, 0)", "DECIMAL(20, 10)"], ["-" + "9" * 38, "1234567890.0123456789"]),
    ("decimal-38-zero", ["DECIMAL(38, 18)", "DECIMAL(19, 0)"], ["0", "-128"]),
    ("decimal-ts-nulls", ["DECIMAL(38, 2)", "TIMESTAMP(9)"], [None, None]),
    ("decimal-ts", ["DECIMAL(38, 2)", "TIMESTAMP(9)"], ["-1.28", "2023-11-14T22:13:20.123456789"]),
    (
        "timestamps",
        ["TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(0)"],
        ["2023-11-14T22:13:20.123", "1969-12-31T23:59:59.999999", "2000-01-01T00:00:00"],
    ),
    ("timestamp-ltz", ["TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(9)"], ["2023-11-14T22:13:20.123", None]),
    ("mixed-key", ["DECIMAL(10, 3)", "TIMESTAMP(3)", "BOOLEAN"], ["12.345", "2023-11-14T22:13:20.123", True]),
    ("string-then-int", ["STRING", "INT"], ["2024-01-01", 7]),
    ("arity-56", ["INT"] * 56, [i if i % 5 else None for i in range(56)]),
    ("arity-57", ["BIGINT"] * 57, [None if i % 7 == 3 else -i * 1000003 for i in range(57)]),
]


def java_type(t: str) -> str:
    """The SQL type text Java's DataTypeJsonParser reads."""
    dt = parse_type(t)
    if dt.root == "TIMESTAMP_LTZ":
        return f"TIMESTAMP({dt.timestamp_precision}) WITH LOCAL TIME ZONE"
    return str(dt)


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


def store_rows(report: list[dict], out: Path) -> None:
    """binary_row and binary_row_serialized goldens with sidecars from Java's answers."""
    for (name, types, values), r in zip(ROWS, report, strict=True):
        fields = [
            {"type": str(parse_type(t)), "value": to_json(parse_type(t), to_internal(parse_type(t), v))}
            for t, v in zip(types, values, strict=True)
        ]
        buckets = {str(n): r["buckets"][str(n)] for n in BUCKET_COUNTS}
        how = (
            "tools/java/BucketGoldenWriter.java: CodeGenUtils.newProjection(rowType, all fields).apply(GenericRow); "
            "hashCode(); bucket from FixedBucketRowKeyExtractor (bucket-key = all fields) per bucket count"
        )
        reader = r["reader"]
        nulls = [i for i, v in enumerate(values) if v is None]
        if not (reader["equals_written"] and reader["hash"] == r["hash"] and reader["arity"] == len(types)):
            raise SystemExit(f"Java read row {name} back differently: {reader}")
        if [i for i, v in enumerate(reader["values"]) if v is None] != nulls:
            raise SystemExit(f"Java read other nulls in row {name}: {reader['values']}")
        base = {"case_format": 1, "row_kind": "+I", "fields": fields, "hash": r["hash"], "buckets": buckets}
        base["java_reader"] = {
            "method": "SerializationUtils.deserializeBinaryRow, then InternalRow.createFieldGetter per field "
            "(values as Java's toString)",
            "hash": reader["hash"],
            "values": reader["values"],
        }
        write_pair(
            out / "binary_row" / PRODUCER_DIR,
            name,
            bytes.fromhex(r["row_hex"]),
            {"kind": "binary-row"} | base | {"provenance": provenance(how)},
        )
        how_serialized = how + "; SerializationUtils.serializeBinaryRow"
        write_pair(
            out / "binary_row_serialized" / PRODUCER_DIR,
            name,
            bytes.fromhex(r["serialized_hex"]),
            {"kind": "binary-row-serialized"} | base | {"provenance": provenance(how_serialized)},
        )


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    rows = [
        {
            "name": n,
            "types": [java_type(t) for t in ts],
            "values": [java_value(t, v) for t, v in zip(ts, vs, strict=True)],
        }
        for n, ts, vs in ROWS
    ]
    dynamic, simple = dynamic_cases(), simple_cases()
    spec = {"counts": list(BUCKET_COUNTS), "rows": rows, "dynamic": dynamic, "simple": simple}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cases.json").write_text(json.dumps(spec))
        paimon_java.run_java("BucketGoldenWriter", str(work / "cases.json"), str(work))
        report = json.loads((work / "bucket-report.json").read_text())
    for layout in LAYOUTS:
        target = args.out / layout / PRODUCER_DIR
        if target.exists():
            shutil.rmtree(target)
    store_rows(report["rows"], args.out)
    store_sequences(report, dynamic, simple, args.out)
    print(f"golden_java_buckets: wrote Java {paimon_java.PAIMON_VERSION} goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
