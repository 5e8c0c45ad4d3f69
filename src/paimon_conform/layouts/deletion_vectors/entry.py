"""Layout `deletion_vectors`: Paimon's deletion-vector index file.

Three ways in:
* `load(data)`: the fast path for readers. Framing and CRC in Python, each
  bitmap deserialized (and validated) by CRoaring; no container is walked
  in Python.
* `read_vector(data, offset, length)`: what Java's reader does with one
  index-manifest entry, including the two length conventions.
* `validate(data)`: the spec parser, the library checks and a cross-check
  against the fast path, as findings.
And one way out: `encode_file` / `write_files` write what Java writes.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
from pyroaring import BitMap, BitMap64
from zlib_ng.zlib_ng import crc32

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import CaseError, EncodeError, InvariantError, LayoutError, TruncatedError
from paimon_conform.core.findings import Finding, raise_first_must
from paimon_conform.layouts.base import PARSE_BYTES, Layout, case_header, parse_fits
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.layouts.roaring32 import entry as r32
from paimon_conform.layouts.roaring64 import codec as roaring64
from paimon_conform.layouts.roaring64 import entry as r64

NAME = "deletion_vectors"
KIND = "deletion-vectors"
VERSION = 1
MAGIC32 = 1581511376
MAGIC64 = 1681511377
MAGIC32_BYTES = MAGIC32.to_bytes(4, "big")
MAGIC64_BYTES = MAGIC64.to_bytes(4, "little")
MAGIC64_READ_BE = int.from_bytes(MAGIC64_BYTES, "big")  # how the spec reads it: 0xd1d33964
MAX_POSITION32 = 2**31 - 1
MAX_POSITION64 = (0x7FFFFFFE << 32) | 0x80000000
DEFAULT_TARGET_SIZE = 2 * 1024 * 1024
MIN_VECTOR = 12

BitmapKind = Literal["bitmap32", "bitmap64"]


def manifest_length(kind: BitmapKind, len_blob: int) -> int:
    """Length the index manifest records: blob for 32-bit, whole frame for 64-bit."""
    return len_blob + 8 if kind == "bitmap64" else len_blob


class LoadedVector(NamedTuple):
    """One vector as the fast path reads it."""

    offset: int
    length: int
    kind: BitmapKind
    bitmap: BitMap | BitMap64


def detect(data: bytes) -> bool:
    """Whether the bytes start like a DV index file."""
    if not data or data[0] != VERSION:
        return False
    return len(data) == 1 or (len(data) >= 9 and data[5:9] in (MAGIC32_BYTES, MAGIC64_BYTES))


def _magic_error(blob_magic: bytes, i: int, offset: int) -> InvariantError:
    if blob_magic == MAGIC64.to_bytes(4, "big"):
        return InvariantError(
            NAME,
            "DV_MAGIC64_BIG_ENDIAN",
            f"vectors[{i}].blob.magic",
            offset,
            "64-bit magic 1681511377 written big-endian; Paimon writes it little-endian (D1 D3 39 64)",
        )
    if blob_magic == MAGIC32.to_bytes(4, "little"):
        return InvariantError(
            NAME,
            "DV_MAGIC32_LITTLE_ENDIAN",
            f"vectors[{i}].blob.magic",
            offset,
            "32-bit magic 1581511376 written little-endian; Paimon writes it big-endian (5E 43 F2 D0)",
        )
    return InvariantError(
        NAME,
        "DV_BAD_MAGIC",
        f"vectors[{i}].blob.magic",
        offset,
        f"magic {blob_magic.hex()} is neither 5e43f2d0 (32-bit) nor d1d33964 (64-bit)",
    )


def _refine(err: LayoutError, data: bytes) -> LayoutError:
    """Give a spec-level magic error its specific code."""
    if err.code == "DV_BAD_MAGIC" and err.offset is not None:
        i = int(err.path.split("[", 1)[1].split("]", 1)[0])
        return _magic_error(data[err.offset : err.offset + 4], i, err.offset)
    if err.code == "DV_CRC_MISMATCH" and err.offset is not None and err.offset >= 4:
        stored = int.from_bytes(data[err.offset : err.offset + 4], "big")
        i = int(err.path.split("[", 1)[1].split("]", 1)[0])
        return InvariantError(
            NAME,
            err.code,
            err.path,
            err.offset,
            f"stored CRC 0x{stored:08x} differs from the CRC32 of vector {i}'s blob",
        )
    return err


_U32BE = struct.Struct(">I").unpack_from


def load(data: bytes, verify_crc: bool = True) -> list[LoadedVector]:
    """Fast path: every vector with its manifest offset/length and bitmap."""
    n = len(data)
    if n < 1:
        raise TruncatedError(NAME, "TRUNCATED", "version", 0, "empty input; a DV file has at least its version byte")
    if data[0] != VERSION:
        raise InvariantError(NAME, "DV_BAD_VERSION", "version", 0, f"version {data[0]}, expected 1")
    view = memoryview(data)
    out: list[LoadedVector] = []
    deserialize32 = BitMap.deserialize
    pos = 1
    while pos < n:  # each round consumes >= MIN_VECTOR bytes or raises
        if n - pos < MIN_VECTOR:
            raise InvariantError(
                NAME,
                "DV_TRAILING_BYTES",
                f"vectors[{len(out)}].room_check",
                pos,
                f"{n - pos} byte(s) after the last vector cannot hold a vector",
            )
        (len_blob,) = _U32BE(data, pos)
        end = pos + 4 + len_blob
        if len_blob < 4 or end + 4 > n:
            raise InvariantError(
                NAME,
                "DV_LENGTH_PAST_EOF",
                f"vectors[{len(out)}].len_blob",
                pos,
                f"blob length {len_blob} does not fit in the {n - pos - 8} byte(s) left",
            )
        if verify_crc and crc32(view[pos + 4 : end]) != _U32BE(data, end)[0]:
            raise InvariantError(
                NAME,
                "DV_CRC_MISMATCH",
                f"vectors[{len(out)}].crc",
                end,
                f"stored CRC 0x{_U32BE(data, end)[0]:08x} differs from the CRC32 of the blob",
            )
        magic = data[pos + 4 : pos + 8]
        if end == pos + 8 and magic in (MAGIC32_BYTES, MAGIC64_BYTES):
            msg = "the blob holds the magic alone: no bitmap"
            raise TruncatedError(NAME, "TRUNCATED", f"vectors[{len(out)}].blob.bitmap", pos + 8, msg)
        if magic == MAGIC32_BYTES:
            try:
                bitmap: BitMap | BitMap64 = deserialize32(view[pos + 8 : end])
            except (ValueError, IndexError) as exc:
                raise LayoutError(
                    NAME,
                    "ROARING_REJECTED",
                    f"vectors[{len(out)}].blob.bitmap",
                    pos + 8,
                    f"CRoaring rejects the bitmap: {exc}",
                ) from None
            out.append(LoadedVector(pos, len_blob, "bitmap32", bitmap))
        elif magic == MAGIC64_BYTES:
            bitmap = roaring64.load_roaring64(view[pos + 8 : end], NAME, f"vectors[{len(out)}].blob.bitmap", pos + 8)
            out.append(LoadedVector(pos, len_blob + 8, "bitmap64", bitmap))
        else:
            raise _magic_error(bytes(magic), len(out), pos + 4)
        pos = end + 4
    return out


def read_vector(data: bytes, offset: int, length: int) -> BitMap | BitMap64:
    """Read one vector the way Java's DeletionVector.read does from a manifest entry.

    Checks the length word against the manifest length under the convention
    of the vector's kind (32-bit: equal; 64-bit: manifest = word + 8).
    """
    if offset < 1 or offset + 8 > len(data):
        raise TruncatedError(
            NAME,
            "DV_OFFSET_OUT_OF_FILE",
            "len_blob",
            offset,
            f"offset {offset} leaves no room for a vector in {len(data)} bytes",
        )
    (len_blob,) = struct.unpack_from(">I", data, offset)
    magic = data[offset + 4 : offset + 8]
    if magic == MAGIC32_BYTES:
        kind: BitmapKind = "bitmap32"
    elif magic == MAGIC64_BYTES:
        kind = "bitmap64"
    else:
        raise _magic_error(magic, 0, offset + 4)
    if manifest_length(kind, len_blob) != length:
        raise InvariantError(
            NAME,
            "DV_LENGTH_CONVENTION",
            "len_blob",
            offset,
            f"manifest length {length} but a {kind} vector with length word {len_blob} "
            f"must be recorded as {manifest_length(kind, len_blob)}",
        )
    end = offset + 4 + len_blob
    if end + 4 > len(data):
        raise TruncatedError(NAME, "DV_LENGTH_PAST_EOF", "len_blob", offset, "vector runs past the end of the file")
    body = data[offset + 8 : end]
    if kind == "bitmap32":
        return roaring.load_roaring32(body, NAME, "blob.bitmap", offset + 8)
    return roaring64.load_roaring64(body, NAME, "blob.bitmap", offset + 8)


# ---------------------------------------------------------------------------
# Encoding


def encode_blob(kind: BitmapKind, positions: Iterable[int] | np.ndarray, layout: dict[str, Any] | None = None) -> bytes:
    """Magic + bitmap of one vector, as BitmapDeletionVector / Bitmap64DeletionVector write it."""
    layout = layout or {}
    if kind == "bitmap32":
        values = roaring.as_sorted_unique(positions, MAX_POSITION32)
        return MAGIC32_BYTES + roaring.encode_roaring32(values, layout.get("containers"), layout.get("run_cookie"))
    if kind == "bitmap64":
        values = roaring.as_sorted_unique(positions, MAX_POSITION64)
        return MAGIC64_BYTES + r64.encode_values(values, layout)
    raise EncodeError(f"unknown bitmap kind {kind!r}")


def frame(blob: bytes) -> bytes:
    """Length word + blob + CRC32."""
    return struct.pack(">I", len(blob)) + blob + struct.pack(">I", crc32(blob))


def encode_file(
    vectors: Sequence[tuple[BitmapKind, Iterable[int] | np.ndarray]],
) -> tuple[bytes, list[tuple[int, int]]]:
    """A DV file holding the vectors in order, and each one's (offset, manifest length)."""
    out = bytearray([VERSION])
    ranges = []
    for kind, positions in vectors:
        blob = encode_blob(kind, positions)
        ranges.append((len(out), manifest_length(kind, len(blob))))
        out += frame(blob)
    return bytes(out), ranges


