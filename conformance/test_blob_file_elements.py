"""ARRAY<BLOB> and MAP<K, BLOB> rows of a `.blob` file (Paimon 2.0): the encoder, the spec's parser (with its
element_kind / key_width parameters), the fast reader and the case agree on any rows; any changed bytes get
the same first fault from both readers; the framing equals one assembled by hand from Java's writer."""

from __future__ import annotations

import json
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import damaged

from paimon_conform.core import delta_varint
from paimon_conform.core.errors import InvariantError
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.layouts.blob_file import codec, elements
from paimon_conform.layouts.blob_file import entry as blob_file
from paimon_conform.layouts.blob_file.elements import ElementType

EVIDENCE = ("kit", "contract")

KEY_VALUES = {
    "TINYINT": st.integers(-(2**7), 2**7 - 1),
    "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    "INT": st.integers(-(2**31), 2**31 - 1),
    "BIGINT": st.integers(-(2**63), 2**63 - 1),
    "STRING": st.text(max_size=6),
    "BOOLEAN": st.booleans(),
    "DATE": st.integers(-(2**18), 2**18),  # years the JSON form writes (0000..9999)
    "VARBINARY": st.binary(max_size=5),
    "DECIMAL(10, 2)": st.integers(-(10**10) + 1, 10**10 - 1),
    "DECIMAL(30, 4)": st.integers(-(10**30) + 1, 10**30 - 1),
}
blobs = st.one_of(st.none(), st.binary(max_size=40))


def _key(t: DataType, draw_value):
    """A drawn key in core.types' internal form."""
    return (draw_value, t.precision, t.scale) if t.root == "DECIMAL" else draw_value


@st.composite
def typed_rows(draw):
    """(element type, rows): ARRAY rows of elements or MAP rows of unique keys, NULL and placeholder rows."""
    kind = draw(st.sampled_from(["array", "map"]))
    etype = ElementType("array")
    if kind == "map":
        name = draw(st.sampled_from(sorted(KEY_VALUES)))
        key = parse_type(name)
        etype = ElementType("map", key)
    rows = []
    for _ in range(draw(st.integers(0, 6))):
        shape = draw(st.sampled_from(["value", "value", "null", "placeholder"]))
        if shape == "null":
            rows.append(None)
        elif shape == "placeholder":
            rows.append(codec.PLACEHOLDER)
        elif kind == "array":
            rows.append(draw(st.lists(blobs, max_size=5)))
        else:
            keys = draw(st.lists(st.one_of(st.none(), KEY_VALUES[name]), max_size=5, unique_by=lambda k: k))
            rows.append([(None if k is None else _key(key, k), draw(blobs)) for k in keys])
    return etype, rows


def _types(etype: ElementType) -> dict:
    return {"b": blob_file._fields(etype)["fields"][0]["type"]}


@given(typed_rows())
def test_encoder_spec_fast_reader_and_case_agree(sample):
    etype, rows = sample
    data = codec.encode(rows, etype)
    loaded = codec.load(data)
    assert codec.values(data, loaded, etype) == rows
    placeholders = [f for f in blob_file.validate(data, _types(etype)) if f.code == "BLOB_PLACEHOLDER_NEEDS_2_0"]
    assert bool(placeholders) == (codec.PLACEHOLDER in rows)  # a must for Java 1.4 only
    found = [f for f in blob_file.validate(data, _types(etype)) if f.code != "BLOB_PLACEHOLDER_NEEDS_2_0"]
    assert [f.code for f in found if f.code != "BLOB_MAP_KEY_TYPE"] == []
    assert bool(found) == (etype.key is not None and etype.key.root not in elements.KEYS_2_0)
    obj = blob_file._spec(data, etype)
    for slot, row in zip(obj.records, rows, strict=True):
        if isinstance(row, list):
            frame = slot.record.elements
            index = frame.index if etype.kind == "array" else frame.value_index
            assert [e.value for e in index.entries] == [-1 if v is None else len(v) for v in _blobs(row)]
    case = json.loads(json.dumps(blob_file.inspect(data, _types(etype))))
    assert blob_file.encode(case) == data


def _blobs(row: list) -> list:
    return [v[1] if isinstance(v, tuple) else v for v in row]


@given(typed_rows(), st.data())
def test_changed_bytes_get_the_same_first_fault_from_both_readers(sample, draw):
    """Flipped, cut or inserted bytes: the spec's parser and the fast reader meet the same first fault (validate
    says BLOB_DECODERS_DISAGREE otherwise), and a fault in a row's framing is a must for Java 2.0."""
    etype, rows = sample
    found = blob_file.validate(damaged(codec.encode(rows, etype), draw), _types(etype))
    assert "BLOB_DECODERS_DISAGREE" not in {f.code for f in found}
    for f in found:
        if f.code.startswith(blob_file.ELEMENT_PREFIXES) and f.code != "BLOB_MAP_KEY_NOT_UTF8":
            assert (f.severity, f.java_releases) == ("must", ("2.0",))


