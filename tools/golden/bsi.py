"""Bit-slice-index payloads: Java-written bytes from the notes, encoder files, must-reject."""

from __future__ import annotations

from pathlib import Path

from .common import encoder_prov, hx, notes_prov, patch_be, reject, write_pair

BSI_INT = hx("""01 00000006
    01 01 0000000000000000 0000000000000007 3a300000 01000000 0000 0200 10000000 0000 0300 0400 00000003
       3a300000 01000000 0000 0100 10000000 0000 0400 3a300000 01000000 0000 0000 10000000 0400
       3a300000 01000000 0000 0100 10000000 0000 0400
    01 01 0000000000000000 0000000000000003 3a300000 01000000 0000 0100 10000000 0200 0500 00000002
       3a300000 01000000 0000 0100 10000000 0200 0500 3a300000 01000000 0000 0000 10000000 0200""")


def write(out: Path) -> None:
    """BSI: the Java-written example of the notes (§11), encoder variants, must-reject payloads."""
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.bsi import codec as bsi

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
                "provenance": encoder_prov("layouts.bsi.codec.build"),
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