@dataclass(frozen=True)
class WrittenFile:
    """One DV index file and what the index manifest records for it."""

    data: bytes
    ranges: dict[str, tuple[int, int, int]]  # data file -> (offset, length, cardinality)


def write_files(
    vectors: Mapping[str, Iterable[int] | np.ndarray], bitmap64: bool = False, target_size: int = DEFAULT_TARGET_SIZE
) -> list[WrittenFile]:
    """What Paimon's DeletionVectorIndexFileWriter writes for a map of data file -> positions.

    Vectors go in the mapping's order; after each one, a file whose size
    exceeds `target_size` is closed and the next vector starts a new file.
    An empty mapping gives one file holding only the version byte.
    """
    kind: BitmapKind = "bitmap64" if bitmap64 else "bitmap32"
    files: list[WrittenFile] = []
    current = bytearray([VERSION])
    ranges: dict[str, tuple[int, int, int]] = {}
    items = list(vectors.items())
    for idx, (name, positions) in enumerate(items):
        values = roaring.as_sorted_unique(positions, MAX_POSITION64 if bitmap64 else MAX_POSITION32)
        blob = encode_blob(kind, values)
        ranges[name] = (len(current), manifest_length(kind, len(blob)), int(values.size))
        current += frame(blob)
        if len(current) > target_size and idx < len(items) - 1:
            files.append(WrittenFile(bytes(current), ranges))
            current, ranges = bytearray([VERSION]), {}
    files.append(WrittenFile(bytes(current), ranges))
    return files


