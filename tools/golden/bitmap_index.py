"""Bitmap file-index payloads (V1, V2): Java-written bytes from the notes, encoder files, must-reject."""

from __future__ import annotations

from pathlib import Path

from .common import encoder_prov, hx, notes_prov, patch_be, reject, write_pair

BITMAP_V2_INT = hx("""02 00000008 00000003 01 00000000 00000014 00000001 00000001 00000000 00000028 00000003
    00000001 00000014 00000016 00000002 0000002a 00000014 00000003 fffffffa ffffffff
    3a300000 01000000 0000 0100 10000000 0100 0400 3a300000 01000000 0000 0200 10000000 0000 0300 0600
    3a300000 01000000 0000 0100 10000000 0200 0700""")


def write(out: Path) -> None:
    """Every bitmap_index golden."""
    bitmap_goldens(out)
    bitmap_rejects(out)


def bitmap_goldens(out: Path) -> None:
    """Bitmap payloads: V2 bytes Java wrote (notes §7.5), encoder files for what 0.9.0 cannot write."""
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.bitmap_index import codec as bitmap

    ints = [1, None, 2, 1, None, 3, 1, 2]
    side = {"case_format": 1, "kind": "bitmap", "type": "INT", "version": 2, "row_values": ints}
    write_pair(
        out / "bitmap_index" / "java-notes",
        "v2-int-with-nulls",
        BITMAP_V2_INT,
        side | {"provenance": notes_prov("§7.5 V2 (BitmapFileIndex, Paimon master)")},
    )
    rng = __import__("random").Random(11)
    encoder = [
        ("v2-strings", "STRING", ["x", "yy", None, "x", "zzz"], 2, None, "V2 null length written for a single null"),
        (
            "v2-small-blocks",
            "INT",
            [rng.randrange(-50, 50) for _ in range(400)],
            2,
            64,
            "index-block-size 64: many index blocks",
        ),
        ("v2-all-null", "BIGINT", [None] * 6, 2, None, "all rows null: no blocks (valid since Paimon 1.2)"),
        ("v2-boolean", "BOOLEAN", [True, False, None, True, True], 2, None, "BOOLEAN columns (Paimon >= 1.1)"),
        (
            "v2-floats",
            "DOUBLE",
            [1.5, "NaN", -0.0, 0.0, "-Infinity", 1.5, "NaN"],
            2,
            None,
            "Double.compare order: -Infinity, -0.0, 0.0, 1.5, NaN",
        ),
        ("v1-boolean", "BOOLEAN", [False, False, True], 1, None, "version 1 with BOOLEAN keys"),
    ]
    for stem, type_, values, version, block, note in encoder:
        t = parse_type(type_)
        data = bitmap.build(t, [to_internal(t, v) for v in values], version, block or bitmap.DEFAULT_BLOCK_SIZE)
        side = {"case_format": 1, "kind": "bitmap", "type": type_, "version": version, "row_values": values}
        if block:
            side["index_block_size"] = block
        write_pair(
            out / "bitmap_index" / "encoder",
            stem,
            data,
            side | {"provenance": encoder_prov("layouts.bitmap_index.codec.build"), "notes": note},
        )


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
