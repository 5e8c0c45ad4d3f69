"""BlobDescriptor bytes: the version 2 cases Java writes, the version 1 encoder file (the fields of Java's
compatible/blob_descriptor_v1), must-reject."""

from __future__ import annotations

import struct
from pathlib import Path

from .common import encoder_prov, reject, write_pair

V2_CASES = [
    ("v2-oss", ("oss://bucket/t/bucket-0/data-1.blob", 4, 1024), "what Java 1.4+ writes"),
    ("v2-unicode-uri", ("file:///données/ß/日本.blob", 0, 7), "UTF-8, 2- and 3-byte forms"),
    ("v2-empty-uri", ("", 0, 0), "URI length 0"),
    ("v2-long-extremes", ("s3://b/k", 2**63 - 1, -(2**63)), "offset and length are any long"),
]


def java_cases() -> list[tuple[str, dict, str]]:
    """The version 2 descriptors Java 1.4.2 and 2.0.0 write through the testee's encode (BlobDescriptor
    .serialize): (stem, case, note)."""
    return [
        (stem, {"case_format": 1, "kind": "blob-descriptor", "version": 2, "uri": u, "offset": o, "length": n}, note)
        for stem, (u, o, n), note in V2_CASES
    ]


def write(out: Path) -> None:
    """The version 1 descriptor no release here writes (1.4+ read it), and one must-reject file per check Java's
    deserialize() makes; the version 2 ones are Java-written (java_cases)."""
    from paimon_conform.layouts.blob_descriptor import codec, entry

    data = codec.encode(codec.BlobDescriptor("/test/path", 100, 200, version=1))
    note = "the fields of Java's paimon-common compatible/blob_descriptor_v1 (31 bytes, no magic); same bytes"
    prov = encoder_prov("layouts.blob_descriptor.codec.encode")
    write_pair(
        out / "blob_descriptor" / "encoder",
        "v1-test-path",
        data,
        entry.inspect(data) | {"provenance": prov, "notes": note},
    )
    f = out / "blob_descriptor" / "must-reject"
    k = "blob-descriptor"
    good = codec.encode(codec.BlobDescriptor("/a/b", 1, 2))  # version 0, magic 1..9, len_uri 9, uri 13, tail 17
    reject(f, "version-3", k, b"\x03" + good[1:], "BLOB_DESCRIPTOR_BAD_VERSION", "version", 0, "version 3 > 2")
    reject(
        f, "bad-magic", k, good[:1] + b"BLOBDESC" + good[9:], "BLOB_DESCRIPTOR_BAD_MAGIC", "magic", 1, "magic bytes BE"
    )
    neg = good[:9] + struct.pack("<i", -1) + good[13:]
    reject(f, "negative-uri-length", k, neg, "BLOB_DESCRIPTOR_BAD_URI_LENGTH", "len_uri", 9, "URI length -1")
    long_ = good[:9] + struct.pack("<i", 5) + good[13:]
    reject(f, "uri-eats-offset", k, long_, "BLOB_DESCRIPTOR_BAD_URI_LENGTH", "len_uri", 9, "16 bytes no longer remain")
    bad = good[:13] + b"\xc3\x28ab" + good[17:]
    reject(f, "malformed-utf8", k, bad, "UTF8_INVALID", "uri.decoded", 13, "C3 28 is not UTF-8")
    reject(f, "truncated-length", k, good[:-1], "BLOB_DESCRIPTOR_BAD_URI_LENGTH", "len_uri", 9, "one byte short")
    reject(f, "no-magic-room", k, good[:5], "TRUNCATED", "magic", 1, "version 2 and 4 bytes")
