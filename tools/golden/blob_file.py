"""BLOB data files (.blob): encoder files (two of them byte for byte Java-written corpus files), must-reject."""

from __future__ import annotations

import struct
from pathlib import Path

from .common import encoder_prov, reject, write_pair

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
    """Encoder files for every row kind and length width, and one must-reject file per check Java makes."""
    from paimon_conform.layouts.blob_file import codec

    folder = out / "blob_file" / "encoder"
    prov = encoder_prov("layouts.blob_file.codec.encode")
    for stem, (rows, twin) in JAVA_TWINS.items():
        data = codec.encode(rows)
        note = f"byte for byte the Java-written {CORPUS_TABLES}/{twin} (test_blob_file compares them)"
        write_pair(folder, stem, data, _side(data) | {"provenance": prov, "notes": note})
    ph = codec.PLACEHOLDER
    for stem, rows, note in [
        ("no-rows", [], "a file without rows: the 5-byte footer alone (index length 0, version 1)"),
        ("nulls-and-placeholders", [b"a", None, ph, None, b"bc"], "length -1 NULL, -2 placeholder; no record"),
        ("all-null", [None, None, None], "no records, the index alone"),
        ("empty-payload", [b"", b"x"], "a zero-byte BLOB is a 16-byte record"),
        (
            "long-and-shrinking",
            [bytes(range(256)) * 4, b"z" * 100, b"", bytes(70)],
            "multi-byte varints and negative deltas (lengths 1040, 116, 16, 86)",
        ),
    ]:
        data = codec.encode(rows)
        write_pair(folder, stem, data, _side(data) | {"provenance": prov, "notes": note})
    _rejects(out / "blob_file" / "must-reject")


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
    bad = footer(b"\x28\x02", recs + b"\x00")
    reject(
        f,
        "bytes-no-row-owns",
        k,
        bad,
        "BLOB_INDEX_MISMATCH",
        "len_index",
        44,
        "one byte between the last record and the index",
        "Java refuses a file whose indexed records do not fill the data region exactly",
    )
    bad = footer(b"\x28", recs)
    reject(f, "index-missing-a-row", k, bad, "BLOB_INDEX_MISMATCH", "len_index", 42, "two records, one row indexed")
