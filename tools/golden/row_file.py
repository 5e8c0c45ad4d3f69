"""Row data files (.row, Paimon 2.0): the cases Java 2.0.0 writes over every column type (java_cases,
tools/golden_java_encoded.py), and must-reject files."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

from .common import reject

ATOMIC = [
    "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "TIME",
    "CHAR(3)", "STRING", "BINARY(2)", "BYTES", "DECIMAL(18, 2)", "DECIMAL(19, 4)", "DECIMAL(38, 0)",
    "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)", "TIMESTAMP(0) WITH LOCAL TIME ZONE",
]  # fmt: skip
NESTED: list[Any] = [
    {"type": "ARRAY", "element": "INT"},
    {"type": "MAP", "key": "STRING", "value": {"type": "ARRAY", "element": "DOUBLE"}},
    {"type": "MULTISET", "element": "STRING"},
    {"type": "ROW", "fields": [{"id": 0, "name": "a", "type": "BIGINT"}, {"id": 1, "name": "b", "type": "STRING"}]},
    {"type": "VECTOR", "element": "FLOAT", "length": 3},
    "VARIANT",
    "BLOB",
]


def _overlong_first_length(content: bytes) -> bytes:
    """The block index of one block of this content, its first array's length written in 5 varint bytes."""
    from paimon_conform.layouts.row_file import codec

    stored = codec.zstd_stream(content, codec.DEFAULT_ZSTD_LEVEL)
    first, *rest = (codec.delta_array(a) for a in ([len(stored)], [len(content)], [0]))
    assert first[0] < 0x80
    return bytes([first[0] | 0x80, 0x80, 0x80, 0x80, 0x00]) + first[1:] + b"".join(rest)


def _case(types: list[Any], rows: list[list[Any]], **options: int) -> dict[str, Any]:
    fields = [{"name": f"f{i}", "type": t} for i, t in enumerate(types)]
    return {"case_format": 1, "kind": "row-file", "version": 1, "fields": fields, **options, "rows": rows}


def _atomic_rows() -> list[list[Any]]:
    return [
        [True, -128, -32768, -(2**31), -(2**63), -1.5, "-Infinity", "1969-12-31", "00:00:00.000", "a", "",
         "00ff", "", "-0.01", "-123456789012345.6789", "-99999999999999999999999999999999999999",
         "1969-12-31T23:59:59.999", "1900-01-01T00:00:00.000001", "1677-09-21T00:12:43.145224193",
         "2024-02-29T12:00:00"],
        [None] * len(ATOMIC),
        [False, 127, 32767, 2**31 - 1, 2**63 - 1, "NaN", 1e308, "9999-12-31", "23:59:59.999", "xyz", "Grüße, 世界",
         "0100", "deadbeef" * 20, "9999999999999999.99", "999999999999999.9999", "1",
         "2262-04-11T23:47:16.854", "9999-12-31T23:59:59.999999", "2262-04-11T23:47:16.854775807",
         "1970-01-01T00:00:00"],
        [None, 0, None, 0, None, 0.0, None, "1970-01-01", None, "", None, "0000", None, "0.00", None, "0",
         None, "1970-01-01T00:00:00.000000", None, None],
    ]  # fmt: skip


def _nested_rows() -> list[list[Any]]:
    return [
        [[1, None, 3], [["k", [1.5, None]], ["z", None]], [["a", 2], ["b", 1]], [7, "seven"], [0.5, -1.0, 2.25],
         {"value": "0c01", "metadata": "010000"}, "00ff00"],
        [None] * len(NESTED),
        [[], [], [], [None, None], [0.0, 0.0, 0.0], {"value": "00", "metadata": "010000"}, ""],
    ]  # fmt: skip


def _side(case: dict[str, Any]) -> tuple[bytes, dict[str, Any]]:
    from paimon_conform.layouts.row_file import entry

    data = entry.encode(case)
    return data, entry.inspect(data, entry.case_types(case))


def java_cases() -> list[tuple[str, dict, str]]:
    """The .row files Java 2.0.0 writes through the testee's encode (RowFileFormat's FormatWriter): (stem, case,
    note), each case as the layout inspects the bytes the reference encoder makes for it."""
    strings = [[i, f"row-{i:04d}-" + "x" * (i % 23)] for i in range(60)]
    return [
        (stem, _side(case)[1], note)
        for stem, case, note in [
            (
                "every-atomic-type",
                _case(ATOMIC, _atomic_rows()),
                "every atomic type: extremes, NULLs, a 3-byte null bitmap",
            ),
            ("nested-types", _case(NESTED, _nested_rows()), "ARRAY, MAP, MULTISET, ROW, VECTOR, VARIANT, BLOB"),
            ("no-rows", _case(["INT"], []), "no rows: no block, an index of three empty arrays, the footer"),
            ("many-blocks", _case(["INT", "STRING"], strings, block_size=256), "file.block-size 256: several blocks"),
            ("zstd-level-3", _case(["INT", "STRING"], strings[:20], zstd_level=3), "file.compression.zstd-level 3"),
            (
                "row-larger-than-block",
                _case(["BYTES"], [["ab" * 400], ["cd"], ["ef" * 300]], block_size=128),
                "a row larger than the block size fills a block alone",
            ),
        ]
    ]


def write(out: Path) -> None:
    """The derived row_file goldens: must-reject files (every valid file is Java-written: java_cases)."""
    _rejects(out / "row_file" / "must-reject")


