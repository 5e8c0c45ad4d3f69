"""BLOB data files (.blob): the cases Java writes (two of them byte for byte Java-written corpus files), and
must-reject files."""

from __future__ import annotations

import struct
from pathlib import Path

from paimon_conform.core.types import DataType

from .common import reject

CORPUS_TABLES = "../shared/external-corpus/files/paimon-cpp/test/test_data/parquet"
JAVA_TWINS = {  # rows of Java-written corpus files, which the encoder reproduces byte for byte
    "lily-alice": (
        [b"Lily", b"Alice"],
        "blob_data_evolution_with_dense_stats.db/blob_data_evolution_with_dense_stats/bucket-0/"
        "data-d007a81e-4682-42da-b458-eb0423a64511-1.blob",
    ),
    "apple-banana-cherry": (
        [b"Apple", b"Banana", b"Cherry"],
        "blob_append_table_alter_table_with_cast_with_data_evolution.db/"
        "blob_append_table_alter_table_with_cast_with_data_evolution/key0=0/key1=1/bucket-0/"
        "data-c8aab979-5e51-4112-92f2-ff3036b332c6-1.blob",
    ),
}


def _side(data: bytes) -> dict:
    from paimon_conform.layouts.blob_file import entry

    return entry.inspect(data)


def write(out: Path) -> None:
    """The derived blob_file goldens: one must-reject file per check Java makes (every valid file is Java-written:
    java_cases, tools/golden_java_encoded.py)."""
    _rejects(out / "blob_file" / "must-reject")
    _framed_rejects(out / "blob_file" / "must-reject")


ARRAY = {"type": "ARRAY", "element": "BLOB"}


def _map(key: str) -> dict:
    return {"type": "MAP", "key": key, "value": "BLOB"}


def _fields(raw: dict) -> list[dict]:
    """A case's `fields` for the one column of this type."""
    return [{"name": "blob", "type": raw}]


def java_cases() -> list[tuple[str, dict, str]]:
    """The .blob files Java writes through the testee's encode (the "blob" FormatWriter): (stem, case, note). Plain
    BLOB rows from 1.4; placeholder rows and ARRAY<BLOB> / MAP<K, BLOB> columns from 2.0 (ArrayBlobElementSerializer,
    MapBlobElementSerializer). Two of them are byte for byte Java-written files of the third-party corpus."""
    from paimon_conform.layouts.blob_file import codec
    from paimon_conform.layouts.blob_file import entry as blob_file
    from paimon_conform.layouts.blob_file.elements import element_type

    ph = codec.PLACEHOLDER
    plain = [
        (stem, rows, f"byte for byte the Java-written {CORPUS_TABLES}/{twin} (test_blob_file compares them)")
        for stem, (rows, twin) in JAVA_TWINS.items()
    ] + [
        ("no-rows", [], "a file without rows: the 5-byte footer alone (index length 0, version 1)"),
        ("nulls-and-placeholders", [b"a", None, ph, None, b"bc"], "length -1 NULL, -2 placeholder; no record"),
        ("all-null", [None, None, None], "no records, the index alone"),
        ("empty-payload", [b"", b"x"], "a zero-byte BLOB is a 16-byte record"),
        (
            "long-and-shrinking",
            [bytes(range(256)) * 4, b"z" * 100, b"", bytes(70)],
            "multi-byte varints and negative deltas (lengths 1040, 116, 16, 86)",
        ),
    ]
    framed = [
        (
            "array-rows",
            ARRAY,
            [[b"cat", None, b""], None, [], ph, [bytes(range(200))]],
            "ARRAY<BLOB> rows: NULL elements (-1), an empty element, an empty array, a NULL row, a placeholder",
        ),
        (
            "map-int-keys",
            _map("INT"),
            [[(7, b"seven"), (None, b"null key"), (-1, None)], [], None],
            "MAP<INT, BLOB>: 4-byte little-endian keys, a NULL key (-1), a NULL value, an empty map",
        ),
        (
            "map-string-keys",
            _map("STRING"),
            [[("a", b"1"), ("\u00e9t\u00e9", b"22"), ("", b"")]],
            "MAP<STRING, BLOB>: UTF-8 keys of any length, an empty key",
        ),
        (
            "map-bigint-keys",
            _map("BIGINT"),
            [[(-(2**63), b"min"), (2**63 - 1, b"max")]],
            "MAP<BIGINT, BLOB>: 8-byte little-endian keys",
        ),
    ]
    out = [(stem, _side(codec.encode(rows)), note) for stem, rows, note in plain]
    for stem, raw, rows, note in framed:
        out.append((stem, blob_file.inspect(codec.encode(rows, element_type(raw)), {"blob": raw}), note))
    return out


