"""One documentation page per spec (layouts/<name>.md): what it is, its Java classes, a byte diagram and a field
table per type, its enums, its finding codes with severity and the Java releases that refuse them, an
annotated hex dump of a Java-written golden, and the releases that write and read it."""

from __future__ import annotations

import contextlib
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

import byte_diagram
import hex_dump
from spec_model import (
    ROOT,
    Spec,
    codes,
    first_paragraph,
    fixed_size,
    java_refs,
    size_text,
    specs,
    type_text,
    valid_text,
)

from paimon_conform.core import structure
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.java_releases import version_key
from paimon_conform.layouts.registry import BY_NAME

GOLDEN = ROOT / "golden"
SCHEMAS = ROOT / "src" / "paimon_conform" / "schemas"
FINDINGS_PAGE = ROOT / "docs" / "findings.md"
RELEASE = re.compile(r"\b(\d+\.\d+(?:\.\d+)?(?:-SNAPSHOT)?)\b")


@dataclass(frozen=True)
class Row:
    """One row of the finding-code catalogue: its codes (full, or `_SUFFIX` shorthands of the row's first code's
    family), severity and meaning, as the page writes them."""

    codes: tuple[str, ...]
    severity: str
    meaning: str

    def names(self, code: str) -> bool:
        """Whether the row documents `code` (literally, or as a shorthand after the row's first code)."""
        first = self.codes[0]
        return any(
            t == code or (t.startswith("_") and code.endswith(t) and first.startswith(code[: -len(t)]))
            for t in self.codes
        )


def catalogue() -> list[Row]:
    """The rows of the finding-code catalogue page."""
    rows = []
    for line in FINDINGS_PAGE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("| `") or len(cells) < 3:
            continue
        codes = tuple(re.findall(r"`(_?[A-Z][A-Z0-9_]*)`", cells[0]))
        if codes:
            rows.append(Row(codes, cells[1], " | ".join(cells[2:])))
    return rows


def describe(code: str, rows: list[Row]) -> tuple[str, str]:
    """(severity, meaning) of a code from the first catalogue row naming it ('', '' when none does)."""
    row = next((r for r in rows if r.names(code)), None)
    return (row.severity, row.meaning) if row else ("", "")


def _anchor(type_id: str) -> str:
    return f"t-{type_id}"


def field_table(owner: Spec, type_id: str) -> str:
    """The fields of one type as an HTML table; each row's id is what the diagram and hex dump link to."""
    rows = []
    offset: int | None = 0
    for f in byte_diagram.fields(owner, type_id):
        fid = str(f["id"])
        if "pos" in f:
            ofs = f"at `{f['pos']}`"
            offset = None
        else:
            ofs = str(offset) if offset is not None else ""
            n = fixed_size(f, owner)
            offset = offset + n if offset is not None and n is not None else None
        rules = "; ".join(
            x for x in (valid_text(f), f"if `{f['if']}`" if "if" in f else "", _code(f), _process(f)) if x
        )
        cells = [_inline(c) for c in (ofs, size_text(f, owner), type_text(f), first_paragraph(f.get("doc")), rules)]
        if href := _type_link(f, owner):
            cells[2] = f'<a href="{href}">{cells[2]}</a>'
        rows.append(
            f'<tr id="{_anchor(type_id)}-{escape(fid)}"><td><code>{escape(fid)}</code></td>'
            + "".join(f"<td>{c}</td>" for c in cells)
            + "</tr>"
        )
    head = "<tr><th>field</th><th>offset</th><th>size</th><th>type</th><th>meaning</th><th>rules</th></tr>"
    return f'<table class="fields docutils">{head}{"".join(rows)}</table>'


def _type_link(f: dict, owner: Spec) -> str:
    """Where a field's user type is drawn: its diagram on this page or on its spec's page ('' for others)."""
    t = f.get("type")
    if not isinstance(t, str):
        return ""
    parts = t.split("(")[0].strip().split("::")
    if len(parts) == 1 and parts[0] in owner.types():
        return f"#{_anchor(parts[0])}"
    if parts[0] in {s.name for s in specs()}:
        return f"{parts[0]}.html#{_anchor(parts[-1])}"
    return ""


def _code(f: dict) -> str:
    return f"finding `{f['-code']}`" if "-code" in f else ""


def _process(f: dict) -> str:
    return f"process `{f['process']}`" if "process" in f else ""


