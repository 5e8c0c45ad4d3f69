"""Range-bitmap payloads: the valid cases Java writes, and must-reject files built from the bytes Java writes for
the notes' example (range_bitmap_int_example, checked against Java's golden by test_java_payloads)."""

from __future__ import annotations

from pathlib import Path

from paimon_conform.layouts.roaring32 import codec as roaring

from .common import hx, patch_be, reject

RANGE_BITMAP_INT_HEAD = hx(
    "00000015 01 00000006 00000003 00000003 00000009 00000036"
    "0000000d 01 00000001 00000004 00000019 00000000"
    "01 00000003 00000000 00000000 00000002 00000008 00000004 00000005 00000009"
    "0000001a 01 02 0000001a 00000010 00000000 00000014 00000014 00000012"
)


def range_bitmap_int_example() -> bytes:
    """Notes §8.6: the header, dictionary and BSI header bytes, then the three bitmaps it lists by value."""
    bitmaps = [roaring.encode_roaring32(v) for v in ([0, 2, 3, 4, 5], [0, 3], [4])]
    assert [len(b) for b in bitmaps] == [26, 20, 18], "the notes give the bitmaps' sizes"
    return RANGE_BITMAP_INT_HEAD + b"".join(bitmaps)


def write(out: Path) -> None:
    """The derived range_bitmap goldens: must-reject only (every valid payload is Java-written:
    tools/golden_java_payloads.py writes PAYLOAD_CASES with the releases that write the layout)."""
    range_bitmap_rejects(out, range_bitmap_int_example())


def payload_cases() -> list[tuple[str, dict, dict, str]]:
    """The valid range-bitmap payloads (Paimon 1.3 on): (stem, case, the writer's options, note)."""
    variants = [
        ("int-example", "INT", [5, None, 3, 5, 9, 3], None, "the notes' §8.6 example"),
        ("string", "STRING", ["pear", None, "apple", "\u00c4pfel", "", "pear", "zebra"], None, "unsigned-byte order"),
        ("string-chunks", "STRING", [f"k{i:03d}" for i in range(40)], "40b", "several variable-length chunks"),
        ("bigint-chunks", "BIGINT", [i * 7 - 100 for i in range(30)] + [None], "32b", "fixed chunks of 1 + 4 keys"),
        ("tinyint", "TINYINT", [3, -128, 127, None, 3, 0], None, "chunk size 0b: one key per chunk"),
        ("boolean", "BOOLEAN", [True, None, False, True], None, "false < true; one key per chunk"),
        ("double-nan-zeros", "DOUBLE", [1.5, "NaN", -0.0, 0.0, None, "-Infinity"], None, "Double.compare order"),
        ("float", "FLOAT", [2.5, -1.0, 2.5, "Infinity"], None, "FLOAT keys are 4 bytes"),
        ("decimal", "DECIMAL(10, 2)", ["-1.25", "3.50", None, "0.01"], None, "unscaled longs"),
        ("timestamp-micros", "TIMESTAMP(6)", ["2023-11-14T22:13:20.123456", None], None, "micros for precision > 3"),
        ("date", "DATE", ["2024-01-01", "1970-01-01", "1969-12-31"], None, "days since the epoch"),
        ("all-null", "INT", [None, None, None], None, "no keys: 64 empty slices, BSI header length 522"),
        ("no-rows", "INT", [], None, "no rows at all"),
        ("one-value", "SMALLINT", [7, 7, None], None, "one key: one slice"),
    ]
    out = []
    for stem, type_, values, chunk, note in variants:
        case = {"case_format": 1, "kind": "range-bitmap", "type": type_}
        if chunk:
            case["chunk_size"] = chunk
        out.append((stem, case | {"row_values": values}, {"chunk-size": chunk} if chunk else {}, note))
    return out


def range_bitmap_rejects(out: Path, example: bytes) -> None:
    """Range-bitmap payloads every reader must refuse (INT keys; offsets worked out from the layout)."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.range_bitmap import codec as range_bitmap

    f = out / "range_bitmap" / "must-reject"

    def bad(stem: str, data: bytes, code: str, path: str, offset: int | None, breaks: str) -> None:
        reject(f, stem, "range-bitmap", data, code, path, offset, breaks, type="INT")

    d = 4 + 21  # dictionary of the example
    c = d + 54  # its code BSI
    bad("bad-version", patch_be(example, 4, 2, 1), "RANGE_BITMAP_BAD_VERSION", "header.version", 4, "version 2")
    bad(
        "header-length-lies",
        patch_be(example, 0, 22),
        "RANGE_BITMAP_BAD_LENGTH",
        "header.end_check",
        25,
        "header length 22 for 21 bytes of header fields",
    )
    bad(
        "too-many-slices",
        patch_be(example, c + 5, 65, 1),
        "RANGE_BITMAP_SLICE_COUNT",
        "codes.header.num_slices",
        c + 5,
        "65 slices: more than a long has bits",
    )
    bad(
        "existence-beyond-row-count",
        patch_be(example, 5, 5),
        "RANGE_BITMAP_ROW_OUT_OF_RANGE",
        "codes.existence",
        c + 4 + 26,
        "row count 5 while the existence bitmap holds row 5",
    )
    swapped = patch_be(patch_be(example, 13, 9), 17, 3)
    bad("min-above-max", swapped, "RANGE_BITMAP_MIN_ABOVE_MAX", "header", 4, "header min 9, max 3")
    unsorted = patch_be(patch_be(example, d + 17 + 4 + 25, 9), d + 17 + 4 + 29, 5)
    bad(
        "keys-unsorted",
        unsorted,
        "RANGE_BITMAP_KEYS_UNSORTED",
        "dictionary",
        None,
        "dictionary keys 3, 9, 5: lookups binary-search them",
    )
    bad(
        "trailing-bytes",
        example + b"\x00",
        "RANGE_BITMAP_TRAILING_BYTES",
        "codes.slices.end_check",
        len(example),
        "a byte after the last slice",
    )
    # nine keys in chunks of 1 + 2 (chunk size 8b), one null: 10 rows
    t = parse_type("INT")
    multi = range_bitmap.build(t, [None, *range(1, 10)], "8b")
    d = 4 + 21
    chunk = 1 + 4 + 5 * 4  # version, first key, code, keys offset, size, keys length, key size
    offsets = d + 17
    swapped = patch_be(patch_be(multi, offsets + 4, 2 * chunk), offsets + 8, chunk)
    bad(
        "chunk-offsets-out-of-order",
        swapped,
        "RANGE_BITMAP_CHUNK_OFFSETS",
        "dictionary.chunks.chunks[0].end_check",
        offsets + 12 + chunk,
        "chunk offsets 0, 50, 25: the second header is not where chunk 0 ends",
    )
    bad(
        "chunk-key-count-lies",
        patch_be(multi, offsets + 12 + 2 * chunk + 13, 3),
        "RANGE_BITMAP_BAD_LENGTH",
        "dictionary.chunks.chunks[2].len_fixed_check",
        offsets + 12 + 3 * chunk,
        "the last chunk claims 3 extra keys in an 8-byte key block",
    )
    bad(
        "key-count-lies",
        patch_be(multi, 9, 10),
        "RANGE_BITMAP_CHUNK_COUNT",
        "dictionary.keys_check_count",
        offsets + 12 + 3 * chunk,
        "the header counts 10 keys, the chunks hold 9",
    )
