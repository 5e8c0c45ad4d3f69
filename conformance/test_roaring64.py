"""The portable 64-bit RoaringBitmap: encoder, generated parser and pyroaring agree."""

from __future__ import annotations

from hypothesis import given
from pyroaring import BitMap64
from support.strategies import positions64

from paimon_conform.layouts.roaring64 import codec as roaring64
from paimon_conform.layouts.roaring64 import entry as r64

EVIDENCE = ("third-party", "kit")


@given(positions64())
def test_roaring64_encoder_parser_pyroaring_agree(values):
    data = roaring64.encode_roaring64(values)
    parsed = structure_parse64(data)
    assert r64.values(parsed).tolist() == values
    assert list(BitMap64.deserialize(data)) == values
    keys = [b.high_key for b in parsed.buckets]
    assert keys == list(range(len(keys)))  # every key up to the highest, empty ones included
    assert r64.validate(data) == []
    assert r64.encode(r64.inspect(data)) == data


@given(positions64())
def test_roaring64_sparse_layout_round_trip(values):
    # pyroaring writes only the keys in use; Paimon reads that, and the case keeps it
    bm = BitMap64(values)
    bm.run_optimize()
    data = bm.serialize()
    assert r64.encode(r64.inspect(data)) == data
    assert all(f.severity == "should" for f in r64.validate(data))


def structure_parse64(data: bytes):
    from paimon_conform.core import structure

    return structure.parse("roaring64", data)