def _inline(text: str) -> str:
    """Markdown-ish inline text as HTML: `code` spans, the rest escaped."""
    parts = str(text).split("`")
    return "".join(f"<code>{escape(p)}</code>" if i % 2 else escape(p) for i, p in enumerate(parts))


def enum_tables(owner: Spec) -> list[str]:
    out = []
    for name, values in (owner.doc.get("enums") or {}).items():
        rows = "".join(
            f"<tr><td>{k}</td><td><code>{escape(str(v['id'] if isinstance(v, dict) else v))}</code></td>"
            f"<td>{_inline(first_paragraph(v.get('doc')) if isinstance(v, dict) else '')}</td></tr>"
            for k, v in values.items()
        )
        out.append(
            f"### enum `{name}`\n\n"
            f'<table class="enum docutils"><tr><th>value</th><th>name</th><th>meaning</th></tr>{rows}</table>\n'
        )
    return out


# --------------------------------------------------------------------------- goldens: who wrote, who read


@cache  # read once for the three sections that use them
def _goldens(name: str) -> list[tuple[Path, dict]]:
    folder = GOLDEN / name
    return [(p.with_suffix(".bin"), json.loads(p.read_text())) for p in sorted(folder.glob("*/*.json"))]


def releases(name: str) -> tuple[list[str], list[str]]:
    """(Java releases that wrote a golden of the layout, Java releases whose readers were run on one, as the
    sidecars record it: a `java-read` verdict names them, a `java_reader` result is the writer's own read)."""
    wrote, read = set(), set()
    for _, case in _goldens(name):
        prov = case.get("provenance", {})
        if prov.get("producer") == "java-paimon":
            wrote.add(prov.get("paimon_version"))
            if "java_reader" in case:
                read.add(prov.get("paimon_version"))
        ev = prov.get("evidence") or {}
        if ev.get("kind") == "java-read":
            read.update(RELEASE.findall(str(ev.get("by", ""))))
    return sorted(filter(None, wrote), key=version_key), sorted(read, key=version_key)


def refused_by(name: str) -> dict[str, set[str]]:
    """code → the Java releases whose readers refuse a must-reject golden of the layout with that code."""
    out: dict[str, set[str]] = defaultdict(set)
    for _, case in _goldens(name):
        if "must_reject" in case:
            ev = case.get("provenance", {}).get("evidence") or {}
            out[case["must_reject"]["code"]].update(RELEASE.findall(str(ev.get("by", ""))))
    return out


def annotated_golden(owner: Spec) -> str:
    """The hex dump section: the smallest Java-written golden of at least 24 bytes, annotated."""
    layout = BY_NAME.get(owner.name)
    candidates = []
    for path, case in _goldens(owner.name):
        prov = case.get("provenance", {})
        if prov.get("producer") == "java-paimon" and path.is_file() and path.stat().st_size >= 24:
            candidates.append((path.stat().st_size, str(path), path, case))
    if layout is None or not candidates:
        return ""
    _, _, path, case = min(candidates)
    data = path.read_bytes()
    with structure.debug_trees() as trees, contextlib.suppress(PaimonConformError):
        layout.inspect(data, layout.case_types(case))
    tree = next((t for name, t in trees if name == owner.name), None) or structure.debug_tree(owner.name, data)
    spans = hex_dump.spans(tree)
    shown = min(len(data), hex_dump.SHOWN)
    claimed = sum(s is not None for s in hex_dump.owners(shown, spans))
    rel = path.relative_to(ROOT).as_posix()
    version = case["provenance"].get("paimon_version")
    intro = (
        f"`{rel}`, written by Java Paimon {version} ({len(data)} bytes"
        f"{f'; the first {shown} shown' if shown < len(data) else ''}; {claimed} of the {shown} bytes shown belong "
        "to a field). Each run of bytes links to the field that reads it; hover for its path."
    )

    def link(s: hex_dump.Span) -> str:
        page = "" if s.spec == owner.name else f"{s.spec}.html"
        return f"{page}#{_anchor(s.type_id)}-{s.field}"

    return f"## A Java-written file, annotated\n\n{intro}\n\n" + hex_dump.html(data, spans, link) + "\n"


# --------------------------------------------------------------------------- the page


