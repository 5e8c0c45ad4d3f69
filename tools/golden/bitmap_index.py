"""Bitmap file-index payloads (V1, V2): the valid cases Java writes, and must-reject files built from the V2 bytes
Java writes for the notes' example (BITMAP_V2_INT, checked against Java's golden by test_java_payloads)."""

from __future__ import annotations

from pathlib import Path

from .common import hx, patch_be, reject

BITMAP_V2_INT = hx("""02 00000008 00000003 01 00000000 00000014 00000001 00000001 00000000 00000028 00000003
    00000001 00000014 00000016 00000002 0000002a 00000014 00000003 fffffffa ffffffff
    3a300000 01000000 0000 0100 10000000 0100 0400 3a300000 01000000 0000 0200 10000000 0000 0300 0600
    3a300000 01000000 0000 0100 10000000 0200 0700""")


def write(out: Path) -> None:
    """The derived bitmap_index goldens: must-reject only (every valid payload is Java-written:
    tools/golden_java_payloads.py writes PAYLOAD_CASES with the releases that write the layout)."""
    bitmap_rejects(out)


def payload_cases() -> list[tuple[str, dict, dict, str]]:
    """The valid bitmap payloads: (stem, case, the writer's options, note). V2 from Paimon 1.1; a case with
    version 1 is written with the option version=1 (1.1 on) or as 0.9's and 1.0's only version."""
    rng = __import__("random").Random(11)
    cases = [
        ("v2-int-with-nulls", "INT", [1, None, 2, 1, None, 3, 1, 2], 2, None, "the notes' §7.5 V2 example"),
        ("v2-strings", "STRING", ["x", "yy", None, "x", "zzz"], 2, None, "V2 null length written for a single null"),
        (
            "v2-small-blocks",
            "INT",
            [rng.randrange(-50, 50) for _ in range(400)],
            2,
            64,
            "index-block-size 64: many index blocks",
        ),
        ("v2-all-null", "BIGINT", [None] * 6, 2, None, "all rows null: no blocks"),
        ("v2-boolean", "BOOLEAN", [True, False, None, True, True], 2, None, "BOOLEAN columns"),
        (
            "v2-floats",
            "DOUBLE",
            [1.5, "NaN", -0.0, 0.0, "-Infinity", 1.5, "NaN"],
            2,
            None,
            "Double.compare order: -Infinity, -0.0, 0.0, 1.5, NaN",
        ),
        ("v1-int-with-nulls", "INT", [1, None, 2, 1, None, 3, 1, 2], 1, None, "version 1, nulls"),
        ("v1-boolean", "BOOLEAN", [False, False, True], 1, None, "version 1 with BOOLEAN keys"),
    ]
    out = []
    for stem, type_, values, version, block, note in cases:
        case = {"case_format": 1, "kind": "bitmap", "type": type_, "version": version}
        options = {"version": str(version)}
        if block:
            case["index_block_size"] = block
            options["index-block-size"] = f"{block}b"
        out.append((stem, case | {"row_values": values}, options, note))
    return out


def bitmap_rejects(out: Path) -> None:
    """Bitmap payloads every reader must refuse (all INT keys)."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.bitmap_index import codec as bitmap

    f = out / "bitmap_index" / "must-reject"
    ints = [1, None, 2, 1, None, 3, 1, 2]
    v1 = bitmap.build(parse_type("INT"), ints, 1)  # header: 1+4+4+1+4 = 14, entries of 8 bytes, body at 38

    def bad(stem, data, code, path, offset, breaks):
        reject(f, stem, "bitmap", data, code, path, offset, breaks, type="INT")

    bad("bad-version", patch_be(v1, 0, 3, 1), "BITMAP_BAD_VERSION", "version", 0, "version 3")
    bad(
        "offset-out-of-range",
        patch_be(v1, 14 + 4, 500),
        "BITMAP_OFFSET_OUT_OF_RANGE",
        "entries[0]",
        None,
        "a bitmap offset beyond the body",
    )
    bad(
        "row-out-of-range",
        patch_be(v1, 1, 5),
        "BITMAP_ROW_OUT_OF_RANGE",
        "entries[0]",
        None,
        "the row count says 5 rows; bitmaps list rows up to 7",
    )
    bad(
        "single-row-twice",
        patch_be(v1, 14 + 16 + 4, -1 - 0),
        "BITMAP_ROW_TWICE",
        "entries[2]",
        None,
        "value 3 claims row 0, which value 1 holds",
    )
    bad(
        "v1-body-out-of-header-order",
        patch_be(patch_be(v1, 14 + 4, 42), 14 + 12, 20),
        "BITMAP_V1_BODY_ORDER",
        "ofs_null_bitmap",
        None,
        "header order differs from body order, so V1 lengths come out wrong",
    )
    v2 = BITMAP_V2_INT  # 1 block; directory at 22, index blocks at 34
    bad(
        "v2-block-count-lies",
        patch_be(v2, 18, 2),
        "TRUNCATED",
        "index_blocks.blocks[0].num_entries",
        42,
        "the block count says 2 blocks, the directory holds 1",
    )
    bad(
        "v2-block-offset-wrong",
        patch_be(v2, 26, 4),
        "BITMAP_BLOCKS_MISMATCH",
        "index_blocks.blocks[0].offset_check",
        34,
        "the block directory points 4 bytes into the block",
    )
    bad(
        "v2-length-mismatch",
        patch_be(v2, 34 + 4 + 8, 21),
        "BITMAP_LENGTH_MISMATCH",
        "entries[0]",
        None,
        "a stored bitmap length one short",
    )
    bad(
        "v2-keys-not-sorted",
        patch_be(patch_be(v2, 34 + 4, 2), 34 + 16, 1),
        "BITMAP_V2_KEYS_NOT_SORTED",
        "index_blocks",
        None,
        "V2 entries out of key order",
    )
