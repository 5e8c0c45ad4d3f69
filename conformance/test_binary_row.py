"""BinaryRow bytes, hashCode and buckets (issue 5, first part): the notes' Java-verified rows, vectorized = scalar."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import INTERNAL_VALUES

from paimon_conform.cli import main
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.types import parse_type, to_internal
from paimon_conform.layouts.binary_row import bucketing as bk
from paimon_conform.layouts.binary_row import codec as br

EVIDENCE = ("third-party", "kit")

# ../shared/paimon-layouts.md §1.4: bytes and hashCodes checked against the Java 0.9.0 classes
JAVA_ROWS = [
    (["INT"], [5], "00000000000000000500000000000000", 260196596, [0, 2, 0, 4, 6, 4, 96]),
    (["BIGINT"], [5], "00000000000000000500000000000000", 260196596, [0, 2, 0, 4, 6, 4, 96]),
    (["STRING"], ["abc"], "00000000000000006162630000000083", -101922419, [1, 2, 3, 3, 9, 3, 19]),
    (["STRING"], ["abcdefgh"], "000000000000000008000000100000006162636465666768", -843760178, [0, 2, 2, 2, 8, 2, 78]),
    (["INT"], [None], "00010000000000000000000000000000", -1748325344, [0, 2, 0, 0, 4, 0, 44]),
    ([], [], "0000000000000000", -1670924195, [1, 2, 3, 3, 5, 3, 95]),
    (["INT", "INT"], [5, 6], None, 131015827, None),
    (["INT", "INT", "INT"], [5, 6, 7], None, 1805332940, None),
    (
        ["DECIMAL(38, 2)"],
        ["-1.28"],
        "0000000000000000010000001000000080000000000000000000000000000000",
        1196242097,
        None,
    ),
    (
        ["DECIMAL(38, 2)", "TIMESTAMP(9)"],
        ["-1.28", "2023-11-14T22:13:20.123456789"],
        "0000000000000000010000001800000055f8060028000000800000000000000000000000000000007b68e5cf8b010000",
        -963660967,
        None,
    ),
    (
        ["DECIMAL(38, 2)", "TIMESTAMP(9)"],
        [None, None],
        "000300000000000000000000180000000000000028000000" + "00" * 24,
        -2077331864,
        None,
    ),
    (
        ["DECIMAL(10, 3)", "TIMESTAMP(3)", "BOOLEAN"],
        ["12.345", "2023-11-14T22:13:20.123", True],
        "000000000000000039300000000000007b68e5cf8b0100000100000000000000",
        888784412,
        None,
    ),
    (
        ["STRING", "INT"],
        ["2024-01-01", 7],
        "00000000000000000a000000180000000700000000000000323032342d30312d3031000000000000",
        1755510402,
        None,
    ),
]


@pytest.mark.parametrize(("types", "values", "row_hex", "hash_", "buckets"), JAVA_ROWS)
def test_java_verified_rows(types, values, row_hex, hash_, buckets):
    ts = [parse_type(x) for x in types]
    row = br.write(ts, [to_internal(t, v) for t, v in zip(ts, values, strict=True)])
    if row_hex is not None:
        assert row.hex() == row_hex
    assert len(row) % 8 == 0
    assert bk.hash_code(row) == hash_
    assert int(bk.hash_rows(np.frombuffer(row, dtype=np.uint8).reshape(1, -1))[0]) == hash_
    if buckets is not None:
        assert [bk.default_bucket(hash_, n) for n in (2, 3, 4, 8, 10, 16, 100)] == buckets


def test_paimon_fixed_bucket_test_values():
    """FixedBucketRowKeyExtractorTest: row (5, 6, 7), 100 buckets, keys a / a,b / a,b,c -> 96 / 27 / 40."""
    t = parse_type("INT")
    got = [bk.default_bucket(bk.hash_code(br.write([t] * n, [5, 6, 7][:n])), 100) for n in (1, 2, 3)]
    assert got == [96, 27, 40]


FIXED_TYPES = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "DOUBLE", "DATE", "DECIMAL(18, 4)", "TIMESTAMP(3)"]


@given(
    st.lists(st.sampled_from(FIXED_TYPES), min_size=1, max_size=6).flatmap(
        lambda tys: st.tuples(
            st.just(tys), st.lists(st.tuples(*[st.none() | INTERNAL_VALUES[x] for x in tys]), min_size=1, max_size=20)
        )
    ),
    st.integers(1, 1000),
)
def test_vectorized_hash_equals_scalar_and_java_bucket_formula(case, n):
    tys, rows = case
    ts = [parse_type(x) for x in tys]
    raw = [br.write(ts, list(r)) for r in rows]
    assert len({len(r) for r in raw}) == 1  # fixed-width types: one row size
    matrix = np.frombuffer(b"".join(raw), dtype=np.uint8).reshape(len(raw), -1)
    scalar = [bk.hash_code(r) for r in raw]
    assert bk.hash_rows(matrix).tolist() == scalar
    java = [abs(int(math.fmod(h, n))) for h in scalar]  # Math.abs(h % n), % truncating
    assert bk.default_bucket(np.array(scalar, dtype=np.int32), n).tolist() == java
    assert [bk.default_bucket(h, n) for h in scalar] == java


@given(st.integers(-(2**63), 2**63 - 1), st.integers(1, 2**31 - 1))
def test_mod_bucket_is_floor_mod(value, n):
    got = bk.mod_bucket(value, n)
    assert 0 <= got < n
    assert (value - got) % n == 0


def test_cli_hash(capsys):
    assert main(["hash", "--types", "INT,INT,INT", "--values", "[5, 6, 7]", "--buckets", "100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "row_hex": "00" * 8 + "05" + "00" * 7 + "06" + "00" * 7 + "07" + "00" * 7,
        "hash": 1805332940,
        "buckets": {"100": 40},
    }
    args = ["hash", "--types", "BIGINT", "--values", "[-3]", "--buckets", "5", "--bucket-function", "mod", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["buckets"] == {"5": 2}
    assert main(["hash", "--types", "INT", "--values", "[1, 2]"]) == 2
    assert main(["hash", "--types", "STRING", "--values", "[5]", "--bucket-function", "mod", "--buckets", "3"]) == 2
    args = ["hash", "--types", "INT,STRING", "--values", '[5, "abc"]', "--buckets", "7", "--bucket-function", "hive"]
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["buckets"] == {"7": ((31 * 5 + (31 * (31 * 97 + 98) + 99)) % 7)}


@given(
    st.lists(st.sampled_from(sorted(INTERNAL_VALUES)), max_size=12).flatmap(
        lambda tys: st.tuples(st.just(tys), st.tuples(*[st.none() | INTERNAL_VALUES[t] for t in tys]))
    )
)
def test_read_as_java_equals_read_on_java_bytes(row):
    names, values = row
    types = [parse_type(t) for t in names]
    data = br.write(types, list(values))
    assert br.read_as_java(types, data) == br.read(types, data)


@given(
    st.lists(st.sampled_from(sorted(INTERNAL_VALUES)), min_size=1, max_size=6).flatmap(
        lambda tys: st.tuples(st.just(tys), st.tuples(*[st.none() | INTERNAL_VALUES[t] for t in tys]))
    ),
    st.booleans(),
)
def test_remembered_rows_read_as_the_parser_reads_them(row, serialized):
    """read() remembers small rows: each call gives the parser's values in a list of its own, for the types it is
    given (the same bytes under other types are parsed again), and a refusal is raised again on every call."""
    names, values = row
    types = [parse_type(t) for t in names]
    data = br.write(types, list(values))
    if serialized:
        data = br.serialize_for_manifest(data, len(types))
    first = br.read(types, data, serialized)
    assert first == br._read(types, data, serialized)
    first[1].append("changed by a caller")
    assert br.read(types, data, serialized) == br._read(types, data, serialized)
    other = [parse_type("STRING") if t.root != "VARCHAR" else parse_type("BIGINT") for t in types]
    try:
        want = br._read(other, data, serialized)
    except LayoutError:
        for _ in range(2):
            with pytest.raises(LayoutError):
                br.read(other, data, serialized)
    else:
        assert br.read(other, data, serialized) == want


@given(
    st.sampled_from(["DECIMAL(38, 10)", "TIMESTAMP(6)", "TIMESTAMP_LTZ(9)", "STRING", "BIGINT"]),
    st.binary(min_size=8, max_size=8),
)
def test_read_as_java_ignores_what_getters_never_read(type_text, garbage):
    """A null field's slot is never read by Java (pypaimon writes other bytes there): the value is null, while the
    checks report the bytes as not Java's exactly when they differ from what Java writes."""
    types = [parse_type(type_text), parse_type("INT")]
    java = br.write(types, [None, 7])
    data = bytearray(java)
    at = br.bit_set_width(2)
    data[at : at + 8] = garbage
    assert br.read_as_java(types, bytes(data)) == (0, [None, 7])
    assert (br.check(types, bytes(data)) == []) == (bytes(data) == java)


def test_timestamps_of_year_1_and_9999_print_four_digit_years():
    from paimon_conform.core.types import to_json

    t = parse_type("TIMESTAMP(9)")
    for text in ("0001-01-01T00:00:00.000000001", "9999-12-31T23:59:59.999999999", "1969-12-31T23:59:59.999999999"):
        assert to_json(t, to_internal(t, text)) == text


@given(st.integers(-(10**38) + 1, 10**38 - 1) | st.sampled_from([-(2**k) for k in range(0, 127)]))
def test_wide_decimal_bytes_are_biginteger_to_byte_array(n):
    """unscaled_bytes (BinaryRow, .row files, MAP<DECIMAL, BLOB> keys) is BigInteger.toByteArray: the fewest
    big-endian two's-complement bytes that hold the value with a sign bit (a power of two below zero, -128, is
    the one byte 0x80; a writer that sizes it by |n| adds a redundant 0xff)."""
    from paimon_conform.core.types import unscaled_bytes

    fewest = next(k for k in range(1, 20) if -(2 ** (8 * k - 1)) <= n < 2 ** (8 * k - 1))
    assert unscaled_bytes(n) == n.to_bytes(fewest, "big", signed=True)
