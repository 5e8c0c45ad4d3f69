"""The language-neutral JSON case format (version 1).

One form per layout, described by the JSON Schemas in schemas/. The same
form is a golden sidecar, the output of `paimon-conform inspect --json` and
the input of `paimon-conform encode`. Keys that annotate rather than describe
the bytes (provenance, notes, java_reader, data_file) are ignored by encode;
they and the inputs of the logical form that the bytes do not record (values,
options) are dropped by `content()`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from itertools import chain
from pathlib import Path
from typing import Any

import jsonschema_rs

from paimon_conform.core import json_text
from paimon_conform.core.errors import CaseError, UsageError

SCHEMA_FILES = (
    "common",
    "roaring32",
    "roaring64",
    "deletion_vectors",
    "hash_index",
    "file_index",
    "bloom_filter",
    "bitmap_index",
    "range_bitmap",
    "bsi",
    "binary_row",
    "binary_row_serialized",
    "blob_file",
    "blob_descriptor",
    "bitmap_global_index",
    "btree_global_index",
    "row_file",
    "must_reject",
)
MAX_DEPTH = 32  # a case nests a handful of levels (vectors -> layout -> containers); jsonschema recurses per level
ANNOTATIONS = frozenset({"provenance", "notes", "java_reader", "data_file", "values", "options"})


@cache
def documents() -> dict[str, dict[str, Any]]:
    """Every case schema by its `$id`."""
    out = {}
    for name in SCHEMA_FILES:
        doc = json.loads(resources.files("paimon_conform").joinpath(f"schemas/{name}.json").read_text())
        out[doc["$id"]] = doc
    return out


@cache
def _rs_registry() -> Any:
    return jsonschema_rs.Registry(list(documents().items()))


@cache
def _validator(uri: str) -> Any:
    """The compiled validator of one schema (jsonschema-rs: the sidecars' long range lists check ~100x faster
    than with the pure-Python jsonschema, which the test suite keeps as the reference it must agree with)."""
    return jsonschema_rs.validator_for({"$ref": uri}, registry=_rs_registry())


KIND_SCHEMAS = {"bitmap": "bitmap_index"}


def schema_id(kind: str) -> str:
    """Schema URI of a layout kind (`deletion-vectors`) or `must_reject`."""
    return f"urn:paimon-conform:schema:{KIND_SCHEMAS.get(kind, kind.replace('-', '_'))}"


def check(case: Any, kind: str | None = None) -> dict[str, Any]:
    """Validate a case against its schema; return it or raise CaseError."""
    if not isinstance(case, dict):
        raise CaseError("a case is a JSON object")
    target = kind or ("must_reject" if "must_reject" in case else case.get("kind"))
    if not isinstance(target, str) or KIND_SCHEMAS.get(target, target.replace("-", "_")) not in SCHEMA_FILES[1:]:
        raise CaseError(f"unknown case kind {case.get('kind')!r}")
    uri = schema_id(target)
    try:
        errors = sorted(
            _validator(uri).iter_errors(case), key=lambda e: [(isinstance(p, str), p) for p in e.instance_path]
        )
    except ValueError as exc:  # a value JSON cannot hold
        raise CaseError(f"case does not match schema {uri}: {exc}") from None
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.instance_path) or "<root>"
        raise CaseError(f"case does not match schema {uri}: at {where}: {e.message}")
    return case


def read(path: str | Path) -> dict[str, Any]:
    """Load and validate a case file."""
    try:
        case = json_text.loads_json(Path(path).read_bytes(), str(path), MAX_DEPTH)
    except (OSError, ValueError, UsageError) as exc:  # JSONDecodeError, UnicodeDecodeError, JsonLimitError
        raise CaseError(f"{path}: cannot read a JSON case: {exc}") from None
    return check(case)


def int_lists(value: Any) -> bool:
    """Whether a value is a non-empty list of lists of plain ints (a case's ranges or pairs), told without a
    Python step per number."""
    return (
        isinstance(value, list)
        and bool(value)
        and set(map(type, value)) == {list}
        and set(map(type, chain.from_iterable(value))) <= {int}
    )


def content(case: Any) -> Any:
    """The case without annotation keys: what the bytes alone determine."""
    if isinstance(case, dict):
        return {k: content(v) for k, v in case.items() if k not in ANNOTATIONS}
    if isinstance(case, list):
        if int_lists(case):
            return case  # a list of ranges / pairs (the long part of a sidecar): nothing to drop
        return [content(v) for v in case]
    return case


def dumps(case: Any) -> str:
    """Stable, diff-friendly JSON: objects indented, arrays of scalars on one line."""

    def render(value: Any, indent: int) -> str:
        pad = "  " * (indent + 1)
        if isinstance(value, dict):
            if not value:
                return "{}"
            items = [f"{pad}{json.dumps(k)}: {render(v, indent + 1)}" for k, v in value.items()]
            return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
        if isinstance(value, list):
            if all(not isinstance(v, dict | list) for v in value) or all(
                isinstance(v, list) and all(not isinstance(x, dict | list) for x in v) for v in value
            ):
                return (
                    "["
                    + ", ".join(
                        json.dumps(v, separators=(",", ":")) if isinstance(v, list) else json.dumps(v) for v in value
                    )
                    + "]"
                )
            items = [f"{pad}{render(v, indent + 1)}" for v in value]
            return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
        return json.dumps(value, ensure_ascii=False)

    return render(case, 0) + "\n"