def page(owner: Spec, known: list[Row]) -> str:
    """The Markdown page of one spec."""
    meta = owner.doc["meta"]
    kind = "Shared piece" if owner.common else "Layout"
    out = [f"# {owner.title}\n", f"{kind} `{owner.name}`: spec `specs/{'common/' if owner.common else ''}"]
    out[-1] += f"{owner.name}.ksy`" + (f"; {meta['application']}" if meta.get("application") else "") + ".\n"
    if owner.doc.get("doc"):
        out.append(owner.doc["doc"].strip() + "\n")
    refs = java_refs(owner.doc.get("doc-ref"))
    if refs:
        out.append("Java: " + ", ".join(f"[`{label}`]({url})" if url else label for label, url in refs) + "\n")
    if meta.get("imports"):
        out.append("Uses: " + ", ".join(f"[{i.split('/')[-1]}]({i.split('/')[-1]}.md)" for i in meta["imports"]))
        out[-1] += "\n"
    if not owner.common:
        wrote, read = releases(owner.name)
        out.append("## Releases\n")
        out.append(f"- Written by Java Paimon (goldens of this layout): {', '.join(wrote) or 'none in the corpus'}")
        out.append(
            "- Read by Java Paimon (its reader was run on them, as the sidecars record): "
            f"{', '.join(r for r in read if r) or 'none recorded'}\n"
        )
    out.append("## Byte diagrams and fields\n")
    for type_id, t in owner.types().items():
        if not byte_diagram.fields(owner, type_id):
            continue
        label = "the file" if type_id == owner.name else f"type `{type_id}`"
        out.append(f"### {label}\n")
        if type_id != owner.name and t.get("doc"):
            out.append(first_paragraph(t["doc"]) + "\n")
        if type_id != owner.name and (refs := java_refs(t.get("doc-ref"))):
            out.append("Java: " + ", ".join(f"[`{label}`]({url})" if url else label for label, url in refs) + "\n")
        drawn = byte_diagram.svg(owner, type_id, _anchor(type_id))
        out.append(f'<div class="diagram" id="{_anchor(type_id)}">{drawn}</div>\n')
        out.append(field_table(owner, type_id) + "\n")
    enums = enum_tables(owner)
    if enums:
        out.append("## Enums\n")
        out += enums
    named = codes(owner)
    if named:
        refused = refused_by(owner.name)
        out.append("## Finding codes\n")
        out.append("| code | severity | meaning | refused by Java (must-reject goldens) |\n|---|---|---|---|")
        for code in named:
            sev, meaning = describe(code, known)
            who = ", ".join(sorted(refused.get(code, ()), key=version_key)) or "(no must-reject golden)"
            out.append(f"| [`{code}`](../findings.md) | {sev} | {meaning} | {who} |")
        out.append("")
    if not owner.common:
        out.append(annotated_golden(owner))
        out.append(case_schema(owner))
    return "\n".join(out)


def case_schema(owner: Spec) -> str:
    """The JSON Schema of the layout's case (its golden sidecars and `encode` input), as the kit ships it."""
    if not (SCHEMAS / f"{owner.name}.json").is_file():
        return ""
    return (
        "## The case (sidecar) schema\n\n"
        f"What a golden's JSON sidecar of this layout holds: `src/paimon_conform/schemas/{owner.name}.json` (its "
        "shared definitions are in `common.json`); see [the case format](../case-format.md).\n\n"
        f"<details><summary>{owner.name}.json</summary>\n\n"
        f"```{{literalinclude}} ../schemas/{owner.name}.json\n:language: json\n```\n\n</details>\n"
    )


def index(all_specs: tuple[Spec, ...]) -> str:
    lines = ["# Layouts\n", "Every binary layout, generated from its Kaitai spec (`specs/`).\n"]
    lines.append("```{toctree}\n:maxdepth: 1\n\n" + "\n".join(s.name for s in all_specs if not s.common) + "\n```\n")
    lines.append("## Shared pieces\n")
    lines.append("```{toctree}\n:maxdepth: 1\n\n" + "\n".join(s.name for s in all_specs if s.common) + "\n```\n")
    return "\n".join(lines)


def write(out: Path) -> list[Path]:
    """Write layouts/index.md and a page per spec under `out`; return the pages."""
    out.mkdir(parents=True, exist_ok=True)
    known = catalogue()
    written = []
    for s in specs():
        target = out / f"{s.name}.md"
        target.write_text(page(s, known), encoding="utf-8")
        written.append(target)
    (out / "index.md").write_text(index(specs()), encoding="utf-8")
    return written