def _framed_rejects(f: Path) -> None:
    """Element framings Java 2.0's readers refuse (ArrayBlobElementSerializer.Reader, MapBlobElementSerializer.Reader),
    and map keys Java 2.0 misreads; each file one row whose record is otherwise intact (its CRC recomputed)."""
    from paimon_conform.core import delta_varint
    from paimon_conform.layouts.blob_file import codec, elements
    from paimon_conform.layouts.blob_file.codec import MIN_RECORD

    k = "blob-file"
    good_array = elements.encode_array([b"ab", None, b"c"])  # header 9, data 3, index 06 01 04 (3 bytes), length 4
    afields, mfields = _fields(ARRAY), _fields(_map("INT"))

    good_map = elements.encode_map([(1, b"x"), (2, b"yz")], DataType("INT"))  # keys 8, values 3, indexes 2 + 2

    def store(stem: str, good: bytes, payload: bytes, code: str, path: str, at: int, breaks: str, fields: list) -> None:
        """A file of two rows: a good one, then `payload` (its offset `at` counted from the payload's start)."""
        base = MIN_RECORD + len(good) + 4  # the first record, then the second's magic
        data = codec.encode([good, payload])  # framed payloads stored as they are
        reject(f, stem, k, data, code, f"records[1].record.elements.{path}", base + at, breaks, fields=fields)

    def arr(stem: str, payload: bytes, code: str, path: str, at: int, breaks: str) -> None:
        store(stem, good_array, payload, code, path, at, breaks, afields)

    def mp(stem: str, payload: bytes, code: str, path: str, at: int, breaks: str) -> None:
        store(stem, good_map, payload, code, path, at, breaks, mfields)

    def tail(index: bytes) -> bytes:
        return index + struct.pack("<i", len(index))

    arr("array-too-short", good_array[:12], "BLOB_ARRAY_TOO_SHORT", "size_check", 0, "a 12-byte ARRAY payload")
    arr("array-bad-magic", b"\x00" + good_array[1:], "BLOB_ARRAY_BAD_MAGIC", "magic", 0, "magic 00434241")
    bad = good_array[:4] + b"\x02" + good_array[5:]
    arr("array-version-2", bad, "BLOB_ARRAY_BAD_VERSION", "version", 4, "framing version 2")
    bad = good_array[:5] + struct.pack("<i", -1) + good_array[9:]
    arr("array-negative-count", bad, "BLOB_ARRAY_BAD_COUNT", "num_elements", 5, "element count -1")
    bad = good_array[:-4] + struct.pack("<i", 99)
    arr("array-index-too-long", bad, "BLOB_ARRAY_BAD_INDEX_LENGTH", "len_index", len(bad) - 4, "index length 99")
    bad = good_array[:5] + struct.pack("<i", 4) + good_array[9:]
    arr("array-count-over-index", bad, "BLOB_ARRAY_COUNT_MISMATCH", "num_elements", 5, "4 elements, a 3-byte index")
    bad = good_array[:5] + struct.pack("<i", 2) + good_array[9:]
    arr("array-count-not-index", bad, "BLOB_ARRAY_COUNT_MISMATCH", "num_elements", 5, "2 elements, 3 lengths")
    bad = good_array[:9] + b"abc" + tail(delta_varint.compress([2, -2, 1]))
    arr("array-element-minus-2", bad, "BLOB_ELEMENT_BAD_LENGTH", "element_checks[1].len_element", 9, "length -2")
    bad = good_array[:9] + b"abc" + tail(delta_varint.compress([2, -1, 2]))
    arr("array-element-past-data", bad, "BLOB_ELEMENT_BAD_LENGTH", "element_checks[2].len_element", 9, "3 + 1 bytes")
    bad = good_array[:9] + b"abcd" + tail(delta_varint.compress([2, -1, 1]))
    arr("array-data-left-over", bad, "BLOB_ARRAY_LENGTH_MISMATCH", "len_index", 16, "a byte no element owns")
    bad = good_array[:9] + b"abc" + tail(b"\x04\x01\x84")
    path = "index.entries[2].delta.groups[1].b"
    arr("array-index-varint-cut", bad, "TRUNCATED", path, 15, "the last varint continues past the index")

    mp("map-too-short", good_map[:16], "BLOB_MAP_TOO_SHORT", "size_check", 0, "a 16-byte MAP payload")
    mp("map-bad-magic", good_map[:3] + b"\x00" + good_map[4:], "BLOB_MAP_BAD_MAGIC", "magic", 0, "magic 4243 4200")
    bad = good_map[:4] + b"\x00" + good_map[5:]
    mp("map-version-0", bad, "BLOB_MAP_BAD_VERSION", "version", 4, "framing version 0")
    bad = good_map[:5] + struct.pack("<i", -5) + good_map[9:]
    mp("map-negative-count", bad, "BLOB_MAP_BAD_COUNT", "num_entries", 5, "entry count -5")
    bad = good_map[:-8] + struct.pack("<ii", 2, 40)
    mp("map-index-too-long", bad, "BLOB_MAP_BAD_INDEX_LENGTH", "len_key_index", len(good_map) - 8, "value index 40")
    bad = good_map[:5] + struct.pack("<i", 3) + good_map[9:]
    mp("map-count-over-index", bad, "BLOB_MAP_COUNT_MISMATCH", "num_entries", 5, "3 entries, 2-byte indexes")
    keys = struct.pack("<ih", 1, 2)  # a 2-byte key where INT keys take 4
    bad = good_map[:9] + keys + b"xyz" + delta_varint.compress([4, 2]) + delta_varint.compress([1, 2])
    bad += struct.pack("<ii", 2, 2)
    mp("map-key-wrong-width", bad, "BLOB_MAP_BAD_KEY_LENGTH", "key_checks[1].len_key", 9, "a 2-byte INT key")
    bad = good_map[: -8 - 4] + delta_varint.compress([4, 4]) + delta_varint.compress([1, 3]) + struct.pack("<ii", 2, 2)
    mp("map-value-past-data", bad, "BLOB_ELEMENT_BAD_LENGTH", "value_checks[1].len_element", 9, "values 1 + 3 > 3")
    bad = good_map[: -8 - 4] + delta_varint.compress([4, 4]) + delta_varint.compress([1, 1]) + struct.pack("<ii", 2, 2)
    mp("map-data-left-over", bad, "BLOB_MAP_LENGTH_MISMATCH", "len_key_index", len(good_map) - 8, "a byte left")
    dup = elements.encode_map([(1, b"x"), (1, b"yz")], DataType("INT"))
    mp(
        "map-duplicate-key",
        dup,
        "BLOB_MAP_DUPLICATE_KEY",
        "keys[1]",
        13,
        "key 1 twice: Java 2.0.0 keeps the second value only, later releases refuse the row",
    )


