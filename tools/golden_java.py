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
import math
import random
import shutil
import struct
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paimon_java

from paimon_conform.core import cases
from paimon_conform.core.types import parse_type, to_internal, to_json

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


def file_index_cases() -> list[dict]:
    """File-index containers: columns (logical values), their indexes and options, probes."""
    rng = random.Random(7)
    many = [rng.randrange(400) if rng.random() > 0.05 else None for _ in range(3000)]
    small = {"items": "100", "fpp": "0.05"}
    typed = [
        ("c_tinyint", "TINYINT", [-128, -1, 0, 1, 127, None]),
        ("c_smallint", "SMALLINT", [-32768, -1, 0, 300, 32767]),
        ("c_bigint", "BIGINT", [-(2**63), -1, 0, 2**40, 2**63 - 1]),
        ("c_float", "FLOAT", [1.5, -1.5, 0.0, -0.0, "NaN", "Infinity", "-Infinity"]),
        ("c_double", "DOUBLE", [1.5, -2.25, 1e300, "NaN", 0.0]),
        ("c_date", "DATE", ["1970-01-01", "2024-01-01", "1900-12-31", None]),
        ("c_time", "TIME", ["00:00:00", "12:34:56.789", "23:59:59.999"]),
        ("c_ts3", "TIMESTAMP(3)", ["2023-11-14T22:13:20.123", "1969-12-31T23:59:59.999"]),
        ("c_ts6", "TIMESTAMP(6)", ["2023-11-14T22:13:20.123456", "1960-01-01T00:00:00.000001"]),
        ("c_ts9", "TIMESTAMP(9)", ["2023-11-14T22:13:20.123456789"]),
        ("c_ltz3", "TIMESTAMP_LTZ(3)", ["2023-11-14T22:13:20.123"]),
        ("c_varchar", "VARCHAR(20)", ["", "abc", "caf\u00e9", "\U0001f600 emoji", None]),
        ("c_char", "CHAR(5)", ["ab", "abcde"]),
        ("c_varbinary", "VARBINARY(10)", ["", "00ff", "deadbeef"]),
    ]
    typed = [
        (n, ty, [v.encode().decode("unicode_escape") if isinstance(v, str) and "\\" in v else v for v in vals])
        for n, ty, vals in typed
    ]

    typed_bitmap = [(n, ty, v) for n, ty, v in typed if ty not in ("VARBINARY(10)", "TIMESTAMP(9)")]

    def col(name, type_, values, *indexes):
        return {"name": name, "type": type_, "values": canonical(type_, values), "indexes": list(indexes)}

    def bloom(**options):
        return {"type": "bloom-filter", "options": {k: str(v) for k, v in options.items()}}

    bitmap = {"type": "bitmap", "options": {}}
    all_ops = ["eq", "not_eq", "in", "not_in", "is_null", "is_not_null"]

    def probes(column, values, ops=("eq",)):
        out = []
        for op in ops:
            if op in ("is_null", "is_not_null"):
                out.append({"column": column, "op": op, "values": []})
            elif op in ("in", "not_in"):
                out.append({"column": column, "op": op, "values": values[:3]})
            else:
                out += [{"column": column, "op": op, "values": [v]} for v in values]
        return out

    return [
        {
            "name": "bloom-int-small",
            "columns": [col("a", "INT", [1, 2, 3, 4, 5, None], bloom(items=10, fpp=0.1))],
            "probes": probes("a", list(range(0, 12))),
        },
        {
            "name": "bloom-string-small",
            "columns": [col("s", "STRING", ["a", "bb", "ccc"], bloom(items=10, fpp=0.1))],
            "probes": probes("s", ["a", "bb", "ccc", "d", "", "aa"]),
        },
        {
            "name": "bloom-default-options",
            "columns": [col("id", "INT", list(range(0, 2000, 7)), bloom())],
            "probes": probes("id", [0, 7, 1, 1995, 1996]),
        },
        {
            "name": "bloom-every-type",
            "columns": [col(n, ty, v, bloom(**small)) for n, ty, v in typed],
            "probes": [p for n, _, v in typed for p in probes(n, [x for x in v if x is not None])],
        },
        {
            "name": "bitmap-v1-int-with-nulls",
            "columns": [col("a", "INT", [1, None, 2, 1, None, 3, 1, 2], bitmap)],
            "probes": probes("a", [1, 2, 3, 4], all_ops),
        },
        {
            "name": "bitmap-v1-strings",
            "columns": [col("s", "STRING", ["x", "yy", None, "x", "zzz"], bitmap)],
            "probes": probes("s", ["x", "yy", "zzz", "w"], all_ops),
        },
        {
            "name": "bitmap-v1-single-value",
            "columns": [col("a", "BIGINT", [7] * 50, bitmap)],
            "probes": probes("a", [7, 8], all_ops),
        },
        {
            "name": "bitmap-v1-many-values",
            "columns": [col("a", "INT", many, bitmap)],
            "probes": probes("a", [0, 17, 399, 400], all_ops),
        },
        {
            "name": "bitmap-v1-many-strings",
            "columns": [
                col(
                    "s",
                    "STRING",
                    [None if rng.random() < 0.03 else f"k{rng.randrange(300)}\u00e9" for _ in range(2000)],
                    bitmap,
                )
            ],
            "probes": probes("s", ["k0\u00e9", "k299\u00e9", "nope"], all_ops),
        },
        {
            "name": "bitmap-v1-every-type",
            "columns": [col(n, ty, [v[i % len(v)] for i in range(3 * len(v))], bitmap) for n, ty, v in typed_bitmap],
            "probes": [p for n, _, v in typed_bitmap for p in probes(n, [x for x in v if x is not None][:3], all_ops)],
        },
        {
            "name": "bitmap-v1-large-bigints",
            "columns": [
                col(
                    "b",
                    "BIGINT",
                    [
                        rng.choice([-(2**63), 2**63 - 1, 2**40 + rng.randrange(50), -rng.randrange(2**50)])
                        for _ in range(500)
                    ],
                    bitmap,
                )
            ],
            "probes": probes("b", [-(2**63), 2**63 - 1, 5], all_ops),
        },
        {
            "name": "two-indexes-one-column",
            "columns": [
                col("s", "STRING", ["p", "q", None, "p"], bloom(items=50, fpp=0.01), bitmap),
                col("n", "BIGINT", [10, 20, 30, 40], bloom(items=50, fpp=0.01)),
            ],
            "probes": probes("s", ["p", "q", "r"], ["eq", "not_eq", "is_null"]) + probes("n", [10, 11]),
        },
        {
            "name": "empty-entry",
            "columns": [
                {"name": "m[k]", "type": "INT", "values": [], "indexes": [{"type": "bitmap", "empty": True}]},
                col("a", "INT", [3, 4], bloom(items=10, fpp=0.1)),
            ],
            "probes": probes("a", [3, 5]),
        },
    ]


