"""BlobDescriptor bytes: the encoder, the generated parser, the fast decoder and the case agree; any bytes
get the same first fault from both readers, never a traceback."""

from __future__ import annotations

import json
import struct

from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core import structure
from paimon_conform.core.errors import LayoutError
from paimon_conform.layouts.blob_descriptor import codec
from paimon_conform.layouts.blob_descriptor import entry as blob_descriptor

EVIDENCE = ("kit", "contract")

longs = st.integers(-(2**63), 2**63 - 1)
descriptors = st.builds(codec.BlobDescriptor, st.text(max_size=40), longs, longs, st.sampled_from([1, 2]))


def _encodable(d: codec.BlobDescriptor) -> bool:
    try:
        d.uri.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@given(descriptors.filter(_encodable))
def test_encoder_spec_parser_fast_decoder_and_case_agree(d):
    data = codec.encode(d)
    assert codec.decode(data) == d
    obj = structure.parse("blob_descriptor", data)
    assert (obj.version, obj.uri.decoded.value, obj.ofs_blob, obj.len_blob) == (d.version, d.uri, d.offset, d.length)
    assert blob_descriptor.validate(data) == []
    case = json.loads(json.dumps(blob_descriptor.inspect(data)))
    assert blob_descriptor.encode(case) == data


@given(st.binary(max_size=60))
def test_any_bytes_get_the_same_first_fault_from_both_readers(data):
    found = blob_descriptor.validate(data)
    assert "BLOB_DESCRIPTOR_DECODERS_DISAGREE" not in {f.code for f in found}
    try:
        d, err = codec.decode(data), None
    except LayoutError as e:
        d, err = None, e
    if err is not None:
        severity = "should" if err.code == "BLOB_DESCRIPTOR_TRAILING_BYTES" else "must"
        assert [(f.code, f.severity) for f in found] == [(err.code, severity)]
    else:
        assert [f.severity for f in found] == (["should"] if d.version < 1 else [])


def test_version_1_is_the_layout_of_javas_compatibility_file():
    """paimon-common's compatible/blob_descriptor_v1 is 31 bytes: version 1, no magic, /test/path, 100, 200."""
    data = codec.encode(codec.BlobDescriptor("/test/path", 100, 200, version=1))
    assert len(data) == 31
    assert data[:5] == b"\x01" + struct.pack("<i", 10)
    assert data[-16:] == struct.pack("<qq", 100, 200)


def test_version_2_carries_blobdesc_as_a_little_endian_long():
    data = codec.encode(codec.BlobDescriptor("u", 0, 0))
    assert struct.unpack_from("<q", data, 1)[0] == 0x424C4F4244455343
    assert data[1:9][::-1] == b"BLOBDESC"


def test_inline_descriptor_columns_are_decoded_value_by_value():
    """blob-descriptor-field columns (Java 1.4) hold one serialized BlobDescriptor per row: every value is decoded,
    each kind of fault reported once per column with its count and first row; nulls and other columns are left."""
    import pyarrow as pa

    from paimon_conform.core.types import parse_type
    from paimon_conform.table.read.data_files import DataFile
    from paimon_conform.table.schema import TableSchema
    from paimon_conform.table.table_layout import Field
    from paimon_conform.table.validate.blob_files import check_inline_descriptors

    good = [codec.encode(codec.BlobDescriptor(f"s3://b/{i}.bin", i * 10, 10, 2)) for i in range(4)]
    cut = good[1][:-3]
    table = pa.table({"id": pa.array([1, 2, 3, 4, 5, 6]), "doc": pa.array([good[0], cut, None, good[2], cut, good[3]])})
    df = DataFile("parquet", [], table)
    fields = [Field(0, "id", parse_type("INT"), True), Field(1, "doc", parse_type("BYTES"), True)]

    def schema(options: dict) -> TableSchema:
        return TableSchema(0, fields, [], [], options)

    assert check_inline_descriptors(df, schema({}), "f.parquet") == []
    found = check_inline_descriptors(df, schema({"blob-descriptor-field": " doc , "}), "f.parquet")
    assert len(found) == 1
    [f] = found
    assert f.severity == "must"
    assert f.path.startswith("columns.doc[1]")
    assert f.message.startswith("2 value(s) of doc, the first at row 1")
    assert f.file == "f.parquet"
    fallback = check_inline_descriptors(df, schema({"blob.stored-descriptor-fields": "doc"}), "f.parquet")
    assert [x.code for x in fallback] == [f.code]
    clean = DataFile("parquet", [], table.set_column(1, "doc", pa.array([good[0], None, good[1], *good[2:], None])))
    assert check_inline_descriptors(clean, schema({"blob-descriptor-field": "doc"}), "f.parquet") == []
    wrong = DataFile("parquet", [], table.set_column(1, "doc", pa.array(["x"] * 6)))
    assert [x.code for x in check_inline_descriptors(wrong, schema({"blob-descriptor-field": "doc"}), "f")] == [
        "BLOB_DESCRIPTOR_COLUMN"
    ]
