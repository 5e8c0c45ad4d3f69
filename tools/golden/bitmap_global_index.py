"""Bitmap global index files (BGIX, Paimon 2.0): the cases Java 2.0.0 writes for every key kind and option
(java_cases, tools/golden_java_encoded.py), and must-reject files.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from .common import reject as _reject

K = "bitmap-global-index"


def write(out: Path) -> None:
    """The derived goldens: the must-reject corpus (every valid file is Java-written: java_cases)."""
    _rejects(out / "bitmap_global_index" / "must-reject")


def java_cases() -> list[tuple[str, dict, str]]:
    """The files Java writes through the testee's encode (GlobalIndexer over one column, rows fed in key order as
    the sorted index builder feeds them): one per key kind, block split and compression; (stem, case, note), each
    case as the layout inspects the bytes the reference encoder makes for it."""
    from paimon_conform.core.block_codec import LZ4, NONE, ZSTD
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.bitmap_global_index import codec

    out = []
    words = ["pear", "apple", None, "fig", "apple", "kiwi", "pear", None, "été", "apple"]
    cases = [
        ("int-with-nulls", "INT", [3, 1, None, 3, 2, None, 1], 16384, NONE, "little-endian INT keys 1, 2, 3"),
        ("bigint-negative", "BIGINT", [-5, 2**40, -5, 0], 16384, NONE, "signed keys sort by value, not bytes"),
        ("string-one-block", "STRING", words, 16384, NONE, "UTF-8 keys in byte order; 'été' sorts last"),
        ("string-small-blocks", "STRING", words, 24, NONE, "a 24-byte dictionary block size: several blocks"),
        ("all-null", "BOOLEAN", [None, None, None], 16384, NONE, "no dictionary block; an index block of none"),
        ("boolean", "BOOLEAN", [True, False, None, True], 16384, NONE, "false before true"),
        ("tinyint-smallint", "SMALLINT", [-300, 7, 300, 7], 16384, NONE, "2-byte keys"),
        ("double-nan-zeros", "DOUBLE", [1.5, "NaN", -0.0, 0.0, None, "-Infinity"], 16384, NONE, "Double.compare"),
        ("float", "FLOAT", [0.5, -2.25, 0.5], 16384, NONE, "Float.floatToIntBits keys"),
        ("decimal-compact", "DECIMAL(10, 2)", ["-1.29", "0.05", "-1.29"], 16384, NONE, "unscaled long"),
        ("decimal-wide", "DECIMAL(30, 2)", ["-1.29", "12345678901234567890.12"], 16384, NONE, "BigInteger bytes"),
        ("date-time", "DATE", ["2024-02-29", "1969-12-31", "2024-02-29"], 16384, NONE, "days as INT keys"),
        ("timestamp-millis", "TIMESTAMP(3)", ["2024-01-01T00:00:00.123", "1969-12-31T23:59:59.999"], 16384, NONE, ""),
        ("timestamp-nanos", "TIMESTAMP(9)", ["1970-01-01T00:00:01.000000005", "1970-01-01T00:00:01"], 16384, NONE, ""),
        ("string-zstd", "STRING", ["x" * 40 + str(i % 5) for i in range(40)], 64, ZSTD, "zstd blocks (level 1)"),
        ("string-lz4", "STRING", ["y" * 40 + str(i % 5) for i in range(40)], 16384, LZ4, "lz4 blocks"),
    ]
    for stem, type_text, values, size, compression, note in cases:
        t = parse_type(type_text)
        data = codec.encode(t, [to_internal(t, v) for v in values], size, compression)
        out.append((stem, _case(data, type_text), note or f"{type_text} keys"))
    t = parse_type("INT")
    many = [i // 10_000 for i in range(70_000)]
    data = codec.encode(t, many, 16384, NONE)
    out.append(("runs-over-70000-rows", _case(data, "INT"), "7 values of 10,000 rows: run containers"))
    return out


def _case(data: bytes, type_text: str) -> dict:
    """The case the layout inspects in the bytes."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.registry import get

    return get("bitmap_global_index").inspect(data, parse_type(type_text))