# ---------------------------------------------------------------------------
# Spec parser, cases, validation


def parse(data: bytes):
    """Spec-exact structural parse; LayoutError with specific codes on failure."""
    try:
        return structure.parse(NAME, data)
    except LayoutError as err:
        raise _refine(err, data) from None


def _vector_bitmap(vec) -> tuple[BitmapKind, Any]:
    kind: BitmapKind = "bitmap64" if int(vec.blob.magic) == MAGIC64_READ_BE else "bitmap32"
    return kind, vec.blob.bitmap


def _vector_runs(kind: BitmapKind, bitmap) -> tuple[np.ndarray, np.ndarray]:
    """Starts and inclusive ends of a parsed vector's runs of positions (never listed position by position)."""
    return r64.runs(bitmap) if kind == "bitmap64" else roaring.structure_runs(bitmap)


def _vector_cardinality(kind: BitmapKind, bitmap) -> int:
    return r64.cardinality(bitmap) if kind == "bitmap64" else roaring.structure_cardinality(bitmap)


def _vector_pyroaring(kind: BitmapKind, bitmap) -> BitMap | BitMap64:
    return r64.bitmap(bitmap) if kind == "bitmap64" else roaring.structure_bitmap(bitmap)


def _vector_findings(i: int, vec) -> list[Finding]:
    kind, bitmap = _vector_bitmap(vec)
    path = f"vectors[{i}].blob.bitmap"
    base = vec.ofs_vector + 8
    if kind == "bitmap32":
        findings = roaring.check_roaring32(bitmap, path, base)
        limit = MAX_POSITION32
    else:
        findings = r64.check(bitmap, path, base)
        limit = MAX_POSITION64
    if not any(f.severity == "must" for f in findings):
        lasts = _vector_runs(kind, bitmap)[1]
        if lasts.size and int(lasts[-1]) > limit:
            findings.append(
                Finding(
                    "DV_POSITION_OUT_OF_RANGE",
                    "must",
                    path,
                    base,
                    f"position {int(lasts[-1])} exceeds the {kind} maximum {limit}",
                )
            )
    return findings


