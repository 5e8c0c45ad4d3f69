"""The table layout spec: partition paths, bucket directories, file names, data-file columns.

Properties of the rules (the Java-written tables under golden/tables/ are checked against them by
test_table_goldens).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import struct
import uuid

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from support.environment import ROOT

from paimon_conform.core.types import parse_type
from paimon_conform.table import table_layout as tl

EVIDENCE = ("kit",)

DEFAULTS = tl.LayoutOptions.of({})
# PartitionPathUtils' escape set, read off the Java source independently of the spec
JAVA_ESCAPED = {chr(c) for c in range(0x20)} | set("\"#%'*/:=?\\\x7f{}[]^")


def test_compiled_spec_is_the_yaml():
    """The JSON the library reads is exactly specs/table_layout.yaml."""
    assert tl.spec() == yaml.safe_load((ROOT / "specs" / "table_layout.yaml").read_text())


@given(st.text(min_size=1, max_size=30))
def test_escape_round_trips_and_escapes_exactly_javas_set(text):
    escaped = tl.escape_path_name(text)
    assert tl.unescape_path_name(escaped) == text
    assert "/" not in escaped
    assert "=" not in escaped
    kept = re.sub(r"%[0-9A-F]{2}", "", escaped)
    assert not set(kept) & JAVA_ESCAPED
    assert escaped.count("%") == sum(c in JAVA_ESCAPED for c in text)


def test_escape_examples():
    assert tl.escape_path_name("2023-11-14T22:13") == "2023-11-14T22%3A13"
    assert tl.escape_path_name("a b\u00fc\x01") == "a b\u00fc%01"


@given(st.text(alphabet=st.sampled_from(" \t\n\r\x0b\x0c\x1c\u2003\u3000\u00a0\u2007x"), max_size=6))
def test_blank_values_take_the_default_name(text):
    """Null, empty and Character.isWhitespace-only strings become __DEFAULT_PARTITION__."""
    blank = all(c in " \t\n\r\x0b\x0c\x1c\u2003\u3000" for c in text)
    [value] = tl.partition_values([("s", parse_type("STRING"))], [text], DEFAULTS)
    assert (value == "__DEFAULT_PARTITION__") == blank


def test_null_partition_and_custom_default_name():
    fields = [("a", parse_type("INT")), ("b", parse_type("STRING"))]
    assert tl.partition_path(fields, [None, "x"], DEFAULTS) == "a=__DEFAULT_PARTITION__/b=x/"
    custom = tl.LayoutOptions.of({"partition.default-name": "null-part"})
    assert tl.partition_path(fields, [1, None], custom) == "a=1/b=null-part/"
    assert tl.partition_path([], [], DEFAULTS) == ""


JAVA_FP = re.compile(r"^-?(?:\d+\.\d+|\d\.\d+E-?\d+|NaN|Infinity)$")


@given(st.floats(allow_nan=True, allow_infinity=True))
def test_double_text_reads_back_and_has_javas_shape(x):
    text = tl.java_floating_string(x, single=False)
    assert JAVA_FP.match(text), text
    back = float(text.replace("Infinity", "inf"))
    assert back == x or (math.isnan(x) and math.isnan(back))
    assert math.copysign(1, back) == math.copysign(1, x) or math.isnan(x)
    plain = "E" not in text and x == x and not math.isinf(x)
    assert plain == (x == 0 or 1e-3 <= abs(x) < 1e7)


@given(st.floats(width=32, allow_nan=False, allow_infinity=False))
def test_float_text_reads_back_as_the_same_float32(x):
    text = tl.java_floating_string(x, single=True)
    back = struct.unpack("<f", struct.pack("<f", float(text)))[0]
    assert back == x
    # no more digits than float32 needs
    assert len(re.sub(r"[^0-9]", "", text.split("E")[0]).strip("0")) <= 9


def test_java_floating_string_examples():
    """Values whose Java text is known (JDK 19+ Double.toString / Float.toString)."""
    cases = {1e10: "1.0E10", 0.001: "0.001", 1e-4: "1.0E-4", 1234567.0: "1234567.0", 1e7: "1.0E7", 5e-324: "4.9E-324"}
    for x, text in cases.items():
        assert tl.java_floating_string(x, single=False) == text
    assert tl.java_floating_string(struct.unpack("<f", struct.pack("<f", 0.1))[0], single=True) == "0.1"


@given(st.datetimes(min_value=dt.datetime(1, 1, 1), max_value=dt.datetime(9999, 12, 31)), st.integers(0, 999))
def test_timestamp_text_is_local_date_time(when, extra_nanos):
    """LocalDateTime.toString: seconds omitted when zero, fraction in groups of 3 digits."""
    delta = when - dt.datetime(1970, 1, 1)
    micros = delta // dt.timedelta(microseconds=1)
    millis, sub_micro = divmod(micros, 1000)
    nano_of_milli = sub_micro * 1000 + extra_nanos
    text = tl.render_value(parse_type("TIMESTAMP(9)"), (millis, nano_of_milli))
    nanos = when.microsecond * 1000 + extra_nanos
    m = re.match(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d)(?::(\d\d)(?:\.(\d{3}|\d{6}|\d{9}))?)?$", text)
    assert m, text
    assert m.group(1) == f"{when.year:04d}-{when.month:02d}-{when.day:02d}T{when.hour:02d}:{when.minute:02d}"
    assert int(m.group(2) or 0) == when.second
    assert (m.group(2) is None) == (when.second == 0 and nanos == 0)
    frac = m.group(3) or ""
    assert int(frac.ljust(9, "0") or 0) == nanos
    assert not frac or len(frac) == 3 or not frac.endswith("000")


def test_legacy_and_cast_rendering_differ_for_dates():
    """DATE is a day count with legacy names (the default) and yyyy-MM-dd without."""
    t = parse_type("DATE")
    assert tl.render_value(t, 19723) == "19723"
    assert tl.render_value(t, 19723, legacy=False) == "2024-01-01"
    ts = parse_type("TIMESTAMP(3)")
    assert tl.render_value(ts, (1_700_000_000_000, 0), legacy=False) == "2023-11-14 22:13:20.000"
    assert tl.render_value(parse_type("TIME(3)"), 45_296_700, legacy=False) == "12:34:56.7"
    with pytest.raises(Exception, match="no stable path form"):
        tl.render_value(parse_type("BYTES"), b"x")


@given(st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=4))
def test_partition_path_splits_back(values):
    fields = [(f"k{i}", parse_type("STRING")) for i in range(len(values))]
    path = tl.partition_path(fields, values, DEFAULTS)
    back = tl.split_partition_path(path, [name for name, _ in fields])
    expected = tl.partition_values(fields, values, DEFAULTS)
    assert back == expected
    assert tl.split_partition_path(path, [name for name, _ in fields][:-1]) is None


@given(st.one_of(st.just(-2), st.integers(0, 10**6)))
def test_bucket_dirs_round_trip(bucket):
    assert tl.parse_bucket_dir(tl.bucket_dir(bucket)) == bucket


@pytest.mark.parametrize("name", ["bucket-", "bucket-01", "bucket--1", "bucket-x", "Bucket-1", "bucket-1/"])
def test_malformed_bucket_dirs(name):
    assert tl.parse_bucket_dir(name) is None


def test_file_names_classify_by_directory():
    u = str(uuid.UUID(int=0xABCDEF0123456789ABCDEF0123456789))
    opts = tl.LayoutOptions.of({"data-file.prefix": "part-", "changelog-file.prefix": "log-"})
    cases = [
        ("bucket", f"data-{u}-0.parquet", DEFAULTS, "data"),
        ("bucket", f"data-{u}-12.zstd.orc", DEFAULTS, "data"),
        ("bucket", f"changelog-{u}-3.avro", DEFAULTS, "changelog"),
        ("bucket", f"data-{u}-0.parquet.index", DEFAULTS, "file_index"),
        ("bucket", f"data-{u}-0.parquet-2.index", DEFAULTS, "file_index"),
        ("bucket", f"part-{u}-1.orc", opts, "data"),
        ("bucket", f"log-{u}-2.orc", opts, "changelog"),
        ("bucket", f"data-{u}-1.orc", opts, None),
        ("bucket", f"data-{u}-01.orc", DEFAULTS, None),
        ("bucket", f"data-{u.upper()}-1.orc", DEFAULTS, None),
        ("bucket", f"data-{u}-1.xls", DEFAULTS, None),
        ("index", f"index-{u}-0", DEFAULTS, "index"),
        ("manifest", f"manifest-{u}-0", DEFAULTS, "manifest"),
        ("manifest", f"manifest-list-{u}-1", DEFAULTS, "manifest_list"),
        ("manifest", f"index-manifest-{u}-0", DEFAULTS, "index_manifest"),
        ("snapshot", "snapshot-3", DEFAULTS, "snapshot"),
        ("snapshot", "snapshot-0", DEFAULTS, None),
        ("snapshot", "LATEST", DEFAULTS, "snapshot_hint"),
        ("schema", "schema-0", DEFAULTS, "schema"),
        ("schema", "schema-x", DEFAULTS, None),
        ("index", f"data-{u}-0.orc", DEFAULTS, None),
    ]
    for directory, name, options, kind in cases:
        assert tl.classify_file_name(name, directory, options) == kind, (directory, name)


def _fields(*spec: tuple[int, str, str, bool]) -> list[tl.Field]:
    return [tl.Field(i, n, parse_type(t), nullable) for i, n, t, nullable in spec]


def test_primary_key_data_file_columns():
    """_KEY_ copies of the trimmed key, _SEQUENCE_NUMBER before _VALUE_KIND, then the table columns."""
    table = _fields((0, "dt", "STRING", False), (1, "id", "BIGINT", False), (2, "v", "DOUBLE", True))
    cols = tl.data_file_fields(table, ["dt", "id"], ["dt"], DEFAULTS)
    assert [(f.id, f.name, str(f.type), f.nullable) for f in cols] == [
        (1073741824, "_KEY_id", "BIGINT", False),
        (2147483646, "_SEQUENCE_NUMBER", "BIGINT", False),
        (2147483645, "_VALUE_KIND", "TINYINT", False),
        (0, "dt", "STRING", False),
        (1, "id", "BIGINT", False),
        (2, "v", "DOUBLE", True),
    ]
    thin = tl.data_file_fields(table, ["dt", "id"], ["dt"], tl.LayoutOptions.of({"data-file.thin-mode": "true"}))
    assert [f.name for f in thin] == ["_SEQUENCE_NUMBER", "_VALUE_KIND", "dt", "id", "v"]
    assert tl.data_file_fields(table, [], ["dt"], DEFAULTS) == table


def test_row_kind_bytes():
    assert tl.row_kind_bytes() == {0: "+I", 1: "-U", 2: "+U", 3: "-D"}
    assert json.dumps(tl.row_kind_byte("-D")) == "3"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("data-12345678-1234-1234-1234-123456789abc-0.row", "data"),  # the row format (2.0.0)
        ("data-12345678-1234-1234-1234-123456789abc-2.vector.parquet", "data"),  # newVectorPath (1.4.1)
        ("data-12345678-1234-1234-1234-123456789abc-0.json.gz", "data"),  # a text format: compression last (1.3)
        ("changelog-12345678-1234-1234-1234-123456789abc-1.csv.gz", "changelog"),
        ("data-12345678-1234-1234-1234-123456789abc-0.mosaic", "data"),
        ("data-12345678-1234-1234-1234-123456789abc-0.vortex", "data"),
    ],
)
def test_file_names_of_newer_formats_are_javas(name, kind):
    """DataFilePathFactory's names for the formats and suffixes of Paimon 1.3 to 2.0 are not bad names."""
    assert tl.match_file_name(kind, name, tl.LayoutOptions.of({})) is not None
    assert tl.match_file_name(kind, re.sub(r"-(\d+)\.", "-x.", name, count=1), tl.LayoutOptions.of({})) is None
