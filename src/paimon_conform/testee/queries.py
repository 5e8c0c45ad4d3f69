"""The `query` operation: predicates over index files, answered as Java's FileIndexPredicate answers them.

Cases are drawn with a fixed seed over every valid golden index file (file-index containers, lone
bitmap, bloom-filter, bsi and range-bitmap payloads, and BTree and BGIX global-index files, answered as
Java's GlobalIndexEvaluator answers them: layouts/global_index_query.py): leaves on each indexed column
with literals taken from its values (present) or next to them (absent), and AND / OR over two or three
of them. The expected answer is the kit's (`answer`), which follows the newest Java line; the Java testees
check it case by case on the files their jars read.
"""

from __future__ import annotations

import random
from typing import Any

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.types import DataType, java_equals, java_order, parse_type, to_internal, to_json
from paimon_conform.layouts import global_index_query
from paimon_conform.layouts.file_index import query
from paimon_conform.layouts.file_index.entry import KNOWN_INDEXES

SEED = 20261124
PER_FILE = 12  # predicates per index file
LONE_COLUMN = "v"  # the column name a lone payload's predicates use
KINDS = ("file-index", *KNOWN_INDEXES, *global_index_query.KINDS)
RANGE_OPS = ("lt", "lte", "gt", "gte")


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The kit's reply to a query request: remain, skip, or the rows that may match."""
    columns = open_columns(request["kind"], bytes.fromhex(request["data"]), request["types"])
    return evaluate(request["predicate"], columns)


def evaluate(predicate: Any, columns: dict[str, query.Column]) -> dict[str, Any]:
    """A protocol predicate's answer over opened columns, as the reply's fields."""
    return query.describe(query.evaluate(tree(predicate), columns))


def open_columns(kind: str, data: bytes, type_texts: dict[str, str]) -> dict[str, query.Column]:
    """The index readers of a request's file: a container's typed columns, or a lone payload's one column."""
    if kind not in KINDS:
        raise UsageError(f"query reads file-index or a lone {', '.join(KINDS[1:])} file, not {kind!r}")
    if not isinstance(type_texts, dict):
        raise UsageError("types maps each column name to its type")
    types = {name: parse_type(t) for name, t in type_texts.items()}
    if kind == "file-index":
        return query.open_container(data, types)
    if len(types) != 1:
        raise UsageError(f"a lone {kind} payload has one column; {len(types)} typed")
    [(name, t)] = types.items()
    return query.open_lone(kind, data, name, t)


def request_extras(kind: str, data: bytes, type_texts: dict[str, str]) -> dict[str, Any]:
    """What a query request carries besides the file: a global index's `_INDEX_META` (Java 2.0's reader needs
    the entry's SortedIndexFileMeta), as Java's writer records it for the file."""
    if kind not in global_index_query.KINDS:
        return {}
    [t] = type_texts.values()
    return {"index_meta": global_index_query.file_meta(kind, data, parse_type(t)).hex()}


def tree(predicate: Any, depth: int = 0) -> query.Predicate:
    """A protocol predicate (JSON) as the query module's tree; literals stay in the logical JSON form."""
    if depth > query.MAX_DEPTH:
        raise UsageError("the predicate nests too deeply")
    if not isinstance(predicate, dict):
        raise UsageError(f"a predicate is an object, not {type(predicate).__name__}")
    op = predicate.get("op")
    if op in ("and", "or"):
        children = predicate.get("children")
        if not isinstance(children, list) or not children:
            raise UsageError(f"{op} needs a list of children")
        return query.Compound(op, [tree(c, depth + 1) for c in children])
    literals = predicate.get("literals", [])
    if op not in query.LEAF_OPS or not isinstance(predicate.get("column"), str) or not isinstance(literals, list):
        raise UsageError(f"not a predicate leaf: {str(predicate)[:200]}")
    wanted = query.LEAF_OPS[op]
    if (not literals) if wanted is None else len(literals) != wanted:
        raise UsageError(
            f"{op} takes {wanted if wanted is not None else 'one or more'} literal(s), not {len(literals)}"
        )
    return query.Leaf(predicate["column"], op, literals)


# ------------------------------------------------------------------------------------------- cases


def columns_of(case: dict[str, Any]) -> dict[str, tuple[str, list[Any]]]:
    """Column name -> (type, values) of an index case: a container's columns, or a lone payload's one column
    (its rows' values; a bloom filter's inserted values)."""
    if case["kind"] == "file-index":
        return {c["name"]: (c["type"], c.get("values", [])) for c in case["columns"]}
    return {LONE_COLUMN: (case["type"], case.get("row_values", case.get("values", [])))}


