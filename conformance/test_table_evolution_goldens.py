"""The schema-evolution golden tables (golden/tables/java-*/evolution-*): their sidecars agree with the tree.

tools/golden_java_tables.py writes them with alters between the writes (SchemaManager.commitChanges:
add, add first, rename, drop, move, type changes). Their sidecars carry every schema version and the
schema id of each live data file; the expected rows are Java's read under the latest schema, which
the generator checked against its own model of the alters.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from support.environment import ROOT

from paimon_conform.core.types import parse_type
from paimon_conform.table.chain import load_chain
from paimon_conform.table.schema import read_schema, schema_ids

EVIDENCE = ("java",)

TABLES = ROOT / "golden" / "tables"
SIDECARS = sorted(TABLES.glob("java-*/evolution-*.json"))
IDS = [f"{p.parent.name}/{p.stem}" for p in SIDECARS]


def test_the_releases_that_write_every_case_wrote_the_evolution_cases():
    import golden_java_tables as gjt

    names = {p.name: sorted(x.stem for x in p.glob("evolution-*.json")) for p in TABLES.glob("java-*")}
    expected = ["evolution-append-parquet", "evolution-pk-orc", "evolution-pk-parquet-dv"]
    assert names == {f"java-{v}": expected if gjt.base_cases_of(v) is None else [] for v in gjt.VERSIONS}
    assert sum(1 for v in gjt.VERSIONS if gjt.base_cases_of(v) is None) >= 4


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_sidecar_lists_every_schema_file(sidecar):
    meta = json.loads(sidecar.read_text())
    root = sidecar.with_suffix("")
    files = sorted(int(p.name.split("-")[1]) for p in (root / "schema").glob("schema-*"))
    assert [s["id"] for s in meta["schemas"]] == files == list(range(5))
    for s in meta["schemas"]:
        stored = json.loads((root / "schema" / f"schema-{s['id']}").read_text())
        assert [(f["id"], f["name"]) for f in stored["fields"]] == [(f["id"], f["name"]) for f in s["fields"]]
        assert [str(parse_type(f["type"].replace(" NOT NULL", ""))) for f in stored["fields"]] == [
            f["type"] for f in s["fields"]
        ]
        assert stored["highestFieldId"] == s["highest_field_id"]
    assert meta["schemas"][-1]["fields"] == meta["schema"]["fields"]
    assert meta["latest_snapshot"]["schema_id"] == 4


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_live_files_span_schema_versions(sidecar):
    """The manifests' _SCHEMA_ID of the live files are the ones Java listed, of more than one schema."""
    meta = json.loads(sidecar.read_text())
    root = sidecar.with_suffix("")
    chain = load_chain(root, read_schema(root), schema_ids(root))
    ours = Counter(lf.entry.file.schema_id for lf in chain.live)
    javas = Counter(f["schema_id"] for f in meta["latest_data_files"])
    assert ours == javas
    assert len(javas) >= 2


@pytest.mark.parametrize("sidecar", SIDECARS, ids=IDS)
def test_older_rows_read_as_the_latest_schema(sidecar):
    """Columns added later are null in rows written before; h (INT, then STRING) reads as decimal text."""
    meta = json.loads(sidecar.read_text())
    names = [f["name"] for f in meta["schema"]["fields"]]
    rows = [dict(zip(names, r, strict=True)) for r in meta["expected_rows"]]
    assert "c" not in names
    assert "b" not in names
    assert names[0] == "d"
    assert any(r["f"] is None and r["e"] is None for r in rows)
    assert any(r["f"] is not None for r in rows)
    assert all(r["h"] is None or isinstance(r["h"], str) for r in rows)
    assert any(r["h"] is not None and r["h"].lstrip("-").isdigit() for r in rows)
