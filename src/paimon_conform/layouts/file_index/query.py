"""Predicates over a file-index container, answered as Java's FileIndexPredicate answers them.

A predicate is text such as `a > 60 AND (b IN ('x', 'y') OR c IS NULL)`.
Each leaf asks every index of its column (bloom-filter, bitmap,
range-bitmap, bsi; an empty entry is EmptyFileIndexReader) and ANDs their
answers; AND and OR combine results with FileIndexResult's rules. A result
is REMAIN (the index cannot tell: every row may match), SKIP (no row
matches: the file is skipped) or a set of rows.
Top-k (`ORDER BY c [DESC] LIMIT k`) follows evaluateTopN: only a range-bitmap
index answers it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Union

from pyroaring import BitMap

from paimon_conform.core import budget, structure
from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.types import DataType, to_internal
from paimon_conform.layouts import global_index_query
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.bsi import codec as bsi
from paimon_conform.layouts.range_bitmap import codec as range_bitmap
from paimon_conform.layouts.range_bitmap import query as range_query

REMAIN = "remain"
SKIP = "skip"
Result = Union[str, BitMap]  # noqa: UP007 - a type alias, kept readable
MAX_DEPTH = 64
MAX_TOKENS = 100_000
ROW_BYTES = 48  # one matching row as a Python int in a list, and its digits in the output


LEAF_OPS: dict[str, int | None] = {  # each leaf op and its number of literals (None: one or more)
    **dict.fromkeys(("eq", "not_eq", "lt", "lte", "gt", "gte"), 1),
    **{"in": None, "not_in": None, "between": 2, "is_null": 0, "is_not_null": 0},
}


@dataclass
class Leaf:
    """`column op literals` (ops: LEAF_OPS); literals as parsed (`Literal`) or in the logical JSON form."""

    column: str
    op: str
    literals: list[Any] = field(default_factory=list)


@dataclass
class Compound:
    """AND / OR over children."""

    op: str
    children: list[Any]


Predicate = Union[Leaf, Compound]  # noqa: UP007


# ------------------------------------------------------------------------------------------- parsing

TOKEN = re.compile(
    r"""\s*(?:
      (?P<num>-Infinity\b|[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))
    | '(?P<sq>(?:[^']|'')*)'
    | "(?P<dq>(?:[^"]|"")*)"
    | `(?P<bq>[^`]*)`
    | (?P<op><=|>=|<>|!=|==|=|<|>|\(|\)|,)
    | (?P<word>[A-Za-z_][A-Za-z0-9_.$]*)
    )""",
    re.VERBOSE,
)
COMPARE = {"=": "eq", "==": "eq", "!=": "not_eq", "<>": "not_eq", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
WORDS = {"true": True, "false": False, "nan": "NaN", "infinity": "Infinity"}


@dataclass
class Token:
    kind: str  # num, str, ident, op, word
    text: str
    at: int


def tokenize(text: str) -> list[Token]:
    """Split predicate text into tokens (UsageError on anything else)."""
    out: list[Token] = []
    pos = 0
    while pos < len(text) and len(out) < MAX_TOKENS:
        if text[pos:].strip() == "":
            break
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise UsageError(f"cannot read the predicate at character {pos}: {text[pos : pos + 20]!r}")
        kind = m.lastgroup or ""
        value = m.group(kind)
        if kind == "sq":
            kind, value = "str", value.replace("''", "'")
        elif kind == "dq":
            kind, value = "str", value.replace('""', '"')
        elif kind == "bq":
            kind = "ident"
        out.append(Token(kind, value, m.start(m.lastgroup or 0)))
        pos = m.end()
    if len(out) >= MAX_TOKENS:
        raise UsageError("the predicate is too long")
    return out


class _Parser:
    """Recursive descent: or_expr := and_expr (OR and_expr)*; and_expr := atom (AND atom)*."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self, *words: str) -> bool:
        if self.i >= len(self.tokens):
            return False
        t = self.tokens[self.i]
        return t.text.upper() in words if t.kind in ("word", "op") else False

    def take(self, what: str = "") -> Token:
        if self.i >= len(self.tokens):
            raise UsageError(f"the predicate ends early{'; expected ' + what if what else ''}")
        self.i += 1
        return self.tokens[self.i - 1]

    def expect(self, *words: str) -> None:
        t = self.take(" or ".join(words))
        if t.text.upper() not in words:
            raise UsageError(f"expected {' or '.join(words)} at character {t.at}, found {t.text!r}")

    def expr(self, depth: int = 0) -> Predicate:
        if depth > MAX_DEPTH:
            raise UsageError("the predicate nests too deeply")
        children = [self.conj(depth)]
        while self.peek("OR"):
            self.take()
            children.append(self.conj(depth))
        return children[0] if len(children) == 1 else Compound("or", children)

    def conj(self, depth: int) -> Predicate:
        children = [self.atom(depth)]
        while self.peek("AND"):
            self.take()
            children.append(self.atom(depth))
        return children[0] if len(children) == 1 else Compound("and", children)

    def atom(self, depth: int) -> Predicate:
        if self.peek("("):
            self.take()
            inner = self.expr(depth + 1)
            self.expect(")")
            return inner
        col = self.take("a column")
        if col.kind not in ("word", "ident"):
            raise UsageError(f"expected a column name at character {col.at}, found {col.text!r}")
        return self.condition(col.text)

    def literal(self) -> Any:
        t = self.take("a value")
        if t.kind in ("num", "str"):
            return Literal(t.text, t.kind == "num")
        if t.kind == "word" and t.text.lower() in WORDS:
            v = WORDS[t.text.lower()]
            return v if isinstance(v, bool) else Literal(v, True)
        raise UsageError(f"expected a value at character {t.at}, found {t.text!r}")

    def literals(self) -> list[Any]:
        self.expect("(")
        out = [self.literal()]
        while self.peek(","):
            self.take()
            out.append(self.literal())
        self.expect(")")
        return out

    def condition(self, column: str) -> Leaf:
        t = self.take("a comparison")
        word = t.text.upper()
        if t.kind == "op" and t.text in COMPARE:
            return Leaf(column, COMPARE[t.text], [self.literal()])
        if word == "IN":
            return Leaf(column, "in", self.literals())
        if word == "NOT":
            self.expect("IN")
            return Leaf(column, "not_in", self.literals())
        if word == "BETWEEN":
            low = self.literal()
            self.expect("AND")
            return Leaf(column, "between", [low, self.literal()])
        if word == "IS":
            negated = self.peek("NOT")
            if negated:
                self.take()
            self.expect("NULL")
            return Leaf(column, "is_not_null" if negated else "is_null")
        raise UsageError(f"expected a comparison after {column!r} at character {t.at}, found {t.text!r}")


@dataclass(frozen=True)
class Literal:
    """A literal as written: number text, or a string."""

    text: str
    numeric: bool


def parse_predicate(text: str) -> Predicate:
    """Predicate text to a tree (UsageError on bad syntax)."""
    parser = _Parser(tokenize(text))
    if not parser.tokens:
        raise UsageError("the predicate is empty")
    tree = parser.expr()
    if parser.i != len(parser.tokens):
        t = parser.tokens[parser.i]
        raise UsageError(f"unexpected {t.text!r} at character {t.at}")
    return tree


def literal_value(t: DataType, lit: Any) -> Any:
    """A literal as the column's internal value: parsed text (numbers stay text for DECIMAL), or a value in
    the logical JSON form (true / false, and the testee protocol's literals)."""
    value = lit
    if isinstance(lit, Literal):
        value = lit.text
        if t.root in ("TINYINT", "SMALLINT", "INT", "BIGINT") and lit.numeric:
            try:
                value = int(lit.text)
            except ValueError:
                raise UsageError(f"{lit.text!r} is not a whole number for {t}") from None
        elif t.root in ("FLOAT", "DOUBLE") and lit.numeric and lit.text not in ("NaN", "Infinity", "-Infinity"):
            value = float(lit.text)
    try:
        return to_internal(t, value)
    except EncodeError as exc:
        raise UsageError(f"the literal {value!r} does not fit column type {t}: {exc}") from None


# ------------------------------------------------------------------------------------------ results


def and_(a: Result, b: Result) -> Result:
    """FileIndexResult.and, BitmapIndexResult.and."""
    if isinstance(a, BitMap) and isinstance(b, BitMap):
        return a & b
    if a == REMAIN:
        return b
    if a == SKIP:
        return SKIP
    return a if remains(b) else SKIP


def or_(a: Result, b: Result) -> Result:
    """FileIndexResult.or, BitmapIndexResult.or."""
    if isinstance(a, BitMap) and isinstance(b, BitMap):
        return a | b
    if a == REMAIN:
        return REMAIN
    if a == SKIP:
        return b
    return REMAIN if remains(b) else a


def remains(r: Result) -> bool:
    """FileIndexResult.remain(): whether a row may match."""
    return bool(r) if isinstance(r, BitMap) else r == REMAIN


# ------------------------------------------------------------------------------------------ readers

Reader = Callable[[str, list[Any]], Result]


def _bloom_reader(payload: bytes, t: DataType) -> Reader:
    def visit(op: str, values: list[Any]) -> Result:
        if op not in ("eq", "in"):
            return REMAIN
        return REMAIN if bloom.evaluate(payload, t, op, values) else SKIP

    return visit


def _bitmap_reader(payload: bytes, t: DataType) -> Reader:
    index = bitmap.read(payload, t)

    def visit(op: str, values: list[Any]) -> Result:
        if op not in ("eq", "not_eq", "in", "not_in", "is_null", "is_not_null"):
            return REMAIN
        return bitmap.evaluate(index, t, op, values)

    return visit


def _range_reader(payload: bytes, t: DataType) -> tuple[Reader, range_bitmap.Index]:
    index = range_bitmap.read(payload, t)

    def visit(op: str, values: list[Any]) -> Result:
        return range_query.evaluate(index, op, [range_bitmap.to_key(t, v) for v in values])

    return visit, index


def _bsi_reader(payload: bytes, t: DataType) -> Reader:
    num_rows, pos, neg = bsi.load(payload)

    def visit(op: str, values: list[Any]) -> Result:
        return bsi.evaluate(num_rows, pos, neg, op, [bsi.to_long(t, v) for v in values])

    return visit


EMPTY_SKIPS = ("eq", "in", "is_not_null", "lt", "lte", "gt", "gte")


def _empty_reader(op: str, values: list[Any]) -> Result:
    """EmptyFileIndexReader, for an entry the writer left empty (the file holds no value of the column):
    SKIP for what needs a value; REMAIN for not_eq, not_in, is_null and (2.0's Between leaf) between."""
    return SKIP if op in EMPTY_SKIPS else REMAIN


@dataclass
class Column:
    """The readers of one column's indexes, in container order."""

    type: DataType
    readers: list[tuple[str, Reader]]
    range_index: range_bitmap.Index | None = None


def open_container(data: bytes, types: dict[str, DataType]) -> dict[str, Column]:
    """Readers for every typed column of a file-index container."""
    obj = structure.parse("file_index", data)
    out: dict[str, Column] = {}
    for col in obj.columns:
        name = col.name.value
        t = types.get(name)
        if t is None:
            continue
        column = out.setdefault(name, Column(t, []))
        for e in col.indexes:
            if e.is_empty:
                column.readers.append(("empty", _empty_reader))
                continue
            payload = bytes(data[e.ofs_payload : e.ofs_payload + e.len_payload])
            column.readers.append(open_payload(e.index_type.value, payload, t, column))
    return out


def open_lone(kind: str, payload: bytes, name: str, t: DataType) -> dict[str, Column]:
    """The one column of a lone payload (or global-index file), under the name its predicates use."""
    column = Column(t, [])
    if kind in global_index_query.KINDS:
        column.readers.append((kind, global_index_query.reader(kind, payload, t)))
    else:
        column.readers.append(open_payload(kind, payload, t, column))
    return {name: column}


def open_payload(kind: str, payload: bytes, t: DataType, column: Column | None = None) -> tuple[str, Reader]:
    """A reader for one payload of the given index kind."""
    if kind == "bloom-filter":
        return kind, _bloom_reader(payload, t)
    if kind == "bitmap":
        return kind, _bitmap_reader(payload, t)
    if kind == "range-bitmap":
        reader, index = _range_reader(payload, t)
        if column is not None:
            column.range_index = column.range_index or index
        return kind, reader
    if kind == "bsi":
        return kind, _bsi_reader(payload, t)
    return kind, lambda op, values: REMAIN


def evaluate(predicate: Predicate, columns: dict[str, Column]) -> Result:
    """FileIndexPredicate.evaluate over the opened columns."""
    if isinstance(predicate, Compound):
        combine = or_ if predicate.op == "or" else and_
        result: Result = evaluate(predicate.children[0], columns)
        for child in predicate.children[1:]:
            if predicate.op == "and" and not remains(result):
                return result
            result = combine(result, evaluate(child, columns))
        return result
    column = columns.get(predicate.column)
    if column is None:
        return REMAIN
    values = [literal_value(column.type, lit) for lit in predicate.literals]
    result = REMAIN
    for _, reader in column.readers:
        result = and_(result, reader(predicate.op, values))
        if not remains(result):
            return result
    return result


def top_k(
    result: Result, columns: dict[str, Column], column: str, k: int, descending: bool, nulls: str, strict: bool = True
) -> Result:
    """FileIndexPredicate.evaluateTopN: only a range-bitmap index narrows the rows."""
    if not remains(result):
        return result
    if isinstance(result, BitMap) and len(result) <= k:
        return result
    col = columns.get(column)
    if col is None or col.range_index is None:
        return result
    found = result if isinstance(result, BitMap) else None
    pick = range_query.top_k if descending else range_query.bottom_k
    return pick(col.range_index, k, nulls, found, strict)


def describe(result: Result) -> dict[str, Any]:
    """A result as JSON: {"result": "rows", "rows": [...]}, or remain / skip."""
    if isinstance(result, BitMap):
        budget.reserve(ROW_BYTES * len(result), f"a list of {len(result)} matching rows")
        return {"result": "rows", "count": len(result), "rows": list(result)}
    return {"result": result}
