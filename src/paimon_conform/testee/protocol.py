"""Protocol version 1: the messages' JSON Schema (schemas/testee_protocol.json) and their checks."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

VERSION = 1
MAX_LINE = 256 << 20  # a reply line longer than this is garbage, not a reply


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema document."""
    return json.loads(resources.files("paimon_conform").joinpath("schemas/testee_protocol.json").read_text())


_ITEMS = jsonschema.Draft202012Validator.VALIDATORS["items"]
_PLAIN_TYPES = {"integer": int, "string": str, "array": list}  # JSON types whose Python type is one exact class
_PLAIN_KEYS = {"type", "minimum", "maximum", "description"}


def _plainly_valid(items: Any, instance: Any, schema: dict[str, Any]) -> bool:
    """Every element of the array is of the exact Python type of a plain item schema (`type` integer, string or
    array, with integer bounds) and within its bounds: what jsonschema would find valid, told without walking
    each element through the validator (a query reply holds up to millions of row positions)."""
    if not isinstance(instance, list) or "prefixItems" in schema or not isinstance(items, dict):
        return False
    if not items.keys() <= _PLAIN_KEYS or items.get("type") not in _PLAIN_TYPES:
        return False
    kind = _PLAIN_TYPES[items["type"]]
    if not all(type(v) is kind for v in instance):  # exact: a bool is an int, and 1.0 is a JSON integer too
        return False
    low, high = items.get("minimum"), items.get("maximum")
    if kind is not int or not instance:
        return True  # minimum and maximum constrain numbers only
    return (low is None or min(instance) >= low) and (high is None or max(instance) <= high)


def _items(validator: Any, items: Any, instance: Any, schema: dict[str, Any]) -> Any:
    """Draft 2020-12 `items`: an array plainly valid (_plainly_valid) passes at once; any other goes through
    jsonschema's own keyword, so every verdict and every message is the library's."""
    if not _plainly_valid(items, instance, schema):
        yield from _ITEMS(validator, items, instance, schema)


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"items": _items})


@cache
def _validator(definition: str) -> jsonschema.Draft202012Validator:
    """The validator of one message definition, built once per run."""
    return _Validator({"$ref": f"#/$defs/{definition}", "$defs": schema()["$defs"]})


def problem(message: Any, definition: str) -> str | None:
    """Why `message` is not a valid `definition` (hello_reply, decode_reply, ...), or None when it is."""
    error = jsonschema.exceptions.best_match(_validator(definition).iter_errors(message))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "<root>"
    return f"not a valid {definition} at {where}: {error.message[:300]}"
