"""The one varint reader (core/varint.py) against the loops it replaced: each format's loop as it stood before
(issue 41) is kept here as the reference, and the reader, called with that format's rules, gives the same value
and end on every input the loop accepted, and refuses every input the loop refused.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from paimon_layouts import processors

from paimon_conform.core import varint

EVIDENCE = ("contract",)


class Refused(Exception):
    """The old loop did not accept the bytes."""


# ----------------------------------------------------------------------------------- the loops as they were


def old_orc_protobuf(buf: bytes, pos: int) -> tuple[int, int]:
    """formats/orc_timestamps.py _varint (now formats/orc/protobuf.py): unsigned, up to 70 bits of groups."""
    result = shift = 0
    while True:
        if pos >= len(buf):
            raise Refused("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > 70:
            raise Refused("varint too long")


def old_parquet_thrift(data: bytes, pos: int) -> tuple[int, int]:
    """formats/parquet_int96.py _Thrift.varint (now formats/parquet/int96.py): unsigned, at most 10 bytes."""
    out, shift = 0, 0
    for _ in range(10):
        if pos >= len(data):
            raise Refused("runs past the chunk")
        b = data[pos]
        pos += 1
        out |= (b & 0x7F) << shift
        if not b & 0x80:
            return out, pos
        shift += 7
    raise Refused("longer than 10 bytes")


def old_avro_long(data: bytes, pos: int) -> tuple[int, int]:
    """table/avro_container.py Cursor.long: ZigZag, at most 10 bytes."""
    acc = shift = 0
    for _ in range(10):
        if pos >= len(data):
            raise Refused("ends inside a number")
        b = data[pos]
        pos += 1
        acc |= (b & 0x7F) << shift
        if b < 0x80:
            return (acc >> 1) ^ -(acc & 1), pos
        shift += 7
    raise Refused("longer than 10 bytes")


def old_avro_snappy_length(data: bytes) -> int:
    """table/avro_container.py _decompress: a snappy block's stated length, at most 5 bytes (never refused)."""
    size = shift = 0
    for i in range(5):
        if i >= len(data):
            raise Refused("ends")
        b = data[i]
        size |= (b & 0x7F) << shift
        if b < 0x80:
            break
        shift += 7
    return size


def old_delta_zigzag(data: bytes, pos: int) -> tuple[int, int]:
    """core/delta_varint.py read_zigzag: ZigZag, at most 10 bytes, the tenth carrying bit 63 only."""
    raw = 0
    for j in range(10):
        if pos + j >= len(data):
            raise Refused("truncated")
        b = data[pos + j]
        raw |= (b & 0x7F) << (7 * j)
        if not b & 0x80:
            if j == 9 and b > 1:
                break
            return (raw >> 1) ^ -(raw & 1), pos + j + 1
    raise Refused("overflow")


def old_row_var_int(data: bytes, pos: int) -> tuple[int, int]:
    """layouts/row_file/codec.py _Cursor.var_int: at most 5 bytes, Java's int."""
    acc = 0
    for i in range(5):
        if pos + i >= len(data):
            raise Refused("truncated")
        b = data[pos + i]
        acc |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            acc &= 0xFFFF_FFFF
            return (acc - (1 << 32) if acc >> 31 else acc), pos + i + 1
    raise Refused("malformed")


def old_row_block_var_int(data: bytes, pos: int) -> tuple[int, int]:
    """layouts/row_file/codec.py _Cursor.block_var_int: any length, each group shifted by 7 more mod 32."""
    acc, i = 0, 0
    while True:
        if pos + i >= len(data):
            raise Refused("truncated")
        b = data[pos + i]
        acc = (acc | ((b & 0x7F) << ((7 * i) % 32))) & 0xFFFF_FFFF
        i += 1
        if not b & 0x80:
            break
    return (acc - (1 << 32) if acc >> 31 else acc), pos + i


