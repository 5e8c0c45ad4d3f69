"""BinaryRow round trips through the spec, column hashing, bucket functions and key selection (issue 5)."""

from __future__ import annotations

import json
import math
import struct
from decimal import Context, Decimal, localcontext

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import INTERNAL_VALUES

from paimon_conform.cli import main
from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing as bk
from paimon_conform.layouts.binary_row import codec as br

EVIDENCE = ("kit", "third-party")

rows = st.lists(st.sampled_from(sorted(INTERNAL_VALUES)), max_size=70).flatmap(
    lambda tys: st.tuples(st.just(tys), st.tuples(*[st.none() | INTERNAL_VALUES[t] for t in tys]))
)


@given(rows, st.sampled_from(sorted(br.ROW_KIND_NAMES)))
def test_writer_spec_reader_round_trip(row, kind):
    """writer -> binary_row.ksy parser -> reader gives back the values, in both forms; Java's layout holds."""
    tys, values = row
    types = [parse_type(t) for t in tys]
    data = br.write(types, list(values), kind)
    assert len(data) % 8 == 0
    assert len(data) >= br.fixed_size(len(types))
    assert br.read(types, data) == (kind, list(values))
    assert br.check(types, data) == []
    manifest = br.serialize_for_manifest(data, len(types))
    assert br.read(types, manifest, serialized=True) == (kind, list(values))
    obj = br.parse(types, data)
    for i, (field, v) in enumerate(zip(obj.fields, values, strict=True)):
        assert field.is_null == (v is None)
        assert bool(data[(i + 8) >> 3] >> ((i + 8) & 7) & 1) == (v is None)


@given(rows, st.data())
def test_one_changed_byte_is_caught_or_changes_the_values(row, data):
    """Flipping any byte either breaks a rule (a finding) or reads back as other values: never silently the same."""
    tys, values = row
    types = [parse_type(t) for t in tys]
    raw = bytearray(br.write(types, list(values)))
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] ^= data.draw(st.integers(1, 255))
    findings = br.check(types, bytes(raw))
    if not findings:
        kind, again = br.read(types, bytes(raw))
        assert (kind, again) != (0, list(values)) or any(isinstance(v, float) and math.isnan(v) for v in again)


COLUMN_TYPES = ["BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DATE", "STRING", "VARBINARY(30)"]
COLUMN_VALUES = {t: INTERNAL_VALUES[t] for t in COLUMN_TYPES if t in INTERNAL_VALUES} | {"FLOAT": st.floats(width=32)}