def canonical(type_text: str, values: list) -> list:
    """Values in the kit's canonical logical JSON form (what inspect prints)."""
    t = parse_type(type_text)
    return [to_json(t, to_internal(t, v)) for v in values]


def java_value(type_text: str, value):
    """A logical JSON value in the internal form the Java program reads."""
    t = parse_type(type_text)
    v = to_internal(t, value)
    if v is None or isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))
    if isinstance(v, bytes):
        return v.hex()
    return list(v)  # timestamp (millis, nano of milli)


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


def utf_len(text: str) -> int:
    """Bytes of DataOutputStream.writeUTF(text)."""
    n = 2
    for unit in struct.unpack(f">{len(text.encode('utf-16-be')) // 2}H", text.encode("utf-16-be")):
        n += 1 if 0 < unit < 0x80 else (2 if unit < 0x800 else 3)
    return n


def store_file_index(report: dict, spec: dict, work: Path, out: Path) -> None:
    """Sidecar of one container: the logical input, Java's payload slices and its probe answers."""
    data = (work / "file_index" / spec["name"] / "index").read_bytes()
    head = 24 + sum(utf_len(c["name"]) + 4 + sum(utf_len(i["type"]) + 8 for i in c["indexes"]) for c in spec["columns"])
    lengths = iter(report["payload_lengths"])
    pos = head
    columns = []
    for c in spec["columns"]:
        indexes = []
        for i in c["indexes"]:
            entry = {"index_type": i["type"]}
            if i.get("empty"):
                entry |= {"offset": -1, "length": 0, "empty": True}
            else:
                n = next(lengths)["length"]
                payload = data[pos : pos + n]
                entry |= {"offset": pos, "length": n}
                if i["type"] == "bitmap":
                    entry["payload"] = {"version": 1, "row_values": c["values"]}  # 0.9.0 writes version 1 only
                elif i["type"] == "bloom-filter":
                    entry["payload"] = {
                        "num_hash_functions": int.from_bytes(payload[:4], "big"),
                        "num_bits": 8 * (n - 4),
                        "bits": payload[4:].hex(),
                    }
                else:
                    entry["payload_hex"] = payload.hex()
                entry["options"] = i.get("options", {})
                pos += n
            indexes.append(entry)
        columns.append({"name": c["name"], "type": c["type"], "values": c["values"], "indexes": indexes})
    assert pos == len(data), (spec["name"], pos, len(data))
    answers = [
        {
            "column": a["probe"]["column"],
            "op": a["probe"]["op"],
            "values": spec_probe["values"],
            "results": [
                {k: v for k, v in r.items() if k != "reader"} | {"index_type": INDEX_OF[r["reader"]]}
                for r in a["results"]
            ],
        }
        for a, spec_probe in zip(report["probes"], spec["probes"], strict=True)
    ]
    how = (
        "tools/java/FileIndexGoldenWriter.java: FileIndexer.create(type, dataType, options).createWriter()"
        ".writeRecord() per row, FileIndexFormat.Writer.writeColumnIndexes(LinkedHashMap)"
    )
    sidecar = {
        "case_format": 1,
        "kind": "file-index",
        "version": 1,
        "columns": columns,
        "provenance": provenance(how),
        "java_reader": {"method": "FileIndexFormat.Reader.readColumnIndex(column) visitors", "probes": answers},
    }
    write_pair(out / "file_index" / PRODUCER_DIR, spec["name"], data, sidecar)


