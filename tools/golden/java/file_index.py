"""File-index containers written and probed by Java Paimon 0.9.0 (FileIndexGoldenWriter): the cases and how each
is stored."""

from __future__ import annotations

import random
import struct
from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance, write_pair
from paimon_conform.core.types import parse_type, to_internal, to_json


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
