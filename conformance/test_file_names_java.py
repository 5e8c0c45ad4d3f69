"""A name Java would not write, on a file a manifest refers to, is a should: Java of every release reads the file
through the manifest. The same name on a file nothing refers to stays a must (the fault catalog's case).

The table is a Java-written golden; one live data file is renamed to `data-multi-row-groups.parquet` (a name from
a third-party table) and its manifest entry follows. Every Java release reads it with the same rows; the kit's
verdict for each release is then no must-finding, and TABLE_BAD_FILE_NAME at should. Java picks a data file's
reader by its suffix: the same file named .parquet is unreadable to every release, and a must for the kit.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import java_releases
import pytest
from support import fault_catalog as fc
from support import testees

from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "tables" / "java-1.0-SNAPSHOT" / "append-partition-values"
ODD = "data-multi-row-groups"  # + the file's own suffix (Java picks the reader by the suffix)


def _renamed(tmp_path: Path, suffix: str | None = None) -> tuple[Path, Path]:
    """(the table, the renamed file): a live data file renamed to ODD with its own suffix (or `suffix`), its
    manifest entry with it."""
    root = tmp_path / "t"
    shutil.copytree(GOLDEN, root)
    manifest, i = fc.live_entry(root)
    old = fc.avro(manifest)[1][i]["_FILE"]["_FILE_NAME"]
    path = next(root.rglob(old))
    new = path.with_name(ODD + (suffix or path.suffix))
    path.rename(new)

    def rename(records: list[dict]) -> None:
        records[i]["_FILE"]["_FILE_NAME"] = new.name

    fc.edit_avro(manifest, rename)
    return root, new


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _renamed(tmp_path_factory.mktemp("names"))


@pytest.fixture(scope="module")
def mislabelled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The ORC file renamed with a .parquet suffix (its manifest entry with it)."""
    return _renamed(tmp_path_factory.mktemp("mislabelled"), ".parquet")


@pytest.fixture(scope="module")
def java_reads(renamed: tuple[Path, Path], mislabelled: tuple[Path, Path]) -> dict[str, list[tuple]]:
    """Each release's (reply, why) for the golden, the renamed and the mislabelled table: one session each."""
    return {
        v: testees.read_replies(f"java-{v}", [GOLDEN, renamed[0], mislabelled[0]]) for v in java_releases.releases()
    }


@pytest.mark.parametrize("version", list(java_releases.releases()))
def test_java_reads_a_file_by_the_name_its_manifest_gives(java_reads: dict[str, list[tuple]], version: str) -> None:
    (golden, why), (reply, why_renamed), _ = java_reads[version]
    assert golden is not None, why
    assert reply is not None, why_renamed
    assert sorted(map(repr, reply["rows"])) == sorted(map(repr, golden["rows"]))


@pytest.mark.parametrize("line", sorted({r.line for r in java_releases.releases().values()}))
def test_the_kit_says_should_for_every_release(renamed: tuple[Path, Path], line: str) -> None:
    root, path = renamed
    findings = [f for r in validate_table(root, java_version=line) for f in r.findings]
    named = [f for f in findings if f.code == "TABLE_BAD_FILE_NAME"]
    assert [(f.file, f.severity) for f in named] == [(str(path), "should")]
    assert [f for f in findings if f.severity == "must"] == []


def test_the_same_name_on_a_file_nothing_refers_to_is_a_must(tmp_path: Path) -> None:
    root = tmp_path / "t"
    shutil.copytree(GOLDEN, root)
    first = next(p for p in root.rglob("data-*") if p.suffix in (".orc", ".parquet"))
    stray = first.with_name(ODD + first.suffix)
    shutil.copy(first, stray)
    findings = [f for r in validate_table(root) for f in r.findings if f.code == "TABLE_BAD_FILE_NAME"]
    assert [(f.file, f.severity) for f in findings] == [(str(stray), "must")]


@pytest.mark.parametrize("version", list(java_releases.releases()))
def test_java_picks_the_reader_by_the_suffix(java_reads: dict[str, list[tuple]], version: str) -> None:
    reply, why = java_reads[version][2]
    assert reply is None
    assert "is not a Parquet file" in why


def test_the_kit_says_must_when_the_suffix_names_another_format(mislabelled: tuple[Path, Path]) -> None:
    root, path = mislabelled
    findings = [f for r in validate_table(root, java_version="0.9") for f in r.findings if f.severity == "must"]
    assert [(f.code, f.file) for f in findings] == [("DATA_FILE_UNREADABLE", str(path))]
    assert "the bytes are orc" in findings[0].message
