"""Mechanical rewrites that turn kaitai-struct-compiler 0.11 output into a package of its language.

Used by gen_parsers.py only. Every rewrite is checked: a pattern that no longer
matches (a new compiler, a new spec construct) stops generation with FixError
instead of shipping a parser that silently differs.

* Java: the compiler's JavaScript build writes classes without a package; they
  get `package paimon_layouts;`.
* Go: the same for `package paimon_layouts`; the Go backend of ksc 0.11
  drops custom `process:` routines (it copies the raw bytes through), so each
  such instance gets the call of its routine in `processors/`, with the
  routine's arguments from ARGUMENTS_GO; it numbers a repeat-until loop's
  elements from 1 (`_index` one too high), binds `_it` in every `valid`
  check whether used or not (Go refuses an unused variable), and in a
  switch's default branch (raw bytes) sets only the raw field.
* JavaScript: requires of the routines (`paimon_layouts-processors/Crc32`)
  point into the package (`../processors/Crc32`), and the runtime is
  required through `../runtime_fixes`, which corrects the 0.11.0 runtime's
  readS8be / readS8le (negative values off by 2^32).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml
from tree_schema import upper_camel

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
PROCESS_PREFIX = "paimon_layouts.processors."
GO_MODULE = "github.com/paimon-conform/paimon-layouts-go"

# The Go expression of each routine argument a spec writes, per spec: (statements before, the int64 value).
# The Go backend does not translate these for us; a spec argument missing here stops generation.
ARGUMENTS_GO = {
    ("bitmap_global_index", "trailer.compression.to_i"): ("", "int64(this.Trailer.Compression)"),
    ("sst_block", "trailer.compression.to_i"): ("", "int64(this.Trailer.Compression)"),
    ("row_file", "len_uncompressed"): (
        "\t_arg, err := this.LenUncompressed()\n\tif err != nil {\n\t\treturn v, err\n\t}\n",
        "int64(_arg)",
    ),
}


class FixError(Exception):
    """The compiler's output no longer has the shape a rewrite expects."""


def camel(name: str) -> str:
    """A KSY field id as ksc names it in Java / Go / JavaScript members: lowerCamel."""
    head, _, rest = name.partition("_")
    return head + upper_camel(rest)


def spec_path(stem: str) -> Path:
    """The spec a generated file was compiled from: specs/<stem>.ksy or specs/common/<stem>.ksy."""
    path = SPECS / f"{stem}.ksy"
    return path if path.exists() else SPECS / "common" / f"{stem}.ksy"


@cache
def process_sites(stem: str) -> dict[str, tuple[str, str | None]]:
    """lowerCamel field id -> (routine name, argument expression or None) for one spec's `process:` fields."""
    doc = yaml.safe_load(spec_path(stem).read_text())
    sites: dict[str, tuple[str, str | None]] = {}

    def walk(t: dict) -> None:
        attrs = [(a.get("id"), a) for a in t.get("seq", [])] + list(t.get("instances", {}).items())
        for name, attr in attrs:
            proc = attr.get("process")
            if proc is None:
                continue
            if not proc.startswith(PROCESS_PREFIX):
                raise FixError(f"{stem}: {name}: process {proc!r} is not one of {PROCESS_PREFIX}*")
            m = re.fullmatch(r"(\w+)(?:\((.*)\))?", proc[len(PROCESS_PREFIX) :])
            if m is None:
                raise FixError(f"{stem}: {name}: cannot read process {proc!r}")
            site = (m.group(1), m.group(2))
            if sites.setdefault(camel(name), site) != site:
                raise FixError(f"{stem}: two fields named {name} with different routines")
        for sub in t.get("types", {}).values():
            walk(sub)

    walk(doc)
    return sites


def fix(language: str, file_name: str, text: str) -> str:
    """The compiler's output for one file, rewritten for `language`'s package."""
    if language == "java":
        return _insert_after_header(text, "package paimon_layouts;\n\n")
    if language == "go":
        return _fix_go(Path(file_name).stem, text)
    if language == "javascript":
        return _fix_javascript(file_name, text)
    raise FixError(f"no rewrites known for {language}")


def _insert_after_header(text: str, line: str) -> str:
    """`line` after the leading comment lines of a generated file."""
    lines = text.splitlines(keepends=True)
    i = 0
    while i < len(lines) and lines[i].startswith("//"):
        i += 1
    return "".join(lines[:i]) + "\n" + line + "".join(lines[i:])


