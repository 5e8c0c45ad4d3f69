"""The protobuf wire format, as much of it as ORC's tail and stripe footers need: a message as its fields
(number -> values: ints for varints, bytes otherwise), read with the kit's one varint reader."""

from __future__ import annotations

from paimon_conform.core import varint
from paimon_conform.formats.orc.errors import OrcError

MAX_VARINT = 11  # the reader takes up to 70 bits of groups, as it always has


def uvarint(buf: bytes, pos: int) -> tuple[int, int]:
    try:
        return varint.read(buf, pos, max_bytes=MAX_VARINT)
    except varint.VarintError as exc:
        raise OrcError("truncated varint" if exc.kind == "ends" else "varint too long") from None


def message(buf: bytes | int) -> dict[int, list]:
    """A protobuf message's fields: number -> values (ints for varints, bytes otherwise)."""
    buf = text(buf)
    out: dict[int, list] = {}
    pos = 0
    while pos < len(buf):
        key, pos = uvarint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = uvarint(buf, pos)
        elif wire == 2:
            size, pos = uvarint(buf, pos)
            if pos + size > len(buf):
                raise OrcError("truncated protobuf field")
            value, pos = buf[pos : pos + size], pos + size
        elif wire == 1:
            value, pos = buf[pos : pos + 8], pos + 8
        elif wire == 5:
            value, pos = buf[pos : pos + 4], pos + 4
        else:
            raise OrcError(f"protobuf wire type {wire} not supported")
        out.setdefault(number, []).append(value)
    if pos != len(buf):
        raise OrcError("truncated protobuf message")
    return out


def text(value: bytes | int) -> bytes:
    """A length-delimited field's bytes; OrcError when the file put a varint there (never bytes(n),
    which would allocate n bytes)."""
    if isinstance(value, int):
        raise OrcError("a protobuf varint where a length-delimited field belongs")
    return value


def int_field(msg: dict, number: int, default: int = 0) -> int:
    values = msg.get(number)
    if not values:
        return default
    if not isinstance(values[-1], int):
        raise OrcError(f"protobuf field {number} is not a varint")
    return values[-1]


def int_list(msg: dict, number: int) -> list[int]:
    """A repeated integer field, packed or not."""
    out: list[int] = []
    for v in msg.get(number, []):
        if isinstance(v, int):
            out.append(v)
        else:
            pos = 0
            while pos < len(v):
                x, pos = uvarint(v, pos)
                out.append(x)
    return out
