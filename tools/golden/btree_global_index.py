"""BTree global index files (PBTI, Paimon 1.4.1): the cases Java 1.4.2 and 2.0.0 write for every key kind and
option (java_cases, tools/golden_java_encoded.py), and must-reject files.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from .common import reject as _reject

K = "btree-global-index"
FOOTER = struct.Struct("<qiqqiqiiI")  # bloom filter (offset, size, entries), index, null rows, version, magic


def write(out: Path) -> None:
    """The derived goldens: the must-reject corpus (every valid file is Java-written: java_cases)."""
    _rejects(out / "btree_global_index" / "must-reject")


def java_cases() -> list[tuple[str, dict, str]]:
    """The files Java writes through the testee's encode (GlobalIndexer over one column, rows fed in key order as
    the sorted index builder feeds them): one per key kind, block split and compression; (stem, case, note), each
    case as the layout inspects the bytes the reference encoder makes for it."""
    from paimon_conform.core.block_codec import LZ4, NONE, ZSTD
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.btree_global_index import codec

    out = []
    words = ["pear", "apple", None, "fig", "apple", "kiwi", "pear", None, "été", "apple"]
    big = 65536
    cases = [
        (
            "int-with-nulls",
            "INT",
            [3, 1, None, 3, 2, None, 1],
            big,
            NONE,
            "aligned entries: same-length keys and lists",
        ),
        ("bigint-negative", "BIGINT", [-5, 2**40, -5, 0], big, NONE, "signed keys sort by value, not bytes"),
        ("string-one-block", "STRING", words, big, NONE, "UTF-8 keys in byte order, unaligned entries"),
        ("string-small-blocks", "STRING", words, 24, NONE, "a 24-byte block size: a data block per key or two"),
        ("all-null", "BOOLEAN", [None, None, None], big, NONE, "no data block; an empty (unaligned) index block"),
        ("boolean", "BOOLEAN", [True, False, None, True], big, NONE, "false before true"),
        ("smallint", "SMALLINT", [-300, 7, 300, 7], big, NONE, "2-byte keys"),
        ("double-nan-zeros", "DOUBLE", [1.5, "NaN", -0.0, 0.0, None, "-Infinity"], big, NONE, "Double.compare"),
        ("decimal-wide", "DECIMAL(30, 2)", ["-1.29", "12345678901234567890.12"], big, NONE, "BigInteger bytes"),
        ("timestamp-nanos", "TIMESTAMP(9)", ["1970-01-01T00:00:01.000000005", "1970-01-01T00:00:01"], big, NONE, ""),
        ("date", "DATE", ["2024-02-29", "1969-12-31", "2024-02-29"], big, NONE, "days as INT keys"),
        ("string-zstd", "STRING", ["x" * 40 + str(i % 5) for i in range(40)], 128, ZSTD, "zstd blocks (level 1)"),
        ("string-lz4", "STRING", ["y" * 40 + str(i % 5) for i in range(40)], big, LZ4, "lz4 blocks"),
    ]
    for stem, type_text, values, size, compression, note in cases:
        t = parse_type(type_text)
        data = codec.encode(t, [to_internal(t, v) for v in values], size, compression)
        out.append((stem, _case(data, type_text), note or f"{type_text} keys"))
    t = parse_type("INT")
    many = [(i * 7919) % 5000 for i in range(20_000)]
    data = codec.encode(t, many, big, NONE)
    out.append(("ints-over-20000-rows", _case(data, "INT"), "5,000 keys of 4 rows: several data blocks"))
    return out


def _case(data: bytes, type_text: str) -> dict:
    """The case the layout inspects in the bytes."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.registry import get

    return get("btree_global_index").inspect(data, parse_type(type_text))


