"""BinaryRow: the must-reject corpus (bytes Java's getters misread or that are not Java's)."""

from __future__ import annotations

from pathlib import Path

from .common import reject

BUCKET_MOTIVATION = (
    "BinaryRow.hashCode covers every byte: a row Java would not write hashes differently and puts the key in "
    "another bucket than Java does (../shared/ecosystem-bugs.md)"
)


def write(out: Path) -> None:
    """Must-reject BinaryRows: each breaks one rule of specs/binary_row.ksy or Java's exact bytes."""
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.binary_row import codec as binary_row

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
