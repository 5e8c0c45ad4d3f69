"""BlobDescriptor bytes: encoder files (one with the fields of Java's compatible/blob_descriptor_v1), must-reject."""

from __future__ import annotations

import struct
from pathlib import Path

from .common import encoder_prov, reject, write_pair


def write(out: Path) -> None:
    """Encoder descriptors of both versions, and one must-reject file per check Java's deserialize() makes."""
    from paimon_conform.layouts.blob_descriptor import codec, entry

    folder = out / "blob_descriptor" / "encoder"
    prov = encoder_prov("layouts.blob_descriptor.codec.encode")
    for stem, d, note in [
        ("v2-oss", codec.BlobDescriptor("oss://bucket/t/bucket-0/data-1.blob", 4, 1024), "what Java 1.4+ writes"),
        (
            "v1-test-path",
            codec.BlobDescriptor("/test/path", 100, 200, version=1),
            "the fields of Java's paimon-common compatible/blob_descriptor_v1 (31 bytes, no magic); same bytes",
        ),
        ("v2-unicode-uri", codec.BlobDescriptor("file:///données/ß/日本.blob", 0, 7), "UTF-8, 2- and 3-byte forms"),
        ("v2-empty-uri", codec.BlobDescriptor("", 0, 0), "URI length 0"),
        ("v2-long-extremes", codec.BlobDescriptor("s3://b/k", 2**63 - 1, -(2**63)), "offset and length are any long"),
    ]:
        data = codec.encode(d)
        write_pair(folder, stem, data, entry.inspect(data) | {"provenance": prov, "notes": note})
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
