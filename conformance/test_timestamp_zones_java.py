"""TIMESTAMP and TIMESTAMP_LTZ of every precision, in every role and format, written by Java in JVMs of other time
zones than UTC (the type x role matrix's), and the kit judging and reading them in that zone.

Each run is one release in one JVM default zone (-Duser.timezone and TZ): Asia/Shanghai (east, with the DST of
1986-91), America/New_York (west, across the DST changes of 2024) and Asia/Kolkata (a half-hour offset); every
release runs in one of them and 2.0.0 in all three. The values are the matrix's (pre-1970 with sub-millisecond
parts, years 0001 and 9999) and wall clocks the zone skips or repeats. The roles: primary key, bucket key,
partition, file indexes, and a value in Parquet, ORC and Avro (support/java_matrix.py). Per table: Java's refusals
are the UTC matrix's, no must-finding (statistics included) from the kit in-process and from the console script
run with TZ set to the zone, and the kit reads Java's rows. Where Java's own read-back differs from what was
written, the cells are pinned per zone. ORC TIMESTAMP_LTZ files record no writer zone, so what Java reads from them
depends on its reader's zone: the kit reads them as in UTC, and its statistics check allows a zone's offset (a
should: MANIFEST_VALUE_STATS).
"""

from __future__ import annotations

import json
import os
import subprocess

import numpy as np
import pytest
from support import background
from support import java_matrix as jm
from support import java_matrix_pins as pins
from support.environment import require
from support.jobs import java_zones_job

from paimon_conform.formats.orc import java_zones
from paimon_conform.formats.orc import timestamps as ots
from paimon_conform.formats.paimon_columns import internal_values
from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

pytestmark = pytest.mark.java

ZONE_RUNS = jm.ZONE_RUNS
RUN_IDS = [f"{v}@{z}" for v, z in ZONE_RUNS]
CASES = jm.zone_cases()
PARAMS = [pytest.param(v, z, c["name"], id=f"{v}@{z}/{c['name']}") for v, z in ZONE_RUNS for c in CASES]
NAMES = {c["name"] for c in CASES}


def _here(known: dict) -> set:
    """The pinned cells of the UTC matrix that are cells of this one."""
    return {k for k in known if f"{k[0]}.{jm.slug(k[1])}" in NAMES or f"{k[0]}.{k[1]}" in NAMES}


def known_round_trip(version: str, zone: str) -> set[tuple[str, str]]:
    """Cells whose rows Java reads back other than they were written, in `zone` (the UTC matrix's, and those the
    zone adds)."""
    # ORC's shifts (Julian calendar before 1582, the second before the epoch) reach TIMESTAMP_LTZ(0) too, a type
    # the UTC matrix does not have, and ORC primary keys, which it does not have either
    orc_keys = {("pk-orc", jm.slug(t)) for t in jm.ZONE_TYPES}
    return _here(pins.known_java_round_trip(version)) | {("value-orc", "timestamp-0-with-local-time-zone")} | orc_keys


# Java's ORC writer stores a wall clock its zone skips (New York 2024-03-10T02:30, Shanghai 1988-04-17T02:30) an
# hour later, and reads it back so: as an ORC primary key, that row is then in another bucket than its key's, a
# must the kit reports (Java misreads; which precisions show it depends on where the hashes fall)
DST_GAP_ZONES = ("Asia/Shanghai", "America/New_York")


def allowed_musts(zone: str, name: str) -> set[str]:
    """The must codes a cell may have: none, but DATA_FILE_WRONG_BUCKET for an ORC TIMESTAMP key in a DST zone."""
    role, _, slug = name.partition(".")
    plain = slug.startswith("timestamp-") and not slug.endswith("-with-local-time-zone")
    return {"DATA_FILE_WRONG_BUCKET"} if role == "pk-orc" and plain and zone in DST_GAP_ZONES else set()


@pytest.fixture(scope="module")
def matrices():
    """jm.build per (release, zone), once per run (started beside the first tests: conftest)."""
    require("javac")
    require("java")
    return background.result("java-zones", java_zones_job).__getitem__


def _written(matrices, version: str, zone: str, name: str) -> jm.Table | None:
    t = matrices((version, zone)).tables[name]
    return None if t.refused else t


@pytest.mark.parametrize(("version", "zone"), ZONE_RUNS, ids=RUN_IDS)
def test_java_refuses_and_falls_back_as_in_utc(matrices, version, zone):
    m = matrices((version, zone))
    refused = {pins.key(n) for n, t in m.tables.items() if t.refused}
    assert refused == _here(pins.known_refusals(version))
    fallbacks = {pins.key(n) for n, t in m.tables.items() if not t.refused and t.report.get("attempt")}
    assert fallbacks == _here(pins.known_fallbacks(version))


@pytest.mark.parametrize(("version", "zone"), ZONE_RUNS, ids=RUN_IDS)
def test_java_reads_back_what_it_wrote_except_the_known_cases(matrices, version, zone):
    import golden_java_tables as gjt

    differ = set()
    for name, t in matrices((version, zone)).tables.items():
        if t.refused:
            continue
        if sorted(map(gjt._canonical, gjt.model_rows(t.written_case()))) != sorted(map(gjt._canonical, t.java_rows())):
            differ.add(pins.key(name))
    assert differ == known_round_trip(version, zone)