def validate(data: bytes, types: Any = None) -> list[Finding]:
    """Every finding for a DV index file.

    The spec parser's tree takes ~80 bytes per input byte; a file too large for the budget (valid in
    Java: one vector of a huge data file) is checked through the fast path (framing, magic, CRC, each
    bitmap deserialized by CRoaring) alone, never refused.
    """
    if is_clean(data):
        return []
    if not budget.fits(PARSE_BYTES * len(data)):
        try:
            load(data)
        except LayoutError as err:
            return [Finding.from_error(err)]
        return []
    return validate_by_spec(data)


def is_clean(data: bytes) -> bool:
    """The fast checker: True when the file certainly has no finding (see `clean_vectors`)."""
    return clean_vectors(data) is not None


def clean_vectors(data: bytes) -> list[LoadedVector] | None:
    """The file's vectors when it certainly has no finding: its framing, magic and CRC read by the fast path,
    every vector 32-bit, the bytes Java writes for its positions (`roaring32.is_java_canonical`) and within
    the 32-bit position range. None sends it to the spec parser, which finds and places the fault; 64-bit
    vectors always go there. Equal to `validate_by_spec` on valid and damaged files (the tests)."""
    try:
        vectors = load(data)
    except LayoutError:
        return None
    data = bytes(data)
    for v in vectors:
        end = v.offset + 4 + v.length
        if v.kind != "bitmap32" or not roaring.is_java_canonical(v.bitmap, data, v.offset + 8, end):
            return None
        if len(v.bitmap) and v.bitmap.max() > MAX_POSITION32:
            return None
    return vectors


