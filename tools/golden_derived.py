#!/usr/bin/env python3
"""Regenerate the golden files that do not come from the Paimon 0.9.0 jar.

    python tools/golden_derived.py [--out DIR]

* `<layout>/java-notes/`: byte strings that Java Paimon wrote, as recorded in
  ../shared/paimon-layouts.md (Paimon's own compatibility files dvindex-32
  and dvindex-64, and blobs from BitmapDeletionVector /
  Bitmap64DeletionVector of Paimon master). Layouts newer than 0.9.0 (64-bit
  deletion vectors) are settled by these.
* `<layout>/encoder/`: files from the reference encoder, for what neither the
  jar nor the notes cover.
* `<layout>/must-reject/`: one file per fault, each built from a valid file
  by one deliberate change, with the error a conforming reader must raise.
  The expected path and offset are worked out here from the construction,
  never by running the validator.
"""

from __future__ import annotations

import argparse
import shutil
import struct
import sys
import zlib
from pathlib import Path

from paimon_conform import cases, roaring
from paimon_conform.layouts import deletion_vectors as dv

ROOT = Path(__file__).resolve().parent.parent
NOTES = "../shared/paimon-layouts.md"


def hx(text: str) -> bytes:
    """Hex with spaces allowed."""
    return bytes.fromhex("".join(text.split()))


DVINDEX_32 = hx(
    "01 00000018 5e43f2d0 3a300000 01000000 0000 0100 10000000 0200 0300 c898f63d"
    "00000016 5e43f2d0 3a300000 01000000 0000 0000 10000000 0100 fa2b5192"
)
DVINDEX_64 = hx(
    "01 00000024 d1d33964 0100000000000000 00000000 3a300000010000000000010010000000 0200 0300 7a813847"
    "00000022 d1d33964 0100000000000000 00000000 3a300000010000000000000010000000 0100 eebd85f4"
)
DV64_EMPTY_VECTOR = hx("0000000c d1d33964 0000000000000000 bf18480c")
ROARING_RUN_AND_ARRAY = hx("3b300100 01 0000 6300 0100 0000 0100 0000 6300 7011")
ROARING_EMPTY = hx("3a300000 00000000")


