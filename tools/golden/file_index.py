"""The file-index container and its bloom-filter payloads: the must-reject corpus."""

from __future__ import annotations

from pathlib import Path

from .common import patch_be, reject


def write(out: Path) -> None:
    """Container and bloom-filter payloads every reader must refuse."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.bloom_filter import codec as bloom
    from paimon_conform.layouts.file_index import entry as fi

    f = out / "file_index" / "must-reject"
    k = "file-index"
    payload = bloom.build(parse_type("INT"), [1, 2, 3, 4, 5], 10, 0.1)  # 10 bytes
    good = fi.write([("a", [("bloom-filter", payload), ("bitmap", b"\x04\x05")]), ("bcol", [("bitmap", b"\x09")])])
    head = 24 + (2 + 1 + 4) + (2 + 12 + 8) + (2 + 6 + 8) + (2 + 4 + 4) + (2 + 6 + 8)
    assert int.from_bytes(good[12:16], "big") == head
    first_start = 20 + 2 + 1 + 4 + 2 + 12  # columns[0].indexes[0].ofs_payload
    second_start = first_start + 8 + 2 + 6  # columns[0].indexes[1].ofs_payload
    types = {"a": "INT", "bcol": "INT"}

    def bad(stem: str, data: bytes, code: str, path: str, offset: int | None, breaks: str, motivation: str = ""):
        reject(f, stem, k, data, code, path, offset, breaks, motivation)

    def patch(at: int, value: int, width: int = 4) -> bytes:
        return patch_be(good, at, value, width)

    bad("bad-magic", patch(0, 0x00054E4ED01A35AF, 8), "FILE_INDEX_BAD_MAGIC", "magic", 0, "the magic is off by one")
    bad(
        "unknown-version",
        patch(8, 2),
        "FILE_INDEX_BAD_VERSION",
        "version",
        8,
        "container version 2: not a layout this spec covers (upstream is adding one)",
        "apache/paimon#10030",
    )
    bad(
        "head-length-too-small",
        patch(12, head - 4),
        "FILE_INDEX_HEAD_LENGTH_MISMATCH",
        "head_check",
        head,
        "the head length says the head ends 4 bytes before it does",
    )
    bad(
        "start-outside-body",
        patch(first_start, head - 1),
        "FILE_INDEX_START_OUTSIDE_BODY",
        "columns[0].indexes[0].ofs_payload",
        first_start,
        "a payload starts inside the head",
    )
    bad(
        "payload-past-end-of-file",
        patch(first_start + 4, 1000),
        "FILE_INDEX_PAYLOAD_PAST_EOF",
        "columns[0].indexes[0].len_payload",
        first_start + 4,
        "a payload runs past the end of the container",
    )
    bad(
        "overlapping-entries",
        patch(second_start, head + 1),
        "FILE_INDEX_PAYLOADS_OVERLAP",
        "columns[0].indexes[1].ofs_payload",
        second_start,
        "the second payload starts inside the first",
    )
    mutf = bytearray(good)
    mutf[20:23] = b"\x00\x01\xc3"  # column name: one byte, a 2-byte sequence cut short
    bad(
        "truncated-modified-utf8",
        bytes(mutf),
        "MUTF8_INVALID",
        "columns[0].name.body.decoded",
        22,
        "the column name ends inside a 2-byte modified UTF-8 sequence",
    )
    short = fi.write([("a", [("bloom-filter", b"\x00\x00\x03")])])
    bad(
        "bloom-payload-shorter-than-4-bytes",
        short,
        "TRUNCATED",
        "columns[0].indexes[0].payload.num_hash_functions",
        len(short) - 3,
        "a bloom-filter payload of 3 bytes: not even the hash-function count",
    )
    zero_k = fi.write([("a", [("bloom-filter", b"\x00\x00\x00\x00" + payload[4:])])])
    bad(
        "bloom-zero-hash-functions",
        zero_k,
        "BLOOM_BAD_HASH_COUNT",
        "columns[0].indexes[0].payload.num_hash_functions",
        len(zero_k) - len(payload),
        "k = 0",
    )
    no_bits = fi.write([("a", [("bloom-filter", payload[:4])])])
    bad(
        "bloom-no-bits",
        no_bits,
        "BLOOM_EMPTY_BIT_SET",
        "columns[0].indexes[0].payload.bits_check",
        len(no_bits),
        "a bloom filter without a single byte of bits (Java divides by numBits)",
    )
    del types


def payload_cases() -> list[tuple[str, dict, dict, str]]:
    """File-index containers with the payload kinds of the newer releases (bitmap version 2, BSI, range-bitmap
    beside bloom-filter), written by Java (tools/golden_java_payloads.py): (stem, the container's columns with
    their values and indexes, {}, note). `complete` turns one into its sidecar from the bytes Java wrote."""
    ints = [3, None, -7, 3, 250, 0, None, 3, -7, 12]
    words = ["pear", None, "apple", "pear", "", "Äpfel", "zebra", "apple"]

    def col(name: str, type_: str, values: list, *kinds: str) -> dict:
        return {"name": name, "type": type_, "values": values, "indexes": [{"type": k} for k in kinds]}

    numeric = [
        ("t", "TINYINT", [-128, 5, None, 127, 5]),
        ("l", "BIGINT", [-(2**63) + 1, 0, 2**40, None, 0]),
        ("d", "DATE", ["2024-02-29", "1969-12-31", None, "2024-02-29", "1970-01-01"]),
        ("ts", "TIMESTAMP(6)", ["2023-11-14T22:13:20.123456", None, "1969-12-31T23:59:59.999999", None, None]),
        ("dec", "DECIMAL(10, 2)", ["-1.25", "3.50", None, "0.01", "3.50"]),
    ]
    cases = [
        (
            "every-payload-kind",
            [
                col("a", "INT", ints, "bloom-filter", "bitmap", "bsi", "range-bitmap"),
                col("s", "STRING", words, "bloom-filter", "bitmap", "range-bitmap"),
            ],
            "bloom-filter, bitmap (version 2, the default since 1.1), BSI and range-bitmap on one INT column",
        ),
        ("bsi-numeric-types", [col(n, t, v, "bsi") for n, t, v in numeric], "BSI on every numeric kind of key"),
        (
            "range-bitmap-types",
            [col(n, t, v, "range-bitmap") for n, t, v in numeric]
            + [col("b", "BOOLEAN", [True, None, False, True, False], "range-bitmap")],
            "range-bitmap on numeric, date, timestamp, decimal and BOOLEAN keys",
        ),
        (
            "bitmap-v2-types",
            [col(n, t, v, "bitmap") for n, t, v in numeric if t != "DECIMAL(10, 2)"]
            + [
                col("s", "STRING", words[:5], "bitmap"),
                col("b", "BOOLEAN", [True, None, False, True, False], "bitmap"),
            ],
            "bitmap version 2 on every key kind it takes (no DECIMAL: 'Does not support decimal'), BOOLEAN included",
        ),
    ]
    return [(stem, {"kind": "file-index", "columns": columns}, {}, note) for stem, columns, note in cases]


def complete(case: dict, data: bytes) -> dict:
    """The sidecar of a container Java wrote: the layout's case of the bytes, each column's values beside it."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.file_index import entry as fi

    side = fi.inspect(data, {c["name"]: parse_type(c["type"]) for c in case["columns"]})
    for column, spec in zip(side["columns"], case["columns"], strict=True):
        column["values"] = spec["values"]
    return side
