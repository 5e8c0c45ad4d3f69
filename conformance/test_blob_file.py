"""The `.blob` data file: the encoder, the generated parser, the fast reader and the case agree; any bytes
get the same first fault from the spec's parser and the fast reader; Java-written files from the
third-party corpus decode and are rebuilt byte for byte."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.environment import GOLDEN, PAIMON_CPP_TABLES, ROOT, corpus_table, require_corpus
from support.strategies import damaged
from support.testees import opened

from golden import blob_file as generator
from paimon_conform.core import delta_varint, structure
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.java_releases import judge
from paimon_conform.layouts.blob_file import codec
from paimon_conform.layouts.blob_file import entry as blob_file
from paimon_conform.layouts.blob_file.elements import BLOB, element_type
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java", "third-party", "kit", "contract")

rows = st.lists(st.one_of(st.binary(max_size=80), st.none(), st.just(codec.PLACEHOLDER)), max_size=12)


@given(rows)
def test_encoder_spec_parser_fast_reader_and_case_agree(values):
    data = codec.encode(values)
    obj = blob_file._spec(data, BLOB)
    got = [None if s.is_null else codec.PLACEHOLDER if s.is_placeholder else s.record.payload for s in obj.records]
    assert got == values
    loaded = codec.load(data)
    assert codec.values(data, loaded) == values
    assert [(s.entry.ofs_record, s.entry.len_record) for s in obj.records] == [(r.offset, r.length) for r in loaded]
    placeholders = codec.PLACEHOLDER in values  # Java 1.4.2 cannot read them (run: test_testee_reference)
    assert [f.code for f in blob_file.validate(data)] == ["BLOB_PLACEHOLDER_NEEDS_2_0"] * placeholders
    assert judge(blob_file.validate(data)) == []
    case = blob_file.inspect(data)
    assert len(case["rows"]) == len(values)
    assert blob_file.encode(json.loads(json.dumps(case))) == data


@given(rows, st.data())
def test_a_changed_byte_gets_the_same_first_fault_from_both_readers(values, draw):
    """Both readers meet the same first fault at the same field and offset; the must-findings are exactly
    the faults Java's BlobFileMeta refuses, and what Java's reader ignores (record framing, bytes no row owns
    that are not a record) is should."""
    data = damaged(codec.encode(values), draw)
    found = blob_file.validate(data)
    assert "BLOB_DECODERS_DISAGREE" not in {f.code for f in found}
    try:
        loaded, err = codec.load(data), None
    except LayoutError as e:
        loaded, err = None, e
    if err is not None:
        ignored = isinstance(err, codec.UnownedBytes) and not err.holds_record  # Java reads every row (below)
        assert [(f.code, f.severity) for f in found] == [(err.code, "should" if ignored else "must")]
        return
    found = [f for f in found if f.code != "BLOB_PLACEHOLDER_NEEDS_2_0"]
    assert all(f.severity == "should" and f.code in blob_file.UNCHECKED_BY_JAVA for f in found)
    assert len(found) == len(codec.record_faults(data, loaded))


@given(st.integers(-(2**63), 2**63 - 1))
def test_zigzag_varints_read_back_through_the_common_spec(value):
    data = delta_varint.zigzag_varint(value)
    assert len(data) <= delta_varint.MAX_VARINT
    assert structure.parse("zigzag_varint", data).value == value


def test_a_file_is_checked_piece_by_piece_with_the_same_result(monkeypatch, tmp_path):
    monkeypatch.setattr(codec, "CHUNK", 7)  # CRCs across many pieces
    data = bytearray(codec.encode([bytes(range(200)), None, b"abc" * 30]))
    data[100] ^= 0xFF  # inside the first record: its CRC no longer matches
    path = tmp_path / "x.blob"
    path.write_bytes(data)
    with path.open("rb") as fh:
        src = codec.Source(file=fh, size=len(data))
        rows_ = codec.load(src)
        from_file = codec.record_faults(src, rows_)
    from_bytes = codec.record_faults(bytes(data), codec.load(bytes(data)))
    assert [(e.code, e.path, e.offset) for e in from_file] == [(e.code, e.path, e.offset) for e in from_bytes]
    assert [e.code for e in from_file] == ["BLOB_CRC_MISMATCH"]


@pytest.mark.parametrize("bad", [1, "text", [b"x"]])
def test_a_row_that_is_not_bytes_none_or_placeholder_is_an_encode_error(bad):
    with pytest.raises(EncodeError):
        codec.encode([bad])


def test_java_written_blob_files_in_the_corpus_decode_and_are_rebuilt_byte_for_byte():
    corpus = require_corpus()
    files = sorted((corpus / "files" / "paimon-cpp").rglob("*.blob"))
    assert len(files) >= 5
    for f in files:
        data = f.read_bytes()
        assert blob_file.validate(data) == [], f
        loaded = codec.load(data)
        assert loaded
        assert all(r.has_record for r in loaded)
        assert codec.encode(codec.values(data, loaded)) == data, f


def test_the_goldens_named_after_corpus_files_are_those_files():
    """The files Java 1.4.2 and 2.0.0 write for two corpus files' rows are those files, byte for byte."""
    corpus = require_corpus()
    for stem, (values, twin) in generator.JAVA_TWINS.items():
        java = corpus.joinpath(*PAIMON_CPP_TABLES, twin).read_bytes()
        for release in ("1.4.2", "2.0.0"):
            assert (ROOT / "golden" / "blob_file" / f"java-{release}" / f"{stem}.bin").read_bytes() == java
        assert codec.values(java, codec.load(java)) == values


