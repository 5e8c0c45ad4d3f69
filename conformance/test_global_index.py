"""Bitmap global indexes in Java 1.4's layout: the Java-written files of the corpus are bitmap file-index
payloads the kit's encoder rebuilds byte for byte from the indexed column, the validator checks them
against their index-manifest entries, and names the one release (2.0) whose reader refuses the layout.
The same tables with their indexes rewritten in 2.0's BGIX layout are clean for 2.0 and a must for 1.4."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
from support.environment import corpus_table
from support.java_mutations import rewrite_avro, sync_list_sizes

from paimon_conform.layouts.bitmap_global_index import codec as bgix
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.btree_global_index import codec as btree
from paimon_conform.table.metadata import read_records
from paimon_conform.table.schema import read_schema
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("third-party",)

TABLE = "append_with_global_index"
CODES = ("GLOBAL_INDEX_LAYOUT", "GLOBAL_INDEX_ROW_RANGE", "INDEX_MANIFEST_ROW_COUNT", "GLOBAL_INDEX_META")


def _findings(root: Path, java_version: str = "2.0") -> list[tuple[str, str, str]]:
    results = validate_table(root, java_version=java_version)
    return sorted(
        (f.code, f.severity, Path(r.file).name)
        for r in results
        for f in r.findings
        if f.code in CODES or f.code.startswith(("BITMAP_", "BGIX_", "BLOCK_", "BTREE_", "SST_"))
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


def test_an_entry_whose_row_range_reaches_past_the_live_rows_is_a_should(tmp_path):
    """Java reads every row of such a table through the index (test_global_index_java: range-widened)."""
    root = corpus_table(tmp_path, "append_with_global_index_with_partition")

    def widen(r: dict) -> dict:
        r["_GLOBAL_INDEX"]["_ROW_RANGE_END"] += 1
        return r

    rewrite_avro(root, "index_manifest", record_fn=widen)
    found = {(c, s) for c, s, _ in _findings(root, "1.4")}
    assert found == {("GLOBAL_INDEX_ROW_RANGE", "should"), ("INDEX_MANIFEST_ROW_COUNT", "should")}


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


def _rewrite(root: Path, encode, index_type: str | None, meta_fn=None) -> dict[str, bytes]:
    """Rewrite every live bitmap global index of the table from its column's rows with `encode` (a layout's
    writer), with the entry's _FILE_SIZE and _INDEX_META (SortedIndexFileMeta) as Java writes them; with
    `index_type`, also the entry's _INDEX_TYPE and the file name's prefix; meta_fn changes the meta."""
    schema = read_schema(root)
    [data_file] = root.glob("bucket-0/*.parquet")
    table = pq.read_table(data_file)
    written = {}
    for e in _live_entries(root):
        g = e["_GLOBAL_INDEX"]
        field = next(f for f in schema.fields if f.id == g["_INDEX_FIELD_ID"])
        values = table.column(field.name).to_pylist()[g["_ROW_RANGE_START"] : g["_ROW_RANGE_END"] + 1]
        data = encode(field.type, values)
        name = e["_FILE_NAME"]
        if index_type:
            name = name.replace("bitmap-global-index-", f"{index_type}-global-index-")
            (root / "index" / e["_FILE_NAME"]).unlink()
        (root / "index" / name).write_bytes(data)
        keys = [bgix.key_bytes(field.type, v) for v in values if v is not None]
        sort = bgix.order(field.type)
        ordered = sorted(keys, key=lambda k: sort(bgix.read_key(field.type, k)))
        meta = bgix.index_meta(ordered[0] if ordered else None, ordered[-1] if ordered else None, None in values)
        written[e["_FILE_NAME"]] = (name, len(data), meta_fn(meta) if meta_fn else meta)

    def rewrite(r: dict) -> dict:
        if r["_FILE_NAME"] in written:
            name, size, meta = written[r["_FILE_NAME"]]
            r.update(_FILE_NAME=name, _FILE_SIZE=size)
            if index_type:
                r["_INDEX_TYPE"] = index_type
            r["_GLOBAL_INDEX"]["_INDEX_META"] = meta
        return r

    rewrite_avro(root, "index_manifest", record_fn=rewrite)
    return {name: meta for name, _, meta in written.values()}


def _as_bgix(root: Path, meta_fn=None) -> dict[str, bytes]:
    """The table's bitmap global indexes in Java 2.0's BGIX layout."""
    return _rewrite(root, bgix.encode, None, meta_fn)


def _as_btree(root: Path, meta_fn=None) -> dict[str, bytes]:
    """The table's bitmap global indexes replaced by BTree indexes (Java 1.4.1 / 2.0) of the same rows."""
    return _rewrite(root, btree.encode, "btree", meta_fn)


