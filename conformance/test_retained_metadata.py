"""Metadata that outlives snapshots: tags, long-lived changelogs, consumers and statistics.

The tables are Java's (golden/tables/java-*/pk-tags-changelog and append-tags-expired,
tools/golden_java_tables.py): snapshots expire after two commits, tags keep older ones, expired
snapshots live on as changelog/changelog-N, an ANALYZE commit writes statistics/stats-*, and a
consumer file names the next snapshot. Java deleted what it no longer keeps, so the valid tables
name files that are gone; changed copies check that what Java does keep is still required.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.environment import ROOT

from paimon_conform.table import metadata
from paimon_conform.table.chain import load_chain, merge
from paimon_conform.table.schema import read_schema, schema_ids
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

TABLES = ROOT / "golden" / "tables"
JARS = ["java-0.9.0", "java-1.0-SNAPSHOT"]


def _copy(tmp_path: Path, jar: str, case: str) -> Path:
    root = tmp_path / case
    shutil.copytree(TABLES / jar / case, root)
    return root


def _findings(root: Path) -> list:
    results = validate_table(root)
    assert all(r.unusable is None for r in results)
    return [f for r in results for f in r.findings]


def _codes(root: Path, severity: str = "must") -> set[tuple[str, str]]:
    """(code, file relative to the root) of every finding at `severity`."""
    return {(f.code, f.file.split(f"{root.name}/", 1)[-1]) for f in _findings(root) if f.severity == severity}


def _chain(root: Path):
    schema = read_schema(root)
    return load_chain(root, schema, schema_ids(root))


def _entries(root: Path, list_name: str) -> list:
    """The manifest entries a manifest list names (read with the kit's metadata readers)."""
    out = []
    for rec in metadata.read_records(root / "manifest" / list_name).records:
        meta = metadata.manifest_file_meta(rec, "")
        rel = f"manifest/{meta.file_name}"
        out += [metadata.manifest_entry(r, rel, i) for i, r in enumerate(metadata.read_records(root / rel).records)]
    return out


def _bucket_path(root: Path, e) -> Path:
    """Where a manifest entry's data file is (these tables are partitioned by dt)."""
    return next(root.glob(f"dt=*/bucket-{e.bucket}/{e.file.file_name}"), None) or root / "missing" / e.file.file_name


@pytest.mark.parametrize("jar", JARS)
def test_the_kit_sees_the_tags_and_changelogs_java_listed(jar):
    root = TABLES / jar / "pk-tags-changelog"
    meta = json.loads((TABLES / jar / "pk-tags-changelog.json").read_text())
    chain = _chain(root)
    assert chain.tags == len(meta["tags"]) == 2
    assert chain.changelogs == len(list((root / "changelog").glob("changelog-*"))) > 0
    assert chain.snapshots == len(meta["snapshots"])
    assert set(meta["consumers"]) == {p.name.removeprefix("consumer-") for p in (root / "consumer").iterdir()}


@pytest.mark.parametrize("jar", JARS)
@pytest.mark.parametrize("case", ["pk-tags-changelog", "append-tags-expired"])
def test_files_java_deleted_on_expiry_are_not_findings(jar, case):
    """The earliest kept snapshot's manifests still ADD files its own compaction DELETEd, and Java's expiry
    deleted them; a tag or changelog's lists name manifests that expired with their snapshot. Neither is a
    finding: only what Java keeps is required."""
    root = TABLES / jar / case
    earliest = min(int(p.name.split("-")[1]) for p in (root / "snapshot").glob("snapshot-*"))
    snap = metadata.read_snapshot(root / "snapshot" / f"snapshot-{earliest}")
    entries = _entries(root, snap.base_manifest_list) + _entries(root, snap.delta_manifest_list)
    live, _ = merge(entries, "")
    gone = [e for e in entries if e.kind == metadata.ADD and not _bucket_path(root, e).is_file()]
    assert gone, "the earliest snapshot names no deleted file: the case no longer tests expiry"
    assert not {id(e) for e in gone} & {id(e) for e in live}
    findings = _findings(root)
    assert not [f for f in findings if f.severity in ("must", "should")]
    assert not [f for f in findings if f.code == "TABLE_UNREFERENCED_FILE"]


@pytest.mark.parametrize("jar", JARS)
def test_a_file_only_a_tag_keeps_is_required(tmp_path, jar):
    root = _copy(tmp_path, jar, "append-tags-expired")
    tag = metadata.read_snapshot(root / "tag" / "tag-2024-01-01")
    live, _ = merge(_entries(root, tag.base_manifest_list) + _entries(root, tag.delta_manifest_list), "")
    latest = _chain(root)
    current = {lf.relative for lf in latest.live}
    only_tag = [e for e in live if str(_bucket_path(root, e).relative_to(root)) not in current]
    assert only_tag, "the tag keeps no file of its own: the case no longer tests tags"
    _bucket_path(root, only_tag[0]).unlink()
    assert ("DATA_FILE_MISSING", only_tag[0].manifest) in _codes(root)


@pytest.mark.parametrize("jar", JARS)
def test_without_the_tag_its_manifest_lists_are_left_over(tmp_path, jar):
    """The tag's data files are still named by the earliest snapshot's base manifests (ADDed, then DELETEd by
    its compaction), so only the tag's own manifest lists are left over: warnings, nothing more."""
    root = _copy(tmp_path, jar, "append-tags-expired")
    tag = metadata.read_snapshot(root / "tag" / "tag-2024-01-01")
    (root / "tag" / "tag-2024-01-01").unlink()
    findings = _findings(root)
    assert not [f for f in findings if f.severity in ("must", "should")]
    left = {f.file.rsplit("/", 1)[-1] for f in findings if f.code == "TABLE_UNREFERENCED_FILE"}
    assert left == {tag.base_manifest_list, tag.delta_manifest_list}


@pytest.mark.parametrize("jar", JARS)
def test_a_changelog_needs_its_changelog_manifest_list(tmp_path, jar):
    root = _copy(tmp_path, jar, "pk-tags-changelog")
    last = max((root / "changelog").glob("changelog-*"), key=lambda p: int(p.name.split("-")[1]))
    log = metadata.read_snapshot(last)
    assert log.changelog_manifest_list is not None
    assert not (root / "manifest" / log.base_manifest_list).exists()  # expired with the snapshot: no finding
    (root / "manifest" / log.changelog_manifest_list).unlink()
    assert ("SNAPSHOT_MISSING_MANIFEST_LIST", f"changelog/{last.name}") in _codes(root)


@pytest.mark.parametrize("jar", JARS)
def test_a_tag_needs_its_data_manifest_lists(tmp_path, jar):
    root = _copy(tmp_path, jar, "pk-tags-changelog")
    tag = metadata.read_snapshot(root / "tag" / "tag-compacted")
    (root / "manifest" / tag.base_manifest_list).unlink()
    assert ("SNAPSHOT_MISSING_MANIFEST_LIST", "tag/tag-compacted") in _codes(root)


def _rewrite_json(path: Path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


@pytest.mark.parametrize(
    ("target", "change", "code"),
    [
        ("tag/tag-first", lambda d: d.pop("schemaId"), "SNAPSHOT_MALFORMED"),
        ("tag/tag-first", lambda d: d.update(schemaId=7), "SNAPSHOT_SCHEMA_UNKNOWN"),
        ("changelog/changelog-2", lambda d: d.update(id=9), "SNAPSHOT_ID_MISMATCH"),
        ("consumer/consumer-reader-1", lambda d: d.update(nextSnapshot="6"), "CONSUMER_MALFORMED"),
        ("consumer/consumer-reader-1", lambda d: d.clear(), "CONSUMER_MALFORMED"),
        ("statistics/*", lambda d: d.update(schemaId=3), "STATISTICS_MALFORMED"),
        ("statistics/*", lambda d: d.update(colStats=[]), "STATISTICS_MALFORMED"),
    ],
    ids=[
        "tag-no-schema",
        "tag-unknown-schema",
        "changelog-id",
        "consumer-string",
        "consumer-empty",
        "stats-schema",
        "stats-cols",
    ],
)
def test_damaged_retained_metadata_is_a_must(tmp_path, target, change, code):
    root = _copy(tmp_path, "java-1.0-SNAPSHOT", "pk-tags-changelog")
    path = next(root.glob(target))
    _rewrite_json(path, change)
    assert (code, str(path.relative_to(root))) in _codes(root)


def test_a_missing_statistics_file_is_a_must(tmp_path):
    root = _copy(tmp_path, "java-0.9.0", "pk-tags-changelog")
    stats = next((root / "statistics").iterdir())
    stats.unlink()
    latest = (root / "snapshot" / "LATEST").read_text().strip()
    assert ("STATISTICS_MISSING", f"snapshot/snapshot-{latest}") in _codes(root)


def test_a_changelog_hint_naming_no_changelog_is_a_warning(tmp_path):
    root = _copy(tmp_path, "java-0.9.0", "pk-tags-changelog")
    (root / "changelog" / "LATEST").write_text("99")
    assert ("SNAPSHOT_HINT", "changelog/LATEST") in _codes(root, "warning")
    assert _codes(root) == set()


@pytest.mark.parametrize("folder", ["tag", "consumer", "changelog", "statistics"])
def test_a_stray_name_in_a_metadata_folder_is_reported(tmp_path, folder):
    root = _copy(tmp_path, "java-0.9.0", "pk-tags-changelog")
    (root / folder / "notes.txt").write_text("x")
    assert ("TABLE_BAD_FILE_NAME", f"{folder}/notes.txt") in _codes(root)
