"""The reader's data-evolution merge (table/read/data_evolution.py), case by case: which file gives each column,
how `.blob` files tile a row range, and what it refuses. Java's own merge is run on the Java-written BLOB tables
(test_table_reader.py); these cases pin the rules the kit applies where Java 2.0.0's DataEvolutionSplitRead refuses
or where the tables at hand do not reach."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pytest

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.layouts.blob_file import codec as blob_codec
from paimon_conform.table.read import data_evolution as de
from paimon_conform.table.schema import Schemas, TableSchema
from paimon_conform.table.table_layout import Field

EVIDENCE = ("contract",)

SCHEMA = TableSchema(
    id=0,
    fields=[
        Field(0, "id", parse_type("INT")),
        Field(1, "name", parse_type("STRING")),
        Field(2, "picture", parse_type("INT")),  # replaced below by a BLOB column
    ],
    partition_keys=[],
    primary_keys=[],
    options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"},
)
BLOB_SCHEMA = TableSchema(
    id=0,
    fields=[
        Field(0, "id", parse_type("INT")),
        Field(1, "name", parse_type("STRING")),
        Field(2, "picture", DataType("UNSUPPORTED")),
    ],
    partition_keys=[],
    primary_keys=[],
    options=SCHEMA.options,
    unreadable_types={"picture": "BLOB"},
)


@dataclass
class F:
    """A file of a split as the planner hands it over."""

    relative: str
    row_ids: de.RowIds
    deleted: object = None
    schema_id: int | None = None


def _file(name: str, first: int, count: int, cols, seq: int) -> F:
    return F(name, de.RowIds(first, count, None if cols is None else tuple(cols), seq))


def _reader(tables: dict[str, pa.Table]):
    read = []

    def read_file(f, columns):
        read.append((f.relative, tuple(columns)))
        return tables[f.relative].select(columns)

    return read_file, read


def _schemas(tmp_path: Path, schema: TableSchema) -> Schemas:
    return Schemas(tmp_path, schema)


def test_groups_are_the_overlapping_row_id_ranges_in_row_id_order():
    files = [
        _file("c", 10, 5, None, 1),
        _file("a", 0, 10, None, 1),
        _file("b", 0, 10, ["x"], 2),
        _file("d", 14, 2, None, 3),
    ]
    assert [[f.relative for f in g] for g in de.groups(files)] == [["a", "b"], ["c", "d"]]
    assert [[f.relative for f in g] for g in de.groups([_file("a", 0, 3, None, 1), _file("b", 3, 3, None, 1)])] == [
        ["a"],
        ["b"],
    ]


def test_each_column_comes_from_the_newest_file_that_holds_it_and_a_column_none_holds_is_null(tmp_path):
    base = pa.table({"id": [1, 2], "name": ["a", "b"], "picture": [10, 20]})
    update = pa.table({"name": ["A", "B"]})
    read_file, read = _reader({"base": base, "update": update})
    group = [_file("base", 0, 2, None, 1), _file("update", 0, 2, ["name"], 5)]
    rows = de.read_group(tmp_path, SCHEMA, _schemas(tmp_path, SCHEMA), group, read_file)
    assert rows.to_pylist() == [{"id": 1, "name": "A", "picture": 10}, {"id": 2, "name": "B", "picture": 20}]
    assert sorted(read) == [("base", ("id", "picture")), ("update", ("name",))]
    older = [_file("base", 0, 2, None, 9), _file("update", 0, 2, ["name"], 5)]  # the update is older: not read
    read_file, read = _reader({"base": base, "update": update})
    assert de.read_group(tmp_path, SCHEMA, _schemas(tmp_path, SCHEMA), older, read_file).column("name").to_pylist() == [
        "a",
        "b",
    ]
    partial = [_file("ids", 0, 2, ["id"], 1)]
    read_file, _ = _reader({"ids": pa.table({"id": [7, 8]})})
    rows = de.read_group(tmp_path, SCHEMA, _schemas(tmp_path, SCHEMA), partial, read_file)
    assert rows.column("name").to_pylist() == [None, None]


def test_blob_files_tile_the_range_in_row_id_order(tmp_path):
    (tmp_path / "b1.blob").write_bytes(blob_codec.encode([b"\x01\x02", None]))
    (tmp_path / "b2.blob").write_bytes(blob_codec.encode([b"\xff"]))
    read_file, _ = _reader({"d": pa.table({"id": [1, 2, 3], "name": ["x", "y", "z"]})})
    group = [
        _file("d", 5, 3, ["id", "name"], 1),
        _file("b2.blob", 7, 1, ["picture"], 1),
        _file("b1.blob", 5, 2, ["picture"], 1),
    ]
    rows = de.read_group(tmp_path, BLOB_SCHEMA, _schemas(tmp_path, BLOB_SCHEMA), group, read_file)
    assert rows.column("picture").to_pylist() == [b"\x01\x02", None, b"\xff"]


@pytest.mark.parametrize(
    ("group", "refusal"),
    [
        ([("d", 0, 3, None, 1), ("e", 0, 2, ["name"], 2)], "share row ids with other ranges"),
        ([("b1.blob", 0, 2, ["picture"], 1)], "held by .blob files only"),
        ([("d", 0, 3, None, 1), ("b1.blob", 1, 2, ["picture"], 1)], "starts at row id 1, not 0"),
        ([("d", 0, 3, None, 1), ("b1.blob", 0, 2, ["picture"], 1)], "end at row id 2"),
        ([("d", 0, 2, None, 1), ("b1.blob", 0, 2, ["picture"], 2), ("b2.blob", 0, 2, ["picture"], 1)], "not 2"),
        ([("d", 0, 2, None, 1), ("b1.blob", 0, 2, ["name", "picture"], 1)], "not one column"),
    ],
)
def test_what_the_merge_refuses(tmp_path, group, refusal):
    (tmp_path / "b1.blob").write_bytes(blob_codec.encode([b"a", b"b"]))
    (tmp_path / "b2.blob").write_bytes(blob_codec.encode([b"c", b"d"]))
    read_file, _ = _reader(
        {"d": pa.table({"id": [1, 2, 3], "name": ["x", "y", "z"]}), "e": pa.table({"name": ["q", "r"]})}
    )
    files = [_file(*g) for g in group]
    with pytest.raises(UsageError, match=refusal):
        de.read_group(tmp_path, BLOB_SCHEMA, _schemas(tmp_path, BLOB_SCHEMA), files, read_file)


def test_a_deletion_vector_on_merged_files_is_refused(tmp_path):
    read_file, _ = _reader({"d": pa.table({"id": [1, 2]}), "e": pa.table({"name": ["q", "r"]})})
    files = [_file("d", 0, 2, ["id"], 1), _file("e", 0, 2, ["name"], 2)]
    files[0].deleted = object()
    with pytest.raises(UsageError, match="deletion vector"):
        de.read_group(tmp_path, SCHEMA, _schemas(tmp_path, SCHEMA), files, read_file)


def test_a_blob_file_with_another_row_count_than_its_entry_is_refused(tmp_path):
    (tmp_path / "b1.blob").write_bytes(blob_codec.encode([b"a", b"b", b"c"]))
    read_file, _ = _reader({"d": pa.table({"id": [1, 2], "name": ["x", "y"]})})
    files = [_file("d", 0, 2, ["id", "name"], 1), _file("b1.blob", 0, 2, ["picture"], 1)]
    with pytest.raises(UsageError, match="3 rows, its manifest entry says 2"):
        de.read_group(tmp_path, BLOB_SCHEMA, _schemas(tmp_path, BLOB_SCHEMA), files, read_file)


def test_a_lone_files_deletion_vector_drops_its_rows_and_a_missing_column_is_null_for_the_rest(tmp_path):
    import numpy as np

    f = _file("ids", 0, 3, ["id"], 1)
    f.deleted = np.array([1])
    read_file, _ = _reader({"ids": pa.table({"id": [7, 9]})})  # the reader applied the vector: rows 0 and 2
    rows = de.read_group(tmp_path, SCHEMA, _schemas(tmp_path, SCHEMA), [f], read_file)
    assert rows.to_pylist() == [{"id": 7, "name": None, "picture": None}, {"id": 9, "name": None, "picture": None}]
