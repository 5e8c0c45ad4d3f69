"""Tables written by real Java Paimon (golden/tables/java-*/): the validator and the layout spec agree with them.

Each table comes with a sidecar (tools/golden_java_tables.py) holding what Java itself
reported: its partition strings (FileStorePathFactory.getPartitionString), the data-file
fields of primary-key tables (KeyValue.schema), the rows its reader returns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from support.environment import ROOT

from paimon_conform.core.types import parse_type, to_internal
from paimon_conform.golden import judged_for
from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import data_file_fields, read_schema
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("java",)

TABLES = ROOT / "golden" / "tables"
SIDECARS = sorted(TABLES.glob("java-*/*.json"))
IDS = [f"{p.parent.name}/{p.stem}" for p in SIDECARS]

# Findings below must level that a Java table is allowed to have, with the reason.
ALLOWED_WARNINGS = {
    # Paimon 0.9.0 has no data-file.prefix / changelog-file.prefix and names files data-/changelog-.
    ("java-0.9.0", "pk-fixed4-orc-mor"): {"TABLE_PREFIX_OPTION_IGNORED"},
    # 1.2.0-1.4.2 keep the deletion vectors of the files a compaction replaced (no reader applies them)
    **{(f"java-{v}", "pk-fixed4-parquet-dv"): {"DV_UNKNOWN_DATA_FILE"} for v in ("1.2.0", "1.3.1", "1.4.2")},
    # row tracking: the snapshot's nextRowId is not compared with the files (one FEATURE_NOT_CHECKED warning)
    **{
        (f"java-{v}", t): {"FEATURE_NOT_CHECKED"}
        for v in ("1.3.1", "2.0.0")
        for t in ("append-row-tracking", "append-data-evolution")
    },
    # global indexes: one FEATURE_NOT_CHECKED warning says what of them is checked (BTree: all of it), and row tracking
    **{
        (f"java-{v}", f"append-global-index-{index}"): {"FEATURE_NOT_CHECKED"}
        for v in ("1.4.2", "2.0.0")
        for index in ("btree", "bitmap")
    },
    # BLOB: the kit does not model the type (its .blob files are checked as layout blob_file), and row tracking
    **{(f"java-{v}", "append-blob"): {"FEATURE_NOT_CHECKED", "SCHEMA_TYPE_NOT_MODELLED"} for v in ("1.4.2", "2.0.0")},
}


def load(sidecar: Path) -> tuple[Path, dict]:
    return sidecar.with_suffix(""), json.loads(sidecar.read_text())


def test_every_release_wrote_its_cases():
    """Every release of golden_java_tables.VERSIONS wrote the cases it commits (all of them, or those whose
    metadata moved between releases), and nothing else is there."""
    import golden_java_tables as gjt

    every = sorted(c["name"] for c in gjt.all_cases())
    by_producer = {p.name: sorted(x.stem for x in p.glob("*.json")) for p in TABLES.glob("java-*")}
    assert set(by_producer) == {f"java-{v}" for v in gjt.VERSIONS}
    for v in gjt.VERSIONS:
        assert by_producer[f"java-{v}"] == sorted(gjt.cases_of(v)), v
    assert set().union(*map(set, by_producer.values())) == set(every)
    assert len(every) >= 18


def test_each_feature_table_comes_from_the_first_release_with_the_feature_and_from_2_0():
    """The feature tables (golden_java_tables.FEATURE_RELEASES) were written by the release of ours that first has
    the feature and by 2.0.0, as their sidecars' provenance says."""
    import golden_java_tables as gjt

    assert len(gjt.FEATURE_RELEASES) >= 6
    for name, releases in gjt.FEATURE_RELEASES.items():
        assert releases[-1] == "2.0.0", name
        assert len(releases) == 2, name
        for v in releases:
            meta = json.loads((TABLES / f"java-{v}" / f"{name}.json").read_text())
            assert meta["provenance"]["paimon_version"] == v
            assert meta["name"] == name


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_java_table_is_clean(sidecar):
    """Clean for the release that wrote it (what other releases make of it: test_testee_reference)."""
    root, meta = load(sidecar)
    stats = TableStats()
    results = validate_table(root, stats=stats, java_version=judged_for(sidecar))
    assert all(r.unusable is None for r in results)
    found = {f.code for r in results for f in r.findings}
    assert found <= ALLOWED_WARNINGS.get((sidecar.parent.name, sidecar.stem), set())
    in_buckets = [p.name for p in root.rglob("bucket-*/*")]
    index_files = [n for n in in_buckets if n.endswith(".index") or n.startswith("index-")]  # file / HASH / DV
    blobs = [n for n in in_buckets if n.endswith(".blob")]
    assert stats.data_files == len(in_buckets) - len(index_files) - len(blobs)
    assert stats.blob_files == len(blobs)
    if meta["schema"]["options"].get("bucket", "-1") not in ("-1",):
        # fixed buckets: every row of every data file was hashed and found in its bucket
        assert stats.bucket_rows == stats.rows > 0


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_partition_paths_are_javas(sidecar):
    root, meta = load(sidecar)
    schema = read_schema(root)
    options = tl.LayoutOptions.of(schema.options)
    fields = [(k, schema.field(k).type) for k in schema.partition_keys]
    assert meta["partitions"]
    for p in meta["partitions"]:
        values = [to_internal(t, p["values"][k]) for k, t in fields]
        assert tl.partition_path(fields, values, options) == p["path"]
        assert (root / p["path"]).is_dir()
        back = tl.split_partition_path(p["path"].rstrip("/"), schema.partition_keys)
        assert back == tl.partition_values(fields, values, options)


