"""The fault-injection catalog: each fault, injected into a copy of a clean Java-written table
(golden/tables/java-1.0-SNAPSHOT/), must be caught with its finding code (the catalog: support/fault_catalog.py).
"""

from __future__ import annotations

import shutil

import pytest
from support.fault_catalog import CATALOG, JAVA, manifest_file_nullable_union, manifest_version_last, must_codes

from paimon_conform.core.java_releases import NEWEST
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java", "third-party")


def test_catalog_is_large_enough():
    assert len(CATALOG) >= 20
    assert len({c[3] for c in CATALOG}) >= 20  # distinct codes, not one fault twenty times


@pytest.mark.parametrize("table", sorted({c[1] for c in CATALOG}))
def test_tables_start_clean(table, tmp_path):
    root = shutil.copytree(JAVA / table, tmp_path / table, symlinks=True)
    assert must_codes(root) == set()


# Faults only some Java releases reject: judged against one that does (and checked to be a should-finding,
# not silence, for the newest, which reads them).
ONLY_SOME_RELEASES = {"DV CRC wrong (ecosystem 4)": "0.9"}


@pytest.mark.parametrize(("fault", "table", "inject", "code"), CATALOG, ids=[c[0] for c in CATALOG])
def test_fault_is_caught(fault, table, inject, code, tmp_path):
    root = shutil.copytree(JAVA / table, tmp_path / table, symlinks=True)
    inject(root)
    assert code in must_codes(root, ONLY_SOME_RELEASES.get(fault, NEWEST)), fault
    if fault in ONLY_SOME_RELEASES:
        newest = [f for r in validate_table(root) for f in r.findings if f.code == code]
        assert newest
        assert all(f.severity == "should" for f in newest)


@pytest.mark.parametrize("inject", [manifest_file_nullable_union, manifest_version_last])
def test_manifest_schema_java_reads_is_a_should_finding(inject, tmp_path):
    """`_FILE` as ["null", record] (Java 0.8's form), `_VERSION` written last (pypaimon-rust before
    apache/paimon-rust#742): every release 0.9-2.0 reads them (test_java_verdicts has Java's evidence)."""
    root = shutil.copytree(JAVA / "pk-fixed4-parquet-dv", tmp_path / "t", symlinks=True)
    inject(root)
    found = [f for r in validate_table(root) for f in r.findings if f.code == "MANIFEST_SCHEMA"]
    assert found
    assert {f.severity for f in found} == {"should"}
    assert must_codes(root, "0.9") == set()
