"""What the documentation reads from a .ksy spec: its types, each field's size, offset and rules, in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent.parent
SPECS = ROOT / "specs"
PRIMITIVE = re.compile(r"^([us])([1248])(le|be)?$|^f([48])(le|be)?$|^b(\d+)(le|be)?$")


@dataclass(frozen=True)
class Spec:
    """One .ksy file: its name (meta id), whether it is a shared piece (specs/common/), and its YAML."""

    name: str
    path: Path
    common: bool
    doc: dict

    @property
    def title(self) -> str:
        return self.doc["meta"].get("title", self.name)

    def types(self) -> dict[str, dict]:
        """Every type of the spec by id, the root under the spec's own name, nested types flattened."""
        found = {self.name: self.doc}

        def walk(t: dict) -> None:
            for tid, sub in (t.get("types") or {}).items():
                found.setdefault(tid, sub)
                walk(sub)

        walk(self.doc)
        return found


@cache
def specs() -> tuple[Spec, ...]:
    """Every spec: the layouts (specs/*.ksy) first, then the shared pieces (specs/common/*.ksy), by name."""
    out = []
    for common, folder in ((False, SPECS), (True, SPECS / "common")):
        for path in sorted(folder.glob("*.ksy")):
            doc = yaml.safe_load(path.read_text(encoding="utf-8"))
            out.append(Spec(doc["meta"]["id"], path, common, doc))
    return tuple(out)


def spec(name: str) -> Spec:
    return next(s for s in specs() if s.name == name)


def camel(type_id: str) -> str:
    """The class name Kaitai gives a type id (`sst_block` → `SstBlock`)."""
    return "".join(part.capitalize() for part in type_id.split("_"))


def type_of_class(module: str, class_name: str) -> tuple[str, str] | None:
    """(spec, type id) of a generated class, from its module (the spec's name) and class name."""
    try:
        types = spec(module).types()
    except StopIteration:
        return None
    for tid in types:
        if camel(tid) == class_name:
            return module, tid
    return None


def primitive_size(t: str) -> int | None:
    """Bytes of a primitive Kaitai type (`u4be` → 4), None for bit types and user types."""
    m = PRIMITIVE.match(t)
    if not m:
        return None
    if m.group(2):
        return int(m.group(2))
    return int(m.group(4)) if m.group(4) else None


def fixed_size(field: dict, owner: Spec, depth: int = 0) -> int | None:
    """The field's size in bytes when the spec fixes it (a primitive, contents, a literal size, a user type of
    fixed fields), else None. Conditional and repeated fields have no fixed size, but for a zero-width one."""
    if field.get("size") == 0 and "repeat" not in field:
        return 0  # a zero-width check: no bytes, whatever its condition
    if depth > 8 or "if" in field or "repeat" in field:
        return None
    if "contents" in field:
        c = field["contents"]
        return len(c) if isinstance(c, list | str) else 1
    if "size" in field:
        return field["size"] if isinstance(field["size"], int) else None
    t = field.get("type")
    if not isinstance(t, str):
        return None
    if (n := primitive_size(t)) is not None:
        return n
    sub = user_type(t, owner)
    if sub is None:  # a type's instances read elsewhere; its fields alone take its bytes here
        return None
    total = 0
    for f in sub[1].get("seq") or []:
        n = fixed_size(f, sub[0], depth + 1)
        if n is None:
            return None
        total += n
    return total


def user_type(t: str, owner: Spec) -> tuple[Spec, dict] | None:
    """(spec, type) of a user type named in `owner` (`entry`, `roaring32`, `sst_block::entry`), or None."""
    name = t.split("(")[0].strip()
    parts = name.split("::")
    for candidate in (owner, *specs()):
        types = candidate.types()
        if len(parts) == 1 and parts[0] in types and (candidate is owner or parts[0] == candidate.name):
            return candidate, types[parts[0]]
        if len(parts) > 1 and candidate.name == parts[0] and parts[-1] in types:
            return candidate, types[parts[-1]]
    return None


def size_text(field: dict, owner: Spec) -> str:
    """The field's size in words: `4`, `len_blob`, `to the end`, `variable`; repeated: `x count`."""
    n = fixed_size({k: v for k, v in field.items() if k not in ("if", "repeat")}, owner)
    if n is not None:
        text = str(n)
    elif "size" in field:
        text = f"`{field['size']}`"
    elif field.get("size-eos"):
        text = "to the end"
    elif isinstance(field.get("type"), str) and re.match(r"^b\d+", field["type"]):
        text = f"{field['type'][1:].rstrip('lbe')} bits"
    else:
        text = "variable"
    rep = field.get("repeat")
    if rep == "expr":
        text += f" x `{field['repeat-expr']}`"
    elif rep == "eos":
        text += " x to the end"
    elif rep == "until":
        text += f" x until `{field['repeat-until']}`"
    return text


def type_text(field: dict) -> str:
    """The field's type: a primitive, a user type, a switch, `bytes`, or the fixed contents."""
    if "contents" in field:
        c = field["contents"]
        return "contents " + (" ".join(f"{b:02x}" for b in c) if isinstance(c, list) else repr(c))
    t = field.get("type")
    if isinstance(t, dict):
        cases = ", ".join(f"{k}: {v}" for k, v in (t.get("cases") or {}).items())
        return f"switch on `{t.get('switch-on')}` ({cases})"
    if t is None:
        return "str" if "encoding" in field else "bytes"
    return str(t) + (f" (enum {field['enum']})" if "enum" in field else "")


def valid_text(field: dict) -> str:
    """The field's `valid` rule in words."""
    v = field.get("valid")
    if v is None:
        return ""
    if not isinstance(v, dict):
        return f"= {v}"
    parts = []
    if "eq" in v:
        parts.append(f"= {v['eq']}")
    if "min" in v:
        parts.append(f"≥ {v['min']}")
    if "max" in v:
        parts.append(f"≤ {v['max']}")
    if "any-of" in v:
        parts.append("one of " + ", ".join(str(x) for x in v["any-of"]))
    if "in-enum" in v:
        parts.append("a value of its enum")
    if "expr" in v:
        parts.append(f"`{v['expr']}`")
    return "; ".join(parts)


def first_paragraph(doc: str | None) -> str:
    """A field's doc up to its first blank line, on one line."""
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def java_refs(doc_ref: object) -> list[tuple[str, str]]:
    """(label, target) of each doc-ref: a Java class named by its source URL becomes its class name."""
    refs = doc_ref if isinstance(doc_ref, list) else [doc_ref] if doc_ref else []
    out = []
    for r in refs:
        r = str(r).strip()
        url = r.split()[0]
        if url.startswith("http"):
            label = url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".java")
            out.append((label, url))
        else:
            out.append((r, ""))
    return out


def codes(spec_: Spec) -> list[str]:
    """The finding codes the spec names (`-code` on its fields), in order of appearance."""
    seen: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            code = node.get("-code")
            if isinstance(code, str) and code not in seen:
                seen.append(code)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(spec_.doc)
    return seen
