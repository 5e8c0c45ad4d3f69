"""What Java of each release does in the type x role matrices (support/java_matrix.py), pinned from their runs,
and the helpers the matrix tests share: test_type_matrix_java.py (UTC) and test_timestamp_zones_java.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from support.environment import ROOT

DECIMALS = ("decimal-5-2", "decimal-18-4", "decimal-38-10")
INT96 = ("timestamp-9", "timestamp-9-with-local-time-zone")
FILE_INDEX = ("file-index", "file-index-embedded")

OLD_JARS = ("0.9.0", "1.0-SNAPSHOT")  # before 1.1: no bitmap index on BOOLEAN
FLOAT_KEYS_FIXED = "2.0.0"  # the first release of the matrix that keeps every FLOAT / DOUBLE key
INT96_FIXED = (1, 3)  # the first release line whose Parquet INT96 writer keeps pre-1970 sub-millisecond values


def _line(version: str) -> tuple[int, int]:
    """A release's line as numbers (1.0-SNAPSHOT -> (1, 0))."""
    major, minor = version.split("-")[0].split(".")[:2]
    return int(major), int(minor)


BINARIES = ("binary-4", "varbinary-10", "bytes")


def known_refusals(version: str) -> dict[tuple[str, str], str]:
    """(role, type slug) -> what Java says, for the cases the jar of `version` neither writes nor reads back."""
    refusals = {
        **{
            (role, t): "the bloom filter and the bitmap index both refuse the type"
            for role in FILE_INDEX
            for t in DECIMALS
        },
        # the partition path holds byte[].toString() (k=%5BB@<identity hash>): Java cannot find its own file
        **{("partition", t): "FileNotFoundException" for t in BINARIES},
        # "Avro does not support TIMESTAMP type with precision: 9" (AvroSchemaConverter, at create)
        **{("value-avro", t): "IllegalArgumentException" for t in INT96},
    }
    if version in OLD_JARS:
        refusals.update(
            {(role, "boolean"): "the bloom filter and the bitmap index both refuse the type" for role in FILE_INDEX}
        )
    if version == "1.2.0":
        # the second write looks the key up in 1.2.0's sort lookup store, whose comparator casts byte[] to Comparable
        refusals.update({("pk", t): "ClassCastException" for t in BINARIES})
    return refusals


def known_fallbacks(version: str) -> dict[tuple[str, str], str]:
    """Cases the jar of `version` writes only with a later variant of the case (the first attempt failed).

    Before 1.3 Java's Parquet INT96 writer (TIMESTAMP(7..9)) truncates the day division, so a value before 1970
    that is not at midnight gets a negative nano-of-day and Java's reader fails on it (Timestamp.fromEpochMillis);
    those values are left out (run: 1.3.1 and 1.4.2 in test_timestamp_zones_java, 2.0.0 here). From 1.1 a file
    index on BOOLEAN is a bitmap only (the bloom filter refuses it), and on the binary types a bloom filter only
    (the bitmap refuses them)."""
    fallbacks = {}
    if _line(version) < INT96_FIXED:
        fallbacks.update(
            {
                (role, t): "values Java's INT96 round trip survives"
                for role in ("pk", "bucket-key", "value")
                for t in INT96
            }
        )
        fallbacks.update(
            {
                (role, t): "bloom filter and bitmap, values Java's INT96 round trip survives"
                for role in FILE_INDEX
                for t in INT96
            }
        )
    if version not in OLD_JARS:
        fallbacks.update({(role, "boolean"): "bitmap only" for role in FILE_INDEX})
        fallbacks.update({(role, t): "bloom filter only" for role in FILE_INDEX for t in BINARIES})
    return fallbacks


# cases whose rows Java reads back other than they were written (Java is still the reference)
ORC_TIMESTAMPS = ("timestamp-0", "timestamp-3", "timestamp-6", "timestamp-9")


def known_java_round_trip(version: str) -> dict[tuple[str, str], str]:
    """Cases whose rows the jar of `version` reads back other than they were written (Java is still the reference)."""
    differ = {
        # ORC: java.sql.Timestamp's Julian calendar before 1582, and ORC's one-second error between -1 s and 0
        **{("value-orc", t): "timestamps shifted" for t in ORC_TIMESTAMPS},
        **{("value-orc", f"{t}-with-local-time-zone"): "timestamps shifted" for t in ORC_TIMESTAMPS[1:]},
        # ORC CHAR(n) reads back right-trimmed: " " -> ""
        ("value-orc", "char-5"): "trailing spaces trimmed",
    }
    if version != FLOAT_KEYS_FIXED:
        # deletes / upserts of float keys: DOUBLE -0.0 and 0.0 are one key, the FLOAT key -Infinity is lost
        differ.update({("pk", "float"): "a row missing", ("pk", "double"): "a row missing"})
    return differ


def key(name: str) -> tuple[str, str]:
    role, _, t = name.partition(".")
    return role, t


def must_lines(results) -> list[str]:
    return [f.line() for r in results for f in r.findings if f.severity == "must"] + [
        f"{r.file}: UNUSABLE {r.unusable}" for r in results if r.unusable
    ]


def cli() -> list[str]:
    script = Path(sys.executable).parent / "paimon-conform"
    if not script.is_file():
        script = ROOT / ".venv" / "bin" / "paimon-conform"
    return [str(script)]


def canonical(rows: list[list]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows)