INDEX_OF = {
    "org.apache.paimon.fileindex.bloomfilter.BloomFilterFileIndex$Reader": "bloom-filter",
    "org.apache.paimon.fileindex.bitmap.BitmapFileIndex$Reader": "bitmap",
    "org.apache.paimon.fileindex.empty.EmptyFileIndexReader": "empty",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    spec = {"deletion_vectors": dv_cases(), "roaring32": roaring32_cases(), "hash_index": hash_cases()}
    fi_cases = file_index_cases()
    java_fi = [
        c
        | {
            "columns": [col | {"values": [java_value(col["type"], v) for v in col["values"]]} for col in c["columns"]],
            "probes": [
                p
                | {
                    "values": [
                        java_value(next(x["type"] for x in c["columns"] if x["name"] == p["column"]), v)
                        for v in p["values"]
                    ]
                }
                for p in c["probes"]
            ],
        }
        for c in fi_cases
    ]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "cases.json").write_text(json.dumps(spec))
        paimon_java.run_java("GoldenWriter", str(work / "cases.json"), str(work))
        report = json.loads((work / "java-report.json").read_text())
        (work / "fi-cases.json").write_text(json.dumps({"file_index": java_fi}))
        paimon_java.run_java("FileIndexGoldenWriter", str(work / "fi-cases.json"), str(work))
        fi_report = json.loads((work / "file-index-report.json").read_text())
        for layout in ("deletion_vectors", "roaring32", "hash_index", "file_index"):
            target = args.out / layout / PRODUCER_DIR
            if target.exists():
                shutil.rmtree(target)
        for r, s in zip(report["deletion_vectors"], spec["deletion_vectors"], strict=True):
            store_dv(r, s, work, args.out)
        for r, s in zip(report["roaring32"], spec["roaring32"], strict=True):
            store_roaring(r, s, work, args.out)
        for r, s in zip(report["hash_index"], spec["hash_index"], strict=True):
            store_hash(r, s, work, args.out)
        for r, s in zip(fi_report, fi_cases, strict=True):
            store_file_index(r, s, work, args.out)
    print(f"golden_java: wrote Java {paimon_java.PAIMON_VERSION} goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
