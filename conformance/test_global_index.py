"""Bitmap global indexes in Java 1.4's layout: the Java-written files of the corpus are bitmap file-index
payloads the kit's encoder rebuilds byte for byte from the indexed column, the validator checks them
against their index-manifest entries, and names the one release (2.0) whose reader refuses the layout."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from conftest import corpus_table
from java_mutations import rewrite_avro

from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.table.metadata import read_records
from paimon_conform.table.schema import read_schema
from paimon_conform.table.validate.table import validate_table

TABLE = "append_with_global_index"
CODES = ("GLOBAL_INDEX_LAYOUT", "GLOBAL_INDEX_ROW_RANGE", "INDEX_MANIFEST_ROW_COUNT")


def _findings(root: Path, java_version: str = "2.0") -> list[tuple[str, str, str]]:
    results = validate_table(root, java_version=java_version)
    return sorted(
        (f.code, f.severity, Path(r.file).name)
        for r in results
        for f in r.findings
        if f.code in CODES or f.code.startswith("BITMAP_")
    )


def _live_entries(root: Path) -> list[dict]:
    latest = max(int(p.name.split("-")[1]) for p in (root / "snapshot").glob("snapshot-*"))
    name = json.loads((root / "snapshot" / f"snapshot-{latest}").read_text())["indexManifest"]
    return read_records(root / "manifest" / name).records


def test_java_written_bitmap_global_indexes_are_bitmap_payloads_of_their_column(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    schema = read_schema(root)
    [data_file] = root.glob("bucket-0/*.parquet")
    table = pq.read_table(data_file)
    entries = _live_entries(root)
    assert {e["_INDEX_TYPE"] for e in entries} == {"bitmap"}
    assert len(entries) == 3
    for e in entries:
        meta = e["_GLOBAL_INDEX"]
        field = next(f for f in schema.fields if f.id == meta["_INDEX_FIELD_ID"])
        values = table.column(field.name).to_pylist()[meta["_ROW_RANGE_START"] : meta["_ROW_RANGE_END"] + 1]
        java = (root / "index" / e["_FILE_NAME"]).read_bytes()
        assert bitmap.build(field.type, values, version=2) == java, field.name


def test_a_1_4_bitmap_global_index_is_a_must_for_2_0_readers_only(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    found = _findings(root)
    assert {(c, s) for c, s, _ in found} == {("GLOBAL_INDEX_LAYOUT", "must")}
    assert len(found) == 3  # one per live index file
    assert _findings(root, "1.4") == []


def test_an_entry_whose_row_range_is_not_the_index_rows_is_a_must(tmp_path):
    root = corpus_table(tmp_path, "append_with_global_index_with_partition")

    def widen(r: dict) -> dict:
        r["_GLOBAL_INDEX"]["_ROW_RANGE_END"] += 1
        return r

    rewrite_avro(root, "index_manifest", record_fn=widen)
    found = {(c, s) for c, s, _ in _findings(root, "1.4")}
    assert found == {("GLOBAL_INDEX_ROW_RANGE", "must"), ("INDEX_MANIFEST_ROW_COUNT", "should")}


def test_a_damaged_bitmap_global_index_gets_the_bitmap_layout_finding(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    entry = next(e for e in _live_entries(root) if e["_GLOBAL_INDEX"]["_INDEX_FIELD_ID"] == 1)
    path = root / "index" / entry["_FILE_NAME"]
    data = bytearray(path.read_bytes())
    data[0] = 7  # a bitmap index version Java does not know
    path.write_bytes(bytes(data))
    found = _findings(root, "1.4")
    assert found
    assert all(c.startswith("BITMAP_") and s == "must" for c, s, _ in found)
    assert {name for _, _, name in found} == {path.name}