def write_pair(folder: Path, stem: str, data: bytes, sidecar: dict) -> None:
    """Store `<stem>.bin` and its schema-checked `<stem>.json`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.bin").write_bytes(data)
    (folder / f"{stem}.json").write_text(cases.dumps(cases.check(sidecar)))


def notes_prov(source: str) -> dict:
    """Provenance of bytes Java wrote, recorded in the shared notes."""
    return {
        "producer": "java-verified-notes",
        "source": f"{NOTES} {source}",
        "how": "bytes as Java Paimon wrote them, copied from the notes",
    }


def encoder_prov(how: str) -> dict:
    """Provenance of a reference-encoder file."""
    return {"producer": "reference-encoder", "how": how}


def dv_case(vectors: list[dict], **extra) -> dict:
    """A deletion-vectors sidecar."""
    return {"case_format": 1, "kind": "deletion-vectors", "version": 1, "vectors": vectors, **extra}


def vec(kind: str, ranges: list[list[int]], offset: int, length: int, **extra) -> dict:
    """One vector entry with its manifest offset and length."""
    card = sum(b - a + 1 for a, b in ranges)
    return {"bitmap": kind, "offset": offset, "length": length, "cardinality": card, "ranges": ranges, **extra}


def notes_goldens(out: Path) -> None:
    """Java-written bytes from the notes."""
    d = out / "deletion_vectors" / "java-notes"
    write_pair(
        d,
        "dvindex-32",
        DVINDEX_32,
        dv_case(
            [vec("bitmap32", [[2, 3]], 1, 24), vec("bitmap32", [[1, 1]], 33, 22)],
            provenance=notes_prov("§4.6; Paimon's paimon-core/src/test/resources/compatibility/dvindex-32"),
            notes="DeletionVectorsIndexFileTest.testReadOldDeletionVector32Bit reads it with lengths 24 and 22.",
        ),
    )
    write_pair(
        d,
        "dvindex-64",
        DVINDEX_64,
        dv_case(
            [vec("bitmap64", [[2, 3]], 1, 44), vec("bitmap64", [[1, 1]], 45, 42)],
            provenance=notes_prov("§4.6; Paimon's paimon-core/src/test/resources/compatibility/dvindex-64"),
            notes="DeletionVectorsIndexFileTest.testReadOldDeletionVector64Bit reads it with lengths 44 and 42.",
        ),
    )
    write_pair(
        d,
        "bitmap64-empty",
        b"\x01" + DV64_EMPTY_VECTOR,
        dv_case(
            [vec("bitmap64", [], 1, 20)],
            provenance=notes_prov("§4.6 '64-bit, empty' (Bitmap64DeletionVector); version byte prepended"),
            notes="An empty 64-bit vector; its manifest length is 20 (whole frame).",
        ),
    )
    r = out / "roaring32" / "java-notes"
    write_pair(
        r,
        "run-and-array",
        ROARING_RUN_AND_ARRAY,
        {
            "case_format": 1,
            "kind": "roaring32",
            "cardinality": 101,
            "ranges": [[0, 99], [70000, 70000]],
            "provenance": notes_prov("§4.6 '32-bit {0..99, 70000}' (BitmapDeletionVector bitmap after the magic)"),
            "notes": "One run container and one array container; no offset header (fewer than 4 containers).",
        },
    )
    write_pair(
        r,
        "empty",
        ROARING_EMPTY,
        {
            "case_format": 1,
            "kind": "roaring32",
            "cardinality": 0,
            "ranges": [],
            "provenance": notes_prov("§4.6 / §9 '32-bit, empty'"),
        },
    )


def encoder_goldens(out: Path) -> None:
    """Reference-encoder files for 64-bit layouts the 0.9.0 jar cannot write."""
    r64 = out / "roaring64" / "encoder"
    two = [[5, 5], [2 * 2**32 + 7, 2 * 2**32 + 7]]
    for stem, ranges, note in [
        ("empty", [], "No bucket at all: an 8-byte zero count."),
        ("gap-bucket", two, "{5, 2*2^32+7}: Paimon writes 3 buckets, key 1 empty (notes §4.6)."),
        ("runs-in-two-buckets", [[0, 99999], [2**32, 2**32 + 70000]], "Run containers in buckets 0 and 1."),
    ]:
        data = roaring.encode_roaring64(roaring.from_ranges(ranges))
        write_pair(
            r64,
            stem,
            data,
            {
                "case_format": 1,
                "kind": "roaring64",
                "cardinality": sum(b - a + 1 for a, b in ranges),
                "ranges": ranges,
                "provenance": encoder_prov("roaring.encode_roaring64"),
                "notes": note,
            },
        )
    d = out / "deletion_vectors" / "encoder"
    cases_ = [
        ("bitmap64-gap-bucket", [("bitmap64", two)], "64-bit vector whose middle bucket is empty."),
        (
            "bitmap64-many-vectors",
            [("bitmap64", [[i, i + 10 * i]] if i % 3 else [[2**32 * i, 2**32 * i + 5]]) for i in range(12)],
            "Twelve 64-bit vectors, some beyond 2^32.",
        ),
        (
            "mixed-32-and-64",
            [("bitmap32", [[2, 3]]), ("bitmap64", [[2, 3]]), ("bitmap32", [])],
            "A file may hold both kinds; each keeps its own manifest-length convention.",
        ),
    ]
    for stem, vectors, note in cases_:
        data, ranges = dv.encode_file([(k, roaring.from_ranges(r)) for k, r in vectors])
        entries = [vec(k, r, o, n) for (k, r), (o, n) in zip(vectors, ranges, strict=True)]
        write_pair(
            d, stem, data, dv_case(entries, provenance=encoder_prov("layouts.deletion_vectors.encode_file"), notes=note)
        )


# ---------------------------------------------------------------------------
# Must-reject corpus


def crc_frame(blob: bytes) -> bytes:
    """Length word + blob + a correct CRC, so only the intended fault remains."""
    return struct.pack(">I", len(blob)) + blob + struct.pack(">I", zlib.crc32(blob))


def raw_roaring(
    descriptors: list[tuple[int, int]],
    payloads: list[bytes],
    run_flags: list[bool] | None = None,
    offsets: list[int] | None = None,
) -> bytes:
    """A 32-bit bitmap assembled from explicit parts (may be malformed on purpose)."""
    n = len(descriptors)
    if run_flags is not None:
        head = struct.pack("<HH", 12347, n - 1)
        flags = bytearray((n + 7) // 8)
        for i, f in enumerate(run_flags):
            flags[i // 8] |= int(f) << (i % 8)
        head += bytes(flags)
    else:
        head = struct.pack("<II", 12346, n)
    head += b"".join(struct.pack("<HH", k, c - 1) for k, c in descriptors)
    if run_flags is None or n >= 4:
        if offsets is None:
            pos, offsets = len(head) + 4 * n, []
            for p in payloads:
                offsets.append(pos)
                pos += len(p)
        head += b"".join(struct.pack("<I", o) for o in offsets)
    return head + b"".join(payloads)


def runs(*pairs: tuple[int, int]) -> bytes:
    """Run-container payload from (start, length) pairs."""
    return struct.pack("<H", len(pairs)) + b"".join(struct.pack("<HH", s, n - 1) for s, n in pairs)


def patch_be(data: bytes, at: int, value: int, width: int = 4) -> bytes:
    """`data` with the big-endian signed field at `at` set to `value`."""
    out = bytearray(data)
    out[at : at + width] = value.to_bytes(width, "big", signed=True)
    return bytes(out)


def reject(
    folder: Path,
    stem: str,
    kind: str,
    data: bytes,
    code: str,
    path: str,
    offset: int | None,
    breaks: str,
    motivation: str = "",
    **typed: object,
) -> None:
    """Store one must-reject file with its expected error (typed payloads name their type)."""
    side = {
        "case_format": 1,
        "kind": kind,
        **typed,
        "must_reject": {"code": code, "path": path, "offset": offset},
        "breaks": breaks,
        "provenance": {"producer": "mutation", "how": "tools/golden_derived.py"},
    }
    if motivation:
        side["motivation"] = motivation
    write_pair(folder, stem, data, side)


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
    blob64 = dv.MAGIC64_BYTES + roaring.encode_roaring64([2, 3])
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
    too_high64 = dv.MAGIC64_BYTES + roaring.encode_roaring64([0, 2**63 - 1], bucket_keys=[0, 2**31 - 1])
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


def other_rejects(out: Path) -> None:
    """Must-reject files for the standalone bitmaps and the HASH index."""
    f = out / "roaring32" / "must-reject"
    reject(
        f,
        "bad-cookie",
        "roaring32",
        struct.pack("<II", 12348, 0),
        "ROARING_BAD_COOKIE",
        "cookie",
        0,
        "the cookie is neither 12346 nor 12347",
    )
    reject(
        f,
        "too-many-containers",
        "roaring32",
        struct.pack("<II", 12346, 65537),
        "ROARING_TOO_MANY_CONTAINERS",
        "num_containers_no_run",
        4,
        "more containers than 16-bit keys exist",
    )
    dup = raw_roaring([(3, 1), (3, 1)], [struct.pack("<H", 1), struct.pack("<H", 2)])
    reject(
        f,
        "duplicate-keys",
        "roaring32",
        dup,
        "ROARING_KEYS_NOT_ASCENDING",
        "descriptors[1].key",
        12,
        "two containers share a key",
    )
    reject(
        f,
        "trailing-bytes",
        "roaring32",
        roaring.encode_roaring32([1, 5]) + b"\x00",
        "ROARING_TRAILING_BYTES",
        "",
        20,
        "one byte after the bitmap",
    )
    reject(
        f,
        "truncated",
        "roaring32",
        roaring.encode_roaring32([1, 5])[:-1],
        "TRUNCATED",
        "containers[0].body.values[1]",
        18,
        "the file ends inside the last value",
    )
    f = out / "roaring64" / "must-reject"
    one5, one7 = roaring.encode_roaring32([5]), roaring.encode_roaring32([7])
    body = struct.pack("<Q", 2) + struct.pack("<I", 4) + one5 + struct.pack("<I", 4) + one7
    reject(
        f,
        "duplicate-keys",
        "roaring64",
        body,
        "ROARING64_KEYS_NOT_ASCENDING",
        "buckets[1].high_key",
        8 + 4 + len(one5),
        "two buckets share high key 4",
        "apache/paimon-rust#785",
    )
    f = out / "hash_index" / "must-reject"
    reject(
        f,
        "size-not-multiple-of-4",
        "hash-index",
        b"\x00\x00\x00\x01\x00",
        "HASH_SIZE_NOT_MULTIPLE_OF_4",
        "size_check",
        0,
        "five bytes cannot hold whole 4-byte hashes",
    )


def file_index_rejects(out: Path) -> None:
    """Container and bloom-filter payloads every reader must refuse."""
    from paimon_conform import bloom
    from paimon_conform.layouts import file_index as fi
    from paimon_conform.types import parse_type

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


BITMAP_V2_INT = hx("""02 00000008 00000003 01 00000000 00000014 00000001 00000001 00000000 00000028 00000003
    00000001 00000014 00000016 00000002 0000002a 00000014 00000003 fffffffa ffffffff
    3a300000 01000000 0000 0100 10000000 0100 0400 3a300000 01000000 0000 0200 10000000 0000 0300 0600
    3a300000 01000000 0000 0100 10000000 0200 0700""")


def bitmap_goldens(out: Path) -> None:
    """Bitmap payloads: V2 bytes Java wrote (notes §7.5), encoder files for what 0.9.0 cannot write."""
    from paimon_conform import bitmap
    from paimon_conform.types import parse_type, to_internal

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
            side | {"provenance": encoder_prov("bitmap.build"), "notes": note},
        )


BSI_INT = hx("""01 00000006
    01 01 0000000000000000 0000000000000007 3a300000 01000000 0000 0200 10000000 0000 0300 0400 00000003
       3a300000 01000000 0000 0100 10000000 0000 0400 3a300000 01000000 0000 0000 10000000 0400
       3a300000 01000000 0000 0100 10000000 0000 0400
    01 01 0000000000000000 0000000000000003 3a300000 01000000 0000 0100 10000000 0200 0500 00000002
       3a300000 01000000 0000 0100 10000000 0200 0500 3a300000 01000000 0000 0000 10000000 0200""")


def bsi_goldens(out: Path) -> None:
    """BSI: the Java-written example of the notes (§11), encoder variants, must-reject payloads."""
    from paimon_conform import bsi
    from paimon_conform.types import parse_type, to_internal

    side = {"case_format": 1, "kind": "bsi", "type": "INT", "row_values": [5, None, -3, 0, 7, -1]}
    write_pair(
        out / "bsi" / "java-notes",
        "int-positive-and-negative",
        BSI_INT,
        side
        | {
            "provenance": notes_prov("§11 (BitSliceIndexBitmapFileIndex, Paimon master)"),
            "notes": "flags and halves interleaved: has_positive, positive, has_negative, negative",
        },
    )
    for stem, type_, values, note in [
        ("all-null", "BIGINT", [None, None], "no half written"),
        ("only-zero", "INT", [0, 0, None], "max 0: a positive half with no slice"),
        ("decimal", "DECIMAL(10, 2)", ["-1.25", "3.50", None, "0.01"], "unscaled values"),
        (
            "timestamp-micros",
            "TIMESTAMP(6)",
            ["2023-11-14T22:13:20.123456", "1969-12-31T23:59:59.999999"],
            "micros for precision > 3; before 1970 is negative",
        ),
    ]:
        t = parse_type(type_)
        data = bsi.build(t, [to_internal(t, v) for v in values])
        write_pair(
            out / "bsi" / "encoder",
            stem,
            data,
            {
                "case_format": 1,
                "kind": "bsi",
                "type": type_,
                "row_values": values,
                "provenance": encoder_prov("bsi.build"),
                "notes": note,
            },
        )
    f = out / "bsi" / "must-reject"
    bad = patch_be(BSI_INT, 0, 2, 1)
    reject(f, "bad-version", "bsi", bad, "BSI_BAD_VERSION", "version", 0, "version 2", type="INT")
    reject(
        f,
        "min-above-max",
        "bsi",
        patch_be(BSI_INT, 7 + 8, -1, 8),
        "BSI_MIN_ABOVE_MAX",
        "positive.max",
        15,
        "the positive half's max is below its min",
        type="INT",
    )
    at = 6 + 17 + 22  # positive half at 6: version, min, max, then a 22-byte existence bitmap
    reject(
        f,
        "too-many-slices",
        "bsi",
        patch_be(BSI_INT, at, 65),
        "BSI_TOO_MANY_SLICES",
        "positive.num_slices",
        at,
        "65 slices: more than a long has bits",
        type="INT",
    )
    reject(
        f,
        "trailing-bytes",
        "bsi",
        BSI_INT + b"\x00",
        "BSI_TRAILING_BYTES",
        "end_check",
        len(BSI_INT),
        "a byte after the negative half",
        type="INT",
    )


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


def range_bitmap_goldens(out: Path) -> None:
    """Range-bitmap: the notes' Java-written example (§8.6), encoder variants, must-reject payloads."""
    from paimon_conform import range_bitmap
    from paimon_conform.types import parse_type, to_internal

    example = range_bitmap_int_example()
    side = {"case_format": 1, "kind": "range-bitmap", "type": "INT", "row_values": [5, None, 3, 5, 9, 3]}
    write_pair(
        out / "range_bitmap" / "java-notes",
        "int-example",
        example,
        side
        | {
            "provenance": notes_prov("§8.6 (RangeBitmapFileIndex, Paimon master)"),
            "notes": "the notes give the bitmaps as value sets with their sizes; they are serialized per §9",
        },
    )
    variants = [
        ("string", "STRING", ["pear", None, "apple", "Äpfel", "", "pear", "zebra"], None, "unsigned-byte order"),
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
    for stem, type_, values, chunk, note in variants:
        t = parse_type(type_)
        data = range_bitmap.build(t, [to_internal(t, v) for v in values], chunk)
        case = {"case_format": 1, "kind": "range-bitmap", "type": type_}
        if chunk:
            case["chunk_size"] = chunk
        case |= {"row_values": values, "provenance": encoder_prov("range_bitmap.build"), "notes": note}
        write_pair(out / "range_bitmap" / "encoder", stem, data, case)
    range_bitmap_rejects(out, example)


def range_bitmap_rejects(out: Path, example: bytes) -> None:
    """Range-bitmap payloads every reader must refuse (INT keys; offsets worked out from the layout)."""
    from paimon_conform import range_bitmap
    from paimon_conform.types import parse_type

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


def bitmap_rejects(out: Path) -> None:
    """Bitmap payloads every reader must refuse (all INT keys)."""
    from paimon_conform import bitmap
    from paimon_conform.types import parse_type

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


BUCKET_MOTIVATION = (
    "BinaryRow.hashCode covers every byte: a row Java would not write hashes differently and puts the key in "
    "another bucket than Java does (../shared/ecosystem-bugs.md)"
)


def binary_row_rejects(out: Path) -> None:
    """Must-reject BinaryRows: each breaks one rule of specs/binary_row.ksy or Java's exact bytes."""
    from paimon_conform import binary_row
    from paimon_conform.types import parse_type, to_internal

    folder = out / "binary_row" / "must-reject"

    def row(types: list[str], values: list) -> tuple[list, bytearray]:
        ts = [parse_type(t) for t in types]
        return ts, bytearray(binary_row.write(ts, [to_internal(t, v) for t, v in zip(ts, values, strict=True)]))

    def rej(stem: str, types: list[str], data: bytes, code: str, path: str, offset: int | None, breaks: str) -> None:
        fields = [{"type": str(parse_type(t))} for t in types]
        kind = "binary-row-serialized" if stem.startswith("serialized-") else "binary-row"
        reject(folder, stem, kind, bytes(data), code, path, offset, breaks, BUCKET_MOTIVATION, fields=fields)

    ints = ["INT", "INT"]
    _, r = row(ints, [5, 6])
    r[0] = 4
    rej("bad-row-kind", ints, r, "BINARY_ROW_BAD_ROW_KIND", "row_kind", 0, "row kind byte 4 (only 0..3 exist)")
    _, r = row(ints, [5, 6])
    r[1] |= 0x04
    rej(
        "null-bit-past-last-field",
        ints,
        r,
        "BINARY_ROW_UNUSED_NULL_BITS",
        "null_bits",
        1,
        "null bit of field 2 of 2",
    )
    _, r = row(ints, [5, 6])
    r[7] = 1
    rej("null-bit-set-padding", ints, r, "BINARY_ROW_UNUSED_NULL_BITS", "null_bits_padding", 2, "bit-set padding not 0")
    _, r = row(ints, [5, 6])
    r[8 + 5] = 0xFF
    rej(
        "int-slot-padding",
        ints,
        r,
        "BINARY_ROW_SLOT_PADDING",
        "fields[0].slot.padding",
        12,
        "INT slot's high bytes not 0",
    )
    _, r = row(ints, [None, 6])
    r[8] = 9
    rej(
        "null-slot-not-zero",
        ints,
        r,
        "BINARY_ROW_NULL_SLOT_NOT_ZERO",
        "fields[0].slot.value",
        8,
        "null INT, slot 9",
    )
    _, r = row(["BOOLEAN"], [True])
    r[8] = 2
    rej("boolean-2", ["BOOLEAN"], r, "BINARY_ROW_BAD_BOOLEAN", "fields[0].slot.value", 8, "BOOLEAN byte 2")
    _, r = row(["STRING"], ["abc"])
    r[15] = 0x88
    rej("inline-length-8", ["STRING"], r, "BINARY_ROW_BAD_INLINE_LENGTH", "fields[0].slot.high", 12, "inline 8")
    _, r = row(["STRING"], ["ab"])
    r[8 + 4] = ord("x")
    rej(
        "inline-tail-garbage",
        ["STRING"],
        r,
        "BINARY_ROW_SLOT_PADDING",
        "fields[0].slot.low",
        8,
        "inline tail",
    )
    _, r = row(["STRING"], ["abcdefghij"])
    r[12] = 20
    rej(
        "var-offset-misaligned",
        ["STRING"],
        r,
        "BINARY_ROW_BAD_OFFSET",
        "fields[0].slot.high",
        12,
        "offset 20",
    )
    _, r = row(["STRING"], ["abcdefghij"])
    r[8] = 200
    rej(
        "var-beyond-row",
        ["STRING"],
        r,
        "BINARY_ROW_BAD_OFFSET",
        "fields[0].slot.high",
        12,
        "length 200 > row",
    )
    _, r = row(["STRING"], ["abcdefghij"])
    rej("size-not-multiple-of-8", ["STRING"], r[:-3], "BINARY_ROW_BAD_SIZE", "size_check", 0, "29-byte row")
    dec = ["DECIMAL(38, 2)"]
    _, r = row(dec, ["-1.28"])
    r[8] = 17
    rej("decimal-17-bytes", dec, r, "BINARY_ROW_BAD_DECIMAL_LENGTH", "fields[0].slot.len_unscaled", 8, "17 > 16 bytes")
    ts9 = ["TIMESTAMP(9)"]
    _, r = row(ts9, ["2023-11-14T22:13:20.123456789"])
    r[8:12] = (1_000_000).to_bytes(4, "little")
    rej("nanos-1000000", ts9, r, "BINARY_ROW_BAD_NANOS", "fields[0].slot.nano_of_millisecond", 8, "nano of milli 10^6")
    two = ["STRING", "STRING"]
    _, r = row(two, ["first-value", "second-value"])
    swapped = bytearray(r)  # the two variable items in reverse field order, slots pointing at them
    swapped[32:48], swapped[48:64] = r[48:64], r[32:48]
    swapped[12:16], swapped[20:24] = (48).to_bytes(4, "little"), (32).to_bytes(4, "little")
    rej("variable-part-out-of-order", two, swapped, "BINARY_ROW_NOT_JAVA_LAYOUT", "fields[0].slot", 12, "items swapped")
    _, r = row(["BIGINT"], [5])
    rej(
        "serialized-arity-mismatch",
        ["BIGINT", "INT"],
        binary_row.serialize_for_manifest(bytes(r), 1),
        "BINARY_ROW_BAD_ARITY",
        "arity",
        0,
        "arity 1 for a 2-field row type",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    for sub in ("java-notes", "encoder", "must-reject"):
        for folder in args.out.glob(f"*/{sub}"):
            shutil.rmtree(folder)
    notes_goldens(args.out)
    encoder_goldens(args.out)
    dv_rejects(args.out)
    other_rejects(args.out)
    file_index_rejects(args.out)
    bitmap_goldens(args.out)
    bitmap_rejects(args.out)
    bsi_goldens(args.out)
    range_bitmap_goldens(args.out)
    binary_row_rejects(args.out)
    print(f"golden_derived: wrote notes, encoder and must-reject goldens under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
