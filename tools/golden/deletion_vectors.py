"""Deletion-vector index files: the cases Java 1.2.0 and 2.0.0 write (java_cases), the one file no release
writes (encoder/), and the must-reject corpus built from the notes' dvindex-32 (DVINDEX_32, checked equal to
Java's bytes by test_java_encoded).
"""

from __future__ import annotations

import struct
from pathlib import Path

from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.layouts.roaring64 import codec as roaring64

from .common import crc_frame, encoder_prov, hx, raw_roaring, reject, runs, write_pair

DVINDEX_32 = hx(
    "01 00000018 5e43f2d0 3a300000 01000000 0000 0100 10000000 0200 0300 c898f63d"
    "00000016 5e43f2d0 3a300000 01000000 0000 0000 10000000 0100 fa2b5192"
)


DVINDEX_64 = hx(
    "01 00000024 d1d33964 0100000000000000 00000000 3a300000010000000000010010000000 0200 0300 7a813847"
    "00000022 d1d33964 0100000000000000 00000000 3a300000010000000000000010000000 0100 eebd85f4"
)


DV64_EMPTY_VECTOR = hx("0000000c d1d33964 0000000000000000 bf18480c")


def dv_case(vectors: list[dict], **extra) -> dict:
    """A deletion-vectors sidecar."""
    return {"case_format": 1, "kind": "deletion-vectors", "version": 1, "vectors": vectors, **extra}


def vec(kind: str, ranges: list[list[int]], offset: int, length: int, **extra) -> dict:
    """One vector entry with its manifest offset and length."""
    card = sum(b - a + 1 for a, b in ranges)
    return {"bitmap": kind, "offset": offset, "length": length, "cardinality": card, "ranges": ranges, **extra}


def write(out: Path) -> None:
    """The derived deletion_vectors goldens: the file no release writes (encoder/) and must-reject/; the notes'
    files and the 64-bit cases are Java-written (java_cases, tools/golden_java_encoded.py)."""
    encoder(out)
    dv_rejects(out)


def java_cases() -> list[tuple[str, dict, str]]:
    """The files Java 1.2.0 and 2.0.0 write through the testee's encode (DeletionVectorsIndexFile.write):
    (stem, case, note). The notes' dvindex-32 / dvindex-64 (Paimon's own compatibility files) among them."""
    out = [
        (
            "dvindex-32",
            dv_case([vec("bitmap32", [[2, 3]], 1, 24), vec("bitmap32", [[1, 1]], 33, 22)]),
            "the bytes of Paimon's compatibility/dvindex-32 (notes §4.6), read by Java with lengths 24 and 22",
        ),
        (
            "dvindex-64",
            dv_case([vec("bitmap64", [[2, 3]], 1, 44), vec("bitmap64", [[1, 1]], 45, 42)]),
            "the bytes of Paimon's compatibility/dvindex-64 (notes §4.6), read by Java with lengths 44 and 42",
        ),
        ("bitmap64-empty", dv_case([vec("bitmap64", [], 1, 20)]), "an empty 64-bit vector: manifest length 20"),
    ]
    two = [[5, 5], [2 * 2**32 + 7, 2 * 2**32 + 7]]
    for stem, vectors, note in [
        ("bitmap64-gap-bucket", [("bitmap64", two)], "64-bit vector whose middle bucket is empty."),
        (
            "bitmap64-many-vectors",
            [("bitmap64", [[i, i + 10 * i]] if i % 3 else [[2**32 * i, 2**32 * i + 5]]) for i in range(12)],
            "Twelve 64-bit vectors, some beyond 2^32.",
        ),
    ]:
        _, ranges = dv.encode_file([(k, roaring.from_ranges(r)) for k, r in vectors])
        out.append((stem, dv_case([vec(k, r, o, n) for (k, r), (o, n) in zip(vectors, ranges, strict=True)]), note))
    return out


def encoder(out: Path) -> None:
    """The reference encoder's file no Java release writes: 32- and 64-bit vectors in one file."""
    d = out / "deletion_vectors" / "encoder"
    vectors = [("bitmap32", [[2, 3]]), ("bitmap64", [[2, 3]]), ("bitmap32", [])]
    data, ranges = dv.encode_file([(k, roaring.from_ranges(r)) for k, r in vectors])
    entries = [vec(k, r, o, n) for (k, r), (o, n) in zip(vectors, ranges, strict=True)]
    note = (
        "A file holding both kinds, each with its own manifest-length convention: DeletionVectorsIndexFile writes one"
        " kind per file (the table's deletion-vectors.bitmap64), so no release writes it; readers take it."
    )
    write_pair(
        d,
        "mixed-32-and-64",
        data,
        dv_case(entries, provenance=encoder_prov("layouts.deletion_vectors.entry.encode_file"), notes=note),
    )


