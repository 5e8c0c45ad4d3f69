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


def test_retractions_are_refused_unless_ignored():
    rows = _rows(("-D", "+I", "+I", "+I"))
    with pytest.raises(UsageError, match="retractions"):
        merge.merge(rows, ["k"], SEQ, KIND, merge.engine(schema({"merge-engine": "partial-update"})))
    ignored = merge.engine(schema({"merge-engine": "partial-update", "partial-update.ignore-delete": "true"}))
    got = {r["k"]: (r["v"], r["d"]) for r in merge.merge(rows, ["k"], SEQ, KIND, ignored).to_pylist()}
    assert got == {1: ("c", Decimal("2.00")), 2: ("b", None)}
    dedup = {r["k"] for r in merge.merge(rows, ["k"], SEQ, KIND, merge.engine(schema({}))).to_pylist()}
    assert dedup == {2}, "deduplicate: the -D removes key 1"