def _assemble(
    bitmaps: list[tuple[bytes, bytes]],
    null_rows: bytes,
    non_null: bytes,
    dictionary: Callable[[list[tuple[bytes, int, int]]], bytes] | None = None,
    index: Callable[[list[tuple[bytes, int, int]]], bytes] | None = None,
    num_values: int | None = None,
) -> tuple[bytes, dict]:
    """A one-dictionary-block file from (key, bitmap bytes), with the block contents replaceable."""
    from paimon_conform.core.block_codec import trailer
    from paimon_conform.layouts.bitmap_global_index.codec import MAGIC, block_content

    out, at = bytearray(), {}
    entries = []
    for key, bm in bitmaps:
        entries.append((key, len(out), len(bm)))
        out += bm
    content = (dictionary or block_content)(entries)
    at["dictionary"] = len(out)
    out += content + trailer(content, 0)
    at["null"], at["non_null"] = len(out), len(out) + len(null_rows)
    out += null_rows + non_null
    content = (index or block_content)([(bitmaps[0][0], at["dictionary"], at["null"] - at["dictionary"] - 5)])
    at["index"], at["len_index"] = len(out), len(content)
    out += content + trailer(content, 0)
    at["footer"] = len(out)
    nv = len(bitmaps) if num_values is None else num_values
    footer = (at["null"], len(null_rows), at["non_null"], len(non_null), at["index"], len(content), nv, 1, MAGIC)
    return bytes(out) + struct.pack(">qiqiqiiiI", *footer), at