def dv_rejects(out: Path) -> None:
    """Deletion-vector files every reader must refuse."""
    f = out / "deletion_vectors" / "must-reject"
    k = "deletion-vectors"
    bad = bytearray(DVINDEX_32)
    bad[-1] ^= 0x01
    reject(
        f,
        "bad-crc",
        k,
        bytes(bad),
        "DV_CRC_MISMATCH",
        "vectors[1].crc",
        59,
        "the second vector's CRC32 does not match its blob",
        "apache/paimon#9992 (Java skipped the CRC)",
    )
    reject(
        f,
        "truncated-blob",
        k,
        DVINDEX_32[:30],
        "DV_LENGTH_PAST_EOF",
        "vectors[0].len_blob",
        1,
        "the file ends inside the first blob",
    )
    blob32 = dv.MAGIC32_BYTES + roaring.encode_roaring32([2, 3])
    reject(
        f,
        "wrong-magic",
        k,
        b"\x01" + crc_frame(b"\x5e\x43\xf2\xd1" + blob32[4:]),
        "DV_BAD_MAGIC",
        "vectors[0].blob.magic",
        5,
        "the blob's magic is neither the 32-bit nor the 64-bit one",
    )
    blob64 = dv.MAGIC64_BYTES + roaring64.encode_roaring64([2, 3])
    reject(
        f,
        "magic64-big-endian",
        k,
        b"\x01" + crc_frame(dv.MAGIC64.to_bytes(4, "big") + blob64[4:]),
        "DV_MAGIC64_BIG_ENDIAN",
        "vectors[0].blob.magic",
        5,
        "the 64-bit magic is written big-endian (64 39 d3 d1); Paimon writes it little-endian",
        "apache/paimon-rust#785",
    )
    reject(
        f,
        "magic32-little-endian",
        k,
        b"\x01" + crc_frame(dv.MAGIC32.to_bytes(4, "little") + blob32[4:]),
        "DV_MAGIC32_LITTLE_ENDIAN",
        "vectors[0].blob.magic",
        5,
        "the 32-bit magic is written little-endian",
    )
    bad = bytearray(DVINDEX_32)
    bad[1:5] = struct.pack(">I", 1000)
    reject(
        f,
        "size-past-end-of-file",
        k,
        bytes(bad),
        "DV_LENGTH_PAST_EOF",
        "vectors[0].len_blob",
        1,
        "the first length word points past the end of the file",
        "apache/paimon#3313, apache/paimon-rust#118",
    )
    bad = bytearray(DVINDEX_32)
    bad[0] = 2
    reject(f, "version-2", k, bytes(bad), "DV_BAD_VERSION", "version", 0, "the version byte is 2; only 1 exists")
    reject(f, "empty-input", k, b"", "TRUNCATED", "version", 0, "zero bytes: not even the version byte")
    # 64-bit bitmaps with bad keys: count 2, bucket at 17 (key) + 18-byte bitmap, second key at 39
    one5, one7 = roaring.encode_roaring32([5]), roaring.encode_roaring32([7])
    for stem, keys, why in [("descending-64-keys", (1, 0), "descending"), ("duplicate-64-keys", (0, 0), "duplicate")]:
        body = struct.pack("<Q", 2) + struct.pack("<I", keys[0]) + one5 + struct.pack("<I", keys[1]) + one7
        reject(
            f,
            stem,
            k,
            b"\x01" + crc_frame(dv.MAGIC64_BYTES + body),
            "ROARING64_KEYS_NOT_ASCENDING",
            "vectors[0].blob.bitmap.buckets[1].high_key",
            9 + 8 + 4 + len(one5),
            f"64-bit bucket keys are {why}; a later bucket would replace an earlier one",
            "apache/paimon-rust#785",
        )
    body = struct.pack("<Q", 2**40) + struct.pack("<I", 0) + one5
    reject(
        f,
        "too-many-64-buckets",
        k,
        b"\x01" + crc_frame(dv.MAGIC64_BYTES + body),
        "ROARING64_TOO_MANY_BUCKETS",
        "vectors[0].blob.bitmap.num_buckets",
        9,
        "a bucket count the blob cannot hold (2^40)",
    )
    # 32-bit bitmaps inside a DV: bitmap starts at byte 9
    overlapping = raw_roaring([(0, 14)], [runs((0, 10), (5, 4))], run_flags=[True])
    reject(
        f,
        "overlapping-runs",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + overlapping),
        "ROARING_RUNS_OVERLAP",
        "vectors[0].blob.bitmap.containers[0].body.runs[1].start",
        9 + 4 + 1 + 4 + 2 + 4,
        "the second run starts inside the first",
    )
    empty_run = raw_roaring([(0, 1)], [struct.pack("<H", 0)], run_flags=[True])
    reject(
        f,
        "empty-run-container",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + empty_run),
        "ROARING_EMPTY_CONTAINER",
        "vectors[0].blob.bitmap.containers[0].body.num_runs",
        9 + 4 + 1 + 4,
        "a run container with no run",
    )
    bits = bytearray(8192)  # a bitmap container with no bit set, cardinality field 5000
    reject(
        f,
        "empty-bitmap-container",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + raw_roaring([(0, 5000)], [bytes(bits)])),
        "ROARING_EMPTY_CONTAINER",
        "vectors[0].blob.bitmap.containers[0].body.words",
        9 + 8 + 4 + 4,
        "a bitmap container with no bit set",
    )
    for v in range(4999):
        bits[v >> 3] |= 1 << (v & 7)
    reject(
        f,
        "cardinality-contradicts-bitmap",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + raw_roaring([(0, 5000)], [bytes(bits)])),
        "ROARING_CARDINALITY_MISMATCH",
        "vectors[0].blob.bitmap.containers[0].body.words",
        9 + 8 + 4 + 4,
        "the header says 5000 values, the bitmap container holds 4999",
    )
    reject(
        f,
        "cardinality-contradicts-runs",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + raw_roaring([(0, 12)], [runs((0, 10))], run_flags=[True])),
        "ROARING_CARDINALITY_MISMATCH",
        "vectors[0].blob.bitmap.containers[0].body.runs",
        9 + 4 + 1 + 4 + 2,
        "the header says 12 values, the runs hold 10",
    )
    unsorted = raw_roaring([(0, 3)], [struct.pack("<HHH", 1, 9, 4)])
    reject(
        f,
        "array-not-ascending",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + unsorted),
        "ROARING_ARRAY_NOT_ASCENDING",
        "vectors[0].blob.bitmap.containers[0].body.values[2]",
        9 + 8 + 4 + 4 + 4,
        "array container values must be strictly ascending",
    )
    four = [struct.pack("<H", i) for i in range(4)]
    good_offsets = [8 + 16 + 16 + 2 * i for i in range(4)]
    lying = raw_roaring(
        [(i, 1) for i in range(4)], four, offsets=[*good_offsets[:2], good_offsets[2] + 2, good_offsets[3]]
    )
    reject(
        f,
        "lying-offset-header",
        k,
        b"\x01" + crc_frame(dv.MAGIC32_BYTES + lying),
        "ROARING_BAD_OFFSET",
        "vectors[0].blob.bitmap.containers[2].offset_check",
        9 + good_offsets[2],
        "the offset header's third entry does not point at the third container",
    )
    reject(
        f,
        "trailing-bytes-in-blob",
        k,
        b"\x01" + crc_frame(blob32 + b"\x00\x00"),
        "DV_BLOB_TRAILING_BYTES",
        "vectors[0].blob.end_check",
        5 + len(blob32),
        "two bytes after the bitmap inside the blob",
    )
    reject(
        f,
        "trailing-bytes-after-vectors",
        k,
        DVINDEX_32 + b"\x00\x00\x00",
        "DV_TRAILING_BYTES",
        "vectors[2].room_check",
        len(DVINDEX_32),
        "three bytes after the last vector",
    )
    too_high = dv.MAGIC32_BYTES + roaring.encode_roaring32([2**31])
    reject(
        f,
        "position-beyond-32-bit-range",
        k,
        b"\x01" + crc_frame(too_high),
        "DV_POSITION_OUT_OF_RANGE",
        "vectors[0].blob.bitmap",
        9,
        "a 32-bit deletion vector position above 2^31-1",
        "BitmapDeletionVector only accepts int positions",
    )
    too_high64 = dv.MAGIC64_BYTES + roaring64.encode_roaring64([0, 2**63 - 1], bucket_keys=[0, 2**31 - 1])
    reject(
        f,
        "position-beyond-64-bit-range",
        k,
        b"\x01" + crc_frame(too_high64),
        "DV_POSITION_OUT_OF_RANGE",
        "vectors[0].blob.bitmap",
        9,
        "a 64-bit deletion vector position above 0x7ffffffe80000000",
        "apache/paimon-rust#110",
    )