def test_partition_values_case_covers_the_hard_values():
    _, meta = load(TABLES / "java-1.0-SNAPSHOT" / "append-partition-values.json")
    paths = [p["path"] for p in meta["partitions"]]
    assert len(paths) >= 20
    assert any("__DEFAULT_PARTITION__" in p for p in paths)
    assert any("%" in p for p in paths)  # escaped characters


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_data_file_fields_are_javas(sidecar):
    """Names, types and order of KeyValue.schema (its ids are those of a read schema, not written).

    Append tables (data_file_fields null) store the table's columns as they are.
    """
    root, meta = load(sidecar)
    javas_fields = meta["data_file_fields"] or meta["schema"]["fields"]
    assert (meta["data_file_fields"] is None) == (meta["schema"]["primary_keys"] == [])
    schema = read_schema(root)
    ours = [(f.name, _type_text(schema, f)) for f in data_file_fields(schema)]
    javas = [(f["name"], f["type"] if f["type"] == "BLOB" else str(parse_type(f["type"]))) for f in javas_fields]
    if tl.bool_option(schema.options.get("data-file.thin-mode", False)):
        # KeyValue.schema has the _KEY_ copies; a thin-mode file leaves them out (the value columns hold the key)
        javas = [(n, t) for n, t in javas if not n.startswith("_KEY_")]
        for f in root.rglob("bucket-*/*.parquet"):
            assert pq.ParquetFile(f).schema_arrow.names == [n for n, _ in ours], f
    assert ours == javas


def _type_text(schema, f) -> str:
    """A data-file field's type as the sidecar states it (BLOB, which the kit does not model, by its name)."""
    raw = schema.unreadable_types.get(f.name)
    return raw if raw == "BLOB" else str(f.type)


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_sidecar_matches_the_tree(sidecar):
    """The latest snapshot and its files as Java listed them exist in the tree."""
    root, meta = load(sidecar)
    latest = meta["latest_snapshot"]
    assert (root / "snapshot" / f"snapshot-{latest['id']}").is_file()
    assert (root / "snapshot" / "LATEST").read_text().strip() == str(latest["id"])
    for f in meta["latest_data_files"]:
        names = [p.name for p in (root / f["partition"] / f"bucket-{f['bucket']}").iterdir()]
        assert any(n.startswith(f["name_prefix"]) and n.endswith(f["name_extension"]) for n in names)
