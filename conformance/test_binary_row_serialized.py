"""BinaryRow with the manifests' arity prefix (SerializationUtils.serializeBinaryRow): the same row as
`binary_row` behind a big-endian int32 arity; the prefix is checked against the field types."""

from __future__ import annotations

import struct

from hypothesis import given
from hypothesis import strategies as st
from support.strategies import INTERNAL_VALUES

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.types import parse_type, to_json
from paimon_conform.layouts.binary_row import codec as br
from paimon_conform.layouts.binary_row import entry as binary_row
from paimon_conform.layouts.binary_row_serialized import entry as binary_row_serialized

EVIDENCE = ("kit",)


def _json_form(row) -> bool:
    """A case states values in their JSON form, which holds years 1..9999 only."""
    try:
        [to_json(parse_type(t), v) for t, v in zip(*row, strict=True)]
    except EncodeError:
        return False
    return True


rows = (
    st.lists(st.sampled_from(sorted(INTERNAL_VALUES)), min_size=1, max_size=20)
    .flatmap(lambda tys: st.tuples(st.just(tys), st.tuples(*[st.none() | INTERNAL_VALUES[t] for t in tys])))
    .filter(_json_form)
)


def _case(tys, values, layout) -> dict:
    types = [parse_type(t) for t in tys]
    fields = [{"type": str(t), "value": to_json(t, v)} for t, v in zip(types, values, strict=True)]
    return {"kind": layout.LAYOUT.kind, "row_kind": "+I", "fields": fields}


@given(rows)
def test_serialized_is_the_row_behind_its_arity(row):
    tys, values = row
    types = [parse_type(t) for t in tys]
    plain = binary_row.LAYOUT.encode(_case(tys, values, binary_row))
    data = binary_row_serialized.LAYOUT.encode(_case(tys, values, binary_row_serialized))
    assert data == struct.pack(">i", len(types)) + plain
    assert binary_row_serialized.LAYOUT.validate(data, types) == []
    assert br.read(types, data, serialized=True) == br.read(types, plain)
    # the case is the plain row's case: the same fields, hash and buckets (of the bytes after the prefix)
    inspected = binary_row_serialized.LAYOUT.inspect(data, types)
    plain_case = binary_row.LAYOUT.inspect(plain, types)
    assert {k: v for k, v in inspected.items() if k != "kind"} == {k: v for k, v in plain_case.items() if k != "kind"}


@given(rows, st.integers(-(2**31), 2**31 - 1))
def test_a_wrong_arity_is_a_must_finding(row, arity):
    tys, values = row
    types = [parse_type(t) for t in tys]
    plain = binary_row.LAYOUT.encode(_case(tys, values, binary_row))
    data = struct.pack(">i", arity) + plain
    found = binary_row_serialized.LAYOUT.validate(data, types)
    assert (arity == len(types)) == (not any(f.severity == "must" for f in found))
