"""Parquet encodings of TIMESTAMP and DECIMAL columns, judged by the Java releases that read them.

Java writes TIMESTAMP(p <= 3) as INT64 millis, p <= 6 as INT64 micros, p > 6 as INT96, and a
compact DECIMAL as INT32 / INT64 (ParquetSchemaConverter). Java 0.9.0 and the 1.0-SNAPSHOT jar
fail on or misread the other encodings (conformance/test_java_verdicts.py runs them); 1.2.0
reads INT96 for p <= 6 and any compact-decimal type (apache/paimon#5582), 2.0.0 honours the
INT64 unit (apache/paimon#7845).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from paimon_conform.core.java_releases import judge
from paimon_conform.core.types import parse_type
from paimon_conform.table.read.data_files import read_data_file
from paimon_conform.table.table_layout import Field
from paimon_conform.table.validate.data_file_checks import check_columns

EVIDENCE = ("kit",)  # the verdicts the rules encode are Java's, run in test_java_verdicts


def _file(tmp_path: Path, column: pa.Array, **write) -> Path:
    path = tmp_path / "data-0.parquet"
    pq.write_table(pa.table({"c": column}), path, **write)
    return path


def _verdicts(path: Path, type_text: str) -> dict[str, tuple[str, str] | None]:
    df = read_data_file(path)
    out = {}
    for version in ("0.9", "1.1", "1.2", "1.4", "2.0"):
        found = judge(check_columns(df, [Field(0, "c", parse_type(type_text))], "f"), version)
        found = [f for f in found if f.code.endswith("_ENCODING")]
        out[version] = (found[0].code, found[0].severity) if found else None
    return out


TS = "DATA_FILE_TIMESTAMP_ENCODING"
MILLIS = pa.array([1_700_000_000_123, None], pa.int64())


@pytest.mark.parametrize(
    ("type_text", "arrow", "int96", "releases"),
    [
        ("TIMESTAMP(3)", pa.timestamp("ms"), False, ()),  # Java's own encodings: nothing
        ("TIMESTAMP(6)", pa.timestamp("us"), False, ()),
        ("TIMESTAMP(9)", pa.timestamp("ns"), True, ()),
        ("TIMESTAMP(3)", pa.timestamp("us"), False, ("0.9", "1.1", "1.2", "1.4", "2.0")),  # unit misread: every release
        ("TIMESTAMP(6)", pa.timestamp("ms"), False, ("0.9", "1.1", "1.2", "1.4", "2.0")),  # run: test_java_verdicts B2
        ("TIMESTAMP(9)", pa.timestamp("ns"), False, ("0.9", "1.1", "1.2", "1.4")),  # INT64 nanos: pypaimon-rust's
        ("TIMESTAMP_LTZ(9)", pa.timestamp("us", tz="UTC"), False, ("0.9", "1.1", "1.2", "1.4")),
        ("TIMESTAMP(3)", pa.timestamp("ms"), True, ("0.9", "1.1")),  # INT96 for p <= 6: read since 1.2
    ],
)
def test_timestamp_encodings(tmp_path, type_text, arrow, int96, releases):
    column = MILLIS.cast(pa.timestamp("ms")).cast(arrow)
    path = _file(tmp_path, column, use_deprecated_int96_timestamps=int96)
    got = _verdicts(path, type_text)
    for version, verdict in got.items():
        assert verdict == ((TS, "must") if version in releases else (None if not releases else (TS, "should"))), (
            version,
            verdict,
        )


@pytest.mark.parametrize(("type_text", "store_as_int"), [("DECIMAL(5, 2)", True), ("DECIMAL(18, 4)", True)])
def test_compact_decimal_in_another_physical_type(tmp_path, type_text, store_as_int):
    t = parse_type(type_text)
    column = pa.array([None, Decimal("-123.45")], pa.decimal128(t.precision, t.scale))
    java = _file(tmp_path, column, store_decimal_as_integer=store_as_int)
    assert set(_verdicts(java, type_text).values()) == {None}
    (tmp_path / "other").mkdir()
    fixed = _file(tmp_path / "other", column)  # pyarrow's default: FIXED_LEN_BYTE_ARRAY, what pypaimon writes
    got = _verdicts(fixed, type_text)
    assert got["0.9"] == got["1.1"] == ("DATA_FILE_DECIMAL_ENCODING", "must")
    assert got["1.2"] == got["2.0"] == ("DATA_FILE_DECIMAL_ENCODING", "should")
