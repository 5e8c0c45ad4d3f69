"""Shared pieces of the golden generators: hex text to bytes, a golden file and its sidecar,
provenance records, and the building blocks of must-reject files.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from golden.evidence import with_evidence
from paimon_conform.core import cases

ROOT = Path(__file__).resolve().parents[2]  # the repository: tools/golden/common.py


NOTES = "../shared/paimon-layouts.md"


def hx(text: str) -> bytes:
    """Hex with spaces allowed."""
    return bytes.fromhex("".join(text.split()))


def write_pair(folder: Path, stem: str, data: bytes, sidecar: dict) -> None:
    """Store `<stem>.bin` and its schema-checked `<stem>.json`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.bin").write_bytes(data)
    (folder / f"{stem}.json").write_text(cases.dumps(cases.check(with_evidence(folder, stem, sidecar))))


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


def typed_encoder_side(layout: str, data: bytes, type_text: str, note: str) -> dict:
    """The sidecar of an encoder file of a typed layout: its case as the layout inspects it, provenance, note."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.registry import get

    prov = encoder_prov(f"layouts.{layout}.codec.encode")
    return get(layout).inspect(data, parse_type(type_text)) | {"provenance": prov, "notes": note}


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