def _rejects(f: Path) -> None:
    """Faults Java's BlobFileMeta rejects ("Corrupt blob file", "Unsupported version")."""
    from paimon_conform.layouts.blob_file import codec

    good = codec.encode([b"Lily", b"Alice"])  # records 0..20 and 20..41, index 28 02 at 41, footer at 43
    k = "blob-file"

    def footer(index: bytes, records: bytes = b"", len_index: int | None = None, version: int = 1) -> bytes:
        n = len(index) if len_index is None else len_index
        return records + index + struct.pack("<iB", n, version)

    recs = good[:41]
    reject(f, "shorter-than-footer", k, b"\x00\x00\x00\x00", "BLOB_TOO_SHORT", "size_check", 0, "4 bytes, no footer")
    reject(f, "version-2", k, good[:-1] + b"\x02", "BLOB_BAD_VERSION", "version", 47, "version byte 2")
    reject(f, "version-0", k, good[:-1] + b"\x00", "BLOB_BAD_VERSION", "version", 47, "version byte 0")
    bad = footer(b"\x28\x02", recs, len_index=-1)
    reject(f, "negative-index-length", k, bad, "BLOB_BAD_INDEX_LENGTH", "len_index", 43, "index length -1")
    bad = footer(b"\x28\x02", recs, len_index=44)
    reject(f, "index-longer-than-file", k, bad, "BLOB_BAD_INDEX_LENGTH", "len_index", 43, "index length past the start")
    bad = footer(b"\x28\x80", recs)
    reject(
        f,
        "truncated-varint",
        k,
        bad,
        "TRUNCATED",
        "index.entries[1].delta.groups[1].b",
        43,
        "the second varint's continuation bit is set on the index's last byte",
    )
    bad = footer(b"\xff" * 10, b"")
    reject(
        f, "varint-overflow", k, bad, "VARINT_OVERFLOW", "index.entries[0].delta.groups", 0, "10 bytes, all continued"
    )
    bad = footer(b"\x1e", recs[:20] + recs[:20])  # 0x1e = 15
    reject(
        f,
        "record-shorter-than-16",
        k,
        bad,
        "BLOB_BAD_RECORD_LENGTH",
        "index.entries[0].delta",
        40,
        "row length 15: a record holds at least magic, length and CRC",
    )
    bad = footer(b"\x05", b"")  # zigzag 5 = -3
    reject(
        f, "length-minus-3", k, bad, "BLOB_BAD_RECORD_LENGTH", "index.entries[0].delta", 0, "length -3 (only -1, -2)"
    )
    bad = footer(b"\x28\x04", recs)  # lengths 20, 22: the second passes the data region
    reject(
        f,
        "record-past-data-region",
        k,
        bad,
        "BLOB_BAD_RECORD_LENGTH",
        "index.entries[1].delta",
        42,
        "row 1 claims 22 bytes where 21 remain before the index",
    )
    bad = footer(b"\x28", recs)
    reject(
        f,
        "index-missing-a-row",
        k,
        bad,
        "BLOB_INDEX_MISMATCH",
        "len_index",
        42,
        "two records, one row indexed",
        "Java 1.4.2 and 2.0.0 read the one row the index lists and never the second record: a written row is lost"
        " (bytes no row owns that are not a record are a should: Java ignores them, test_blob_file)",
    )
