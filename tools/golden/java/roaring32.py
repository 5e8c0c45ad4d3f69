"""32-bit RoaringBitmaps written by Java Paimon 0.9.0 (GoldenWriter: RoaringBitmap32): the cases and how each is
stored."""

from __future__ import annotations

from pathlib import Path

from golden.java.common import PRODUCER_DIR, provenance, ranges_of, write_pair


def roaring32_cases() -> list[dict]:
    """Standalone RoaringBitmap32.serialize() cases."""
    return [
        {"name": "empty", "ranges": []},
        {"name": "three-values-array", "ranges": [[0, 2]]},
        {"name": "four-values-run", "ranges": [[0, 3]]},
        {"name": "three-containers-with-run", "ranges": [[0, 99], [70000, 70000], [140000, 140002]]},
        {"name": "four-containers-with-run", "ranges": [[0, 99], [70000, 70000], [140000, 140002], [200000, 200001]]},
        {"name": "unsigned-high", "ranges": [[0, 0], [2**31, 2**31 + 5], [2**32 - 3, 2**32 - 1]]},
        {"name": "full-container", "ranges": [[0, 65535]]},
        {"name": "array-4096", "ranges": ranges_of(range(0, 8192, 2))},
        {"name": "bitmap-4097", "ranges": ranges_of(range(0, 8194, 2))},
    ]


def store_roaring(report: dict, spec: dict, work: Path, out: Path) -> None:
    """Sidecar for one RoaringBitmap32 file."""
    data = (work / "roaring32" / spec["name"] / report["file_name"]).read_bytes()
    if ranges_of(report["read_values"]) != spec["ranges"]:
        raise SystemExit(f"Java read back different values for roaring32 {spec['name']}")
    card = sum(b - a + 1 for a, b in spec["ranges"])
    sidecar = {
        "case_format": 1,
        "kind": "roaring32",
        "cardinality": card,
        "ranges": spec["ranges"],
        "provenance": provenance("tools/java/GoldenWriter.java: RoaringBitmap32.add() per value, serialize()"),
        "java_reader": {"method": "RoaringBitmap32.deserialize(byte[])", "cardinality": report["read_cardinality"]},
    }
    write_pair(out / "roaring32" / PRODUCER_DIR, spec["name"], data, sidecar)