def test_an_array_row_is_the_framing_java_writes():
    """ArrayBlobElementSerializer.Writer: magic 1094861634, version 1, count, the non-NULL elements, the
    delta-varint lengths (-1 NULL), the index length; assembled by hand from those steps."""
    elems = [b"abc", None, b"", b"z" * 130]
    lengths = [3, -1, 0, 130]
    deltas = [3, -4, 1, 130]
    index = b"".join(delta_varint.zigzag_varint(d) for d in deltas)
    assert index == bytes([6, 7, 2, 0x84, 0x02])
    by_hand = (1094861634).to_bytes(4, "little") + b"\x01" + (4).to_bytes(4, "little")
    by_hand += b"abc" + b"z" * 130 + index + len(index).to_bytes(4, "little")
    assert elements.encode_array(elems) == by_hand
    assert [e.length for e in elements.read_array(codec.Source(by_hand), 0, len(by_hand), "p").values] == lengths


def test_a_map_row_is_the_framing_java_writes():
    """MapBlobElementSerializer.Writer: magic 0x4D424342, version 1, count, keys (INT: 4 bytes LE; STRING:
    UTF-8), values, the key index, the value index, their two lengths."""
    t = DataType("INT")
    payload = elements.encode_map([(7, b"v"), (None, None), (-1, b"")], t)
    head = struct.pack("<iBi", 0x4D424342, 1, 3)
    keys = struct.pack("<ii", 7, -1)
    kindex = bytes([8, 9, 10])  # lengths 4, -1, 4: deltas 4, -5, 5
    vindex = bytes([2, 3, 2])  # lengths 1, -1, 0: deltas 1, -2, 1
    assert payload == head + keys + b"v" + kindex + vindex + struct.pack("<ii", 3, 3)
    framed = elements.read_map(codec.Source(payload), 0, len(payload), "p", 4)
    assert [(k.length, v.length) for k, v in zip(framed.keys or [], framed.values, strict=True)] == [
        (4, 1),
        (-1, -1),
        (4, 0),
    ]


def test_keys_java_would_not_take_as_written():
    """A repeated key (Java 2.0.0 keeps the last value, later releases refuse), a BOOLEAN key byte that is not
    0 or 1 (refused after 2.0.0), a string key that is not UTF-8 (Java keeps the bytes: should)."""
    t_int = ElementType("map", DataType("INT"))
    data = codec.encode([[(1, b"a"), (1, b"b")]], t_int)
    found = blob_file.validate(data, _types(t_int))
    assert [(f.code, f.severity, f.path) for f in found] == [
        ("BLOB_MAP_DUPLICATE_KEY", "must", "records[0].record.elements.keys[1]")
    ]
    t_bool = ElementType("map", DataType("BOOLEAN"))
    data = codec.encode([[(True, b"a")]], t_bool).replace(b"\x01a", b"\x02a")  # the key byte, then the value
    codes = [(f.code, f.severity) for f in blob_file.validate(data, _types(t_bool))]
    assert ("BLOB_MAP_BAD_KEY", "must") in codes
    assert ("BLOB_MAP_KEY_TYPE", "must") in codes
    t_str = ElementType("map", DataType("VARCHAR", 2147483647))
    data = codec.encode([[("é", b"a")]], t_str).replace("é".encode(), b"\xff\xfe")
    found = blob_file.validate(data, _types(t_str))
    assert [(f.code, f.severity) for f in found if f.code != "BLOB_CRC_MISMATCH"] == [
        ("BLOB_MAP_KEY_NOT_UTF8", "should")
    ]


def test_reading_a_key_no_str_can_hold_is_the_kits_error_at_the_keys_offset():
    """The values a reader asks for (codec.values): a string key that is not UTF-8 or a BOOLEAN key byte that
    is not 0 or 1 is an InvariantError naming the key and its offset in the file, never a UnicodeDecodeError."""
    t_str = ElementType("map", DataType("VARCHAR", 2147483647))
    data = codec.encode([[("ok", b"v"), ("é", b"a")]], t_str).replace("é".encode(), b"\xff\xfe")
    rows = codec.load(data)
    with pytest.raises(InvariantError) as err:
        codec.values(data, rows, t_str)
    assert (err.value.code, err.value.path) == ("BLOB_MAP_KEY_NOT_UTF8", "records[0].record.elements.keys[1]")
    assert data[err.value.offset : err.value.offset + 2] == b"\xff\xfe"
    t_bool = ElementType("map", DataType("BOOLEAN"))
    data = codec.encode([[(True, b"a")]], t_bool).replace(b"\x01a", b"\x02a")
    with pytest.raises(InvariantError, match="boolean key byte 02") as err:
        codec.values(data, codec.load(data), t_bool)
    assert err.value.code == "BLOB_MAP_BAD_KEY"
    assert codec.values(*_valid_map(t_bool)) == [[(True, b"a")]]


def _valid_map(etype: ElementType) -> tuple:
    data = codec.encode([[(True, b"a")]], etype)
    return data, codec.load(data), etype
