"""Branches (branch/branch-<name>/ with its own schema/ and snapshot/, sharing the table's manifest/,
index/ and data directories) are validated as tables of their own: on the Java-written branch tables of
the corpus every data file is checked once and nothing is left unreferenced, and a fault only a branch
sees is reported on the branch's files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.environment import corpus_table

from paimon_conform.table.metadata import read_records
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("third-party",)

TABLES = ("append_table_with_append_pt_branch", "append_table_with_rt_branch")


def _findings(root: Path) -> list[tuple[str, str, str]]:
    return sorted(
        (f.code, f.severity, str(Path(r.file).relative_to(root)) if r.file != str(root) else "")
        for r in validate_table(root)
        for f in r.findings
    )


def _data_files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.glob("**/bucket-*/data-*") if p.suffix != ".index"}


def _referenced_by(root: Path, meta: str) -> set[str]:
    """The data files the latest snapshot at `meta` lists (base + delta manifests, ADDs), as paths."""
    snaps = sorted((root / meta / "snapshot").glob("snapshot-*"), key=lambda p: int(p.name.split("-")[1]))
    snap = json.loads(snaps[-1].read_text())
    out = set()
    for lst in (snap["baseManifestList"], snap["deltaManifestList"]):
        for m in read_records(root / "manifest" / lst).records:
            for e in read_records(root / "manifest" / m["_FILE_NAME"]).records:
                out.add(e["_FILE"]["_FILE_NAME"])
    return out


@pytest.mark.parametrize("name", TABLES)
def test_java_written_branch_tables_are_clean_and_every_data_file_is_checked_once(tmp_path, name):
    root = corpus_table(tmp_path, name)
    stats = TableStats()
    progress: list[str] = []
    assert [
        (f.code, f.message) for r in validate_table(root, progress=progress.append, stats=stats) for f in r.findings
    ] == []
    assert stats.data_files == len(_data_files(root))
    [branch] = [p.name for p in (root / "branch").iterdir()]
    assert any(f"of branch/{branch}" in line for line in progress)
    only_branch = _referenced_by(root, f"branch/{branch}") - _referenced_by(root, "")
    assert only_branch  # the corpus tables have data only their branch refers to


def test_a_data_file_only_a_branch_refers_to_is_missing_must(tmp_path):
    root = corpus_table(tmp_path, "append_table_with_append_pt_branch")
    only_branch = _referenced_by(root, "branch/branch-test") - _referenced_by(root, "")
    victim = next(p for p in root.glob("**/bucket-*/data-*") if p.name in only_branch)
    victim.unlink()
    found = [(c, s, f) for c, s, f in _findings(root) if s != "warning"]
    assert found
    assert {c for c, _, _ in found} == {"DATA_FILE_MISSING"}
    assert all(f.startswith("manifest/manifest-") for _, _, f in found)


def test_a_branch_snapshot_naming_a_missing_manifest_list_is_reported_on_the_branch(tmp_path):
    root = corpus_table(tmp_path, "append_table_with_rt_branch")
    snap = root / "branch" / "branch-rt" / "snapshot" / "snapshot-1"
    doc = json.loads(snap.read_text())
    doc["deltaManifestList"] = "manifest-list-00000000-0000-0000-0000-000000000000-9"
    snap.write_text(json.dumps(doc))
    found = [(c, s, f) for c, s, f in _findings(root) if s != "warning"]
    assert ("SNAPSHOT_MISSING_MANIFEST_LIST", "must", "branch/branch-rt/snapshot/snapshot-1") in found


def test_an_unreadable_branch_schema_is_a_finding_not_an_unusable_table(tmp_path):
    root = corpus_table(tmp_path, "append_table_with_rt_branch")
    for p in (root / "branch" / "branch-rt" / "schema").iterdir():
        p.write_text("{")
    found = _findings(root)
    assert ("SCHEMA_UNREADABLE", "must", "branch/branch-rt/schema") in found


def test_a_branch_schema_finding_names_the_branch_schema_file(tmp_path):
    root = corpus_table(tmp_path, "append_table_with_rt_branch")
    schema = root / "branch" / "branch-rt" / "schema" / "schema-1"
    doc = json.loads(schema.read_text())
    doc["options"]["row-tracking.enabled"] = "true"  # only the branch turns the feature on
    schema.write_text(json.dumps(doc))
    found = [(c, f) for c, _, f in _findings(root) if c == "FEATURE_NOT_CHECKED"]
    assert found == [("FEATURE_NOT_CHECKED", "branch/branch-rt/schema/schema-1")]