def _assemble(
    blocks: list[list[tuple[bytes, bytes]]],
    null_rows: bytes = b"",
    index: Callable[[list[tuple[bytes, int, int]]], list[tuple[bytes, int, int]]] | None = None,
    content: Callable[[int, bytes], bytes] | None = None,
    footer: dict[int, int] | None = None,
) -> tuple[bytes, dict]:
    """A file from data blocks of (key, posting list), with the index entries, a block's content or footer
    fields (by position in FOOTER) replaceable."""
    from paimon_conform.core.block_codec import MAX_LONG_BYTES, crc32, trailer, var_int
    from paimon_conform.layouts.btree_global_index.codec import MAGIC, VERSION, BlockWriter

    out, at = bytearray(), {"blocks": []}
    handles = []
    for i, entries in enumerate(blocks):
        w = BlockWriter()
        for k, v in entries:
            w.add(k, v)
        body = w.finish() if content is None else content(i, w.finish())
        at["blocks"].append(len(out))
        handles.append((entries[-1][0], len(out), len(body)))
        out += body + trailer(body, 0)
    null_at = 0
    if null_rows:
        null_at = len(out)
        out += null_rows + struct.pack("<I", crc32(null_rows))
    iw = BlockWriter()
    for key, pos, n in index(handles) if index else handles:
        iw.add(key, var_int(pos, MAX_LONG_BYTES) + var_int(n))
    body = iw.finish()
    at["index"], at["len_index"] = len(out), len(body)
    out += body + trailer(body, 0)
    at["footer"], at["null"] = len(out), null_at
    fields = [0, 0, 0, at["index"], len(body), null_at, len(null_rows), VERSION, MAGIC]
    for i, v in (footer or {}).items():
        fields[i] = v
    return bytes(out) + FOOTER.pack(*fields), at


