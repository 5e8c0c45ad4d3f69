"""The column types of a `.row` file as its encoding sees them (RowBlockWriter.createFieldWriter): the
kit's atomic DataType, or VARIANT, BLOB, ARRAY, MULTISET, MAP, ROW, VECTOR, read from a schema file's
type JSON (DataTypeJsonParser: a SQL string for atomic types, an object for nested ones)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import DataType, parse_type

NOT_NULL = re.compile(r"\s+NOT\s+NULL\s*$", re.I)
NESTED = ("ARRAY", "MULTISET", "MAP", "ROW", "VECTOR")
VECTOR_ELEMENTS = ("BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE")  # VectorFieldReader
MAX_DEPTH = 32


@dataclass(frozen=True)
class RowFieldType:
    """A column type: `root` is the kit's atomic root, or VARIANT, BLOB or one of NESTED."""

    root: str
    atomic: DataType | None = None
    children: tuple[RowFieldType, ...] = ()  # ARRAY / MULTISET / VECTOR: element; MAP: key, value; ROW: fields
    names: tuple[str, ...] = ()  # ROW: field names
    length: int = 0  # VECTOR: its declared length

    @property
    def is_atomic(self) -> bool:
        return self.atomic is not None

    def __str__(self) -> str:
        if self.atomic is not None:
            return str(self.atomic)
        if self.root == "ROW":
            inner = ", ".join(f"{n} {c}" for n, c in zip(self.names, self.children, strict=True))
            return f"ROW<{inner}>"
        if self.root == "VECTOR":
            return f"VECTOR<{self.children[0]}, {self.length}>"
        if self.children:
            return f"{self.root}<{', '.join(map(str, self.children))}>"
        return self.root


def atomic(t: DataType) -> RowFieldType:
    """The row-file type of an atomic kit type."""
    return RowFieldType(t.root, t)


MULTISET_COUNT = atomic(DataType("INT"))  # a MULTISET is a map of its elements to INT counts


def entry_types(t: RowFieldType) -> tuple[RowFieldType, RowFieldType]:
    """(key, value) types of a MAP, or (element, INT count) of a MULTISET: the two arrays Java writes."""
    return (t.children[0], t.children[1] if t.root == "MAP" else MULTISET_COUNT)


def parse(raw: Any, depth: int = 0) -> RowFieldType:
    """A schema file's field type JSON as a row-file type; UsageError for one Java's row format refuses."""
    if depth > MAX_DEPTH:
        raise UsageError(f"a type nested deeper than {MAX_DEPTH} levels")
    if isinstance(raw, DataType):
        return atomic(raw)
    if isinstance(raw, RowFieldType):
        return raw
    if isinstance(raw, str):
        text = NOT_NULL.sub("", raw).strip()
        if text.upper() in ("VARIANT", "BLOB"):
            return RowFieldType(text.upper())
        return atomic(parse_type(text))
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise UsageError(f"cannot read column type {raw!r}")
    root = NOT_NULL.sub("", raw["type"]).strip().upper()
    root = next((n for n in NESTED if root.startswith(n)), root)
    if root in ("ARRAY", "MULTISET"):
        return RowFieldType(root, children=(parse(raw.get("element"), depth + 1),))
    if root == "MAP":
        return RowFieldType(root, children=(parse(raw.get("key"), depth + 1), parse(raw.get("value"), depth + 1)))
    if root == "VECTOR":
        element = parse(raw.get("element"), depth + 1)
        if element.root not in VECTOR_ELEMENTS:
            raise UsageError(f"VECTOR of {element}: Java's row format reads vectors of {', '.join(VECTOR_ELEMENTS)}")
        length = raw.get("length")
        return RowFieldType(root, children=(element,), length=length if isinstance(length, int) else 0)
    if root == "ROW":
        fields = raw.get("fields")
        if not isinstance(fields, list) or not all(isinstance(f, dict) for f in fields):
            raise UsageError(f"a ROW type without a list of fields: {raw!r}")
        children = tuple(parse(f.get("type"), depth + 1) for f in fields)
        return RowFieldType(root, children=children, names=tuple(str(f.get("name")) for f in fields))
    raise UsageError(f"cannot read column type {raw!r}")


def to_json(t: RowFieldType) -> Any:
    """The schema-file JSON of a row-file type (inverse of `parse`)."""
    if t.atomic is not None or not t.children:
        return str(t)
    if t.root in ("ARRAY", "MULTISET"):
        return {"type": t.root, "element": to_json(t.children[0])}
    if t.root == "MAP":
        return {"type": "MAP", "key": to_json(t.children[0]), "value": to_json(t.children[1])}
    if t.root == "VECTOR":
        return {"type": "VECTOR", "element": to_json(t.children[0]), "length": t.length}
    fields = [
        {"id": i, "name": n, "type": to_json(c)} for i, (n, c) in enumerate(zip(t.names, t.children, strict=True))
    ]
    return {"type": "ROW", "fields": fields}
