"""Every finding code the kit can emit is documented in the finding table of docs/findings.md."""

from __future__ import annotations

import re

from support.environment import ROOT

EVIDENCE = ("contract",)

SRC = ROOT / "src" / "paimon_conform"
CODE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
# A code as the first string argument of a finding, an error or a table-check helper.
CALL = re.compile(
    r"(?:Finding|_f|_finding|MetadataProblem|InvariantError|TruncatedError|LayoutError)\(\s*(?:\w+\s*,\s*)?\"("
    + CODE
    + r")\""
)
# Codes passed on as arguments (e.g. the code a missing reference gets).
PASSED = re.compile(r"\"((?:SNAPSHOT|MANIFEST|INDEX|TABLE|DATA_FILE|DV|HASH)_" + r"[A-Z0-9_]+)\"")
NOT_CODES = {"INDEX_TYPE"}


def emitted_codes() -> dict[str, str]:
    codes: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text()
        for m in CALL.finditer(text):
            codes.setdefault(m.group(1), path.name)
        if path.parent.name == "table":
            for m in PASSED.finditer(text):
                codes.setdefault(m.group(1), path.name)
    return {c: f for c, f in codes.items() if c not in NOT_CODES}


def documented(code: str, page: str, rows: list[list[str]]) -> bool:
    """Literally, as `PREFIX*`, or as a `_SUFFIX` shorthand after a full code with the same prefix."""
    if f"`{code}`" in page:
        return True
    for tokens in rows:
        first = tokens[0]
        for t in tokens:
            if t.endswith("*") and code.startswith(t[:-1]):
                return True
            if t.startswith("_") and code.endswith(t) and first.startswith(code[: -len(t)]):
                return True
    return False


def test_every_emitted_code_is_in_the_docs():
    page = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    rows = [
        re.findall(r"`([A-Z_][A-Z0-9_]*\*?)`", line.split("|")[1])
        for line in page.splitlines()
        if line.startswith("| `")
    ]
    rows = [r for r in rows if r]
    codes = emitted_codes()
    assert len(codes) > 100  # the scan itself found the kit's codes
    assert not documented("MANIFEST_NO_SUCH_CODE", page, rows)  # the matcher can say no
    missing = sorted(f"{c} ({f})" for c, f in codes.items() if not documented(c, page, rows))
    assert missing == []


def test_the_scan_sees_the_table_checks():
    codes = emitted_codes()
    for code in ("DATA_FILE_WRONG_BUCKET", "MANIFEST_SCHEMA", "SNAPSHOT_MISSING_MANIFEST_LIST", "INDEX_FILE_MISSING"):
        assert code in codes