def test_detect_names_a_blob_file_and_not_a_text_file():
    assert blob_file.detect(codec.encode([b"x"]))
    assert not blob_file.detect(b"hello world, not a blob\x01")


BLOB_TABLE = "blob_data_evolution_with_dense_stats"


def _blob_table(tmp_path: Path) -> Path:
    """A copy of paimon-cpp's Java-written table with one .blob file (rows Lily, Alice)."""
    return corpus_table(tmp_path, BLOB_TABLE)


def _table_findings(root: Path) -> list[tuple[str, str, str]]:
    return [
        (f.code, f.severity, Path(r.file).name)
        for r in validate_table(root)
        for f in r.findings
        if f.severity != "warning" or (f.code == "FEATURE_NOT_CHECKED" and "BLOB" in f.message)
    ]


def test_a_java_written_blob_table_is_clean_and_its_blob_files_are_checked(tmp_path):
    root = _blob_table(tmp_path)
    assert _table_findings(root) == []
    [blob] = root.glob("bucket-0/*.blob")
    data = bytearray(blob.read_bytes())
    data[16] ^= 0x01  # the first record's CRC: Java does not check it
    blob.write_bytes(data)
    assert _table_findings(root) == [("BLOB_CRC_MISMATCH", "should", blob.name)]
    blob.write_bytes(bytes(data[:-1]) + b"\x02")  # version 2: Java refuses the file
    assert _table_findings(root) == [("BLOB_BAD_VERSION", "must", blob.name)]


def test_a_blob_file_with_another_row_count_and_size_than_its_entry_is_a_must(tmp_path):
    root = _blob_table(tmp_path)
    [blob] = root.glob("bucket-0/*.blob")
    blob.write_bytes(codec.encode([b"Lily", b"Alice", b"Bob"]))
    found = {(code, sev) for code, sev, name in _table_findings(root) if name.startswith("manifest-")}
    assert found == {("MANIFEST_ROW_COUNT", "must"), ("MANIFEST_FILE_SIZE", "must")}


