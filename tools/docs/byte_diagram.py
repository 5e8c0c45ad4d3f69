"""A byte diagram of one spec type, as SVG: its fields left to right in order, a box each, wrapped into rows.

A field of fixed size is drawn as wide as its bytes (within limits) and labelled with them; a field whose
size the data decides is drawn dashed and labelled with the expression; a conditional field is drawn faded.
Each box links to the field's row in the table below the diagram.
"""

from __future__ import annotations

from html import escape

from spec_model import Spec, fixed_size, size_text

ROW_WIDTH = 760
BOX_HEIGHT = 46
UNIT = 22  # pixels per byte of a fixed-size field
MIN_BOX, MAX_BOX, VAR_BOX = 64, 300, 150


def _width(size: int | None, label: str) -> int:
    text = max(len(label) * 7 + 12, MIN_BOX)
    if size is None:
        return min(max(VAR_BOX, text), ROW_WIDTH)
    return min(max(size * UNIT, text), MAX_BOX)


def fields(owner: Spec, type_id: str) -> list[dict]:
    """The fields a diagram of the type shows: its seq, then the instances read at a position."""
    t = owner.types()[type_id]
    shown = [f for f in t.get("seq") or [] if "id" in f]
    shown += [dict(v, id=k) for k, v in (t.get("instances") or {}).items() if "pos" in v]
    return shown


def svg(owner: Spec, type_id: str, anchor: str) -> str:
    """The SVG of a type's fields; box links go to `#{anchor}-<field>`."""
    boxes, x, y = [], 0, 0
    for f in fields(owner, type_id):
        n = fixed_size(f, owner)
        size = size_text(f, owner).replace("`", "")
        name = str(f["id"])
        w = _width(n, max(name, size, key=len))
        if x + w > ROW_WIDTH and x > 0:
            x, y = 0, y + BOX_HEIGHT + 10
        style = "fixed" if n is not None else "var"
        if "if" in f:
            style += " cond"
        positioned = " (at pos)" if "pos" in f else ""
        boxes.append(
            f'<a href="#{anchor}-{escape(name)}"><g class="box {style}">'
            f"<title>{escape(name)}: {escape(size)} bytes{positioned}"
            f"{' if ' + escape(str(f['if'])) if 'if' in f else ''}</title>"
            f'<rect x="{x + 1}" y="{y + 1}" width="{w - 2}" height="{BOX_HEIGHT - 2}" rx="3"/>'
            f'<text x="{x + w / 2}" y="{y + 19}" class="name">{escape(name)}</text>'
            f'<text x="{x + w / 2}" y="{y + 36}" class="size">{escape(size)}</text></g></a>'
        )
        x += w
    if not boxes:
        return ""
    height = y + BOX_HEIGHT + 2
    return (
        f'<svg class="byte-diagram" xmlns="http://www.w3.org/2000/svg" width="{ROW_WIDTH}" height="{height}" '
        f'viewBox="0 0 {ROW_WIDTH} {height}" role="img" aria-label="byte diagram of {escape(type_id)}">'
        + "".join(boxes)
        + "</svg>"
    )
