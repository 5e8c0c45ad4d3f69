"""The reader's merge engines (table/read/merge.py): what it refuses instead of merging wrongly, and the merge of
each engine on rows whose answer is worked out by hand from the engines' documented rules. The rows Java itself
returns for each engine are checked in test_spark_connector.py (tables Paimon's Spark connector writes)."""

from __future__ import annotations

import json
from decimal import Decimal

import pyarrow as pa
import pytest

from paimon_conform.core.errors import UsageError
from paimon_conform.table import table_layout as tl
from paimon_conform.table.read import merge
from paimon_conform.table.schema import parse_schema

EVIDENCE = ("contract", "third-party")  # refusals; merge rules as Paimon documents its engines

SEQ, KIND = "_SEQUENCE_NUMBER", "_VALUE_KIND"


def schema(options: dict[str, str]):
    doc = {
        "version": 3,
        "id": 0,
        "fields": [
            {"id": 0, "name": "k", "type": "INT NOT NULL"},
            {"id": 1, "name": "v", "type": "STRING"},
            {"id": 2, "name": "d", "type": "DECIMAL(12, 2)"},
        ],
        "highestFieldId": 2,
        "partitionKeys": [],
        "primaryKeys": ["k"],
        "options": options,
    }
    return parse_schema(json.dumps(doc), "schema-0")


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"merge-engine": "nonsense"}, "merge-engine 'nonsense'"),
        ({"sequence.field": "d"}, "sequence.field"),
        ({"merge-engine": "partial-update", "fields.v.sequence-group": "d"}, "sequence groups"),
        ({"merge-engine": "aggregation", "fields.d.aggregate-function": "collect"}, "aggregate function 'collect'"),
        ({"merge-engine": "partial-update", "fields.d.aggregate-function": "sum"}, "aggregate functions"),
        ({"merge-engine": "aggregation", "fields.v.aggregate-function": "sum"}, "sum of v .*not a number"),
        ({"merge-engine": "aggregation", "fields.v.aggregate-function": "bool_or"}, "not a BOOLEAN"),
    ],
)
def test_what_the_kit_cannot_merge_is_refused(options, words):
    with pytest.raises(UsageError, match=words):
        merge.engine(schema(options))


def _rows(kinds=("+I", "+I", "+I", "+I")) -> pa.Table:
    # key 1 in sequence order: (1, 'a', 1.25), (2, 'c', 2.00), (3, NULL, NULL); key 2: (2, 'b', NULL)
    return pa.table(
        {
            "k": pa.array([1, 1, 2, 1], pa.int32()),
            SEQ: pa.array([3, 1, 2, 2], pa.int64()),
            KIND: pa.array([tl.row_kind_byte(k) for k in kinds], pa.int8()),
            "v": pa.array([None, "a", "b", "c"]),
            "d": pa.array([None, Decimal("1.25"), None, Decimal("2.00")], pa.decimal128(12, 2)),
        }
    )


@pytest.mark.parametrize(
    ("options", "key1"),
    [
        ({}, (None, None)),  # deduplicate: the last row
        ({"merge-engine": "first-row"}, ("a", Decimal("1.25"))),
        ({"merge-engine": "partial-update"}, ("c", Decimal("2.00"))),  # NULLs keep the earlier values
        ({"merge-engine": "aggregation"}, ("c", Decimal("2.00"))),  # last_non_null_value by default
        (
            {"merge-engine": "aggregation", "fields.v.aggregate-function": "min", "fields.d.aggregate-function": "sum"},
            ("a", Decimal("3.25")),
        ),
        (
            {"merge-engine": "aggregation", "fields.default-aggregate-function": "first_value"},
            ("a", Decimal("1.25")),
        ),
        ({"merge-engine": "aggregation", "fields.v.aggregate-function": "last_value"}, (None, Decimal("2.00"))),
    ],
)
def test_each_engine_merges_by_its_rule(options, key1):
    out = merge.merge(_rows(), ["k"], SEQ, KIND, merge.engine(schema(options)))
    got = {r["k"]: (r["v"], r["d"]) for r in out.to_pylist()}
    assert got == {1: key1, 2: ("b", None)}


def test_java_fallback_keys_of_ignore_delete_hold_for_every_engine():
    """ignore-delete falls back to first-row. / deduplicate. / partial-update.ignore-delete whatever the engine;
    aggregation.ignore-delete is no key of it."""
    assert merge.engine(schema({"partial-update.ignore-delete": "true"})).ignore_delete
    assert merge.engine(schema({"merge-engine": "aggregation", "first-row.ignore-delete": "true"})).ignore_delete
    assert not merge.engine(schema({"merge-engine": "aggregation", "aggregation.ignore-delete": "true"})).ignore_delete


def test_retractions_are_refused_unless_ignored():
    rows = _rows(("-D", "+I", "+I", "+I"))
    with pytest.raises(UsageError, match="retractions"):
        merge.merge(rows, ["k"], SEQ, KIND, merge.engine(schema({"merge-engine": "partial-update"})))
    ignored = merge.engine(schema({"merge-engine": "partial-update", "partial-update.ignore-delete": "true"}))
    got = {r["k"]: (r["v"], r["d"]) for r in merge.merge(rows, ["k"], SEQ, KIND, ignored).to_pylist()}
    assert got == {1: ("c", Decimal("2.00")), 2: ("b", None)}
    dedup = {r["k"] for r in merge.merge(rows, ["k"], SEQ, KIND, merge.engine(schema({}))).to_pylist()}
    assert dedup == {2}, "deduplicate: the -D removes key 1"


@pytest.mark.parametrize(("engine", "pruned"), [("partial-update", False), ("deduplicate", True)])
def test_indexes_rule_out_a_merged_bucket_only_when_its_row_is_a_written_one(tmp_path, engine, pruned):
    """k=1 is written as (v='x', s=NULL), then (v=NULL, s='y'). Partial-update merges them to ('x', 'y'), which
    `v = 'x' AND s = 'y'` matches though each file's bloom filter rules the file out: the bucket must stay.
    Deduplicate returns the second row, which does not match: the bucket may go."""
    from paimon_conform.layouts.file_index.query import Leaf, Literal
    from paimon_conform.table.read import scan
    from paimon_conform.table.read.reader import logical_rows, read_latest
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    arrow = pa.schema([pa.field("k", pa.int32(), False), pa.field("v", pa.string()), pa.field("s", pa.string())])
    options = {"primary-key": "k", "bucket": "1", "merge-engine": engine, "file-index.bloom-filter.columns": "v,s"}
    for row in ({"k": 1, "v": "x", "s": None}, {"k": 1, "v": None, "s": "y"}):
        plan = write.prepare(tmp_path, arrow, options, False)
        commit.commit(plan, [write.write_task(plan, pa.Table.from_pylist([row], arrow).to_batches(), 0)])
    leaves = [Leaf("v", "eq", [Literal("x", False)]), Leaf("s", "eq", [Literal("y", False)])]
    _, splits, stats = scan.plan(tmp_path, leaves)
    assert (splits == []) == pruned
    assert stats.files_skipped_by_index == (2 if pruned else 0)
    schema, rows = read_latest(tmp_path)
    merged = {"partial-update": [1, "x", "y"], "deduplicate": [1, None, "y"]}[engine]
    assert logical_rows(schema, rows) == [merged]
