"""Avro writer schemas of metadata files against Java's record layout, with the severity
each deviation deserves (what released Java readers reject is must; Java 0.8's own
nullable form is should)."""

from __future__ import annotations

import copy

import fastavro
import pytest
from support.environment import ROOT

from paimon_conform.table.manifest_schema import check
from paimon_conform.table.metadata import RecordFile

EVIDENCE = ("java",)

MANIFESTS = ROOT / "golden" / "tables" / "java-1.0-SNAPSHOT" / "pk-fixed4-parquet-dv" / "manifest"


def java_schema() -> dict:
    with sorted(MANIFESTS.glob("manifest-[0-9a-f]*"))[0].open("rb") as f:
        return fastavro.reader(f).writer_schema


def findings(schema) -> list[tuple[str, str]]:
    return [(f.severity, f.message) for f in check(RecordFile("avro", schema, []), "manifest_entry", "m")]


def field(schema: dict, *path: str) -> dict:
    record = schema
    for name in path[:-1]:
        record = next(f for f in record["fields"] if f["name"] == name)["type"]
    return next(f for f in record["fields"] if f["name"] == path[-1])


def test_javas_own_schema_is_clean():
    assert findings(java_schema()) == []


def test_java_08_nullable_stats_are_should():
    """apache/paimon#3962: before 0.9 Java wrote _KEY_STATS as ["null", record]."""
    s = java_schema()
    f = field(s, "_FILE", "_KEY_STATS")
    f["type"], f["default"] = ["null", f["type"]], None
    (got,) = findings(s)
    assert got[0] == "should"
    assert "_KEY_STATS" in got[1]


def test_top_level_union_is_should():
    (got,) = findings(["null", java_schema()])
    assert got[0] == "should"


def test_nullable_file_record_is_should():
    """Every release 0.9-2.0 reads a `["null", record]` _FILE (Java 0.9.0 and the 1.0-SNAPSHOT jar read
    paimon-cpp's pk_09 table, written that way); only an unreleased master reader refused it (#9160, #9816)."""
    s = java_schema()
    f = field(s, "_FILE")
    f["type"] = ["null", f["type"]]
    assert [sev for sev, _ in findings(s)] == ["should"]


def test_null_in_the_second_branch_is_must():
    s = java_schema()
    f = field(s, "_FILE", "_DELETE_ROW_COUNT")
    f["type"] = ["long", "null"]
    got = findings(s)
    assert any(sev == "must" and "second" in msg for sev, msg in got)


@pytest.mark.parametrize(("name", "avro_type"), [("_BUCKET", "long"), ("_PARTITION", "string"), ("_VERSION", "long")])
def test_wrong_primitive_type_is_must(name, avro_type):
    s = java_schema()
    field(s, name)["type"] = avro_type
    got = findings(s)
    assert got
    assert all(sev == "must" for sev, _ in got)
    assert name in got[0][1]


def test_missing_required_field_is_must_and_missing_nullable_is_fine():
    s = java_schema()
    s["fields"] = [f for f in s["fields"] if f["name"] != "_TOTAL_BUCKETS"]
    assert [sev for sev, _ in findings(s)] == ["must"]
    s = copy.deepcopy(java_schema())
    record = field(s, "_FILE")["type"]
    record["fields"] = [f for f in record["fields"] if f["name"] != "_FILE_SOURCE"]
    assert findings(s) == []  # an older writer without a nullable field: Java reads the default


def test_named_type_references_resolve():
    """apache/paimon#6549: a schema that refers to a record by name instead of repeating it."""
    s = java_schema()
    stats = field(s, "_FILE", "_VALUE_STATS")
    stats["type"] = field(s, "_FILE", "_KEY_STATS")["type"]["name"]
    assert findings(s) == []


def test_field_order_and_version_position_are_should():
    """Released readers match fields by name: Java 0.9.0 and 1.0 read reordered records (test_java_verdicts A3, A4)."""
    s = java_schema()
    s["fields"] = s["fields"][1:] + s["fields"][:1]  # _VERSION last
    got = findings(s)
    assert got
    assert all(sev == "should" for sev, _ in got)
    assert any("_VERSION" in msg and "apache/paimon#9160" in msg for _, msg in got)
    record = field(java_schema(), "_FILE")["type"]
    s = java_schema()
    field(s, "_FILE")["type"] = dict(record, fields=list(reversed(record["fields"])))
    got = findings(s)
    assert got
    assert {sev for sev, _ in got} == {"should"}


def test_array_item_nullability_differences_are_should():
    s = java_schema()
    counts = field(s, "_FILE", "_KEY_STATS")["type"]["fields"][2]
    counts["type"] = ["null", {"type": "array", "items": "long"}]  # Java's items are nullable longs
    assert [sev for sev, _ in findings(s)] == ["should"]


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("manifest", 1),  # Paimon before 0.5: "please recreate the table"
        ("manifest", 3),
        ("manifest_list", 1),
        ("index_manifest", 2),  # what Java 2.0-SNAPSHOT briefly wrote (apache/paimon#8952, reverted by #9004)
    ],
)
def test_a_version_other_than_the_kinds_format_identifier_is_a_must(tmp_path, kind, value):
    """_VERSION is permanent (apache/paimon#9039): 2 for manifests and manifest lists, 1 for index
    manifests; every release's serializer refuses another value."""
    import shutil

    from support import java_mutations as jm

    from paimon_conform.table.validate.table import validate_table

    root = tmp_path / "t"
    shutil.copytree(MANIFESTS.parent, root)
    assert not [f for r in validate_table(root) for f in r.findings if f.code == "MANIFEST_VERSION"]
    assert jm.rewrite_avro(root, kind, record_fn=jm.set_value("_VERSION", value)) > 0
    jm.fix_sizes(root)
    found = [f for r in validate_table(root) for f in r.findings if f.code == "MANIFEST_VERSION"]
    assert found
    assert {f.severity for f in found} == {"must"}
    assert all(f"_VERSION is {value}" in f.message for f in found)