def _rejects(f: Path) -> None:
    """Faults BitmapGlobalIndexFormat refuses, and the ones that make Java's lookups answer wrongly."""
    import numpy as np

    from paimon_conform.core.block_codec import trailer, var_int
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.bitmap_global_index.codec import bitmap_bytes, block_content, encode

    def bm(*rows: int) -> bytes:
        return bitmap_bytes(np.asarray(rows, dtype=np.uint64))

    def reject(*args: object, **kwargs: object) -> None:
        _reject(*args, type="INT", **kwargs)  # every file is an INT column's index; the type is part of the case

    one, two, three = (struct.pack("<i", v) for v in (1, 2, 3))
    parts = [(one, bm(1, 6)), (two, bm(4)), (three, bm(0, 3))]
    good, at = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6))
    assert good == encode(parse_type("INT"), [3, 1, None, 3, 2, None, 1])  # the parts are the writer's
    foot = at["footer"]

    def field(data: bytes, pos: int, fmt: str, value: int) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, pos, value)
        return bytes(out)

    reject(f, "shorter-than-footer", K, good[-47:], "BGIX_TOO_SHORT", "size_check", 0, "47 bytes")
    bad = good[:-1] + b"Y"
    reject(f, "bad-magic", K, bad, "BGIX_BAD_MAGIC", "footer.magic", foot + 44, "magic BGIY")
    bad = field(good, foot + 40, ">i", 2)
    reject(f, "version-2", K, bad, "BGIX_BAD_VERSION", "footer.version", foot + 40, "version 2; Java knows 1")
    bad = field(good, foot + 36, ">i", -1)
    reject(f, "negative-value-count", K, bad, "BGIX_BAD_VALUE_COUNT", "footer.num_values", foot + 36, "count -1")
    bad = field(good, foot + 8, ">i", foot - at["null"] + 1)
    reject(f, "null-rows-past-footer", K, bad, "BGIX_BAD_BLOCK", "footer.ofs_null_rows", foot, "ends in the footer")
    bad = field(good, foot + 32, ">i", -1)
    reject(f, "negative-index-length", K, bad, "BGIX_BAD_BLOCK", "footer.ofs_index", foot + 24, "length -1")
    crc_at = at["index"] + at["len_index"]
    bad = field(good, crc_at + 1, "<I", 0xDEADBEEF)
    reject(f, "index-crc", K, bad, "BLOCK_CRC_MISMATCH", "index.trailer", crc_at, "the index block's CRC changed")
    bad = field(good, crc_at, "<B", 7)
    reject(f, "unknown-compression", K, bad, "BLOCK_BAD_COMPRESSION", "index.trailer.compression", crc_at, "id 7")
    bad, at2 = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6), dictionary=lambda e: var_int(100) + block_content(e)[1:])
    msg = "the dictionary block counts 100 entries where it has room for 7"
    path = "dictionary_blocks[0].block.content.num_entries"
    reject(f, "count-past-block", K, bad, "BGIX_BAD_COUNT", path, at2["dictionary"], msg)
    neg = b"\xff\xff\xff\xff\x0f"
    bad, at2 = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6), dictionary=lambda e: b"\x03" + neg + block_content(e)[2:])
    path = "dictionary_blocks[0].block.content.entries[0].len_key"
    reject(f, "negative-key-length", K, bad, "BGIX_BAD_KEY_LENGTH", path, at2["dictionary"] + 1, "key length -1")
    bad, at2 = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6), dictionary=lambda e: b"\x03\x7f" + block_content(e)[2:])
    path = "dictionary_blocks[0].block.content.entries[0].key"
    reject(f, "key-past-block", K, bad, "TRUNCATED", path, at2["dictionary"] + 2, "key length 127")
    bad, at2 = _assemble(
        parts, bm(2, 5), bm(0, 1, 3, 4, 6), dictionary=lambda e: block_content([e[0], e[1], (e[2][0], 500, e[2][2])])
    )
    path = "dictionary_blocks[0].block.content.entries[2].ofs_block"
    entry_at = at2["dictionary"] + 1 + 2 * (1 + 4 + 1 + 1) + 1 + 4  # the count, two 7-byte entries, a key
    reject(f, "bitmap-past-footer", K, bad, "BGIX_BAD_BLOCK", path, entry_at, "the third bitmap at offset 500")
    bad, at2 = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6), index=lambda e: block_content([(two, e[0][1], e[0][2])]))
    msg = "the index names the block by key 2, its first key is 1: lookups of 1 miss it"
    path = "dictionary_blocks[0].block"
    reject(f, "first-key-mismatch", K, bad, "BGIX_FIRST_KEY_MISMATCH", path, at2["dictionary"], msg)
    short = [*parts[:2], (three, bm(0, 3)[:-1])]
    bad, at2 = _assemble(short, bm(2, 5), bm(0, 1, 3, 4, 6))
    path = "dictionary_blocks[0].bitmaps[2].bitmap.buckets[0].bitmap.containers[0].body.values[1]"
    reject(
        f,
        "bitmap-cut",
        K,
        bad,
        "TRUNCATED",
        path,
        len(parts[0][1]) + len(parts[1][1]) + len(bm(0, 3)) - 2,
        "the last bitmap misses its last byte",
    )
    bad, at2 = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4, 6))
    bad = bytearray(bad)
    # give the index block a zstd trailer over its own (uncompressed) bytes: Java's zstd refuses them
    ci = at2["index"] + at2["len_index"]
    bad[ci : ci + 5] = trailer(bytes(bad[at2["index"] : ci]), 1)
    reject(f, "not-zstd", K, bytes(bad), "BLOCK_DECOMPRESS", "index.content", at2["index"], "plain bytes said zstd")
    swapped = [(two, bm(4)), (one, bm(1, 6)), (three, bm(0, 3))]
    bad, _ = _assemble(swapped, bm(2, 5), bm(0, 1, 3, 4, 6))
    reject(f, "keys-out-of-order", K, bad, "BGIX_KEY_ORDER", "keys[1]", None, "keys 2, 1, 3")
    bad, _ = _assemble([(one, bm(1, 6)), (two, bm(4, 6)), (three, bm(0, 3))], bm(2, 5), bm(0, 1, 3, 4, 6))
    reject(f, "rows-in-two-values", K, bad, "BGIX_ROWS_OVERLAP", "keys[1]", None, "row 6 holds 1 and 2")
    bad, _ = _assemble(parts, bm(2, 5), bm(0, 1, 3, 4))
    reject(f, "non-null-rows-short", K, bad, "BGIX_NON_NULL_ROWS", "non_null_rows", None, "row 6 missing")