def predicates(name: str, case: dict[str, Any], seed: int = SEED) -> list[dict[str, Any]]:
    """PER_FILE predicates over an index case, drawn from `seed` and the file's name (so one file's cases
    do not move when another file is added)."""
    rng = random.Random(f"{seed}:{name}")
    drawn = [_leaves(rng, col, t, values) for col, (t, values) in columns_of(case).items()]
    by_column = [leaves for leaves, _, _ in drawn if leaves]
    every = [leaf for leaves in by_column for leaf in leaves]
    if not every:
        return []
    out = rng.sample(every, min(len(every), PER_FILE // 2))
    hits = [hit for _, hit, _ in drawn if hit]
    misses = [miss for _, _, miss in drawn if miss]
    if len(drawn) > 1 and hits and misses:  # rows of one column OR no row of another: nothing may be lost
        hit = rng.choice(hits)
        out.append(
            {"op": "or", "children": [hit, rng.choice([m for m in misses if m["column"] != hit["column"]] or misses)]}
        )
    while len(out) < PER_FILE:  # AND / OR, over two columns where the file has two
        first, second = rng.sample(by_column, 2) if len(by_column) > 1 else (by_column[0], by_column[0])
        a, b, c = rng.choice(first), rng.choice(second), rng.choice(every)
        shape = rng.randrange(4)
        if shape < 2:
            out.append({"op": ("and", "or")[shape], "children": [a, b]})
        else:
            inner, outer = ("and", "or") if shape == 2 else ("or", "and")
            out.append({"op": outer, "children": [{"op": inner, "children": [a, b]}, c]})
    return out


Leaf = dict[str, Any]


def _leaves(
    rng: random.Random, column: str, type_text: str, values: list[Any]
) -> tuple[list[Leaf], Leaf | None, Leaf | None]:
    """Leaves on one column: each comparison with a present literal, equality with an absent one too; and
    the equality with a present literal (a hit) and with an absent one (a miss), when there are such."""
    t = parse_type(type_text)
    present = [v for v in values if v is not None]
    out: list[Leaf] = [{"column": column, "op": "is_null"}, {"column": column, "op": "is_not_null"}]
    if not present:
        return out, None, None
    pick = rng.choice(present)
    absent = _absent(t, present, rng)
    hit = {"column": column, "op": "eq", "literals": [pick]}
    out += [
        hit,
        {"column": column, "op": "not_eq", "literals": [pick]},
        {"column": column, "op": "in", "literals": [rng.choice(present), pick]},
        {"column": column, "op": "not_in", "literals": [pick]},
        {"column": column, "op": rng.choice(RANGE_OPS), "literals": [rng.choice(present)]},
        {"column": column, "op": "between", "literals": sorted_pair(t, rng.choice(present), rng.choice(present))},
    ]
    if absent is None:
        return out, hit, None
    miss = {"column": column, "op": "eq", "literals": [absent]}
    out += [
        miss,
        {"column": column, "op": "in", "literals": [absent, pick]},
        {"column": column, "op": "not_eq", "literals": [absent]},
    ]
    return out, hit, miss


def sorted_pair(t: DataType, a: Any, b: Any) -> list[Any]:
    """Two literals, low first by Java's order of the type."""
    order = java_order(t)
    return [a, b] if order(to_internal(t, a)) <= order(to_internal(t, b)) else [b, a]


def _absent(t: DataType, present: list[Any], rng: random.Random) -> Any:
    """A literal of the type equal to none of the present values, next to one of them (None if none found)."""
    have = [to_internal(t, v) for v in present]
    for _ in range(8):
        nudged = _nudge(t, to_internal(t, rng.choice(present)))
        if nudged is None:
            continue
        try:
            literal = to_json(t, nudged)
            value = to_internal(t, literal)
        except EncodeError:
            continue
        if not any(java_equals(t, value, h) for h in have):
            return literal
    return None


def _nudge(t: DataType, v: Any) -> Any:
    """A value of the type's internal form next to `v` (None where the type has no neighbour to offer)."""
    if t.root == "BOOLEAN":
        return not v
    if isinstance(v, int):  # integers, DATE, TIME
        return v + 1 if v < 0 else v - 1 if v > 0 else 1
    if isinstance(v, float):
        return v + 0.5 if abs(v) < 1e6 else 0.25
    if isinstance(v, str):
        return v + "~"
    if isinstance(v, bytes):
        return v + b"\x7f"
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        millis, nanos = v  # a second away: a neighbour at every precision
        return millis + (1000 if millis < 0 else -1000 if millis > 0 else 1000), nanos
    unscaled, precision, scale = v  # DECIMAL
    return unscaled + (1 if unscaled < 0 else -1 if unscaled > 0 else 1), precision, scale


def outcome(reply: dict[str, Any]) -> str | tuple[int, ...]:
    """A query reply as one comparable answer: remain, skip (an empty row set too), or the sorted rows."""
    if reply["result"] == "rows":
        rows = reply["rows"]
        return tuple(sorted(rows)) if rows else query.SKIP
    return reply["result"]


def describe_outcome(answer_: str | tuple[int, ...]) -> str:
    """An answer in a line: remain, skip, or the rows (the first few)."""
    if isinstance(answer_, str):
        return answer_
    shown = ", ".join(map(str, answer_[:12]))
    return f"{len(answer_)} row(s) [{shown}{', ...' if len(answer_) > 12 else ''}]"