def validate_by_spec(data: bytes) -> list[Finding]:
    """Every finding, from the spec parser's tree (the reference the fast checker is held to)."""
    try:
        obj = parse(data)
    except LayoutError as err:
        return [Finding.from_error(err)]
    findings: list[Finding] = []
    for i, vec in enumerate(obj.vectors):
        findings += _vector_findings(i, vec)
    if any(f.severity == "must" for f in findings):
        return findings
    try:
        loaded = load(data)
    except LayoutError as err:
        return [*findings, Finding.from_error(err)]
    for i, (vec, fast) in enumerate(zip(obj.vectors, loaded, strict=True)):
        ours = _vector_pyroaring(*_vector_bitmap(vec))
        findings += roaring.cross_check(
            ours, lambda fast=fast: fast.bitmap, f"vectors[{i}].blob.bitmap", vec.ofs_vector + 8
        )
    return findings


def inspect(data: bytes, types: Any = None) -> dict[str, Any]:
    """The case describing these bytes (raises LayoutError on a must finding). A file the fast checker
    passes is described from CRoaring's reading (its bytes are Java's: no layout override); any other,
    from the spec parser's tree."""
    vectors = clean_vectors(data)
    if vectors is None:
        return inspect_by_spec(data)
    cases = [
        {
            "bitmap": "bitmap32",
            "offset": v.offset,
            "length": v.length,
            "cardinality": len(v.bitmap),
            "ranges": roaring.to_ranges(np.frombuffer(v.bitmap.to_array(), dtype=np.uint32)),
        }
        for v in vectors
    ]
    return case_header(KIND) | {"version": data[0], "vectors": cases}


def inspect_by_spec(data: bytes) -> dict[str, Any]:
    """The case from the spec parser's tree (the reference the fast description is held to)."""
    parse_fits(data, NAME)
    obj = parse(data)
    vectors = []
    for i, vec in enumerate(obj.vectors):
        raise_first_must(NAME, _vector_findings(i, vec))
        kind, bitmap = _vector_bitmap(vec)
        entry: dict[str, Any] = {
            "bitmap": kind,
            "offset": vec.ofs_vector,
            "length": vec.len_manifest,
            "cardinality": _vector_cardinality(kind, bitmap),
            "ranges": roaring.pairs(*_vector_runs(kind, bitmap)),  # from the runs: positions never listed
        }
        layout = r64.layout_of(bitmap) if kind == "bitmap64" else r32.bitmap_layout(bitmap)
        if layout:
            entry["layout"] = layout
        vectors.append(entry)
    return case_header(KIND) | {"version": int(obj.version), "vectors": vectors}


def encode(case: dict[str, Any]) -> bytes:
    """The bytes a case describes; stated offsets, lengths and cardinalities must agree."""
    out = bytearray([case.get("version", VERSION)])
    for i, v in enumerate(case["vectors"]):
        limit = MAX_POSITION64 if v["bitmap"] == "bitmap64" else MAX_POSITION32
        values = roaring.from_ranges(v["ranges"], limit)
        blob = encode_blob(v["bitmap"], values, v.get("layout"))
        got = {"offset": len(out), "length": manifest_length(v["bitmap"], len(blob)), "cardinality": int(values.size)}
        for key, value in got.items():
            if key in v and v[key] != value:
                raise CaseError(f"vectors[{i}]: case says {key} {v[key]}, the encoding gives {value}")
        out += frame(blob)
    return bytes(out)


def describe(data: bytes, types: Any = None) -> str:
    """Human-readable summary: one line per vector."""
    parse_fits(data, NAME)
    obj = parse(data)
    lines = [f"deletion_vectors: version {int(obj.version)}, {len(obj.vectors)} vector(s), {len(data)} bytes"]
    for i, vec in enumerate(obj.vectors):
        kind, bitmap = _vector_bitmap(vec)
        card = _vector_cardinality(kind, bitmap)
        lines.append(
            f"  vectors[{i}] offset {vec.ofs_vector} manifest length {vec.len_manifest} "
            f"{kind} cardinality {card} crc 0x{vec.crc:08x}"
        )
    return "\n".join(lines)


LAYOUT = Layout(NAME, KIND, "Deletion-vector index file", detect, inspect, encode, validate, describe)
