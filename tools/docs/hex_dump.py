"""An annotated hex dump of a golden file: every byte range that a field of the spec read links to that field.

The ranges come from the generated parsers' debug build, which records where each field starts and ends in
its stream (substreams are placed by where their parent field starts). Only seq fields and instances read at a
position in the same or the root stream are placed; a byte no field claims is shown plain.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from kaitaistruct import KaitaiStruct
from spec_model import spec, type_of_class

SHOWN = 512  # bytes of the file the dump shows


@dataclass(frozen=True)
class Span:
    """One field's bytes: [start, end) in the file, its path, and the (spec, type, field) it is."""

    start: int
    end: int
    path: str
    spec: str
    type_id: str
    field: str


def _placed_io(obj: KaitaiStruct, name: str) -> str | None:
    """Which stream an instance reads from: `own` (its object's), `root`, or None (another, not placed)."""
    where = type_of_class(type(obj).__module__.rsplit(".", 1)[-1], type(obj).__qualname__.rsplit(".", 1)[-1])
    if where is None:
        return None
    inst = (spec(where[0]).types()[where[1]].get("instances") or {}).get(name) or {}
    if "pos" not in inst:
        return None
    io = inst.get("io")
    return "own" if io is None else "root" if io == "_root._io" else None


def spans(obj: KaitaiStruct, base: int = 0, path: str = "", depth: int = 0) -> list[Span]:
    """Every field range under `obj` (parents before their children), absolute in the file."""
    if depth > 48:
        return []
    module = type(obj).__module__.rsplit(".", 1)[-1]
    where = type_of_class(module, type(obj).__qualname__.rsplit(".", 1)[-1])
    out: list[Span] = []
    for key, pos in getattr(obj, "_debug", {}).items():
        name = key.removeprefix("_m_")
        if key.startswith("_m_"):
            placed = _placed_io(obj, name)
            if placed is None:
                continue
            at = base if placed == "own" else 0
        else:
            at = base
        if "start" not in pos or "end" not in pos:
            continue
        value = getattr(obj, key, None)
        here = f"{path}.{name}" if path else name
        if where is not None and pos["end"] > pos["start"]:
            out.append(Span(at + pos["start"], at + pos["end"], here, where[0], where[1], name))
        items = pos.get("arr")
        if items is not None and isinstance(value, list):
            for i, (item, ipos) in enumerate(zip(value, items, strict=False)):
                if isinstance(item, KaitaiStruct) and "start" in ipos:
                    out += _child(obj, item, at, ipos["start"], f"{here}[{i}]", depth)
        elif isinstance(value, KaitaiStruct):
            out += _child(obj, value, at, pos["start"], here, depth)
    return out


def _child(obj: KaitaiStruct, child: KaitaiStruct, base: int, start: int, path: str, depth: int) -> list[Span]:
    same = child._io is obj._io or child._io is obj._root._io
    if child._io is obj._root._io:
        base = 0
    return spans(child, base if same else base + start, path, depth + 1)


def owners(size: int, found: list[Span]) -> list[Span | None]:
    """For each byte, the innermost field that read it (a later, deeper span wins over its parent)."""
    by_byte: list[Span | None] = [None] * size
    for s in sorted(found, key=lambda s: (s.path.count(".") + s.path.count("["), s.start)):
        for i in range(max(s.start, 0), min(s.end, size)):
            by_byte[i] = s
    return by_byte


def html(data: bytes, found: list[Span], link: callable) -> str:
    """The dump as HTML: 16 bytes a row, each run of one field's bytes a link (`link(span)` gives its href)."""
    shown = data[:SHOWN]
    who = owners(len(shown), found)
    rows = []
    colours: dict[str, int] = {}
    for row in range(0, len(shown), 16):
        cells, text = [], []
        i = row
        while i < min(row + 16, len(shown)):
            s = who[i]
            j = i
            while j < min(row + 16, len(shown)) and who[j] is s:
                j += 1
            hexes = " ".join(f"{b:02x}" for b in shown[i:j])
            chars = "".join(chr(b) if 32 <= b < 127 else "." for b in shown[i:j])
            if s is None:
                cells.append(f'<span class="plain">{hexes}</span>')
            else:
                c = colours.setdefault(s.path, len(colours) % 6)
                title = escape(f"{s.path}: bytes {s.start}..{s.end - 1}")
                cells.append(f'<a class="f{c}" href="{escape(link(s))}" title="{title}">{hexes}</a>')
            text.append(escape(chars))
            i = j
        rows.append(f'<span class="ofs">{row:08x}</span>  {" ".join(cells)}{"   " * (16 - (i - row))}  {"".join(text)}')
    more = f"\n… {len(data) - SHOWN} more bytes" if len(data) > SHOWN else ""
    return '<pre class="hexdump">' + "\n".join(rows) + more + "</pre>" + legend(who, link)


def legend(who: list[Span | None], link: callable, most: int = 60) -> str:
    """The fields of the dump in byte order, each with its bytes and a link: the dump's key."""
    seen: list[Span] = []
    for s in who:
        if s is not None and (not seen or seen[-1] is not s) and s not in seen:
            seen.append(s)
    items = [
        f'<li><a href="{escape(link(s))}"><code>{escape(s.path)}</code></a> bytes {s.start}..{s.end - 1}</li>'
        for s in seen[:most]
    ]
    if len(seen) > most:
        items.append(f"<li>… {len(seen) - most} more fields</li>")
    return '<ul class="hexdump-key">' + "".join(items) + "</ul>"