@given(
    st.lists(st.sampled_from(COLUMN_TYPES), min_size=1, max_size=4).flatmap(
        lambda tys: st.tuples(
            st.just(tys), st.lists(st.tuples(*[st.none() | COLUMN_VALUES[t] for t in tys]), min_size=1, max_size=40)
        )
    ),
    st.booleans(),
)
def test_hash_columns_equals_scalar(case, as_arrow):
    """Whole-column hashing equals hashing each row's BinaryRow, for numpy-able and Arrow input, with nulls."""
    tys, table = case
    types = [parse_type(t) for t in tys]
    expected = [bk.hash_code(br.write(types, list(r))) for r in table]
    columns = []
    for i, t in enumerate(types):
        values = [r[i] for r in table]
        arrow_type = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "DATE": pa.int32()}.get(t.root)
        arrow_type = arrow_type or {"FLOAT": pa.float32(), "BIGINT": pa.int64(), "BOOLEAN": pa.bool_()}.get(t.root)
        arr = pa.array(values, type=arrow_type)
        columns.append(arr if as_arrow else pa.chunked_array([arr.slice(0, len(arr) // 2), arr.slice(len(arr) // 2)]))
    assert bk.hash_columns(types, columns).tolist() == expected
    for n in (1, 7, 100):
        assert bk.bucket_columns(types, columns, n).tolist() == [bk.default_bucket(h, n) for h in expected]


def test_hash_columns_plain_numpy_and_slow_types():
    """numpy arrays go straight in; types without a vectorized slot fall back to the scalar writer."""
    ints = np.array([0, -1, 2**62, -(2**63)], dtype=np.int64)
    t = parse_type("BIGINT")
    assert bk.hash_columns([t], [ints]).tolist() == [bk.hash_code(br.write([t], [int(v)])) for v in ints]
    wide = [parse_type("DECIMAL(38, 2)"), parse_type("TIMESTAMP(9)")]
    cols = [[(-128, 38, 2), None], [(1700000000123, 456789), None]]
    want = [bk.hash_code(br.write(wide, [a, b])) for a, b in zip(*cols, strict=True)]
    assert bk.hash_columns(wide, cols).tolist() == want
    with pytest.raises(EncodeError):
        bk.hash_columns([t], [pa.array(["x"])])


def _java_string_hash(text: str) -> int:
    """31-polynomial over signed UTF-8 bytes, wrapped to int32 (written independently of the kit)."""
    h = 0
    for b in text.encode():
        h = (h * 31 + struct.unpack("b", bytes([b]))[0]) % 2**32
    return h - 2**32 if h >= 2**31 else h


@given(st.integers(-(2**31), 2**31 - 1), st.text(max_size=12), st.integers(1, 5000))
def test_hive_follows_its_definition(a, s, n):
    """HiveBucketFunction: h = 31 * h + fieldHash, bucket = (h & MAX) % n; INT hashes to itself."""
    types = [parse_type("INT"), parse_type("STRING")]
    h = ((31 * a + _java_string_hash(s)) + 2**31) % 2**32 - 2**31
    assert bk.hive_hash(types, [a, s]) == h
    assert bk.hive_bucket(types, [a, s], n) == (h & 0x7FFFFFFF) % n
    assert bk.hive_hash(types, [None, None]) == 0


@given(st.integers(-(2**63), 2**63 - 1))
def test_hive_bigint_is_long_hash_code(v):
    u = v % 2**64
    want = (u ^ (u >> 32)) % 2**32
    assert bk.hive_hash([parse_type("BIGINT")], [v]) == (want - 2**32 if want >= 2**31 else want)


def test_hive_decimal_is_normalized_big_decimal_hash():
    """BigDecimal.hashCode = 31 * unscaled.hashCode() + scale, after trailing zeros are stripped."""
    d = parse_type("DECIMAL(10, 4)")
    assert bk.hive_hash([d], [(15000, 10, 4)]) == 31 * 15 + 1  # 1.5000 -> 1.5
    assert bk.hive_hash([d], [(-12800, 10, 4)]) == 31 * -128 + 2  # -1.28
    assert bk.hive_hash([d], [(0, 10, 4)]) == 0  # BigDecimal.ZERO
    assert bk.hive_hash([d], [(10000000, 10, 4)]) == 31 * 1000  # 1000.0000 -> 1000, scale 0
    words = [1, 0, 5]  # the magnitude 2^64 + 5 as big-endian ints; scale 0
    assert bk.big_decimal_hash(Decimal(2**64 + 5)) == 31 * (31 * (31 * words[0] + words[1]) + words[2])
    assert bk.normalize_decimal(Decimal("1E+3")) == Decimal("1000")


@given(st.floats(width=32), st.floats())
def test_hive_floats_map_negative_zero_and_nan(f, d):
    types = [parse_type("FLOAT")]
    fbits = 0 if f == 0 else struct.unpack(">i", struct.pack(">f", float("nan") if math.isnan(f) else f))[0]
    assert bk.hive_hash(types, [f]) == fbits
    dbits = 0 if d == 0 else struct.unpack(">q", struct.pack(">d", float("nan") if math.isnan(d) else d))[0]
    u = dbits % 2**64
    want = (u ^ (u >> 32)) % 2**32
    assert bk.hive_hash([parse_type("DOUBLE")], [d]) == (want - 2**32 if want >= 2**31 else want)


def test_hive_rejects_timestamps():
    with pytest.raises(EncodeError):
        bk.hive_hash([parse_type("TIMESTAMP(3)")], [(0, 0)])


def test_mod_of_null_key_is_bucket_zero():
    """Java's ModBucketFunction reads a null key's zeroed slot as 0."""
    assert bk.bucket("mod", [parse_type("INT")], [None], 7) == 0
    assert bk.bucket_columns([parse_type("BIGINT")], [pa.array([None, -3, 17])], 5, "mod").tolist() == [0, 2, 2]


def test_bucket_key_selection():
    """bucket-key in its written order (no trimming), else the primary key minus the partition fields."""
    assert bk.bucket_key_fields(["dt", "id", "name"], ["dt"], {}) == ["id", "name"]
    assert bk.bucket_key_fields(["id", "name"], [], {"bucket-key": "name,id"}) == ["name", "id"]
    assert bk.bucket_key_fields([], ["dt"], {"bucket-key": "b,a"}, ["dt", "a", "b"]) == ["b", "a"]
    with pytest.raises(UsageError):
        bk.bucket_key_fields([], ["dt"], {"bucket-key": "dt"})
    with pytest.raises(UsageError):
        bk.bucket_key_fields(["id"], [], {"bucket-key": "other"})
    with pytest.raises(UsageError):
        bk.bucket_key_fields(["id"], [], {"bucket-key": "id", "bucket": "-1"})
    with pytest.raises(UsageError):  # " id" is not a field: Java does not trim
        bk.bucket_key_fields([], [], {"bucket-key": "a, id"}, ["a", "id"])


def test_cli_inspect_and_validate_binary_row(tmp_path, capsys):
    row = tmp_path / "key.bin"
    types = [parse_type("INT"), parse_type("STRING")]
    row.write_bytes(br.write(types, [5, "a longer string"]))
    assert main(["inspect", "--json", "--kind", "binary-row", "--types", "a=INT,b=STRING", str(row)]) == 0
    case = json.loads(capsys.readouterr().out)
    assert [f["value"] for f in case["fields"]] == [5, "a longer string"]
    assert case["hash"] == bk.hash_code(row.read_bytes())
    assert main(["validate", "--kind", "binary-row", "--types", "a=INT,b=STRING", str(row)]) == 0
    capsys.readouterr()
    assert main(["validate", "--kind", "binary-row", "--types", "a=INT,b=INT", str(row)]) == 1
    assert main(["inspect", "--kind", "binary-row", str(row)]) == 2  # the field types are needed


# Arrow column types writers (pypaimon, pypaimon-rust, Java's Parquet/ORC) hand over for each Paimon type.
_ARROW_CASES = {
    "TINYINT": (pa.int8(), st.integers(-128, 127)),
    "SMALLINT": (pa.int16(), st.integers(-(2**15), 2**15 - 1)),
    "DATE": (pa.date32(), st.integers(-(10**6), 10**6)),
    "TIME": (pa.time32("ms"), st.integers(0, 86_399_999)),
    "DECIMAL(5, 2)": (pa.decimal128(5, 2), st.integers(-(10**5) + 1, 10**5 - 1)),
    "DECIMAL(18, 4)": (pa.decimal128(18, 4), st.integers(-(10**18) + 1, 10**18 - 1)),
    "DECIMAL(38, 10)": (pa.decimal128(38, 10), st.integers(-(10**38) + 1, 10**38 - 1)),
    "TIMESTAMP(0)": (pa.timestamp("s"), st.integers(-(2**34), 2**34)),
    "TIMESTAMP(3)": (pa.timestamp("ms"), st.integers(-(2**44), 2**44)),
    "TIMESTAMP(6)": (pa.timestamp("us"), st.integers(-(2**54), 2**54)),
    "TIMESTAMP(9)": (pa.timestamp("ns"), st.integers(-(2**62), 2**62)),
    "TIMESTAMP_LTZ(3)": (pa.timestamp("ms", tz="UTC"), st.integers(-(2**44), 2**44)),
    "TIMESTAMP_LTZ(6)": (pa.timestamp("us", tz="UTC"), st.integers(-(2**54), 2**54)),
    "TIMESTAMP_LTZ(9)": (pa.timestamp("ns", tz="UTC"), st.integers(-(2**62), 2**62)),
}
_UNIT_NANOS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}


def _arrow_and_internal(t, arrow_type, raw: list) -> tuple[pa.Array, list]:
    """An Arrow column from raw storage integers, and the internal values a Java reader holds for it."""
    if pa.types.is_decimal(arrow_type):
        with localcontext(Context(prec=100)):
            values = [None if u is None else Decimal(u).scaleb(-arrow_type.scale) for u in raw]
        return pa.array(values, arrow_type), [None if u is None else (u, t.precision, t.scale) for u in raw]
    if pa.types.is_timestamp(arrow_type):
        nanos = _UNIT_NANOS[arrow_type.unit]
        internal = [None if v is None else divmod(v * nanos, 10**6) for v in raw]
        return pa.array(raw, pa.int64()).cast(arrow_type), internal
    storage = pa.int32() if not pa.types.is_integer(arrow_type) else arrow_type
    return pa.array(raw, storage).cast(arrow_type), list(raw)


@given(
    st.lists(st.sampled_from(sorted(_ARROW_CASES)), min_size=1, max_size=3).flatmap(
        lambda tys: st.tuples(
            st.just(tys),
            st.lists(st.tuples(*[st.none() | _ARROW_CASES[t][1] for t in tys]), min_size=1, max_size=20),
        )
    )
)
def test_arrow_columns_of_every_type_bucket_as_their_values(case):
    """Arrow columns (non-compact DECIMAL, TIMESTAMP p > 3, DATE, TINYINT ...) hash and hive-bucket exactly as
    the internal values they hold: the column path once crashed on them (values taken from to_pylist)."""
    tys, rows = case
    types = [parse_type(t) for t in tys]
    columns, internal = [], []
    for i, (t, name) in enumerate(zip(types, tys, strict=True)):
        arr, values = _arrow_and_internal(t, _ARROW_CASES[name][0], [r[i] for r in rows])
        columns.append(arr)
        internal.append(values)
    scalar_rows = list(zip(*internal, strict=True))
    want = [bk.hash_code(br.write(types, list(r))) for r in scalar_rows]
    assert bk.hash_columns(types, columns).tolist() == want
    if all(t.root != "TIMESTAMP" and t.root != "TIMESTAMP_LTZ" and t.root != "TIME" for t in types):
        got = bk.bucket_columns(types, columns, 7, "hive").tolist()
        assert got == [bk.hive_bucket(types, list(r), 7) for r in scalar_rows]
