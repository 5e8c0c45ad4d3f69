"""External data paths (`data-file.external-paths`, Paimon 1.1): Java 1.1.1 (the first release of ours with them)
and 2.0.0 write tables whose data files live outside the table root. The paths are absolute, so no committed
golden can hold such a table: each run writes them afresh (tools/java/tables/TableGoldenWriter.java, the cases of
golden_java_tables.py with the external path set), checks that Java read back the rows it wrote, and judges them.
The kit names the files it does not open (TABLE_EXTERNAL_PATH, a warning), gives no must-finding, and its reader
refuses the table rather than read part of it."""

from __future__ import annotations

import json

import pytest

from paimon_conform.core.errors import UsageError
from paimon_conform.table.read.reader import read_latest
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

VERSIONS = ("1.1.1", "2.0.0")
ALLOWED = {"TABLE_EXTERNAL_PATH", "FEATURE_NOT_CHECKED"}


def _cases(external: str) -> list[dict]:
    import golden_java_tables as gjt

    by_name = {c["name"]: c for c in gjt.base_cases()}
    out = []
    for name in ("append-file-index-separate", "pk-fixed4-parquet-dv"):
        case = dict(by_name[name], name=f"{name}-external")
        case["options"] = dict(case["options"]) | {
            "data-file.external-paths": external,
            "data-file.external-paths.strategy": "round-robin",
        }
        out.append(case)
    return out


@pytest.fixture(scope="module", params=VERSIONS)
def written(request, paimon_java, tmp_path_factory):
    """(version, [(table root, sidecar)], external folder): the cases written by that release."""
    import golden_java_tables as gjt

    version = request.param
    base = tmp_path_factory.mktemp(f"external-{version}")
    external = base / "elsewhere"
    external.mkdir()
    cases = _cases(external.as_uri())
    (base / "cases.json").write_text(json.dumps({"cases": [gjt.java_spec(c) for c in cases]}))
    paimon_java.run_java_tables(version, "TableGoldenWriter", str(base / "cases.json"), str(base / "out"))
    tables = []
    for case in cases:
        report = json.loads((base / "out" / f"{case['name']}.report.json").read_text())
        tables.append((base / "out" / case["name"], gjt.sidecar(case, report, version)))  # Java's rows = the model
    return version, tables, external


def test_java_wrote_the_data_files_outside_the_table(written):
    _, tables, external = written
    outside = [p for p in external.rglob("*") if p.is_file() and p.name.startswith("data-")]
    assert len(outside) >= len(tables)
    for root, _ in tables:
        inside = [p for p in root.rglob("data-*") if p.is_file()]
        assert not inside, inside[:3]


def test_the_kit_names_the_external_files_and_has_no_must(written):
    _, tables, _ = written
    for root, _ in tables:
        results = validate_table(root)
        assert all(r.unusable is None for r in results)
        found = {f.code for r in results for f in r.findings}
        assert "TABLE_EXTERNAL_PATH" in found, found
        assert found <= ALLOWED, found - ALLOWED


def test_the_reader_refuses_a_table_it_cannot_read_whole(written):
    _, tables, _ = written
    for root, sidecar in tables:
        assert sidecar["expected_rows"]
        with pytest.raises(UsageError, match="is not inside the table; not opened"):
            read_latest(root)
