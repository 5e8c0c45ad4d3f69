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