def _fix_go(stem: str, text: str) -> str:
    text = _insert_after_header(text, "package paimon_layouts\n")
    # a repeat-until loop numbers its elements from 1 (`for i := 1; ; i++`), so `_index` is one too high
    text = re.sub(r"^(\t+)for i := 1;\s*; i\+\+ \{$", r"\1for i := 0; ; i++ {", text, flags=re.M)
    # a switch's default branch (no type: raw bytes) keeps the bytes as the raw field only; the field stays unset
    text = re.sub(
        r"^(\t+)this\._raw_(\w+) = (tmp\d+)\n(\t+\})$",
        lambda m: (
            f"{m[1]}this._raw_{m[2]} = {m[3]}\n{m[1]}this.{m[2]} = {m[3]}\n{m[4]}"
            if _in_default_branch(text, m.start())
            else m[0]
        ),
        text,
        flags=re.M,
    )
    # a `valid` check binds the field to `_it` whether or not its expression uses it; Go refuses unused variables
    text = re.sub(r"^(\t+)_it := (.*)$", r"\1_it := \2\n\1_ = _it", text, flags=re.M)
    sites = process_sites(stem)
    if not sites:
        return text
    if "\nimport (\n" not in text:
        raise FixError(f"{stem}.go: no import block")
    text = text.replace("\nimport (\n", f'\nimport (\n\t"{GO_MODULE}/processors"\n', 1)
    for field, (routine, argument) in sites.items():
        plain = f"\tthis._raw_{field} = this._raw__raw_{field}\n"
        count = text.count(plain)
        if count == 0:
            raise FixError(f"{stem}.go: the raw copy of {field} (process {routine}) is not where it was")
        prelude, args = "", ""
        if argument is not None:
            if (stem, argument) not in ARGUMENTS_GO:
                raise FixError(f"{stem}.go: no Go expression for the argument {argument!r} of {routine}")
            prelude, value = ARGUMENTS_GO[(stem, argument)]
            args = value + ", "
        routine_go = upper_camel(routine)
        call = (
            f"{prelude}\tthis._raw_{field}, err = processors.{routine_go}({args}this._raw__raw_{field})\n"
            "\tif err != nil {\n\t\treturn v, err\n\t}\n"
        )
        text = text.replace(plain, call)
    return text


def _in_default_branch(text: str, at: int) -> bool:
    """Whether the line at `at` is in the `default:` branch of a switch (the nearest case label above it)."""
    before = text[:at]
    return before.rfind("default:") > max(before.rfind("case "), before.rfind("switch "))


def _fix_javascript(file_name: str, text: str) -> str:
    runtime = "'kaitai-struct/KaitaiStream'"
    if text.count(runtime) != 2:  # the AMD and the CommonJS branch of the module wrapper
        raise FixError(f"{file_name}: the runtime is not required where it was")
    text = text.replace(runtime, "'../runtime_fixes'")
    return text.replace("'paimon_layouts-processors/", "'../processors/")


GO_INTS = {f"{s}{n}": f"{'u' if s == 'u' else ''}int{8 * n}" for s in "us" for n in (1, 2, 4, 8)}


def _go_param(stem: str, param: dict) -> str:
    """The Go type the compiler gives a root parameter."""
    if "enum" in param:
        parts = param["enum"].split("::")
        owner = parts[0] if len(parts) > 1 else stem
        return "_".join(upper_camel(p) for p in [owner, parts[-1]])
    if param.get("type") == "bytes":
        return "[]byte"
    if param.get("type") == "bool":
        return "bool"
    if param.get("type") in GO_INTS:
        return GO_INTS[param["type"]]
    raise FixError(f"{stem}: no Go type known for parameter {param.get('id')} ({param.get('type')})")


def go_roots(spec_files: list[Path]) -> str:
    """roots.go: ParseRoot, which parses a file with a spec named at run time (Go has no lookup by name)."""
    cases = []
    for path in spec_files:
        if path.parent.name == "common":
            continue
        doc = yaml.safe_load(path.read_text())
        stem = doc["meta"]["id"]
        args = []
        for i, p in enumerate(doc.get("params", [])):
            t = _go_param(stem, p)
            got = f"params[{i}].(int64)" if t not in ("[]byte", "bool") else f"params[{i}].({t})"
            args.append(got if t in ("[]byte", "bool", "int64") else f"{t}({got})")
        cls = upper_camel(stem)
        cases.append(
            f'\tcase "{stem}":\n\t\tobj := New{cls}({", ".join(args)})\n\t\treturn obj, obj.Read(io, nil, obj)\n'
        )
    return (
        "// Generated by tools/gen_parsers.py. Do not edit.\n\n"
        "package paimon_layouts\n\n"
        'import (\n\t"fmt"\n\n\t"github.com/kaitai-io/kaitai_struct_go_runtime/kaitai"\n)\n\n'
        "// ParseRoot parses a file with the spec named `root`, its parameters in the spec's order: []byte, bool or\n"
        "// int64 (an integer or an enum's id).\n"
        "func ParseRoot(root string, io *kaitai.Stream, params []any) (any, error) {\n"
        "\tswitch root {\n" + "".join(cases) + "\t}\n"
        '\treturn nil, fmt.Errorf("no spec %s", root)\n'
        "}\n"
    )
