"""Build the documentation site: the hand-written pages of docs/ and a page per spec, generated from specs/,
into build/site/ (open build/site/index.html; nothing is fetched from the network, in the build or the browser).

    .venv/bin/python tools/docs/build.py [-o DIR]

Sphinx runs with warnings as errors, so a link to a page or heading that does not exist fails the build.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling modules, when run as a script

import layout_pages
from sphinx.cmd.build import build_main

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = ROOT / "docs"
SCHEMAS = ROOT / "src" / "paimon_conform" / "schemas"


def build(out: Path) -> Path:
    """Build the site into `out` (its sources assembled in a temporary folder); return index.html. An `out` that
    holds anything but an earlier build is refused, never emptied."""
    if out.exists() and any(out.iterdir()) and not (out / ".buildinfo").is_file():
        raise SystemExit(f"docs: {out} exists and is not a site this tool built; name another folder")
    with tempfile.TemporaryDirectory(prefix="paimon-conform-docs-") as tmp:
        work = Path(tmp) / "src"
        shutil.copytree(DOCS, work)
        shutil.copytree(SCHEMAS, work / "schemas")  # the JSON Schemas the pages include as the kit ships them
        layout_pages.write(work / "layouts")
        if out.exists():
            shutil.rmtree(out)
        code = build_main(["-b", "html", "-W", "--keep-going", "-q", "-E", "-j", "1", str(work), str(out)])
    if code != 0:
        raise SystemExit(f"docs: the Sphinx build failed ({code}); its messages are above")
    return out / "index.html"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--out", default=str(ROOT / "build" / "site"), help="where the site goes (build/site)")
    args = p.parse_args(argv)
    print(build(Path(args.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