def test_blob_columns_are_found_by_type_not_by_a_nested_field_name():
    """A .blob file's _WRITE_COLS must name a BLOB column; a ROW whose field is called `blob` is not one."""
    from paimon_conform.table.features import blob_columns, blob_element_type
    from paimon_conform.table.schema import TableSchema

    types = {
        "plain": "BLOB NOT NULL",
        "array": {"type": "ARRAY", "element": "BLOB"},
        "map": {"type": "MAP", "key": "STRING", "value": "BLOB NOT NULL"},
        "row": {"type": "ROW", "fields": [{"id": 1, "name": "blob", "type": "INT"}]},
        "list": {"type": "ARRAY", "element": "BYTES"},
    }
    schema = TableSchema(0, [], [], [], {}, types)
    assert blob_columns(schema) == {"plain", "array", "map"}
    kinds = {name: blob_element_type(schema, name) for name in types}
    assert {n: (t.kind, str(t.key)) for n, t in kinds.items() if t} == {
        "plain": ("blob", "None"),
        "array": ("array", "None"),
        "map": ("map", "STRING"),
    }


CAST_TABLE = "blob_append_table_alter_table_with_cast_with_data_evolution"


def _framed_table(tmp_path: Path, raw_type: Any, rows_of: Callable[[int], list]) -> Path:
    """paimon-cpp's Java-written BLOB table with its BLOB column (field 8) retyped in both schemas, and every .blob file
    rewritten with as many rows of that type (`rows_of(n)`), the manifests' and lists' _FILE_SIZE kept in step."""
    from support.java_mutations import rewrite_avro, sync_list_sizes

    root = corpus_table(tmp_path, CAST_TABLE)
    for schema_file in root.glob("schema/schema-*"):
        doc = json.loads(schema_file.read_text())
        for f in doc["fields"]:
            if f["id"] == 8:  # `blob` in schema-0, renamed f5 in schema-1
                f["type"] = raw_type
        schema_file.write_text(json.dumps(doc))
    etype = element_type(raw_type)
    sizes = {}
    for blob in root.rglob("*.blob"):
        n = len(codec.load(blob.read_bytes()))
        blob.write_bytes(codec.encode(rows_of(n), etype))
        sizes[blob.name] = blob.stat().st_size

    def resize(rec: dict) -> dict:
        name = rec["_FILE"]["_FILE_NAME"]
        if name in sizes:
            rec["_FILE"]["_FILE_SIZE"] = sizes[name]
        return rec

    rewrite_avro(root, "manifest", record_fn=resize)
    sync_list_sizes(root)
    return root


ARRAY_BLOB = {"type": "ARRAY", "element": "BLOB"}


def _kit_findings(root: Path) -> list[tuple[str, str, str]]:
    return [(c, s, n) for c, s, n in _table_findings(root) if s != "warning"]


def test_array_blob_rows_in_a_table_are_read_through_their_framing(tmp_path):
    """ARRAY<BLOB> rows framed as Java 2.0 writes them validate clean; a broken framing in one row is one must
    on that file, which Java 2.0's reader refuses, and no FEATURE_NOT_CHECKED is left for the column."""
    root = _framed_table(tmp_path, ARRAY_BLOB, lambda n: [[b"a" * i, None, b""] for i in range(n)])
    assert _table_findings(root) == []
    blob = sorted(root.rglob("*.blob"))[0]
    data = bytearray(blob.read_bytes())
    data[4 + 4] = 2  # the first row's element-framing version byte (record magic 4, array magic 4)
    blob.write_bytes(bytes(data))
    found = _kit_findings(root)
    assert ("BLOB_ARRAY_BAD_VERSION", "must", blob.name) in found
    assert {c for c, s, _ in found if s == "must"} == {"BLOB_ARRAY_BAD_VERSION"}