def _rejects(f: Path) -> None:
    """Faults Java's BTree reader refuses, and the ones that make its lookups answer wrongly."""
    import numpy as np

    from paimon_conform.core.block_codec import var_int
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.bitmap_global_index.codec import bitmap_bytes
    from paimon_conform.layouts.btree_global_index.codec import encode, posting_list, read

    def rows(*ids: int) -> bytes:
        return posting_list(np.asarray(ids, dtype=np.uint64))

    def reject(*args: object, **kwargs: object) -> None:
        _reject(*args, type="INT", **kwargs)  # every file is an INT column's index; the type is part of the case

    one, two, three = (struct.pack("<i", v) for v in (1, 2, 3))
    nulls = bitmap_bytes(np.asarray([2, 5], dtype=np.uint64))
    parts = [[(one, rows(1, 6)), (two, rows(4)), (three, rows(0, 3))]]
    good, at = _assemble(parts, nulls)
    assert good == encode(parse_type("INT"), [3, 1, None, 3, 2, None, 1])  # the parts are the writer's
    foot = at["footer"]

    def field(data: bytes, pos: int, fmt: str, value: int) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, pos, value)
        return bytes(out)

    reject(f, "shorter-than-footer", K, good[-51:], "BTREE_TOO_SHORT", "size_check", 0, "51 bytes")
    bad = good[:-1] + b"Q"
    reject(f, "bad-magic", K, bad, "BTREE_BAD_MAGIC", "footer.magic", foot + 48, "another magic")
    bad = field(good, foot + 44, "<i", 2)
    msg = "version 2 (adaptive posting lists, after 2.0.0): released readers read its lists as version 1"
    reject(f, "version-2", K, bad, "BTREE_BAD_VERSION", "footer.version", foot + 44, msg)
    bad = field(good, foot + 12, "<q", 100)
    reject(f, "bloom-filter-handle", K, bad, "BTREE_BLOOM_FILTER", "footer.ofs_bloom_filter", foot, "100 entries")
    bad = field(good, foot + 28, "<i", at["len_index"] + 60)
    reject(f, "index-past-footer", K, bad, "BTREE_BAD_BLOCK", "footer.ofs_index", foot + 20, "index ends past it")
    bad = field(good, foot + 40, "<i", 4096)
    reject(f, "null-rows-past-footer", K, bad, "BTREE_BAD_BLOCK", "footer.ofs_null_rows", foot + 32, "4096 bytes")
    crc_at = at["index"] + at["len_index"]
    bad = field(good, crc_at + 1, "<I", 0xDEADBEEF)
    reject(f, "index-crc", K, bad, "BLOCK_CRC_MISMATCH", "index.trailer", crc_at, "the index block's CRC changed")
    bad = field(good, at["null"] + len(nulls), "<I", 1)
    reject(f, "null-rows-crc", K, bad, "BTREE_NULL_ROWS_CRC", "null_rows_crc", at["null"] + len(nulls), "CRC 1")
    bad, at2 = _assemble(parts, nulls, content=lambda i, c: c[:-1] + b"\x07")
    path = "data_blocks[0].block.content.aligned_type"
    reject(f, "aligned-type-7", K, bad, "SST_BAD_ALIGNED_TYPE", path, at2["blocks"][0], "type byte 7")
    bad, at2 = _assemble(parts, nulls, content=lambda i, c: c[:-5] + struct.pack("<i", -4) + c[-1:])
    path = "data_blocks[0].block.content.layout_int"
    reject(f, "aligned-size-negative", K, bad, "SST_BAD_LAYOUT", path, at2["blocks"][0], "record length -4")
    mixed = [[(one, rows(1, 6)), (two, rows(4)), (three, rows(0, 3, 7))]]  # entries of different lengths
    unaligned, _ = _assemble(mixed, nulls)
    assert not read(unaligned).obj.data_blocks[0].block.content.is_aligned  # the writer made it unaligned

    def shifted(i: int, c: bytes) -> bytes:  # the second entry's position one byte late
        n = 3
        pos = c[-5 - 4 * n : -5]
        return c[: -5 - 4 * n] + pos[:4] + struct.pack("<i", struct.unpack_from("<i", pos, 4)[0] + 1) + pos[8:] + c[-5:]

    bad, _ = _assemble(mixed, nulls, content=shifted)
    path = "data_blocks[0].block.content.positions"
    reject(f, "positions-shifted", K, bad, "SST_BAD_LAYOUT", path, None, "entry 1 listed a byte late")
    bad, at2 = _assemble(parts, nulls, index=lambda h: [(two, h[0][1], h[0][2])])
    msg = "the index names the block by key 2, its last key is 3: lookups of 3 miss it"
    reject(f, "last-key-mismatch", K, bad, "BTREE_LAST_KEY_MISMATCH", "data_blocks[0].block", at2["blocks"][0], msg)
    bad, at2 = _assemble(parts, nulls, index=lambda h: [(three, 4000, h[0][2])])
    path = "index.content.entries_region.entries[0].value.ofs_block"
    reject(f, "block-past-footer", K, bad, "BTREE_BAD_BLOCK", path, at2["index"] + 1 + 4 + 1, "offset 4000")
    bad, at2 = _assemble([[(one, var_int(50) + b"\x01\x06"), (two, rows(4)), (three, rows(0, 3))]], nulls)
    path = "data_blocks[0].block.content.entries_region.entries[0].value.num_rows"
    reject(f, "count-past-value", K, bad, "BTREE_BAD_COUNT", path, at2["blocks"][0] + 1 + 4 + 1, "50 rows in 2 bytes")
    bad, _ = _assemble([[(two, rows(4)), (one, rows(1, 6)), (three, rows(0, 3))]], nulls)
    reject(f, "keys-out-of-order", K, bad, "BTREE_KEY_ORDER", "keys[1]", None, "keys 2, 1, 3")
    bad, _ = _assemble([[(one, rows(1, 6)), (two, rows(4, 6)), (three, rows(0, 3))]], nulls)
    reject(f, "rows-in-two-keys", K, bad, "BTREE_ROWS_OVERLAP", "keys[1]", None, "row 6 holds 1 and 2")
    bad, _ = _assemble(parts, bitmap_bytes(np.asarray([2, 4], dtype=np.uint64)))
    reject(f, "null-row-with-key", K, bad, "BTREE_ROWS_OVERLAP", "null_rows", None, "row 4 is null and 2")
