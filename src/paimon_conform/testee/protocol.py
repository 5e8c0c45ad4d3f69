"""Protocol version 1: the messages' JSON Schema (schemas/testee_protocol.json) and their checks."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema_rs

VERSION = 1
MAX_LINE = 256 << 20  # a reply line longer than this is garbage, not a reply


@cache
def schema() -> dict[str, Any]:
    """The protocol's JSON Schema document."""
    return json.loads(resources.files("paimon_conform").joinpath("schemas/testee_protocol.json").read_text())


@cache
def _validator(definition: str) -> jsonschema_rs.Draft202012Validator:
    """The compiled validator of one message definition, built once per run (jsonschema-rs, as the case
    schemas: a query reply holds up to millions of row positions)."""
    return jsonschema_rs.Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema()["$defs"]})


def problem(message: Any, definition: str) -> str | None:
    """Why `message` is not a valid `definition` (hello_reply, decode_reply, ...), or None when it is."""
    error = next(_validator(definition).iter_errors(message), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.instance_path) or "<root>"
    return f"not a valid {definition} at {where}: {error.message[:300]}"
