"""The tree schema: what every language's dump program prints for a parsed file, read from the specs.

Used by gen_parsers.py, which stores it in each generated package as
`tree_schema.json`. A parsed file prints as one JSON tree, the same in every
language (Python's is the reference):

* a struct is an object whose keys are its type's `seq` ids, then its
  `instances` ids, in spec order (ids starting with `_` left out), each
  evaluated in that order;
* an integer is a number, a float a number (NaN and the infinities as the
  strings "NaN", "Infinity", "-Infinity"), a boolean a boolean, an enum its
  integer id, a string a string, a byte array {"$bytes": "<lower hex>"}, an
  array an array, an absent (`if`) field null.

`types` maps each struct's class path (the UpperCamel names of the spec and
its nested types, joined by ".": "DeletionVectors.CrcValue") to its field ids;
a dump program finds a struct's entry from its runtime class. `roots` gives
each spec's top-level class and parameters (id and kind: bytes, int, bool or
enum), which a dump job passes in order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

PRIMITIVE_PARAM = {"bytes": "bytes", "bool": "bool"}


def upper_camel(name: str) -> str:
    """A KSY type id as ksc names its class: snake_case to UpperCamel."""
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def _fields(t: dict[str, Any]) -> list[str]:
    ids = [a["id"] for a in t.get("seq", []) if "id" in a]
    ids += list(t.get("instances", {}))
    return [i for i in ids if not i.startswith("_")]


def _param_kind(p: dict[str, Any]) -> str:
    if "enum" in p:
        return "enum"
    return PRIMITIVE_PARAM.get(p.get("type", ""), "int")


def schema(spec_files: list[Path]) -> dict[str, Any]:
    """The tree schema of every spec (see the module doc)."""
    types: dict[str, list[str]] = {}
    roots: dict[str, Any] = {}
    for path in spec_files:
        doc = yaml.safe_load(path.read_text())
        name = doc["meta"]["id"]
        top = upper_camel(name)

        def walk(t: dict[str, Any], cls: str) -> None:
            types[cls] = _fields(t)
            for sub_name, sub in t.get("types", {}).items():
                walk(sub, f"{cls}.{upper_camel(sub_name)}")

        walk(doc, top)
        roots[name] = {
            "class": top,
            "params": [{"id": p["id"], "kind": _param_kind(p)} for p in doc.get("params", [])],
        }
    return {"format": 1, "roots": dict(sorted(roots.items())), "types": dict(sorted(types.items()))}
