"""The known writer bugs (core/known_bugs.py): each names a finding the kit really gives on the bytes such a
writer wrote, and only those; `validate` names them in its report."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest
from support import java_mutations as jm
from support.environment import GOLDEN

from paimon_conform import cli
from paimon_conform.core import known_bugs
from paimon_conform.core.findings import Finding
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("third-party", "kit")

TABLE = GOLDEN / "tables" / "java-0.9.0" / "pk-fixed4-parquet-dv"


def _codes_named(root: Path) -> dict[str, list[str]]:
    found = [f for r in validate_table(root) for f in r.findings]
    return {f.code: [b.id for b in known_bugs.matching(f)] for f in found}


def test_a_manifest_with_version_last_names_the_rust_bug(tmp_path):
    """paimon-rust's manifests with _VERSION last (rust#741): the kit's MANIFEST_SCHEMA names that bug, and for
    the index manifest its own (rust#797)."""
    root = tmp_path / "t"
    shutil.copytree(TABLE, root)
    for kind in ("manifest", "index_manifest"):
        assert jm.rewrite_avro(root, kind, schema_fn=jm.reorder("", jm.version_last)) > 0
    jm.fix_sizes(root)
    found = [
        f for r in validate_table(root) for f in r.findings if f.code == "MANIFEST_SCHEMA" and "_VERSION:" in f.message
    ]
    assert len(found) >= 2
    named = {
        (("index" if "index-manifest" in f.file else "manifest"), tuple(b.id for b in known_bugs.matching(f)))
        for f in found
    }
    assert named == {("manifest", ("apache/paimon-rust#741",)), ("index", ("apache/paimon-rust#797",))}
    assert all("[known bug apache/paimon-rust#" in f.message for f in found)


def test_no_finding_on_a_clean_java_table_names_a_bug():
    assert _codes_named(TABLE) == {}


@pytest.mark.parametrize("bug", known_bugs.BUGS, ids=[b.id for b in known_bugs.BUGS])
def test_every_bug_names_a_code_the_kit_gives_and_says_what_fixed_it(bug):
    page = (Path(__file__).resolve().parent.parent / "docs" / "findings.md").read_text(encoding="utf-8")
    assert f"`{bug.code}`" in page  # a finding code of the table of codes
    assert bug.fixed
    assert bug.evidence
    assert bug.writer
    other = Finding("SOME_OTHER_CODE", "must", "", None, "x", "")
    assert not bug.matches(other)


def test_validate_names_a_known_bug_in_its_json_report(tmp_path):
    root = tmp_path / "t"
    shutil.copytree(TABLE, root)
    assert jm.rewrite_avro(root, "manifest", schema_fn=jm.reorder("", jm.version_last)) > 0
    jm.fix_sizes(root)
    out = tmp_path / "report.json"
    cli.main(["validate", "--report", "json", "-o", str(out), str(root)])
    report = json.loads(out.read_text())
    messages = [f["message"] for r in report["files"] for f in r["findings"]]
    assert any("apache/paimon-rust#741" in m for m in messages), messages


@pytest.mark.parametrize("wider", [True, False], ids=["wider", "narrower"])
def test_a_key_range_wider_than_the_file_is_a_should_that_names_the_java_compaction_bug(tmp_path, wider):
    """A _MAX_KEY above the file's last key (as Java 1.1.1 / 1.2.0 compactions write) is a should naming that
    bug; one below it is a must (a lookup of the last keys skips the file) and names none."""
    from support import fault_catalog as fc

    root = tmp_path / "t"
    shutil.copytree(TABLE, root)

    def change(r: dict) -> None:
        f = r["_FILE"]
        f["_MAX_KEY"] = f["_MAX_KEY"][:-8] + struct.pack("<q", 10**9) if wider else f["_MIN_KEY"]

    fc.edit_live_entry(root, change, lambda r: r["_FILE"]["_ROW_COUNT"] > 1)
    found = [f for r in validate_table(root) for f in known_bugs.name(r.findings) if f.code == "MANIFEST_KEY_RANGE"]
    assert [f.severity for f in found] == ["should" if wider else "must"]
    assert ("Java compaction key range" in found[0].message) == wider
