"""Layout `blob_descriptor`: a serialized BlobDescriptor (a BLOB stored by reference, Paimon 1.4+)."""

from __future__ import annotations

from typing import Any

from paimon_conform.core import structure
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import between
from paimon_conform.layouts.base import Layout, case_header, fault_key
from paimon_conform.layouts.blob_descriptor import codec

NAME = "blob_descriptor"
READERS = between("1.4")  # Java reads BLOB columns from 1.4.1 on
KIND = "blob-descriptor"


def detect(data: bytes) -> bool:
    """A version-2 descriptor: version byte 2, then the BLOBDESC magic."""
    return len(data) >= 9 + 4 + codec.FIXED and data[0] == 2 and data[1:9] == codec.MAGIC_BYTES


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes."""
    structure.parse(NAME, data)
    d = codec.decode(data)
    return case_header(KIND) | {"version": d.version, "uri": d.uri, "offset": d.offset, "length": d.length}


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes."""
    return codec.encode(codec.BlobDescriptor(case["uri"], case["offset"], case["length"], case.get("version", 2)))


def finding(err: LayoutError, file: str = "") -> Finding:
    """A finding for a fault: must, or should where Java reads the bytes as the writer meant them."""
    f = Finding.from_error(err, file)
    f.java_releases, f.otherwise = READERS, None  # older releases know no BLOB type at all
    if err.code == "BLOB_DESCRIPTOR_TRAILING_BYTES":
        f.severity = "should"
    return f


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """The first fault, from the fast decoder; the spec's parser must meet the same one."""
    try:
        ours = codec.decode(data)
        mine = None
    except LayoutError as err:
        ours, mine = None, err
    try:
        obj = structure.parse(NAME, data)
        spec = None
    except LayoutError as err:
        obj, spec = None, err
    findings = [finding(mine)] if mine else []
    same = fault_key(mine) == fault_key(spec) and (
        obj is None
        or ours is None
        or (obj.uri.decoded.value, obj.ofs_blob, obj.len_blob) == (ours.uri, ours.offset, ours.length)
    )
    if not same:
        msg = f"the spec's parser meets {fault_key(spec)}, the fast decoder {fault_key(mine)}"
        findings.append(Finding("BLOB_DESCRIPTOR_DECODERS_DISAGREE", "must", "", None, msg))
    if mine is None and ours is not None and ours.version < 1:
        msg = f"version {ours.version}: Java reads it as version 1 but writes only 1 or 2"
        findings.append(Finding("BLOB_DESCRIPTOR_BAD_VERSION", "should", "version", 0, msg))
    return findings


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary."""
    d = codec.decode(data)
    return f"blob_descriptor v{d.version}: {d.uri!r} offset {d.offset} length {d.length}"


LAYOUT = Layout(NAME, KIND, "BlobDescriptor (serialized BLOB reference)", detect, inspect, encode, validate, describe)
