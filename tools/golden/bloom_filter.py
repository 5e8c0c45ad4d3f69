"""Bloom-filter payloads on their own: the valid cases Java writes, and must-reject files."""

from __future__ import annotations

from pathlib import Path

from .common import hx, patch_be, reject

NOTES_OPTIONS = {"items": 10, "fpp": 0.1}  # the notes' examples: 48 bits, k = 3
JAVA_PAYLOADS = [
    ("int-1-to-5-and-null", "INT", [1, 2, 3, 4, 5, None], hx("00000003 89282170c005")),
    ("string-a-bb-ccc", "STRING", ["a", "bb", "ccc"], hx("00000003 018100702100")),
]


def _side(type_: str, data: bytes, values: list, options: dict) -> dict:
    """The sidecar of a payload: its structure, with the values and options it was built from."""
    return {
        "case_format": 1,
        "kind": "bloom-filter",
        "type": type_,
        "num_hash_functions": int.from_bytes(data[:4], "big", signed=True),
        "num_bits": 8 * (len(data) - 4),
        "bits": data[4:].hex(),
        "values": values,
        "options": options,
    }


def payload_cases() -> list[tuple[str, dict, dict, str]]:
    """The valid bloom-filter payloads: (stem, case without its bits, the writer's options, note); `complete`
    adds the structure from the bytes Java writes."""
    cases = [
        ("int-1-to-5-and-null", "INT", [1, 2, 3, 4, 5, None], NOTES_OPTIONS, "the notes' §6.4 example"),
        ("string-a-bb-ccc", "STRING", ["a", "bb", "ccc"], NOTES_OPTIONS, "the notes' §6.4 example"),
        ("tinyint-and-smallint", "SMALLINT", [-32768, -1, 0, 1, 32767], {"items": 5, "fpp": 0.01}, "wang64 of int"),
        ("bigint-extremes", "BIGINT", [-(2**63), -1, 0, 2**63 - 1], {"items": 4, "fpp": 0.05}, "wang64 of long"),
        ("float-signs-and-nan", "FLOAT", [-0.0, 0.0, 1.5, -1.5, "NaN"], {"items": 5, "fpp": 0.1}, "float bits"),
        ("double", "DOUBLE", [1.5, -2.25, 1e300], {"items": 3, "fpp": 0.1}, "double bits"),
        ("date-and-time", "DATE", ["1970-01-01", "2024-02-29", "0001-01-01"], {"items": 3, "fpp": 0.1}, "days"),
        ("binary", "VARBINARY(8)", ["", "00ff", "deadbeef"], {"items": 3, "fpp": 0.1}, "XXH64 of the bytes"),
        (
            "timestamp-millis",
            "TIMESTAMP(3)",
            ["2023-11-14T22:13:20.123", "1969-12-31T23:59:59.999"],
            {"items": 2, "fpp": 0.1},
            "epoch millis for precision <= 3",
        ),
        (
            "timestamp-micros",
            "TIMESTAMP(6)",
            ["2023-11-14T22:13:20.123456", "1969-12-31T23:59:59.999999"],
            {"items": 2, "fpp": 0.1},
            "epoch micros for precision > 3",
        ),
        ("string-many", "STRING", [f"v{i}" for i in range(200)], {"items": 100, "fpp": 0.01}, "more values than items"),
    ]
    return [
        (
            stem,
            {"case_format": 1, "kind": "bloom-filter", "type": type_, "values": values, "options": options},
            {k: str(v) for k, v in options.items()},
            note,
        )
        for stem, type_, values, options, note in cases
    ]


def complete(case: dict, data: bytes) -> dict:
    """A payload case with the structure of the bytes Java wrote for it (what inspect gives)."""
    return _side(case["type"], data, case["values"], case["options"])


def write(out: Path) -> None:
    """The derived bloom-filter goldens: must-reject files built from the notes' §6.4 INT payload (JAVA_PAYLOADS,
    checked against Java's golden by test_java_payloads); every valid payload is Java-written
    (tools/golden_java_payloads.py)."""
    f = out / "bloom_filter" / "must-reject"
    good = JAVA_PAYLOADS[0][3]
    reject(f, "shorter-than-4-bytes", "bloom-filter", good[:3], "TRUNCATED", "num_hash_functions", 0, "3 bytes")
    for stem, k, breaks in [
        ("zero-hash-functions", 0, "k = 0"),
        ("negative-hash-functions", -3, "k < 0"),
        ("hash-functions-128", 128, "k = 128: Java's reader rebuilds the int from signed bytes and misreads it"),
    ]:
        reject(f, stem, "bloom-filter", patch_be(good, 0, k), "BLOOM_BAD_HASH_COUNT", "num_hash_functions", 0, breaks)
    reject(
        f,
        "no-bits",
        "bloom-filter",
        good[:4],
        "BLOOM_EMPTY_BIT_SET",
        "bits_check",
        4,
        "a bloom filter without a single byte of bits (Java divides by numBits)",
    )
