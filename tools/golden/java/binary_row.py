"""Key rows built by Java Paimon 0.9.0's generated projection (BucketGoldenWriter): hashCode, buckets, manifest form."""

from __future__ import annotations

from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance, write_pair
from paimon_conform.core.types import parse_type, to_internal, to_json
from paimon_conform.layouts.binary_row.entry import BUCKET_COUNTS

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
