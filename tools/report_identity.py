"""Snapshot what the kit says about every golden table, golden file and external-corpus file or
table, so that a refactoring can be shown to change nothing: run `write DIR` before and after
and compare the two directories (`diff -r`). Each target gets its validate report (JSON, level
should) and, for tables, the rows the reference reader returns in the kit's logical JSON form.

    python tools/report_identity.py write /tmp/before
    TZ=Asia/Shanghai python tools/report_identity.py write /tmp/before-sh
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
from pathlib import Path

from paimon_conform import cli
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.table.read import reader

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "external-corpus"


def tables() -> list[Path]:
    """Golden tables of every release and the external corpus's tables (a directory with schema/)."""
    found = [p.parent for p in (ROOT / "golden" / "tables").glob("*/*/schema")]
    found += [p.parent for p in CORPUS.glob("files/**/schema") if p.is_dir()]
    return sorted(found)


def corpus_files() -> list[tuple[Path, list[str]]]:
    """External-corpus files with the arguments their manifest row gives the kit."""
    rows = (CORPUS / "MANIFEST.tsv").read_text().splitlines()
    head = rows[0].split("\t")
    out = []
    for line in rows[1:]:
        row = dict(zip(head, line.split("\t"), strict=True))
        path = CORPUS / row["local_path"]
        if path.is_file():
            out.append((path, json.loads(row["kit_args"] or "[]")))
    return out


def _name(path: Path) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", str(path.relative_to(ROOT.parent)))


def _validate(args: list[str], out: Path) -> None:
    with contextlib.redirect_stdout(io.StringIO()) as text:
        rc = cli.main(["validate", "--level", "should", "--report", "json", "-o", str(out), *args])
    out.with_suffix(".txt").write_text(f"exit {rc}\n{text.getvalue()}")


def _rows(table: Path, out: Path) -> None:
    try:
        schema, rows = reader.read_latest(table)
        # sorted: the reader's row order of a primary-key table is not defined (it differs run to run)
        text = json.dumps(sorted(reader.logical_rows(schema, rows), key=json.dumps), sort_keys=True)
    except PaimonConformError as e:
        text = f"refused: {e}"
    out.write_text(text + "\n")


def write(target: Path) -> None:
    """Every report and every table's rows into `target`."""
    target.mkdir(parents=True, exist_ok=True)
    for table in tables():
        _validate([str(table)], target / f"{_name(table)}.json")
        _rows(table, target / f"{_name(table)}.rows")
    for path, args in corpus_files():
        _validate([*args, str(path)], target / f"{_name(path)}.json")
    with contextlib.redirect_stdout(io.StringIO()) as text:
        rc = cli.main(["corpus", "--jobs", "1", "--report", "json", "-o", str(target / "golden-corpus.json")])
    (target / "golden-corpus.txt").write_text(f"exit {rc}\n{text.getvalue()}")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "write":
        sys.exit(__doc__)
    write(Path(sys.argv[2]))
