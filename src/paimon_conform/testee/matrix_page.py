"""The matrix as an HTML page (one cell per producer x consumer pair, and the kit's validation per producer,
each failing cell linking to its findings) and as the Markdown table docs/matrix.md shows."""

from __future__ import annotations

import html
import re

from paimon_conform.testee.chains import SEPARATOR
from paimon_conform.testee.checks import Check
from paimon_conform.testee.matrix import Matrix
from paimon_conform.testee.tables import CHAIN_KIND

STYLE = """
body { font-family: sans-serif; margin: 2em; }
table.matrix { border-collapse: collapse; }
table.matrix th, table.matrix td { border: 1px solid #888; padding: 0.4em 0.8em; text-align: center; }
td.pass { background: #b7e1b0; } td.fail { background: #f1a9a0; } td.listed { background: #f6d58e; }
td.none { background: #ddd; color: #555; }
section.cell { margin-top: 1.5em; } li.fail { color: #8a1c0f; } li.listed { color: #7a5200; }
"""


def _anchor(*parts: str) -> str:
    return "cell-" + re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-")


def _state(checks: list[Check]) -> tuple[str, str]:
    """(css class, text) of a cell from its checks."""
    if not checks:
        return "none", "n/a"
    passed = sum(c.ok for c in checks)
    if any(not c.ok and c.expected is None for c in checks) or any(c.ok and c.expected for c in checks):
        return "fail", f"{passed}/{len(checks)}"
    if passed < len(checks):
        return "listed", f"{passed}/{len(checks)} (listed)"
    return "pass", f"{passed}/{len(checks)}"


def _cells(m: Matrix) -> dict[tuple[str, str], list[Check]]:
    """Checks per (producer, column): a consumer's reads, or `kit validation`, or `write`."""
    out: dict[tuple[str, str], list[Check]] = {}
    for c in m.checks:
        if c.step.startswith("chain-"):
            continue
        column = {"read": c.consumer, "validate": f"kit: {c.consumer}"}.get(c.step, "write")
        out.setdefault((c.producer, str(column)), []).append(c)
    return out


def _columns(m: Matrix) -> list[str]:
    return ["write", *[f"kit: Java {r}" for r in m.releases()], *m.consumers()]


ALONE = "alone"  # the chains' column of each first writer's own table


def _chain_cells(m: Matrix) -> tuple[list[str], list[str], dict[tuple[str, str], list[Check]]]:
    """(first writers, second writers, checks per (first, second)) of the chains."""
    cells: dict[tuple[str, str], list[Check]] = {}
    for c in m.checks:
        if c.step == "chain-base":
            cells.setdefault((c.producer, ALONE), []).append(c)
        elif c.step.startswith("chain-"):
            first, second = c.producer.split(SEPARATOR, 1)
            cells.setdefault((first, second), []).append(c)
    firsts = [p for p in m.producers() if any(k[0] == p for k in cells)]
    seconds = [p for p in m.producers() if any(k[1] == p for k in cells)]
    return firsts, [ALONE, *seconds] if cells else [], cells


def _items(checks: list[Check]) -> str:
    """The failing (or listed and passing) checks of a cell as list items."""
    e = html.escape
    return "".join(
        f'<li class="{"listed" if c.expected and not c.ok else "fail"}"><b>{e(c.kind)}</b> '
        f"({e(c.id)}): {e(c.detail or 'passes, but the failure list names it')}"
        + (f" <i>listed: {e(c.expected)}</i>" if c.expected else "")
        + "</li>"
        for c in checks
        if not c.ok or c.expected
    )


def _chain_table(m: Matrix) -> tuple[str, list[str]]:
    """(the chains' grid, its failing cells' sections): rows the first writer, columns the second."""
    e = html.escape
    firsts, seconds, cells = _chain_cells(m)
    if not cells:
        return "<p>no chains</p>", []
    rows, sections = [], []
    for first in firsts:
        tds = []
        for second in seconds:
            checks = cells.get((first, second), [])
            cls, text = _state(checks)
            anchor = _anchor("chain", first, second)
            link = f'<a href="#{anchor}">{e(text)}</a>' if cls in ("fail", "listed") else e(text)
            tds.append(f'<td class="{cls}" data-chain="{e(first)}{SEPARATOR}{e(second)}">{link}</td>')
            if cls in ("fail", "listed"):
                title = f"{e(first)} writes, then {e(second)}"
                sections.append(
                    f'<section class="cell" id="{anchor}"><h3>{title}</h3><ul>{_items(checks)}</ul></section>'
                )
        rows.append(f"<tr><th>{e(first)}</th>{''.join(tds)}</tr>")
    head = "".join(f"<th>{e(s)}</th>" for s in seconds)
    table = f'<table class="matrix" id="chains"><tr><th>first writer \\ then</th>{head}</tr>{"".join(rows)}</table>'
    return table, sections