@pytest.mark.parametrize(("version", "zone", "name"), PARAMS)
def test_validator_finds_nothing_java_would_reject(matrices, version, zone, name):
    t = _written(matrices, version, zone, name)
    if t is None:
        return  # a refusal, pinned by test_java_refuses_and_falls_back_as_in_utc
    results = validate_table(t.root)
    codes = {f.code for r in results for f in r.findings if f.severity == "must"}
    must = pins.must_lines(results)
    assert codes <= allowed_musts(zone, name), f"{len(must)} must finding(s):\n" + "\n".join(must[:12])
    assert not any(r.unusable for r in results), must


@pytest.mark.parametrize(("version", "zone"), ZONE_RUNS, ids=RUN_IDS)
def test_the_kit_reports_javas_dst_gap_keys(matrices, version, zone):
    """In a zone with a DST gap among the values, some ORC TIMESTAMP primary key shows Java's shifted row as a
    must (DATA_FILE_WRONG_BUCKET); in Kolkata none does."""
    found = set()
    for name, t in matrices((version, zone)).tables.items():
        if name.startswith("pk-orc.") and not t.refused and allowed_musts(zone, name):
            found |= {f.code for r in validate_table(t.root) for f in r.findings if f.severity == "must"}
    assert found == ({"DATA_FILE_WRONG_BUCKET"} if zone in DST_GAP_ZONES else set())


def _zone_dependent(name: str) -> bool:
    """ORC TIMESTAMP_LTZ: the file records no writer zone (ORC Java names one only beside a plain timestamp
    column), Paimon stores the writer zone's wall clock and its reader adds the reader JVM zone's offset back."""
    role, _, slug = name.partition(".")
    return role in ("value-orc", "pk-orc") and slug.endswith("-with-local-time-zone")


@pytest.mark.parametrize(("version", "zone", "name"), PARAMS)
def test_reader_returns_javas_rows(matrices, version, zone, name):
    """The kit's rows are Java's; for ORC TIMESTAMP_LTZ (read as in UTC: the file names no zone), Java's are the
    kit's plus the offset of Java's reader zone at each value (DateTimeUtils.toInternal)."""
    t = _written(matrices, version, zone, name)
    if t is None:
        return
    schema, rows = read_latest(t.root)
    if _zone_dependent(name):
        assert ots.writer_zones(next(t.root.rglob("*.orc"))) == [""]  # why the kit cannot know the zone
        ts = schema.fields[0].type
        ours = [None if v is None else (v[0] + int(java_zones.java_offset_ms(zone, np.array([v[0]]))[0]), v[1])
                for v in internal_values(rows.column("k"), ts)]  # fmt: skip
        javas = [None if r[0] is None else tuple(r[0]) for r in t.report["rows"]]
        assert sorted(ours, key=str) == sorted(javas, key=str)
        return
    ours, javas = pins.canonical(logical_rows(schema, rows)), pins.canonical(t.java_rows())
    assert ours == javas, (sorted(set(ours) - set(javas))[:4], sorted(set(javas) - set(ours))[:4])


@pytest.mark.parametrize(("version", "zone"), ZONE_RUNS, ids=RUN_IDS)
def test_cli_in_the_zone_finds_no_must(matrices, version, zone):
    """The console script, run with TZ set to the writer's zone, over the run's tables: exit 0 at must level."""
    roots = [str(t.root) for t in matrices((version, zone)).tables.values() if not t.refused]
    env = dict(os.environ, TZ=zone)
    done = subprocess.run(
        [*pins.cli(), "validate", *roots, "--report", "json"], capture_output=True, text=True, env=env, timeout=1800
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    report = json.loads(done.stdout)
    must = [f"{r['file']}: {f['code']}" for r in report["files"] for f in r["findings"] if f["severity"] == "must"]
    cell = {m: m.split("/out/", 1)[-1].split("/", 1)[0].split(":", 1)[0] for m in must}  # out/<cell>/...
    unexpected = [m for m in must if m.split(": ")[-1] not in allowed_musts(zone, cell[m])]
    assert not unexpected, unexpected[:10]
    assert len([r for r in report["files"] if r["kind"] == "table"]) == len(roots)


def test_a_zone_cannot_excuse_a_bound_further_off_than_any_offset(matrices, tmp_path):
    """The tolerance for ORC TIMESTAMP_LTZ without a writer zone is a zone's offset, no more: the New York table's
    maximum is 5 h below the values the kit reads (a should); 12 h lower still (17 h) stays a should, 48 h lower is
    a must naming the column."""
    import shutil
    import struct

    from support import fault_catalog as fc

    t = _written(matrices, "2.0.0", "America/New_York", "value-orc.timestamp-3-with-local-time-zone")
    found = {}
    for hours in (0, 12, 48):
        root = shutil.copytree(t.root, tmp_path / f"t{hours}")

        def lower(r: dict, hours: int = hours) -> None:
            stats = r["_FILE"]["_VALUE_STATS"]
            row = stats["_MAX_VALUES"]  # arity (4), null bits (8), k's slot (compact: the millis), v's slot
            (top,) = struct.unpack_from("<q", row, 12)
            stats["_MAX_VALUES"] = row[:12] + struct.pack("<q", top - hours * 3_600_000) + row[20:]

        fc.edit_live_entry(root, lower, lambda r: r["_FILE"]["_ROW_COUNT"] > 1)
        found[hours] = [
            f for r in validate_table(root) for f in r.findings if f.code == "MANIFEST_VALUE_STATS" and "_MAX" in f.path
        ]
    assert {f.severity for f in found[0]} == {f.severity for f in found[12]} == {"should"}
    musts = [f for f in found[48] if f.severity == "must"]
    assert len(musts) == 1
    assert musts[0].message.startswith("k: maximum")
