"""The INT96 page decoder (formats/parquet/int96.py) against pyarrow, and beyond the years pyarrow can hold.

pyarrow's int64-nanosecond read is exact for 1677-2262: there the decoder must agree with it for
every page shape (PLAIN and dictionary values, data pages v1 and v2, nulls, codecs, several row
groups). Beyond those years pyarrow wraps; the decoder must give back the instant written.
"""

from __future__ import annotations

import struct

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paimon_conform.core.errors import UsageError
from paimon_conform.formats import paimon_columns
from paimon_conform.formats.parquet.int96 import JULIAN_EPOCH_DAY, NANOS_PER_DAY, read_int96

EVIDENCE = ("third-party",)

IN_RANGE = st.integers(-(2**62), 2**62)


# each example writes a Parquet file with pyarrow under one of four codecs and reads it back twice; 40 cover
# each codec ten times in a few seconds (the named edge values are separate tests)
@settings(max_examples=40)
@given(
    st.lists(st.none() | IN_RANGE, min_size=1, max_size=300),
    st.sampled_from(["NONE", "SNAPPY", "ZSTD", "GZIP"]),
    st.booleans(),
    st.sampled_from(["1.0", "2.0"]),
    st.integers(1, 400),
)
def test_decoder_equals_pyarrow_in_range(tmp_path_factory, values, codec, dictionary, page_version, group):
    path = tmp_path_factory.mktemp("int96") / "t.parquet"
    column = pa.array(values, pa.int64()).cast(pa.timestamp("ns"))
    pq.write_table(
        pa.table({"ts": column}),
        path,
        use_deprecated_int96_timestamps=True,
        compression=codec,
        use_dictionary=dictionary,
        data_page_version=page_version,
        row_group_size=group,
    )
    assert read_int96(path, "ts") == pq.ParquetFile(path).read().column("ts").cast(pa.int64()).to_pylist()


def _int96_file(tmp_path, nanos: list[int | None]):
    """A Parquet file whose INT96 values are written byte by byte (as Java does: day and nanos-of-day)."""
    path = tmp_path / "t.parquet"
    pq.write_table(
        pa.table({"ts": pa.array([0] * len(nanos), pa.timestamp("ns"))}),
        path,
        use_deprecated_int96_timestamps=True,
        compression="NONE",
        use_dictionary=False,
    )
    data = bytearray(path.read_bytes())
    plain = b"".join(struct.pack("<qi", 0, JULIAN_EPOCH_DAY) for _ in nanos)
    at = bytes(data).index(plain)
    for i, v in enumerate(nanos):
        days, nod = int(v / NANOS_PER_DAY), v - int(v / NANOS_PER_DAY) * NANOS_PER_DAY  # Java: truncating division
        data[at + 12 * i : at + 12 * i + 12] = struct.pack("<qi", nod, days + JULIAN_EPOCH_DAY)
    path.write_bytes(bytes(data))
    return path


def test_beyond_pyarrows_years_the_decoder_gives_the_instant(tmp_path):
    year_1 = -62135596800000000000 + 1  # 0001-01-01T00:00:00.000000001
    year_9999 = 253402300799999999999  # 9999-12-31T23:59:59.999999999
    noon_1500 = -14707713600000000000 + 500  # 1500-06-15T12:00:00.000000500, negative nanos-of-day
    path = _int96_file(tmp_path, [year_1, year_9999, noon_1500, -1])
    assert read_int96(path, "ts") == [year_1, year_9999, noon_1500, -1]
    wrapped = pq.ParquetFile(path).read().column("ts").cast(pa.int64()).to_pylist()
    assert wrapped[:3] != [year_1, year_9999, noon_1500]  # what pyarrow alone gives
    table = paimon_columns.read_parquet(path)
    t = paimon_columns.DataType("TIMESTAMP", 9)
    assert paimon_columns.internal_values(table.column("ts"), t) == [divmod(v, 10**6) for v in read_int96(path, "ts")]


def test_damaged_chunk_is_a_usage_error(tmp_path):
    path = _int96_file(tmp_path, [0, 1])
    data = bytearray(path.read_bytes())
    data[4:12] = b"\xff" * 8  # the page header
    path.write_bytes(bytes(data))
    with pytest.raises(UsageError):
        read_int96(path, "ts")