def _rejects(folder: Path) -> None:
    """Files Java 2.0's reader refuses, or reads wrongly (rows past a block, positions deletion vectors
    select by); the expected field and offset are the codec's, which test_row_file checks the spec meets."""
    from paimon_conform.core.errors import LayoutError
    from paimon_conform.core.varint import write as leb128
    from paimon_conform.layouts.row_file import codec, entry

    fields = [{"name": "f0", "type": "INT"}, {"name": "f1", "type": "STRING"}, {"name": "f2", "type": "TIMESTAMP(6)"}]
    types = list(entry.case_types({"fields": fields}).values())
    r0 = codec.row_bytes(types, [1, "ab", (5, 6)])
    r1 = codec.row_bytes(types, [2, None, (7, 8)])
    good = codec.block_content(r0 + r1, [0, len(r0)])
    last = codec.row_bytes(types, [2, None, (7, 8000)])  # 8 microseconds: the nanoseconds are visible at TIMESTAMP(6)
    one = codec.assemble([good])
    at = len(one) - codec.FOOTER

    def patched(data: bytes, pos: int, fmt: str, value: Any) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, pos, value)
        return bytes(out)

    cases = [
        ("shorter-than-footer", one[-31:], "ROW_FILE_TOO_SHORT", "31 bytes, no room for the footer"),
        ("bad-magic", patched(one, at + 28, "<I", 0x524F5754), "ROW_FILE_BAD_MAGIC", "magic ROWT"),
        ("version-2", patched(one, at + 24, "<B", 2), "ROW_FILE_BAD_VERSION", "version byte 2"),
        (
            "index-into-footer",
            patched(one, at + 20, "<i", 40),
            "ROW_FILE_BAD_INDEX_RANGE",
            "index length past the footer",
        ),
        ("negative-index-offset", patched(one, at + 12, "<q", -1), "ROW_FILE_BAD_INDEX_RANGE", "index offset -1"),
        (
            "array-longer-than-index",
            codec.assemble([good], index=b"\x05\x01"),
            "ROW_FILE_BAD_INDEX_RANGE",
            "array of 5 bytes, 1 left",
        ),
        (
            "index-varint-truncated",
            codec.assemble([good], index=b"\x02\x80\x80"),
            "TRUNCATED",
            "a size's varint ends with the array",
        ),
        (
            "index-varint-overflow",
            codec.assemble([good], index=b"\x0a" + b"\xff" * 10),
            "VARINT_OVERFLOW",
            "10 continued bytes",
        ),
        (
            "index-length-overlong",
            codec.assemble([good], index=_overlong_first_length(good)),
            "ROW_FILE_BAD_INDEX_VARINT",
            "the first array's length in 5 varint bytes",
        ),
        (
            "arrays-of-different-lengths",
            codec.assemble([good, good], row_starts=[0]),
            "ROW_FILE_INDEX_MISMATCH",
            "one row start for two blocks",
        ),
        (
            "block-past-index",
            codec.assemble([good], compressed=[1000]),
            "ROW_FILE_BLOCK_PAST_INDEX",
            "a block of 1000 bytes",
        ),
        (
            "block-not-zstd",
            codec.assemble([good], stored=[b"\x00" * 20]),
            "ROW_FILE_BLOCK_DECOMPRESS",
            "20 zero bytes as a block",
        ),
        (
            "uncompressed-size-too-small",
            codec.assemble([good], uncompressed=[len(good) - 1]),
            "ROW_FILE_BLOCK_DECOMPRESS",
            "Java's buffer is one byte short",
        ),
        (
            "uncompressed-size-too-large",
            codec.assemble([good], uncompressed=[len(good) + 4]),
            "ROW_FILE_BLOCK_DECOMPRESS",
            "Java would read the row count from zeros: no rows",
        ),
        (
            "row-start-wrong",
            codec.assemble([good, good], row_starts=[0, 1]),
            "ROW_FILE_BAD_ROW_START",
            "the second block claims to start at row 1",
        ),
        (
            "total-rows-wrong",
            codec.assemble([good], num_rows=3),
            "ROW_FILE_BAD_ROW_COUNT",
            "footer total 3, the block holds 2",
        ),
        ("block-without-count", codec.assemble([b"\x01\x02"]), "ROW_FILE_BAD_BLOCK", "a 2-byte block"),
        (
            "row-count-too-large",
            codec.assemble([good[:-4] + struct.pack("<i", 1000)]),
            "ROW_FILE_BAD_BLOCK",
            "1000 rows in 43 bytes",
        ),
        (
            "row-offset-outside",
            codec.assemble([codec.block_content(r0 + r1, [0, 99])]),
            "ROW_FILE_BAD_ROW_OFFSET",
            "row 1 at block byte 99",
        ),
        (
            "row-runs-past-rows",
            codec.assemble([codec.block_content(r0 + last[:-1], [0, len(r0)])]),
            "TRUNCATED",
            "the last row lacks the last byte of its 2-byte nanosecond varint",
        ),
        (
            "negative-string-length",
            codec.assemble([codec.block_content(r0[:5] + b"\xff\xff\xff\xff\x0f" + r0[6:], [0])]),
            "ROW_FILE_BAD_LENGTH",
            "string length -1",
        ),
        (
            "nanos-out-of-range",
            codec.assemble([codec.block_content(r0[:-1] + leb128(10**6), [0])]),
            "ROW_FILE_BAD_NANOS",
            "nanosecond of the millisecond 1000000",
        ),
    ]
    for stem, data, code, breaks in cases:
        try:
            codec.load(data, types)
        except LayoutError as err:
            if err.code != code:
                raise AssertionError(f"{stem}: the codec meets {err.code}, not {code}") from None
            reject(folder, stem, "row-file", data, code, err.path, err.offset, breaks, fields=fields)
        else:
            raise AssertionError(f"{stem}: the codec reads it")
