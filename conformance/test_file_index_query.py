"""Predicates over a file-index container: parsing, AND/OR across columns, top-k, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap

from paimon_conform.cli import main
from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.file_index import entry as fi
from paimon_conform.layouts.file_index import query

EVIDENCE = ("kit",)

TYPES = {"a": "INT", "b": "STRING", "c": "BIGINT", "d": "INT"}
INDEXES = {"a": "range-bitmap", "b": "bitmap", "c": "bsi", "d": "bloom-filter"}
ROW = st.fixed_dictionaries(
    {
        "a": st.none() | st.integers(-5, 5),
        "b": st.none() | st.sampled_from(["x", "y", "z"]),
        "c": st.none() | st.integers(-3, 3),
        "d": st.integers(0, 1000),
    }
)


def container(rows: list[dict]) -> bytes:
    """A container with one index per column, built from the rows."""
    columns = [
        {"name": n, "type": TYPES[n], "values": [r[n] for r in rows], "indexes": [{"index_type": INDEXES[n]}]}
        for n in TYPES
    ]
    return fi.encode({"case_format": 1, "kind": "file-index", "columns": columns})


def open_columns(rows: list[dict]) -> dict:
    return query.open_container(container(rows), {n: parse_type(t) for n, t in TYPES.items()})


LEAVES = {
    "a": ["= 2", "!= 2", "< 0", "<= 0", "> -1", ">= 3", "IN (1, -2, 9)", "NOT IN (0, 1)", "BETWEEN -2 AND 2"],
    "b": ["= 'x'", "IN ('x', 'z')", "IS NULL", "IS NOT NULL"],
    "c": ["= -1", "<> 0", "< 2", ">= -1", "BETWEEN -3 AND 0", "NOT IN (3)", "IS NULL"],
}


def matches(row: dict, column: str, leaf: str) -> bool:
    """The SQL meaning of a leaf, evaluated on one row."""
    v = row[column]
    if leaf == "IS NULL":
        return v is None
    if leaf == "IS NOT NULL":
        return v is not None
    if v is None:
        return False
    op, _, rest = leaf.partition(" ")
    if op in ("IN", "NOT"):
        items = [eval(x) for x in rest.removeprefix("IN ").strip("()").split(",")]  # noqa: S307 - test literals
        return (v in items) == (op == "IN")
    if op == "BETWEEN":
        low, high = (int(x) for x in rest.split(" AND "))
        return low <= v <= high
    lit = eval(rest)  # noqa: S307 - test literals
    return {"=": v == lit, "!=": v != lit, "<>": v != lit, "<": v < lit, "<=": v <= lit, ">": v > lit, ">=": v >= lit}[
        op
    ]


@st.composite
def tree(draw, depth: int = 0):
    """(predicate text, function row -> bool)."""
    if depth >= 2 or draw(st.booleans()):
        column = draw(st.sampled_from(sorted(LEAVES)))
        leaf = draw(st.sampled_from(LEAVES[column]))
        return f"{column} {leaf}", lambda r: matches(r, column, leaf)
    op = draw(st.sampled_from(["AND", "OR"]))
    parts = draw(st.lists(tree(depth + 1), min_size=2, max_size=3))
    text = f" {op} ".join(f"({t})" for t, _ in parts)
    fns = [f for _, f in parts]
    return text, (lambda r: all(f(r) for f in fns)) if op == "AND" else (lambda r: any(f(r) for f in fns))


@given(st.lists(ROW, min_size=1, max_size=40), tree())
def test_and_or_across_exact_indexes_equal_a_scan(rows, pred):
    text, fn = pred
    result = query.evaluate(query.parse_predicate(text), open_columns(rows))
    assert result == BitMap(i for i, r in enumerate(rows) if fn(r)), text


def test_bloom_and_missing_indexes_follow_java_result_rules():
    rows = [{"a": i % 3, "b": "x", "c": 1, "d": 10 * i} for i in range(20)]
    cols = open_columns(rows)
    ev = lambda text: query.evaluate(query.parse_predicate(text), cols)  # noqa: E731
    assert ev("d = 30") == query.REMAIN  # bloom: the value may be there
    assert ev("d = 31 OR d = 33") in (query.SKIP, query.REMAIN)  # absent (unless a false positive)
    assert ev("d > 5") == query.REMAIN  # bloom answers only = and IN
    assert ev("a = 1 AND d = 30") == BitMap(i for i in range(20) if i % 3 == 1)  # bitmap AND remain
    assert ev("a = 1 OR d = 30") == query.REMAIN  # bitmap OR remain
    assert ev("e = 1") == query.REMAIN  # no index for the column
    assert ev("a = 7") == BitMap()  # empty rows: the file is skipped
    assert not query.remains(ev("a = 7 AND d = 30"))


EMPTY_ENTRY = Path(__file__).resolve().parent.parent / "golden/file_index/java-0.9.0/empty-entry.bin"


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("`m[k]` = 1", query.SKIP),
        ("`m[k]` IN (1, 2)", query.SKIP),
        ("`m[k]` IS NOT NULL", query.SKIP),
        ("`m[k]` < 1", query.SKIP),
        ("`m[k]` >= 1", query.SKIP),
        ("`m[k]` != 1", query.REMAIN),
        ("`m[k]` NOT IN (1)", query.REMAIN),
        ("`m[k]` IS NULL", query.REMAIN),
        ("`m[k]` BETWEEN 1 AND 2", query.REMAIN),
        ("`m[k]` = 1 OR a = 3", query.REMAIN),
    ],
)
def test_an_empty_entry_answers_as_java_empty_file_index_reader(text, answer):
    """An entry the writer left empty (Java: the column holds no value in the file) is EmptyFileIndexReader:
    skip for what needs a value, remain otherwise (checked against the jars by the Java testees' query cases)."""
    cols = query.open_container(EMPTY_ENTRY.read_bytes(), {"m[k]": parse_type("INT"), "a": parse_type("INT")})
    assert query.evaluate(query.parse_predicate(text), cols) == answer


def test_top_k_through_the_range_bitmap_column():
    rows = [{"a": v, "b": "x", "c": 1, "d": 0} for v in [3, None, 5, 5, -1, None, 4]]
    cols = open_columns(rows)
    assert query.top_k(query.REMAIN, cols, "a", 2, True, "nulls_last") == BitMap([2, 3])
    assert query.top_k(query.REMAIN, cols, "a", 3, True, "nulls_last", strict=False) == BitMap([2, 3, 6])
    assert query.top_k(query.REMAIN, cols, "a", 2, False, "nulls_first") == BitMap([1, 5])
    found = query.evaluate(query.parse_predicate("a < 5"), cols)
    assert query.top_k(found, cols, "a", 1, True, "nulls_last") == BitMap([6])
    assert query.top_k(query.REMAIN, cols, "b", 1, True, "nulls_last") == query.REMAIN  # no range-bitmap


@pytest.mark.parametrize(
    "text",
    ["", "a >", "a = 1 AND", "(a = 1", "a LIKE 1", "a IN ()", "a = 'x", "a BETWEEN 1", "a = 1 b = 2", "a IS NOT 1"],
)
def test_bad_predicates_are_usage_errors(text):
    with pytest.raises(UsageError):
        query.parse_predicate(text)


def test_literals_follow_the_column_type():
    t = parse_type("DECIMAL(10, 2)")
    lit = query.parse_predicate("x = 1.25").literals[0]
    assert query.literal_value(t, lit) == (125, 10, 2)
    assert query.literal_value(parse_type("DATE"), query.parse_predicate("x = '1970-01-02'").literals[0]) == 1
    nan = query.parse_predicate("x < NaN").literals[0]
    assert query.literal_value(parse_type("DOUBLE"), nan) != query.literal_value(parse_type("DOUBLE"), nan)
    assert query.parse_predicate("x > -Infinity").literals[0].text == "-Infinity"
    with pytest.raises(UsageError):
        query.literal_value(parse_type("INT"), query.parse_predicate("x = 1.5").literals[0])


def test_cli_query_on_a_container_and_a_lone_payload(tmp_path, capsys):
    rows = [{"a": v, "b": "x", "c": v, "d": 0} for v in [3, None, 5, 5, -1]]
    path = tmp_path / "f.index"
    path.write_bytes(container(rows))
    types = "a=INT,b=STRING,c=BIGINT,d=INT"
    assert main(["query", str(path), "--types", types, "--where", "a >= 4 OR c = -1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"result": "rows", "count": 3, "rows": [2, 3, 4]}
    assert main(["query", str(path), "--types", types, "--column", "a", "--predicate", "> 3"]) == 0
    assert capsys.readouterr().out.strip() == "2 row(s): 2 3"
    args = ["query", str(path), "--types", types, "--order-by", "a", "--desc", "--limit", "1", "--json"]
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out)["rows"] in ([2], [3])
    from paimon_conform.layouts.range_bitmap import codec as range_bitmap

    payload = tmp_path / "a.rb"
    payload.write_bytes(range_bitmap.build(parse_type("INT"), [3, None, 5, 5, -1]))
    lone = ["query", str(payload), "--kind", "range-bitmap", "--type", "INT", "--column", "a"]
    assert main([*lone, "--where", "a IS NULL", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == [1]
    assert main([*lone, "--where", "a >"]) == 2
    assert main([*lone[:-2], "--where", "a > 1"]) == 2  # a lone payload needs its column name
    assert (
        main(["query", "hex:00", "--kind", "range-bitmap", "--type", "INT", "--column", "a", "--where", "a > 1"]) == 2
    )
