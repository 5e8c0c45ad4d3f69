"""An annotated hex dump of a golden file: every byte range that a field of the spec read links to that field.

The ranges come from the generated parsers' debug build, which records where each field starts and ends in
its stream (substreams are placed by where their parent field starts). Only seq fields and instances read at a
position in the same or the root stream are placed; a byte no field claims is shown plain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
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
    typed: tuple[str, int] | None = field(default=None, compare=False)  # a primitive integer: (type, value)


def _type_of(obj: KaitaiStruct) -> tuple[str, str] | None:
    """(spec, type id) of a parsed object, from its generated class."""
    return type_of_class(type(obj).__module__.rsplit(".", 1)[-1], type(obj).__qualname__.rsplit(".", 1)[-1])


def _definition(where: tuple[str, str] | None, name: str) -> tuple[dict, bool, dict]:
    """(the field's spec entry, whether it is an instance, the spec's meta) of field `name` of type `where`."""
    if where is None:
        return {}, False, {}
    owner = spec(where[0])
    t = owner.types()[where[1]]
    inst = (t.get("instances") or {}).get(name)
    if inst is not None:
        return inst, True, owner.doc["meta"]
    field = next((f for f in t.get("seq") or [] if f.get("id") == name), {})
    return field, False, owner.doc["meta"]


def _reading_io(obj: KaitaiStruct, defn: dict, instance: bool) -> object | None:
    """The stream a field was read from: its object's, or for an instance its `io` (only `_root._io` and the
    object's own are followed); None for a value instance, which reads no bytes."""
    if not instance:
        return obj._io
    if "value" in defn:
        return None
    io = defn.get("io")
    return obj._io if io is None else obj._root._io if io == "_root._io" else None


def spans(obj: KaitaiStruct, bases: dict[int, int] | None = None, path: str = "", depth: int = 0) -> list[Span]:
    """Every field range under `obj` (parents before their children), absolute in the file. `bases` maps each
    stream met so far (by id) to where it starts in the file: the top object's stream starts at 0, a substream
    where the field that made it starts in its parent's stream. Fields whose bytes a process changed (a
    decompressed or checksummed block) are not descended into, and an instance that re-reads bytes through a
    process claims none."""
    if bases is None:
        bases = {id(obj._io): 0}
    if depth > 48:
        return []
    where = _type_of(obj)
    out: list[Span] = []
    for key, pos in getattr(obj, "_debug", {}).items():
        name = key.removeprefix("_m_")
        defn, instance, meta = _definition(where, name)
        io = _reading_io(obj, defn, instance)
        if io is None or id(io) not in bases or "start" not in pos or "end" not in pos:
            continue
        if instance and "process" in defn:
            continue
        at = bases[id(io)]
        value = getattr(obj, key, None)
        here = f"{path}.{name}" if path else name
        claims = not instance or "pos" in defn  # an instance without pos only groups what its children read
        if where is not None and claims and pos["end"] > pos["start"]:
            typed = primitive(value, defn, meta) if "process" not in defn else None
            out.append(Span(at + pos["start"], at + pos["end"], here, where[0], where[1], name, typed))
        if "process" in defn:
            continue
        items = pos.get("arr")
        if items is not None and isinstance(value, list):
            for i, (item, ipos) in enumerate(zip(value, items, strict=False)):
                if isinstance(item, KaitaiStruct) and "start" in ipos:
                    out += _child(item, at + ipos["start"], bases, f"{here}[{i}]", depth)
        elif isinstance(value, KaitaiStruct):
            out += _child(value, at + pos["start"], bases, here, depth)
    return out


def _child(child: KaitaiStruct, start: int, bases: dict[int, int], path: str, depth: int) -> list[Span]:
    """A child's spans: a stream not met before is a substream starting where the child's field starts."""
    bases.setdefault(id(child._io), start)
    return spans(child, bases, path, depth + 1)


def primitive(obj_value: object, defn: dict, meta: dict) -> tuple[str, int] | None:
    """(Kaitai type with its endianness, value) of an integer field read as a primitive, else None."""
    t = defn.get("type")
    if not isinstance(t, str) or not isinstance(obj_value, int) or isinstance(obj_value, bool):
        return None
    m = re.fullmatch(r"([us])([1248])(le|be)?", t)
    if not m:
        return None
    endian = m.group(3) or meta.get("endian")
    if m.group(2) == "1":
        endian = endian or "be"
    if endian not in ("le", "be"):
        return None
    return f"{m.group(1)}{m.group(2)}{endian}", obj_value


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


def _typed(s: Span) -> str:
    """data- attributes of a primitive field, so that a reader of the page can decode its bytes itself."""
    return "" if s.typed is None else f' data-type="{s.typed[0]}" data-value="{s.typed[1]}"'


def legend(who: list[Span | None], link: callable, most: int = 60) -> str:
    """The fields of the dump in byte order, each with its bytes and a link: the dump's key."""
    seen: list[Span] = []
    for s in who:
        if s is not None and (not seen or seen[-1] is not s) and s not in seen:
            seen.append(s)
    items = [
        f'<li data-start="{s.start}" data-end="{s.end}"{_typed(s)}><a href="{escape(link(s))}"><code>'
        f"{escape(s.path)}</code></a> bytes {s.start}..{s.end - 1}</li>"
        for s in seen[:most]
    ]
    if len(seen) > most:
        items.append(f"<li>… {len(seen) - most} more fields</li>")
    return '<ul class="hexdump-key">' + "".join(items) + "</ul>"