def render_html(m: Matrix) -> str:
    """The whole page."""
    cells = _cells(m)
    columns = _columns(m)
    e = html.escape
    head = "".join(f"<th>{e(c)}</th>" for c in columns)
    rows, sections = [], []
    for p in m.producers():
        tds = []
        for col in columns:
            checks = cells.get((p, col), [])
            cls, text = _state(checks)
            anchor = _anchor(p, col)
            link = f'<a href="#{anchor}">{e(text)}</a>' if cls in ("fail", "listed") else e(text)
            tds.append(f'<td class="{cls}" data-producer="{e(p)}" data-column="{e(col)}">{link}</td>')
            if cls in ("fail", "listed"):
                sections.append(
                    f'<section class="cell" id="{anchor}"><h3>{e(p)} &rarr; {e(col)}</h3>'
                    f"<ul>{_items(checks)}</ul></section>"
                )
        rows.append(f"<tr><th>{e(p)}</th>{''.join(tds)}</tr>")
    testees = "".join(
        f"<li><b>{e(n)}</b>: {e(h.get('name', ''))} {e(h.get('version', ''))}"
        f" (Java line claimed: {e(str(h.get('java_release')))})</li>"
        for n, h in m.testees.items()
    )
    chain_table, chain_sections = _chain_table(m)
    sections += chain_sections
    kinds = "".join(f"<li><b>{e(k)}</b></li>" for k in m.kinds)
    skipped = "".join(f"<li>{e(s)}</li>" for s in m.skipped)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>paimon-conform: producer x consumer matrix</title>
<style>{STYLE}</style></head><body>
<h1>Producer &times; consumer matrix</h1>
<p>Rows: the writer of each table kind. Columns: whether it wrote them, whether the kit's validation finds
no must-finding when judging for each Java line (the writer's claimed line, or the newest, and each Java
reader's), and whether each reader returns the written rows.
A cell counts table kinds; a red cell fails the run, an amber one holds only failures the failure list names.</p>
<table class="matrix" id="matrix"><tr><th>producer \\ consumer</th>{head}</tr>
{"".join(rows)}
</table>
<h2>Chains: one writer's table, continued by another</h2>
<p>Rows: the writer of the {e(CHAIN_KIND)} table. Columns: <i>alone</i>, that table as its writer left it (valid
for the writer's Java line, read by the kit as written), then the writer that adds a commit to it (upserts and
new keys). A cell counts the chain's checks: the second write, the kit's validation for the second writer's
Java line, and the reads by the first writer and the kit; each failing check names the writer whose commit
broke the table.</p>
{chain_table}
<h2>Table kinds</h2><ul>{kinds}</ul>
<h2>Testees</h2><ul>{testees}</ul>
{"<h2>Not run</h2><ul>" + skipped + "</ul>" if skipped else ""}
<h2>Failing cells</h2>
{"".join(sections) or "<p>none</p>"}
</body></html>
"""


def render_markdown(m: Matrix) -> str:
    """The matrix as a Markdown table: cells as `passed/total`, ✗ for unlisted failures, (listed) otherwise."""
    cells = _cells(m)
    columns = _columns(m)
    lines = ["| producer \\ consumer | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for p in m.producers():
        row = []
        for col in columns:
            cls, text = _state(cells.get((p, col), []))
            row.append(("✗ " if cls == "fail" else "") + text)
        lines.append(f"| {p} | " + " | ".join(row) + " |")
    firsts, seconds, chain_cells = _chain_cells(m)
    if chain_cells:
        lines += ["", "| first writer \\ then | " + " | ".join(seconds) + " |", "|---" * (len(seconds) + 1) + "|"]
        for first in firsts:
            row = []
            for second in seconds:
                cls, text = _state(chain_cells.get((first, second), []))
                row.append(("✗ " if cls == "fail" else "") + text)
            lines.append(f"| {first} | " + " | ".join(row) + " |")
    return "\n".join(lines) + "\n"