def test_map_blob_keys_are_checked_by_type_and_for_repeats(tmp_path):
    int_map = {"type": "MAP", "key": "INT", "value": "BLOB"}
    root = _framed_table(tmp_path / "ok", int_map, lambda n: [[(i, b"x"), (None, None), (-7, b"")] for i in range(n)])
    assert _table_findings(root) == []
    root = _framed_table(tmp_path / "dup", int_map, lambda n: [[(1, b"x"), (1, b"y")] for _ in range(n)])
    assert {c for c, s, _ in _kit_findings(root) if s == "must"} == {"BLOB_MAP_DUPLICATE_KEY"}
    bool_map = {"type": "MAP", "key": "BOOLEAN", "value": "BLOB"}
    root = _framed_table(tmp_path / "bool", bool_map, lambda n: [[(True, b"x")] for _ in range(n)])
    found = [f for r in validate_table(root) for f in r.findings if f.severity == "must"]
    assert {f.code for f in found} == {"BLOB_MAP_KEY_TYPE"}
    assert all(f.java_releases == ("2.0",) and "after 2.0.0 also reads" in f.message for f in found)


def test_managed_blob_packs_and_their_reference_sidecars_are_named_not_read(tmp_path):
    """Java 2.0's managed BLOB storage (blob-field in a primary-key table) puts `.managed.blob` packs and one
    `<data file>.blobref` sidecar per data file (in its _EXTRA_FILES) into the bucket directory: recognized by
    name (they were TABLE_BAD_FILE_NAME musts), named once as not checked, the packs not called unreferenced."""
    from support.java_mutations import rewrite_avro, sync_list_sizes

    root = corpus_table(tmp_path, "pk_table_partial_update")
    assert _kit_findings(root) == []
    data = sorted(root.glob("bucket-0/data-*.parquet"))[0]
    pack = data.with_name("data-5f0c6c3e-0d0e-4a4b-9a51-3c1d2e3f4a5b-0.managed.blob")
    pack.write_bytes(codec.encode([b"payload"]))
    ref = data.with_name(data.name + ".blobref")
    ref.write_bytes(b"PBLR\x01\x00\x00\x00\x00")  # not read: Java 2.0.0 reads no .blobref

    def own(rec: dict) -> dict:
        if rec["_FILE"]["_FILE_NAME"] == data.name:
            rec["_FILE"]["_EXTRA_FILES"] = [*rec["_FILE"]["_EXTRA_FILES"], ref.name]
        return rec

    rewrite_avro(root, "manifest", record_fn=own)
    sync_list_sizes(root)
    findings = [f for r in validate_table(root) for f in r.findings]
    assert [(f.code, f.severity) for f in findings if f.severity != "warning"] == []
    managed = [f for f in findings if f.code == "FEATURE_NOT_CHECKED" and "managed BLOB" in f.message]
    assert len(managed) == 1
    assert not [f for f in findings if f.code == "TABLE_UNREFERENCED_FILE" and f.file.endswith((pack.name, ref.name))]


@pytest.mark.parametrize("release", ["1.4.2", "2.0.0"])
def test_bytes_no_row_owns_are_a_should_because_java_reads_every_row(release):
    """One stray byte between the last record and the index: Java's reader (run here) returns both rows as
    written, so the kit says should; a whole record the index leaves out is a lost row and stays a must."""
    stray = codec.encode([b"Lily", b"Alice"])
    cut = len(stray) - 5 - 2  # the two-byte index, then the footer
    stray = stray[:cut] + b"\x00" + stray[cut:-5] + (2).to_bytes(4, "little") + b"\x01"
    found = blob_file.validate(stray)
    assert [(f.code, f.severity) for f in found] == [("BLOB_INDEX_MISMATCH", "should")]
    with opened(f"java-{release}") as java:
        reply, why = java.exchange({"op": "decode", "kind": "blob-file", "data": stray.hex()}, "decode_reply")
    assert reply is not None, why
    assert [bytes.fromhex(r["data"]) for r in reply["case"]["rows"]] == [b"Lily", b"Alice"]
    lost = (GOLDEN / "blob_file" / "must-reject" / "index-missing-a-row.bin").read_bytes()
    assert [(f.code, f.severity) for f in blob_file.validate(lost)] == [("BLOB_INDEX_MISMATCH", "must")]