def test_bgix_bitmap_global_indexes_are_clean_for_2_0_and_a_must_for_1_4(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    written = _as_bgix(root)
    assert len(written) == 3
    assert _findings(root, "2.0") == []
    found = _findings(root, "1.4")
    assert {(c, s) for c, s, _ in found} == {("GLOBAL_INDEX_LAYOUT", "must")}
    assert {n for _, _, n in found} == set(written)
    assert _findings(root, "1.3") == []  # no global index reader before 1.4


def test_an_index_meta_narrower_than_the_file_is_a_must_for_2_0(tmp_path):
    root = corpus_table(tmp_path, TABLE)

    def narrow(meta: bytes) -> bytes:
        _first, last, nulls = bgix.read_index_meta(meta)
        return bgix.index_meta(last, last, nulls)  # the first key raised to the last: values below it are skipped

    _as_bgix(root, narrow)
    found = _findings(root, "2.0")
    assert found
    assert {(c, s) for c, s, _ in found} == {("GLOBAL_INDEX_META", "must")}
    assert {c for c, _, _ in _findings(root, "1.4")} == {"GLOBAL_INDEX_LAYOUT"}  # 1.4 reads no _INDEX_META


def test_a_damaged_bgix_index_in_a_table_gets_the_layout_finding(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    written = _as_bgix(root)
    name = sorted(written)[0]
    path = root / "index" / name
    data = bytearray(path.read_bytes())
    data[-5] ^= 1  # the footer's version
    path.write_bytes(bytes(data))
    found = _findings(root, "2.0")
    assert found == [("BGIX_BAD_VERSION", "must", name)]


def test_btree_global_indexes_of_the_column_are_clean(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    written = _as_btree(root)
    assert len(written) == 3
    for version in ("1.3", "1.4", "2.0"):
        assert _findings(root, version) == []
    results = validate_table(root)
    assert not [f for r in results for f in r.findings if f.code == "TABLE_UNREFERENCED_FILE"]


def test_a_1_4_1_btree_index_meta_without_flag_bytes_is_read_as_2_0_reads_it(tmp_path):
    """Java 1.4.1 wrote BTreeIndexMeta: SortedIndexFileMeta's bytes without the format byte and null-key flags."""
    root = corpus_table(tmp_path, TABLE)
    _as_btree(root, lambda meta: meta[:-2])
    assert _findings(root, "2.0") == []


def test_a_btree_index_meta_narrower_than_the_file_is_a_must_for_1_4_and_2_0(tmp_path):
    root = corpus_table(tmp_path, TABLE)

    def narrow(meta: bytes) -> bytes:
        _first, last, nulls = bgix.read_index_meta(meta)
        return bgix.index_meta(last, last, nulls)

    _as_btree(root, narrow)
    for version in ("1.4", "2.0"):
        found = _findings(root, version)
        assert found
        assert {(c, s) for c, s, _ in found} == {("GLOBAL_INDEX_META", "must")}
    assert {s for _, s, _ in _findings(root, "1.3")} <= {"should"}  # no global index reader before 1.4


def test_a_damaged_btree_index_in_a_table_gets_the_layout_finding(tmp_path):
    root = corpus_table(tmp_path, TABLE)
    written = _as_btree(root)
    name = sorted(written)[0]
    path = root / "index" / name
    data = bytearray(path.read_bytes())
    data[-8] = 9  # the footer's version
    path.write_bytes(bytes(data))
    results = validate_table(root)
    found = [(f.code, f.severity, Path(r.file).name) for r in results for f in r.findings if f.code.startswith("BTREE")]
    assert found == [("BTREE_BAD_VERSION", "must", name)]


def _swapped(values: list) -> list:
    """The column with its first two distinct non-null values exchanged: the same keys, nulls and counts, other
    rows under each key."""
    distinct = list(dict.fromkeys(v for v in values if v is not None))
    a, b = distinct[:2]
    return [b if v == a else a if v == b else v for v in values]


def _values_findings(root: Path, version: str) -> list[tuple[str, str]]:
    results = validate_table(root, java_version=version)
    out = [(f.code, f.severity) for r in results for f in r.findings if f.code == "GLOBAL_INDEX_VALUES"]
    skipped = [f for r in results for f in r.findings if f.message.startswith("global index values")]
    assert not skipped  # every index of these tables is compared with its rows
    return out


def test_javas_global_indexes_hold_the_values_of_their_rows(tmp_path):
    """The corpus's indexes (1.4 payloads) are compared with the column in the data files covering their row
    range and agree; so do the kit's BGIX and BTree forms of them."""
    root = corpus_table(tmp_path, TABLE)
    assert _values_findings(root, "1.4") == []
    _as_bgix(root)
    assert _values_findings(root, "2.0") == []
    root = corpus_table(tmp_path / "b", TABLE)
    _as_btree(root)
    assert _values_findings(root, "2.0") == []


def test_an_index_over_row_ids_another_partition_shares_is_a_must(tmp_path):
    """The partitioned table's two files both start at row id 0: the f1=10 index's rows 0..2 stand for f1=20's
    rows too, whose values differ (Java 1.4.2 loses them: test_global_index_java)."""
    root = corpus_table(tmp_path, "append_with_global_index_with_partition")
    assert _values_findings(root, "1.4") == [("GLOBAL_INDEX_VALUES", "must")]
    found = [f for r in validate_table(root, java_version="1.4") for f in r.findings if f.code == "GLOBAL_INDEX_VALUES"]
    assert "row ids 0, 1, 2" in found[0].message


def test_an_index_holding_other_rows_than_the_data_is_a_must(tmp_path):
    """Each layout with two values' rows exchanged: the readers of that layout get GLOBAL_INDEX_VALUES."""
    root = corpus_table(tmp_path / "payload", TABLE)
    _rewrite(root, lambda t, vs: bitmap.build(t, _swapped(vs), version=2), None)
    assert set(_values_findings(root, "1.4")) == {("GLOBAL_INDEX_VALUES", "must")}
    root = corpus_table(tmp_path / "bgix", TABLE)
    _rewrite(root, lambda t, vs: bgix.encode(t, _swapped(vs)), None)
    assert set(_values_findings(root, "2.0")) == {("GLOBAL_INDEX_VALUES", "must")}
    root = corpus_table(tmp_path / "btree", TABLE)
    _rewrite(root, lambda t, vs: btree.encode(t, _swapped(vs)), "btree")
    for version in ("1.4", "2.0"):
        assert set(_values_findings(root, version)) == {("GLOBAL_INDEX_VALUES", "must")}
    assert _values_findings(root, "1.3") == []  # no global index reader before 1.4


def _evolved(tmp_path: Path, new_seq: int, change_old=None, change_new=None) -> Path:
    """TABLE with its one data file written again over the same row ids by data evolution: a second file of
    every column, max sequence number `new_seq` (the first has 1), in the same manifest; `change_old` /
    `change_new` change each column's values of the old / new file (the index was built from the old)."""
    import fastavro
    import pyarrow as pa

    root = corpus_table(tmp_path, TABLE)
    [old] = root.glob("bucket-0/*.parquet")
    table = pq.read_table(old)

    def changed(fn) -> pa.Table:
        columns = [pa.array(fn(c.to_pylist()), c.type) if fn else c for c in table.columns]
        return pa.Table.from_arrays(columns, schema=table.schema)

    pq.write_table(changed(change_old), old)
    new = old.with_name(old.name.replace("-0.parquet", "-1.parquet"))
    pq.write_table(changed(change_new), new)
    [manifest] = root.glob("manifest/manifest-[0-9a-f]*")
    with manifest.open("rb") as fh:
        reader = fastavro.reader(fh)
        schema, records, codec = reader.writer_schema, list(reader), reader.codec
    added = records[0] | {"_FILE": dict(records[0]["_FILE"])}
    sizes = {old.name: old.stat().st_size, new.name: new.stat().st_size}
    added["_FILE"].update(_FILE_NAME=new.name, _MIN_SEQUENCE_NUMBER=new_seq, _MAX_SEQUENCE_NUMBER=new_seq)
    records.append(added)
    for r in records:
        r["_FILE"]["_FILE_SIZE"] = sizes[r["_FILE"]["_FILE_NAME"]]
    with manifest.open("wb") as fh:
        fastavro.writer(fh, fastavro.parse_schema(schema), records, codec=codec)

    def counted(rec: dict) -> dict:
        if rec["_FILE_NAME"] == manifest.name:
            rec["_NUM_ADDED_FILES"] = len(records)
        return rec

    rewrite_avro(root, "manifest_list", record_fn=counted)
    sync_list_sizes(root)
    return root


def _index_verdicts(root: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """GLOBAL_INDEX_VALUES findings (for Java 1.4, which reads the corpus's index layout), and the messages
    of the not-checked warnings about index values."""
    results = validate_table(root, java_version="1.4")
    found = [(f.code, f.severity) for r in results for f in r.findings if f.code == "GLOBAL_INDEX_VALUES"]
    skipped = [f.message for r in results for f in r.findings if f.message.startswith("global index values")]
    return found, skipped


def _other_musts(root: Path) -> list[str]:
    return [f.code for r in validate_table(root, java_version="1.4") for f in r.findings if f.severity == "must"]


def _swap_all(values: list) -> list:
    return _swapped(values) if len({v for v in values if v is not None}) >= 2 else values


def test_rows_written_again_by_data_evolution_are_compared_as_java_merges_them(tmp_path):
    """Two files over one row-id range: Java reads each field from the one with the larger max sequence
    number (DataEvolutionSplitRead), so the index must hold the newer file's values, whatever the older holds."""
    root = _evolved(tmp_path / "same", 2)
    assert _other_musts(root) == []
    assert _index_verdicts(root) == ([], [])
    root = _evolved(tmp_path / "newer-differs", 2, change_new=_swap_all)
    found, skipped = _index_verdicts(root)
    assert set(found) == {("GLOBAL_INDEX_VALUES", "must")}
    assert skipped == []
    root = _evolved(tmp_path / "older-differs", 2, change_old=_swap_all)
    assert _index_verdicts(root) == ([], [])
    root = _evolved(tmp_path / "tie", 1, change_new=_swap_all)  # which file wins is Java's listing order
    found, skipped = _index_verdicts(root)
    assert found == []
    assert len(skipped) == 1


def _with_vector(tmp_path: Path, deleted: list[int], change_rows: list[int]) -> Path:
    """TABLE with a deletion vector over its data file (rows `deleted`, in a DELETION_VECTORS index entry of the
    latest index manifest) and the data file's values at `change_rows` replaced by another row's (the index
    was built from the values before)."""
    import numpy as np
    import pyarrow as pa
    from support.java_mutations import avro_read, avro_write, latest_snapshot

    from paimon_conform.layouts.deletion_vectors import entry as dv

    root = corpus_table(tmp_path, TABLE)
    [data_file] = root.glob("bucket-0/*.parquet")
    table = pq.read_table(data_file)
    columns = []
    for c in table.columns:
        values = c.to_pylist()
        for r in change_rows:
            values[r] = next(v for v in values if v is not None and v != values[r])
        columns.append(pa.array(values, c.type))
    pq.write_table(pa.Table.from_arrays(columns, schema=table.schema), data_file)

    def sized(rec: dict) -> dict:
        rec["_FILE"]["_FILE_SIZE"] = data_file.stat().st_size
        return rec

    rewrite_avro(root, "manifest", record_fn=sized)
    sync_list_sizes(root)
    blob, spans = dv.encode_file([("bitmap32", np.array(deleted))])
    name = "index-5f0c6c3e-0d0e-4a4b-9a51-3c1d2e3f4a5b-0"
    (root / "index" / name).write_bytes(blob)
    manifest = root / "manifest" / latest_snapshot(root)["indexManifest"]
    schema, records, codec = avro_read(manifest)
    ((offset, length),) = spans
    ranges = [{"f0": data_file.name, "f1": offset, "f2": length, "_CARDINALITY": len(deleted)}]
    vector = records[0] | {"_INDEX_TYPE": "DELETION_VECTORS", "_FILE_NAME": name, "_FILE_SIZE": len(blob)}
    records.append(vector | {"_ROW_COUNT": 1, "_DELETIONS_VECTORS_RANGES": ranges, "_GLOBAL_INDEX": None})
    avro_write(manifest, schema, records, codec)
    return root


def test_rows_a_deletion_vector_deletes_are_not_held_to_the_index(tmp_path):
    """Java's read drops deleted rows whatever the index says: other values at deleted rows are no finding,
    at a row the vector keeps they are, and every index is compared (no not-checked warning)."""
    root = _with_vector(tmp_path / "deleted", [1, 4], change_rows=[1, 4])
    assert _other_musts(root) == []
    assert _index_verdicts(root) == ([], [])
    root = _with_vector(tmp_path / "kept", [1], change_rows=[1, 4])
    found, skipped = _index_verdicts(root)
    assert set(found) == {("GLOBAL_INDEX_VALUES", "must")}
    assert skipped == []
