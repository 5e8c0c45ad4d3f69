"""`validate INDEX --data DATAFILE`: an index against the Parquet / ORC values it indexes."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.orc as po
import pyarrow.parquet as pq
import pytest

from paimon_conform import cli
from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import parse_type, to_internal
from paimon_conform.formats import paimon_columns
from paimon_conform.layouts.file_index import against_data
from paimon_conform.layouts.file_index import entry as fi

EVIDENCE = ("java", "kit")

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "file_index" / "java-0.9.0"
ARROW = paimon_columns.ARROW_TYPES | {"TIME": pa.time32("ms")}  # TIME as Paimon writes it: int32 milliseconds


def arrow_column(type_text: str, values: list) -> pa.Array:
    """An Arrow array holding the logical values of a Paimon column."""
    t = parse_type(type_text)
    internal = [to_internal(t, v) for v in values]
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = {3: "ms", 6: "us", 9: "ns"}[t.timestamp_precision]
        scale = {"ms": 1, "us": 1000, "ns": 1_000_000}[unit]
        ints = [None if v is None else v[0] * scale + v[1] * scale // 1_000_000 for v in internal]
        return pa.array(ints, pa.int64()).cast(pa.timestamp(unit, "UTC" if t.root == "TIMESTAMP_LTZ" else None))
    return pa.array(internal, ARROW[t.root])


def data_file(tmp_path: Path, case: dict, fmt: str, change=None) -> Path:
    table = pa.table(
        {c["name"]: arrow_column(c["type"], change(c) if change else c["values"]) for c in case["columns"]}
    )
    if fmt == "orc":  # ORC has no TIME type: Paimon writes it as INT (millis of day)
        schema = pa.schema([pa.field(f.name, pa.int32() if pa.types.is_time(f.type) else f.type) for f in table.schema])
        table = table.cast(schema)
    path = tmp_path / f"data.{fmt}"
    (pq.write_table if fmt == "parquet" else po.write_table)(table, path)
    return path


def _pre_1970_fraction(column: dict) -> bool:
    t = parse_type(column["type"])
    if t.root not in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return False
    values = [to_internal(t, v) for v in column["values"] if v is not None]
    return any(millis < 0 and (millis % 1000 or nanos) for millis, nanos in values)


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
@pytest.mark.parametrize("golden", ["bloom-every-type", "bitmap-v1-every-type"])
def test_every_type_payload_agrees_with_its_column(tmp_path, fmt, golden):
    """Columns of different lengths: each payload against a one-column data file."""
    case = json.loads((GOLDEN / f"{golden}.json").read_text())
    data = (GOLDEN / f"{golden}.bin").read_bytes()
    for c in case["columns"]:
        path = data_file(tmp_path, {"columns": [c]}, fmt)
        try:
            _, columns = paimon_columns.columns(path)
            refused = None
        except UsageError as exc:
            refused = str(exc)
        if refused is not None:
            # pyarrow's ORC writer stores some pre-1970 values with a fraction of a second as truncated seconds
            # and negative nanoseconds, which Java's reader refuses (Timestamp.fromEpochMillis): so does the kit
            assert fmt == "orc", refused
            assert _pre_1970_fraction(c), refused
            assert "negative nanoseconds" in refused
            continue
        _, values = columns[c["name"]]
        t = parse_type(c["type"])  # the table's type: ORC keeps timestamps at nanosecond precision
        for entry in c["indexes"]:
            payload = data[entry["offset"] : entry["offset"] + entry["length"]]
            assert against_data.check_payload(entry["index_type"], payload, t, values, "") == [], c["name"]


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
@pytest.mark.parametrize("golden", ["bitmap-v1-many-strings", "two-indexes-one-column"])
def test_java_indexes_agree_with_their_data(tmp_path, fmt, golden, capsys):
    case = json.loads((GOLDEN / f"{golden}.json").read_text())
    path = data_file(tmp_path, case, fmt)
    assert fi.check_against_data((GOLDEN / f"{golden}.bin").read_bytes(), str(path)) == []
    assert cli.main(["validate", str(GOLDEN / f"{golden}.bin"), "--data", str(path)]) == 0
    capsys.readouterr()


def test_bloom_false_negative_is_caught(tmp_path):
    case = json.loads((GOLDEN / "bloom-int-small.json").read_text())  # 1..5 and a null, 10 items, fpp 0.1
    path = data_file(tmp_path, case, "parquet", change=lambda c: [*c["values"][:-1], 11])  # 11 is not in it
    found = fi.check_against_data((GOLDEN / "bloom-int-small.bin").read_bytes(), str(path))
    assert [f.code for f in found] == ["BLOOM_FALSE_NEGATIVE"]
    assert found[0].path == "columns[0].indexes[0].payload"


def test_bitmap_wrong_row_is_caught(tmp_path):
    case = json.loads((GOLDEN / "bitmap-v1-int-with-nulls.json").read_text())
    path = data_file(tmp_path, case, "orc", change=lambda c: [2, *c["values"][1:]])
    found = fi.check_against_data((GOLDEN / "bitmap-v1-int-with-nulls.bin").read_bytes(), str(path))
    assert [(f.code, f.message.split(" holds")[0]) for f in found] == [("BITMAP_WRONG_ROWS", "row 0")]


def test_missing_column_and_lone_payload(tmp_path, capsys):
    case = json.loads((GOLDEN / "bitmap-v1-strings.json").read_text())
    path = tmp_path / "other.parquet"
    pq.write_table(pa.table({"t": pa.array(["x"])}), path)
    found = fi.check_against_data((GOLDEN / "bitmap-v1-strings.bin").read_bytes(), str(path))
    assert [f.code for f in found] == ["FILE_INDEX_COLUMN_NOT_IN_DATA"]
    data = (GOLDEN / "bitmap-v1-strings.bin").read_bytes()
    entry = case["columns"][0]["indexes"][0]
    payload = tmp_path / "bitmap.bin"
    payload.write_bytes(data[entry["offset"] : entry["offset"] + entry["length"]])
    good = data_file(tmp_path, case, "parquet")
    assert (
        cli.main(
            ["validate", "--kind", "bitmap", "--type", "STRING", str(payload), "--data", str(good), "--column", "s"]
        )
        == 0
    )
    assert cli.main(["validate", "--kind", "bitmap", "--type", "STRING", str(payload), "--data", str(good)]) == 2
    capsys.readouterr()


def test_inspect_takes_types_from_the_data_file(tmp_path, capsys):
    case = json.loads((GOLDEN / "bitmap-v1-many-strings.json").read_text())
    path = data_file(tmp_path, case, "parquet")
    index = str(GOLDEN / "bitmap-v1-many-strings.bin")
    assert cli.main(["inspect", index]) == 0
    assert "keys not decoded" in capsys.readouterr().out
    assert cli.main(["inspect", "--data", str(path), index]) == 0
    assert "distinct values" in capsys.readouterr().out
    assert cli.main(["inspect", "--json", "--data", str(path), index]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["columns"][0]["indexes"][0]["payload"]["row_values"] == case["columns"][0]["values"]


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
@pytest.mark.parametrize("index_type", ["range-bitmap", "bsi"])
def test_range_bitmap_and_bsi_rows_against_the_data_file(tmp_path, fmt, index_type):
    case = {
        "case_format": 1,
        "kind": "file-index",
        "columns": [
            {"name": "n", "type": "BIGINT", "values": [5, None, -3, 5, 9, 0], "indexes": [{"index_type": index_type}]},
            {"name": "d", "type": "DATE", "values": ["2024-01-01", None, "1969-12-31"] * 2, "indexes": []},
        ],
    }
    index = tmp_path / "f.index"
    index.write_bytes(fi.encode(case))
    good = data_file(tmp_path, case, fmt)
    assert cli.main(["validate", str(index), "--data", str(good), "--types", "n=BIGINT,d=DATE"]) == 0
    moved = data_file(tmp_path, case, fmt, lambda c: [5, None, -3, 9, 5, 0] if c["name"] == "n" else c["values"])
    report = tmp_path / "r.json"
    args = ["validate", str(index), "--data", str(moved), "--types", "n=BIGINT,d=DATE", "--report", "json"]
    assert cli.main([*args, "-o", str(report)]) == 1
    codes = {f["code"] for r in json.loads(report.read_text())["files"] for f in r["findings"]}
    assert codes == {"RANGE_BITMAP_WRONG_ROWS" if index_type == "range-bitmap" else "BSI_WRONG_ROWS"}
