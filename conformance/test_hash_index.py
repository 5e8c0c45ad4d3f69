"""The dynamic-bucket HASH index file: the encoder, the generated parser, the fast path and the case
agree; any bytes are judged without a traceback, by size and duplicates exactly."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core import structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.layouts.hash_index import entry as hash_index

EVIDENCE = ("kit", "contract")

int32s = st.lists(st.integers(-(2**31), 2**31 - 1), max_size=300)


@given(int32s)
def test_encoder_spec_parser_fast_path_and_case_agree(hashes):
    data = hash_index.encode_hashes(hashes)
    assert len(data) == 4 * len(hashes)
    assert [int(h) for h in structure.parse("hash_index", data).hashes] == hashes
    assert hash_index.load(data).tolist() == hashes
    case = hash_index.inspect(data)
    assert case["hashes"] == hashes
    assert case["count"] == len(hashes)
    assert hash_index.encode(case) == data


@given(st.binary(max_size=200))
def test_any_bytes_are_judged_by_size_and_duplicates(data):
    """Java reads whole big-endian ints and writes each key hash once: a size that is not a multiple of 4
    is the one must-finding, a repeated hash the one should-finding, and nothing else is reported."""
    found = hash_index.validate(data)
    codes = {f.code: f.severity for f in found}
    if len(data) % 4:
        assert codes == {"HASH_SIZE_NOT_MULTIPLE_OF_4": "must"}
        with pytest.raises(LayoutError):
            hash_index.load(data)
        return
    values = np.frombuffer(data, dtype=">i4")
    repeated = len(np.unique(values)) < len(values)
    assert codes == ({"HASH_DUPLICATE": "should"} if repeated else {})


@pytest.mark.parametrize("bad", [[2**31], [-(2**31) - 1], np.array([1.5])])
def test_values_outside_int32_are_encode_errors(bad):
    with pytest.raises(EncodeError):
        hash_index.encode_hashes(bad)
