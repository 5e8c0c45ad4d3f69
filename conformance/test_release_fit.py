"""The releases a table's metadata fits (table/release_fit.py), as the reports state them.

Java-written tables: the writing jar's release is among the releases their metadata fits, and
every Java-written corpus table fits at least one release. Changed copies: a field narrows the
range to the releases that write it, and a writerVersion is reported as the table's claim.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support.environment import PAIMON_CPP_TABLES, ROOT, require_corpus

from paimon_conform.core.report import render_json, render_junit, render_text
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java", "third-party")

TABLES = ROOT / "golden" / "tables"
JAVA_TABLES = sorted(p for p in TABLES.glob("java-*/*") if p.is_dir())


def _fit(root: Path, java_version: str = "2.0") -> dict:
    table = validate_table(root, java_version=java_version)[0]
    assert table.kind == "table"
    assert table.info["java_release_judged"] == java_version
    return table.info["metadata_releases"]


@pytest.mark.parametrize("root", JAVA_TABLES, ids=[f"{p.parent.name}/{p.name}" for p in JAVA_TABLES])
def test_the_writing_release_is_among_those_the_metadata_fits(root):
    release = root.parent.name.removeprefix("java-")  # 0.9.0, 1.0-SNAPSHOT, 1.2.0 ...
    wrote = ".".join(release.split("-")[0].split(".")[:2])
    fit = _fit(root)
    assert wrote in fit["fits"]
    assert "writer_version" not in fit  # no release up to 2.0.0 writes writerVersion (Java after 2.0.0)


def test_newer_java_writers_are_told_apart():
    """Corpus tables by Java 1.3 and 1.4 writers: nextRowId (1.3.0) and the manifest list's _MIN_ROW_ID (1.4.1)
    set the oldest release; the 0.9 table fits 0.9. (The 1.0-SNAPSHOT jar here writes 0.9's fields.)"""
    corpus = require_corpus() / Path(*PAIMON_CPP_TABLES)
    pk = _fit(corpus / "pk_table_scan_and_read_dv.db" / "pk_table_scan_and_read_dv")
    assert pk["fits"] == ["1.3", "1.4"]
    assert pk["oldest_because"].startswith("nextRowId in snapshot/")
    global_index = _fit(corpus / "append_with_global_index.db" / "append_with_global_index")
    assert global_index["fits"] == ["1.4"]
    assert global_index["oldest_because"].startswith("_MIN_ROW_ID in manifest/manifest-list-")
    assert _fit(corpus / "pk_09.db" / "pk_09")["fits"][0] == "0.9"


def test_every_java_written_corpus_table_fits_a_release():
    corpus = require_corpus() / Path(*PAIMON_CPP_TABLES)
    tables = sorted(p for p in corpus.glob("*/*") if (p / "snapshot").is_dir())
    assert len(tables) > 20
    for root in tables:
        assert _fit(root)["fits"], root


def _edit_snapshots(root: Path, change) -> None:
    for p in (root / "snapshot").glob("snapshot-*"):
        doc = json.loads(p.read_text())
        change(doc)
        p.write_text(json.dumps(doc))


def test_snapshot_fields_narrow_the_range(tmp_path):
    root = tmp_path / "t"
    shutil.copytree(TABLES / "java-0.9.0" / "append-fixed3-avro", root)
    assert _fit(root)["fits"] == ["0.9", "1.0", "1.1", "1.2", "1.3", "1.4"]  # logOffsets: gone in 1.4.1
    _edit_snapshots(root, lambda d: d.update(nextRowId=0))
    fit = _fit(root)
    assert fit["fits"] == ["1.3", "1.4"]
    assert fit["oldest_because"].startswith("nextRowId in snapshot/snapshot-")
    assert fit["newest_because"].startswith("logOffsets in snapshot/snapshot-")
    _edit_snapshots(root, lambda d: d.update(uuid="u"))
    assert _fit(root)["fits"] == []  # no release writes both uuid (2.0) and logOffsets (until 1.4)
    _edit_snapshots(root, lambda d: d.pop("logOffsets"))
    _edit_snapshots(root, lambda d: d.update(writerVersion="2.1-SNAPSHOT"))
    fit = _fit(root)
    assert fit["fits"] == ["after-2.0"]
    assert fit["writer_version"] == ["2.1-SNAPSHOT"]


def test_the_reports_carry_the_fit(tmp_path):
    results = validate_table(TABLES / "java-1.0-SNAPSHOT" / "pk-dynamic-parquet", java_version="1.1")
    text = render_text(results, "should")
    assert "metadata fits Java 0.9 to 1.4 (oldest: no field newer than Java 0.9; newest: logOffsets in" in text
    assert "judged for Java 1.1" in text
    doc = json.loads(render_json(results, "should"))
    table = next(f for f in doc["files"] if f["kind"] == "table")
    assert table["info"]["metadata_releases"]["fits"] == ["0.9", "1.0", "1.1", "1.2", "1.3", "1.4"]
    assert "metadata fits Java 0.9 to 1.4" in render_junit(results, "should")
