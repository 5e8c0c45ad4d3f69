"""BLOBs inside an ARRAY or a MAP (Paimon 2.0): tables Java 2.0.0 writes (support/nested_blob_tables.py), read by
Java 1.3.1, 1.4.2 and 2.0.0. The kit's verdict for each release is what its read did: 1.3 cannot parse the BLOB
type, 1.4 cannot read a nested BLOB's .blob files ('Read type of a blob format does not contain any blob field'),
2.0 reads them; the kit checks the .blob files' element framing (layout blob_file) and finds nothing else."""

from __future__ import annotations

import copy

import pytest
from support import background
from support.jobs import nested_blob_java_job
from support.nested_blob_tables import COLUMNS, READERS, VALUES

from paimon_conform.core.java_releases import judge
from paimon_conform.table.validate.table import TableStats, validate_table

pytestmark = pytest.mark.java

EVIDENCE = ("java",)


@pytest.fixture(scope="module")
def tables() -> dict[str, dict]:
    """The tables and their reads (a background job: support/jobs.py)."""
    return background.result("nested-blob-java", nested_blob_java_job)


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_java_2_0_reads_back_the_values_it_wrote(tables, name):
    got = sorted(tables[name]["rows"], key=lambda r: r[0])
    assert got == [[i, v] for i, v in enumerate(VALUES[name])]


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_the_kit_has_a_must_for_a_release_exactly_where_its_read_fails(tables, name):
    table = tables[name]
    found = [f for r in validate_table(table["root"], java_version=None) for f in r.findings]
    disagree = []
    for release in READERS:
        reply, why = table["reads"][release]
        line = ".".join(release.split(".")[:2])
        musts = sorted({f.code for f in judge(copy.deepcopy(found), line) if f.severity == "must"})
        if (reply is None) != bool(musts):
            disagree.append(f"Java {release}: {why[:160] or 'reads the table'}; kit musts {musts}")
        if reply is not None:
            assert sorted(r[0] for r in reply["rows"]) == list(range(len(VALUES[name])))
    assert not disagree, "\n".join(disagree)


def test_1_4_fails_on_the_blob_files_of_a_nested_blob(tables):
    for name in COLUMNS:
        reply, why = tables[name]["reads"]["1.4.2"]
        assert reply is None
        assert "Read type of a blob format does not contain any blob field" in why


@pytest.mark.parametrize("name", sorted(COLUMNS))
def test_the_blob_files_are_checked_and_clean_for_2_0(tables, name):
    root = tables[name]["root"]
    stats = TableStats()
    results = validate_table(root, java_version="2.0", stats=stats)
    assert stats.blob_files == len(list(root.rglob("*.blob"))) > 0  # each read as layout blob_file
    assert not [f for r in results for f in r.findings if f.severity != "warning"]