def old_leb128(value: int) -> bytes:
    """core/block_codec.py leb128."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# ----------------------------------------------------------------------------------- the reader with each rule


def new_delta_zigzag(data: bytes, pos: int) -> tuple[int, int]:
    raw, end = varint.read(data, pos, max_bytes=10)
    if raw >> 64:
        raise varint.VarintError("too_long", pos, end)
    return varint.unzigzag(raw), end


RULES = {  # name -> (old loop, the reader with that format's rules)
    "orc-protobuf": (old_orc_protobuf, lambda d, p: varint.read(d, p, max_bytes=11)),
    "parquet-thrift": (old_parquet_thrift, lambda d, p: varint.read(d, p, max_bytes=10)),
    "avro-long": (old_avro_long, lambda d, p: (lambda v: (varint.unzigzag(v[0]), v[1]))(varint.read(d, p))),
    "delta-zigzag": (old_delta_zigzag, new_delta_zigzag),
    "row-var-int": (old_row_var_int, lambda d, p: varint.read(d, p, max_bytes=5, bits=varint.INT)),
    "row-block-var-int": (
        old_row_block_var_int,
        lambda d, p: varint.read(d, p, max_bytes=None, bits=varint.INT, shift_mod=32),
    ),
}

# bytes with the continuation bit set more often than not, so that long and overlong varints are common
VARINT_BYTES = st.lists(st.one_of(st.integers(0x80, 0xFF), st.integers(0, 0xFF)), max_size=14).map(bytes)


@given(data=VARINT_BYTES, pos=st.integers(0, 3))
@example(data=bytes([0x80] * 5 + [0x01]), pos=0)  # a sixth group: Java's int shift wraps (35 mod 32)
@example(data=bytes([0xFF] * 9 + [0x02]), pos=0)  # a tenth byte past bit 63
@example(data=bytes([0x80] * 10 + [0x01]), pos=0)  # eleven bytes: ORC's protobuf reader takes them
def test_the_reader_gives_each_old_loops_answer(data, pos):
    for name, (old, new) in RULES.items():
        try:
            want = old(data, pos)
        except Refused:
            want = None
        try:
            got = new(data, pos)
        except varint.VarintError:
            got = None
        assert got == want, (name, data.hex(), pos)


@given(data=VARINT_BYTES, num_bytes=st.sampled_from([5, 10]))
def test_the_reader_gives_the_generated_runtimes_answer(data, num_bytes):
    """processors.read_var_int (the generated parsers' routine): None at the end of the bytes, ValueError for an
    overlong one; the reader the kit's own BGIX and BTree code uses gives the same."""
    try:
        want = processors.read_var_int(data, 0, num_bytes)
    except ValueError:
        want = "too_long"
    bits = varint.INT if num_bytes == 5 else varint.LONG
    try:
        got = varint.read(data, 0, max_bytes=num_bytes, bits=bits)
    except varint.VarintError as exc:
        got = "too_long" if exc.kind == "too_long" else None
    assert got == want


@given(data=VARINT_BYTES)
def test_a_stated_snappy_length_is_the_old_loops_where_it_ends(data):
    try:
        want = old_avro_snappy_length(data)
    except Refused:
        want = None
    try:
        got = varint.read(data, 0, max_bytes=5)[0]
    except varint.VarintError:
        got = None
    if got is not None:  # the old loop took the first 5 bytes of an unterminated length; the reader refuses it
        assert got == want


@given(value=st.integers(0, 2**70))
def test_the_writer_is_the_old_one_and_reads_back(value):
    assert varint.write(value) == old_leb128(value)
    assert varint.read(varint.write(value), 0, max_bytes=None) == (value, len(old_leb128(value)))


@given(value=st.integers(-(2**63), 2**63 - 1))
def test_zigzag_round_trips_java_longs(value):
    assert 0 <= varint.zigzag(value) < 2**64
    assert varint.unzigzag(varint.zigzag(value)) == value


def test_the_refusals_name_their_kind_and_place():
    """Controls: the bytes ending inside a varint, and one longer than its width."""
    with pytest.raises(varint.VarintError) as ends:
        varint.read(b"\x80\x80", 0)
    assert (ends.value.kind, ends.value.start, ends.value.at) == ("ends", 0, 2)
    with pytest.raises(varint.VarintError) as long:
        varint.read(b"\x81\x80\x80\x80\x80\x80\x01", 1, max_bytes=5)
    assert (long.value.kind, long.value.start, long.value.at) == ("too_long", 1, 6)
    assert varint.read(b"\xff\xff\xff\xff\x0f", 0, max_bytes=5, bits=varint.INT) == (-1, 5)
    assert varint.read(b"\x80\x80\x80\x80\x80\x01", 0, max_bytes=None, bits=varint.INT, shift_mod=32) == (8, 6)
