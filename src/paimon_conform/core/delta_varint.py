"""Paimon's DeltaVarintCompressor: signed 64-bit values as ZigZag LEB128 varints, a sequence delta-encoded.
Used by the `.blob` length index, ARRAY/MAP BLOB element indexes and the `.row` block index (specs:
specs/common/zigzag_varint.ksy, specs/common/delta_varint_list.ksy)."""

from __future__ import annotations

from collections.abc import Sequence

from paimon_conform.core import varint
from paimon_conform.core.errors import EncodeError, InvariantError, TruncatedError

MAX_VARINT = 10  # a 64-bit value; the tenth byte carries bit 63 only ("Varint overflow")


def zigzag_varint(value: int) -> bytes:
    """One signed 64-bit value as DeltaVarintCompressor writes it (ZigZag, then LEB128)."""
    if not -(2**63) <= value < 2**63:
        raise EncodeError(f"{value} does not fit in a signed 64-bit varint")
    return varint.write(varint.zigzag(value))


def compress(values: Sequence[int]) -> bytes:
    """DeltaVarintCompressor.compress: the first value, then each difference to the one before."""
    return b"".join(zigzag_varint(v - (values[i - 1] if i else 0)) for i, v in enumerate(values))


def read_zigzag(layout: str, data: bytes, pos: int, end: int, base: int, path: str) -> tuple[int, int]:
    """One ZigZag varint of `data[:end]` at `pos` (`base` is where `data` starts in the file): (value, next
    position); the LayoutError the spec's zigzag_varint raises when it ends early or passes 64 bits."""
    try:
        raw, after = varint.read(data, pos, end, max_bytes=MAX_VARINT)
    except varint.VarintError as exc:
        if exc.kind == "ends":
            msg = "input ends inside this field: 1 byte(s) needed, 0 available"
            raise TruncatedError(layout, "TRUNCATED", f"{path}.groups[{exc.at - pos}].b", base + exc.at, msg) from None
        raw = after = None
    if raw is not None and raw >> 64 == 0:
        return varint.unzigzag(raw), after
    msg = "the varint does not end within 64 bits"
    raise InvariantError(layout, "VARINT_OVERFLOW", f"{path}.groups", base + pos, msg)


def decompress(layout: str, data: bytes, pos: int, end: int, base: int, path: str) -> list[int]:
    """DeltaVarintCompressor.decompress of `data[pos:end]`: each value the sum of the varints so far; the spec's
    LayoutError (path `<path>.entries[i].delta...`) for a varint that ends early or passes 64 bits."""
    out: list[int] = []
    while pos < end:
        delta, pos = read_zigzag(layout, data, pos, end, base, f"{path}.entries[{len(out)}].delta")
        out.append((out[-1] if out else 0) + delta)
    return out
