"""Bit-slice-index payloads: the valid cases Java writes, and must-reject files."""

from __future__ import annotations

from pathlib import Path

from .common import hx, patch_be, reject

BSI_INT = hx("""01 00000006
    01 01 0000000000000000 0000000000000007 3a300000 01000000 0000 0200 10000000 0000 0300 0400 00000003
       3a300000 01000000 0000 0100 10000000 0000 0400 3a300000 01000000 0000 0000 10000000 0400
       3a300000 01000000 0000 0100 10000000 0000 0400
    01 01 0000000000000000 0000000000000003 3a300000 01000000 0000 0100 10000000 0200 0500 00000002
       3a300000 01000000 0000 0100 10000000 0200 0500 3a300000 01000000 0000 0000 10000000 0200""")


def payload_cases() -> list[tuple[str, dict, dict, str]]:
    """The valid BSI payloads (Paimon 1.0 on): (stem, case, the writer's options, note)."""
    cases = [
        ("int-positive-and-negative", "INT", [5, None, -3, 0, 7, -1], "the notes' §11 example"),
        ("all-null", "BIGINT", [None, None], "no half written"),
        ("only-zero", "INT", [0, 0, None], "max 0: a positive half with no slice"),
        ("decimal", "DECIMAL(10, 2)", ["-1.25", "3.50", None, "0.01"], "unscaled values"),
        (
            "timestamp-micros",
            "TIMESTAMP(6)",
            ["2023-11-14T22:13:20.123456", "1969-12-31T23:59:59.999999"],
            "micros for precision > 3; before 1970 is negative",
        ),
    ]
    return [
        (stem, {"case_format": 1, "kind": "bsi", "type": type_, "row_values": values}, {}, note)
        for stem, type_, values, note in cases
    ]


def write(out: Path) -> None:
    """The derived BSI goldens: must-reject files built from the bytes Java writes for the notes' example
    (BSI_INT, checked against Java's golden by test_java_payloads); every valid payload is Java-written
    (tools/golden_java_payloads.py)."""
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
