"""Tables Paimon's own Spark connector writes through SQL (tools/connector/workloads.py: primary-key tables with
deletion vectors, fixed and dynamic buckets, file indexes, changelog producers, merge engines, MERGE INTO /
UPDATE / DELETE / INSERT OVERWRITE, compact, tags, a branch, expiry, every type in Parquet, ORC and Avro). Each
validates clean for the connector's release; the kit's reader and `format("paimon")` read exactly the rows the
connector reads (the latest snapshot, every snapshot still there, each filter, the branch); `validate --spark`
reports what one process does. The other direction: tables the kit's `format("paimon")` writes (five kinds, every
type) are read by the connector (latest, every snapshot, filters), written into (MERGE INTO or INSERT and DELETE,
then compaction), and then validate clean and read as the connector reads them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import background
from support.connector import NULL_CREATION_TIME, filtered, release
from support.jobs import connector_workloads_job

from paimon_conform import cli
from paimon_conform.core.java_releases import release as release_line
from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.validate.table import validate_table
from paimon_conform.testee.rows import compare

EVIDENCE = ("java",)
WORKLOADS = (
    "pk_dv",
    "pk_dynamic",
    "pk_lookup_changelog",
    "pk_full_compaction_changelog",
    "pk_partial_update",
    "pk_aggregation",
    "pk_first_row",
    "append_overwrite",
    "append_bucketed",
    "tags_branches_expiry",
    "types_parquet",
    "types_orc",
    "types_avro",
)
AS_TEXT = ("dates_before_1582",)  # read by the connector as text; not in the row comparisons above


@pytest.fixture(scope="module")
def workloads(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """(warehouse, what the connector read) of every workload (started beside the first tests: conftest)."""
    warehouse, doc, done = background.result("connector-workloads", lambda: connector_workloads_job(tmp_path_factory))
    assert done.returncode == 0, done.stderr[-4000:]
    assert doc, done.stderr[-4000:]
    return warehouse, doc


def _tables(workloads) -> dict[str, dict[str, Any]]:
    return workloads[1]["tables"]


def test_every_workload_runs_through_the_connector(workloads) -> None:
    _, doc = workloads
    assert doc["errors"] == {}, "the connector refused a statement"
    assert set(doc["tables"]) == {*WORKLOADS, *AS_TEXT}
    for name, t in ((n, t) for n, t in doc["tables"].items() if n not in AS_TEXT):
        assert t["latest"], f"{name}: rows to compare"
        assert t["filters"], name
        assert t["snapshots"], name
    assert sum(len(t["snapshots"]) for t in doc["tables"].values()) >= 40, "time travel over many snapshots"


@pytest.mark.parametrize("name", [*WORKLOADS, *AS_TEXT])
def test_connector_tables_validate_clean(workloads, name: str) -> None:
    """No finding at `should` or above, judged for the connector's release: a false finding here is a verdict
    against the writer every Spark user of Paimon runs."""
    table = _tables(workloads)[name]
    results = validate_table(table["path"], java_version=release_line(release().version))
    problems = [f"{r.file}: unusable: {r.unusable}" for r in results if r.unusable]
    problems += [f.line() for r in results for f in r.findings if f.severity in ("must", "should")]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("name", WORKLOADS)
def test_the_kit_reads_what_the_connector_reads(workloads, name: str) -> None:
    """The kit's reader against the connector: the latest snapshot, every snapshot (time travel), each filter
    (applied to the kit's rows of the latest snapshot), each branch."""
    table = _tables(workloads)[name]
    fields, path = table["fields"], table["path"]

    def kit(**where: Any) -> list[list[Any]]:
        schema, rows = read_latest(path, **where)
        return logical_rows(schema, rows)

    latest = kit()
    assert compare(fields, latest, table["latest"]) is None, compare(fields, latest, table["latest"])
    for sid, rows in table["snapshots"].items():
        differs = compare(fields, kit(snapshot=int(sid)), rows)
        assert differs is None, f"snapshot {sid}: {differs}"
    for f in table["filters"]:
        differs = compare(fields, filtered(fields, latest, f["column"], f["op"], f["literal"]), f["rows"])
        assert differs is None, f"{f['column']} {f['op']} {f['literal']}: {differs}"
    for branch, rows in table["branches"].items():
        differs = compare(fields, kit(branch=branch), rows)
        assert differs is None, f"branch {branch}: {differs}"


@pytest.mark.parametrize("name", WORKLOADS)
def test_format_paimon_reads_what_the_connector_reads(spark, workloads, name: str) -> None:
    """`format("paimon")` against the connector: latest, every snapshot (`scan.snapshot-id`), each filter as a
    Spark WHERE (pushed down to the kit's pruning, applied by Spark)."""
    from paimon_conform.testee.rows import from_arrow

    table = _tables(workloads)[name]
    fields, path = table["fields"], table["path"]
    names = [f["name"] for f in fields]

    def rows(df) -> list[list[Any]]:
        return from_arrow(fields, df.select(*names).toArrow())

    reader = spark.read.format("paimon")
    assert compare(fields, rows(reader.load(path)), table["latest"]) is None
    for sid, want in table["snapshots"].items():
        got = rows(spark.read.format("paimon").option("scan.snapshot-id", sid).load(path))
        assert compare(fields, got, want) is None, f"snapshot {sid}: {compare(fields, got, want)}"
    for f in table["filters"]:
        got = rows(spark.read.format("paimon").load(path).where(f"`{f['column']}` {f['op']} {f['literal']}"))
        assert compare(fields, got, f["rows"]) is None, f"{f}: {compare(fields, got, f['rows'])}"


def test_validate_spark_equals_one_process(spark, workloads, tmp_path: Path, capsys) -> None:
    """`validate --spark` over every connector table reports what one process does, judged for the connector's
    release."""
    paths = [t["path"] for t in _tables(workloads).values()]
    java = release_line(release().version)
    reports = []
    for extra in ([], ["--spark", "local[2]"]):
        out = tmp_path / f"report-{len(reports)}.json"
        code = cli.main(["validate", *paths, "--java-version", java, "--report", "json", "-o", str(out), *extra])
        capsys.readouterr()
        reports.append((code, json.loads(out.read_text())))
    assert reports[1] == reports[0]
    assert reports[0][0] == 0


# ---------------------------------------------------------------- the other direction: the kit writes, the connector
# reads and writes into it (tools/connector/kit_tables.py, workloads.py --kit)

KIT_TABLES = ("kit_append", "kit_append_bucketed", "kit_pk", "kit_pk_dv", "kit_pk_dynamic")


def _kit(workloads) -> tuple[dict[str, Any], dict[str, Any]]:
    return workloads[1]["kit_written"], workloads[1]["kit"]


def test_the_connector_reads_and_writes_every_kit_table(workloads) -> None:
    """Every table `format("paimon")` wrote is read and written into by the connector; the one refusal is the
    pinned fault (a live file without a creation time), which must keep failing."""
    written, read = _kit(workloads)
    errors = workloads[1]["kit_errors"]
    assert set(written) == {*KIT_TABLES, NULL_CREATION_TIME}
    assert set(read) == set(KIT_TABLES), errors
    assert set(errors) == {NULL_CREATION_TIME}
    assert "creationTime" in errors[NULL_CREATION_TIME], errors[NULL_CREATION_TIME]


def test_the_kit_sees_the_fault_the_connector_fails_on(workloads) -> None:
    """The table the connector's compaction fails on has a must-finding for Java 0.9, and only a should for the
    newer lines (no Java evidence for them)."""
    path = _kit(workloads)[0][NULL_CREATION_TIME]["path"]
    for line, severity in (("0.9", "must"), ("2.0", "should")):
        found = [f for r in validate_table(path, java_version=line) for f in r.findings]
        assert [(f.code, f.severity) for f in found if f.severity != "warning"] == [
            ("MANIFEST_CREATION_TIME", severity)
        ], line


@pytest.mark.parametrize("name", KIT_TABLES)
def test_the_connector_reads_what_format_paimon_wrote(workloads, name: str) -> None:
    """The connector's reads of a kit table, before it writes: the latest snapshot is the model of what was
    written; every snapshot and each filter equal the kit's reader."""
    written, read = _kit(workloads)
    table, got = written[name], read[name]
    fields = table["fields"]
    assert compare(fields, got["latest"], table["model"]) is None, compare(fields, got["latest"], table["model"])
    assert len(got["snapshots"]) >= 3
    for sid, rows in got["snapshots"].items():
        schema, kit = read_latest(table["path"], snapshot=int(sid))
        differs = compare(fields, rows, logical_rows(schema, kit))
        assert differs is None, f"snapshot {sid}: {differs}"
    for f in got["filters"]:
        differs = compare(fields, f["rows"], filtered(fields, table["model"], f["column"], f["op"], f["literal"]))
        assert differs is None, f"{f['column']} {f['op']} {f['literal']}: {differs}"


@pytest.mark.parametrize("name", KIT_TABLES)
def test_after_the_connector_writes_the_kit_validates_and_reads_it(spark, workloads, name: str) -> None:
    """After the connector's MERGE INTO (or INSERT and DELETE) and compaction: no finding at `should` or above
    for Java 0.9, and the kit's reader and `format("paimon")` read the rows the connector reads."""
    from paimon_conform.testee.rows import from_arrow

    written, read = _kit(workloads)
    table, after = written[name], read[name]["after"]
    fields = table["fields"]
    results = validate_table(table["path"], java_version=release_line(release().version))
    problems = [f"{r.file}: unusable: {r.unusable}" for r in results if r.unusable]
    problems += [f.line() for r in results for f in r.findings if f.severity in ("must", "should")]
    assert not problems, "\n".join(problems[:20])
    schema, rows = read_latest(table["path"])
    assert compare(fields, logical_rows(schema, rows), after) is None
    df = spark.read.format("paimon").load(table["path"]).select(*[f["name"] for f in fields])
    assert compare(fields, from_arrow(fields, df.toArrow()), after) is None
    assert compare(fields, after, table["model"]) is not None, "the connector's writes changed the rows"


def test_the_connector_shifts_dates_before_1582_on_write(workloads) -> None:
    """Pinned connector behaviour (fails both ways): DATE and TIMESTAMP (with local time zone) literals before
    1582-10-15 written through the connector's SQL are stored shifted by the Julian-Gregorian difference, which
    Java 0.9.0's own reader (the testee, Paimon's core reader, no Spark) and the kit both read from the files;
    TIMESTAMP_NTZ and later values are stored as written. The connector's own read-back shifts them again."""
    from support.testees import opened, read_request

    table = _tables(workloads)["dates_before_1582"]
    fields = [{k: f[k] for k in ("name", "type")} for f in table["fields"]]
    with opened("java-0.9.0") as java:
        reply, why = java.exchange(read_request(table["path"], fields), "read_table_reply")
    assert reply is not None, why
    schema, rows = read_latest(table["path"])
    assert compare(fields, reply["rows"], logical_rows(schema, rows)) is None, "Java and the kit read one thing"
    stored = {r[0]: r[1:] for r in reply["rows"]}
    written = ("0001-01-01", "1000-06-15", "1582-10-14", "1582-10-15", "2024-02-29")
    for i, day in enumerate(written):
        date, ntz, ltz = stored[i]
        assert ntz.startswith(f"{day}T12:00"), ntz  # TIMESTAMP_NTZ: as written
        shifted = day < "1582-10-15"
        assert (date != day) == shifted, (day, date)
        assert (ltz[:10] != day) == shifted, (day, ltz)
    assert stored[0][0] == "0000-12-30"
    assert stored[2][0] == "1582-10-15"
    by_id = {int(r[0]): r for r in table["latest"]}
    assert by_id[0][1] != "0001-01-01" != stored[0][0], "the connector's read-back shifts once more"
