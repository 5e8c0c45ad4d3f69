"""ORC TIMESTAMP / TIMESTAMP_LTZ columns read as Java Paimon reads them (paimon_conform.formats.orc).

pyarrow alone reads some Java-written values a second off near the epoch, TIMESTAMP_LTZ shifted by
the writer JVM's zone, years outside 1677..2262 wrapped around, and cannot open a file whose writer
zone is a Java-only ID (GMT+08:00, CTT, PST). Java's answers come from
tools/java/tables/OrcTimestampWriter.java: tables with TIMESTAMP(0, 3, 6, 9) and TIMESTAMP_LTZ(0, 3,
6, 9) columns written by Java Paimon in a JVM whose default zone is set with -Duser.timezone, and
the rows Java's own reader returns for them. One JVM per (jar, zone) serves the whole run; its
tables and answers are cached under build/orc-ts/ by a hash of the inputs (harness source, jar,
zone, values), so a warm cache needs no Java.

The reads under test are the ones that ship: orc.timestamps.read_timestamps, and the ORC worker process
(orc_worker.read_orc: prepare_pyarrow, pyarrow, fix_table in `python -m paimon_conform.formats.orc.worker`),
which the table reader and the validator call.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import io
import json
import operator
import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.orc as po
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.environment import ROOT, require

from paimon_conform.core.types import DataType
from paimon_conform.formats.exact_ns import is_exact_ns
from paimon_conform.formats.orc import java_zones, protobuf, rle
from paimon_conform.formats.orc import tail as orc_tail
from paimon_conform.formats.orc import timestamps as ots
from paimon_conform.formats.orc import worker as orc_worker
from paimon_conform.formats.orc.errors import OrcError
from paimon_conform.formats.paimon_columns import internal_values

EVIDENCE = ("java", "third-party")

HARNESS = ROOT / "tools" / "java" / "tables" / "OrcTimestampWriter.java"
CACHE = ROOT / "build" / "orc-ts"
PRECISIONS = (0, 3, 6, 9)
COLUMNS = [f"ts{p}" for p in PRECISIONS] + [f"ltz{p}" for p in PRECISIONS]
FIELDS = [{"name": "id", "type": "INT"}]
FIELDS += [{"name": f"ts{p}", "type": f"TIMESTAMP({p})"} for p in PRECISIONS]
FIELDS += [{"name": f"ltz{p}", "type": f"TIMESTAMP_LTZ({p})"} for p in PRECISIONS]
NEW, OLD = "1.0-SNAPSHOT", "0.9.0"
# UTC; east and west of it with DST history; Java-only IDs (a custom offset, an old three-letter
# ID with DST); a zone whose 1968-71 "standard" time was +1
ZONES = ["UTC", "Asia/Shanghai", "America/Los_Angeles", "GMT+08:00", "PST", "Europe/Dublin"]
HOUR = 3600 * 10**9
EPOCH = dt.datetime(1970, 1, 1)


def wall_ns(iso: str, nanos: int = 0) -> int:
    """A wall clock as Paimon's internal TIMESTAMP value (epoch nanoseconds, as if in UTC)."""
    delta = dt.datetime.fromisoformat(iso) - EPOCH
    return ((delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds) * 1000 + nanos


MIN_NS = wall_ns("0001-01-01T00:00:00")
MAX_NS = wall_ns("9999-12-31T23:59:59", 999_999_999)
ANCHORS = [
    wall_ns(s)
    for s in (
        "1970-01-01T00:00:00",
        "1900-01-01T00:00:00",  # Java's zones have no transitions before 1900
        "1901-12-13T20:45:52",
        "1582-10-15T00:00:00",  # the Gregorian cutover of java.sql.Timestamp's calendar
        "2015-01-01T00:00:00",  # ORC's base
        "2024-03-10T02:30:00",  # Los Angeles: gap
        "2024-11-03T01:30:00",  # Los Angeles: overlap
        "1969-04-27T02:00:00",
        "1969-10-26T01:00:00",
        "1988-04-17T02:00:00",  # Shanghai DST
        "1988-09-11T01:30:00",
        "1971-10-31T02:00:00",  # Dublin
        "2038-01-19T03:14:08",
    )
]


def edge_values() -> list[int | None]:
    """Values where the readers differ: around the epoch in every zone, DST, calendars, extremes."""
    near = [0, 1, -1, 999_999, -1_000_000, -500_000_000, -999_000_000, -999_999_999, -1_000_000_000]
    near += [-1_000_000_001, -1_500_000_000, -1_500_123_456, 999_999_999, 1_000_000_000, 1_500_000_000]
    out: list[int | None] = [shift + v for shift in (0, 8 * HOUR, -8 * HOUR, 7 * HOUR, -7 * HOUR, HOUR) for v in near]
    stamps = [
        "1969-07-20T20:17:40",
        "1969-12-31T23:59:59",
        "1969-12-31T15:59:59",
        "1970-01-01T07:59:59",
        "1900-01-01T00:00:00",
        "1899-12-31T16:00:00",
        "1800-06-01T12:00:00",
        "1677-09-22T00:12:43",
        "1582-10-15T00:00:00",
        "1582-10-04T23:59:59",
        "1000-01-01T00:00:00",
        "0001-01-01T00:00:00",
        "9999-12-31T23:59:59",
        "2262-04-12T00:00:00",
        "2024-03-10T02:30:00",
        "2024-03-10T01:59:59",
        "2024-11-03T01:30:00",
        "2024-11-03T00:59:59",
        "1969-04-27T01:59:59",
        "1969-10-26T01:59:59",
        "1988-04-17T02:30:00",
        "1988-09-11T01:30:00",
        "2015-01-01T00:00:00",
        "2024-01-01T12:34:56",
    ]
    out += [wall_ns(s, n) for s in stamps for n in (0, 500_000_000, 123_456_789, 999_999_999, 1000)]
    return [*out, None]


def spec(values: list[int | None]) -> dict:
    """OrcTimestampWriter's input: one row per value, every column truncated to its precision."""
    rows = []
    for i, v in enumerate(values):
        row: list[Any] = [i]
        for _ in ("ts", "ltz"):
            for p in PRECISIONS:
                if v is None:
                    row.append(None)
                else:
                    q = 10 ** (9 - p)
                    t = v // q * q
                    row.append([t // 1_000_000, t % 1_000_000])
        rows.append(row)
    return {"fields": FIELDS, "options": {"file.format": "orc", "bucket": "-1"}, "rows": rows}


# ---------------------------------------------------------------- the Java side


class JavaOracle:
    """`OrcTimestampWriter serve` in a JVM whose default time zone is `zone`."""

    def __init__(self, classpath: str, zone: str):
        self.classpath, self.zone = classpath, zone
        self.proc: subprocess.Popen | None = None

    def ask(self, request: dict) -> dict:
        if self.proc is None:
            import paimon_java as pj

            cmd = pj.java_command(self.classpath, "OrcTimestampWriter", "serve", zone=self.zone, short=True)
            self.proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
            )
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            pytest.fail(f"OrcTimestampWriter ({self.zone}) ended without an answer")
        answer = json.loads(line)
        if "error" in answer:
            pytest.fail(f"OrcTimestampWriter ({self.zone}): {answer['error']}")
        return answer

    def close(self) -> None:
        if self.proc is not None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


class Java:
    """The cached Java answers; JVMs start only for answers not in build/orc-ts/ yet."""

    def __init__(self) -> None:
        self.oracles: dict[tuple[str, str], JavaOracle] = {}
        self.harness = hashlib.sha256(HARNESS.read_bytes()).hexdigest()

    def _classpath(self, version: str) -> str:
        require("javac")
        require("java")
        import paimon_java as pj

        return pj.tables_classpath(version)

    def oracle(self, version: str, zone: str) -> JavaOracle:
        if (version, zone) not in self.oracles:
            self.oracles[(version, zone)] = JavaOracle(self._classpath(version), zone)
        return self.oracles[(version, zone)]

    def _cached(self, key_data: dict, make) -> Path:
        key = hashlib.sha256(json.dumps({"harness": self.harness, **key_data}, sort_keys=True).encode()).hexdigest()
        done = CACHE / key[:24]
        if not (done / "java.json").is_file():
            work = done.with_name(done.name + ".tmp")
            shutil.rmtree(work, ignore_errors=True)
            work.mkdir(parents=True)
            (work / "java.json").write_text(json.dumps(make(work)))
            shutil.rmtree(done, ignore_errors=True)
            work.rename(done)
        return done

    def write(self, version: str, zone: str, values: list[int | None]) -> Path:
        """A table written by Java in `zone` (DIR/table) with Java's read-back there (DIR/java.json)."""
        s = spec(values)

        def make(work: Path) -> dict:
            return self.oracle(version, zone).ask({"op": "write", "spec": s, "table": str(work / "table")})

        return self._cached({"op": "write", "version": version, "zone": zone, "spec": s}, make)

    def read(self, version: str, zone: str, written: Path) -> dict:
        """What Java's reader in `zone` returns for a table written before."""

        def make(work: Path) -> dict:
            return self.oracle(version, zone).ask({"op": "read", "table": str(written / "table")})

        key = {"op": "read", "version": version, "zone": zone, "table": written.name}
        return json.loads((self._cached(key, make) / "java.json").read_text())

    def read_file(self, path: Path, fields: list[dict]) -> dict:
        """What Paimon's ORC reader (in a UTC JVM) returns for one data file, row by row."""
        digest = hashlib.sha256(path.read_bytes()).hexdigest()

        def make(work: Path) -> dict:
            shutil.copy(path, work / "file.orc")
            return self.oracle(NEW, "UTC").ask({"op": "readfile", "path": str(work / "file.orc"), "fields": fields})

        key = {"op": "readfile", "file": digest, "fields": fields}
        return json.loads((self._cached(key, make) / "java.json").read_text())

    def offsets(self, zones: list[str], instants: list[int]) -> dict:
        def make(work: Path) -> dict:
            return self.oracle(NEW, "UTC").ask({"op": "offsets", "zones": zones, "instants": instants})

        key = {"op": "offsets", "zones": zones, "instants": instants}
        return json.loads((self._cached(key, make) / "java.json").read_text())

    def close(self) -> None:
        for o in self.oracles.values():
            o.close()


@pytest.fixture(scope="session")
def java():
    j = Java()
    yield j
    j.close()


# ---------------------------------------------------------------- the kit's side


def orc_file(table: Path) -> Path:
    files = sorted((table / "table").rglob("*.orc"))
    assert len(files) == 1, files
    return files[0]


def java_rows(answer: dict) -> dict[str, list]:
    rows = answer["rows"]
    return {c: [None if r[i] is None else tuple(r[i]) for r in rows] for i, c in enumerate(COLUMNS, start=1)}


def floor_to_unit(value: tuple[int, int] | None, unit: str) -> tuple[int, int] | None:
    if value is None:
        return None
    step = {"s": 10**9, "ms": 10**6, "us": 1000, "ns": 1}[unit]
    total = (value[0] * 1_000_000 + value[1]) // step * step
    return (total // 1_000_000, total % 1_000_000)


def assert_reads_as_java(path: Path, expected: dict[str, list], reader_zone: str | None = None) -> None:
    got = ots.read_timestamps(path, reader_zone=reader_zone)
    assert set(got) == set(COLUMNS)
    for c in COLUMNS:
        assert got[c].instant == c.startswith("ltz")
        mismatches = [
            (i, e, g) for i, (e, g) in enumerate(zip(expected[c], got[c].internal_values(), strict=True)) if e != g
        ]
        assert not mismatches, f"{c}: (row, Java, kit) {mismatches[:5]}"


def assert_worker_reads_as_java(path: Path, expected: dict[str, list]) -> None:
    """The ORC worker's rows (pyarrow + fix_table in the worker process), typed as the kit types data files,
    equal Java's (to the Arrow unit; exactly where the column is exact decimal nanoseconds, the form for values
    int64 nanoseconds cannot hold)."""
    table = orc_worker.read_orc(path)
    for c in COLUMNS:
        col = table.column(c)
        exact = is_exact_ns(table.schema.field(c))
        assert exact or (col.type.tz is not None) == c.startswith("ltz")
        got = internal_values(col, DataType("TIMESTAMP_LTZ" if c.startswith("ltz") else "TIMESTAMP", 9))
        want = expected[c] if exact else [floor_to_unit(v, col.type.unit) for v in expected[c]]
        assert got == want, c


# ---------------------------------------------------------------- Java-written tables


CASES = [(NEW, z) for z in ZONES] + [(OLD, "Asia/Shanghai"), (OLD, "America/Los_Angeles")]


@pytest.mark.java
@pytest.mark.parametrize(("version", "zone"), CASES, ids=[f"{v}-{z}" for v, z in CASES])
def test_edge_values_read_as_java_reads_them(java, version, zone):
    written = java.write(version, zone, edge_values())
    answer = json.loads((written / "java.json").read_text())
    assert answer["zone"] == zone
    path = orc_file(written)
    assert ots.writer_zones(path) == [zone]
    expected = java_rows(answer)
    assert_reads_as_java(path, expected)
    assert_worker_reads_as_java(path, expected)


READERS = [
    ("Asia/Shanghai", "America/Los_Angeles"),
    ("America/Los_Angeles", "UTC"),
    ("UTC", "Asia/Shanghai"),
    ("GMT+08:00", "Europe/Dublin"),
    ("PST", "America/Los_Angeles"),
]


@pytest.mark.java
@pytest.mark.parametrize(("writer", "reader"), READERS, ids=[f"{w}-read-in-{r}" for w, r in READERS])
def test_a_reader_in_another_zone(java, writer, reader):
    """Java's TIMESTAMP keeps the wall clock across zones; TIMESTAMP_LTZ shifts by the reader's zone."""
    written = java.write(NEW, writer, edge_values())
    answer = java.read(NEW, reader, written)
    assert answer["zone"] == reader
    assert_reads_as_java(orc_file(written), java_rows(answer), reader_zone=reader)


def _clamped(v: int) -> int:
    return min(max(v, MIN_NS), MAX_NS)


TIMESTAMPS = st.one_of(
    st.integers(MIN_NS, MAX_NS),
    st.integers(-16 * HOUR, 16 * HOUR),  # around the epoch in every zone
    st.builds(operator.add, st.sampled_from(ANCHORS), st.integers(-3 * HOUR, 3 * HOUR)).map(_clamped),
)


# each new example is a table Java writes in a JVM (its answers cached under build/orc-ts by the inputs' hash):
# 60 keep a cold cache near a minute
@pytest.mark.java
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(zone=st.sampled_from(ZONES), values=st.lists(st.one_of(st.none(), TIMESTAMPS), min_size=1, max_size=16))
def test_random_timestamps_read_as_java_reads_them(java, zone, values):
    written = java.write(NEW, zone, values)
    expected = java_rows(json.loads((written / "java.json").read_text()))
    path = orc_file(written)
    assert_reads_as_java(path, expected)
    assert_worker_reads_as_java(path, expected)


OFFSET_ZONES = [
    "UTC",
    "GMT",
    "Etc/UTC",
    "Asia/Shanghai",
    "America/Los_Angeles",
    "America/New_York",
    "Europe/Berlin",
    "Europe/London",
    "Europe/Dublin",
    "Australia/Sydney",
    "Asia/Kolkata",
    "Asia/Tokyo",
    "America/Sao_Paulo",
    "CTT",
    "PST",
    "EST",
    "MST",
    "HST",
    "IST",
    "JST",
    "ECT",
    "AET",
    "BET",
    "GMT+08:00",
    "GMT-05:30",
    "GMT+8",
    "GMT+0530",
    "No/Such_Zone",
]


@pytest.mark.java
def test_zone_offsets_are_javas(java):
    """java_offset_ms equals java.util.TimeZone.getOffset (the offset Paimon adds when it reads)."""
    rng = np.random.default_rng(20240904)
    instants = [*rng.integers(MIN_NS // 10**6, MAX_NS // 10**6, 400).tolist()]
    instants += rng.integers(-2_300_000_000_000, 2_300_000_000_000, 1500).tolist()
    instants += [a // 10**6 + d for a in ANCHORS for d in (-3_600_001, -1, 0, 1, 3_600_000)]
    instants += [-2208988800001, -2208988800000, -2208988799999]
    answer = java.offsets(OFFSET_ZONES, instants)
    for zone in OFFSET_ZONES:
        got = java_zones.java_offset_ms(zone, np.array(instants, dtype=np.int64)).tolist()
        bad = [(t, j, g) for t, j, g in zip(instants, answer["offsets"][zone], got, strict=True) if j != g]
        assert not bad, f"{zone}: (instant, Java, kit) {bad[:5]}"


VALIDATED = ["Asia/Shanghai", "America/Los_Angeles", "GMT+08:00", "UTC"]


@pytest.mark.java
@pytest.mark.parametrize("zone", VALIDATED)
def test_validator_and_reader_agree_with_java_in_any_zone(java, zone):
    """No false MANIFEST_VALUE_STATS (or any other finding) on Java's tables, and the table reader's
    rows are Java's, whatever zone the writer JVM ran in."""
    from paimon_conform.table.read.reader import read_latest
    from paimon_conform.table.validate.table import validate_table

    rng = np.random.default_rng(7)
    values: list[int | None] = [wall_ns("2024-01-01T12:34:56", 789_123_456), -500_000_000, 8 * HOUR - 1, -8 * HOUR]
    values += [v + d for v in ANCHORS[5:] for d in (0, HOUR // 2)]
    values += rng.integers(wall_ns("1901-12-14T00:00:00"), wall_ns("2099-12-31T00:00:00"), 30).tolist()
    written = java.write(NEW, zone, [*values, None])
    root = written / "table"
    results = validate_table(root)
    assert [f.line() for r in results for f in r.findings] == []
    assert all(r.unusable is None for r in results)
    schema, rows = read_latest(root)
    expected = java_rows(json.loads((written / "java.json").read_text()))
    order = np.argsort(rows.column("id").to_numpy())
    for c in COLUMNS:
        got = internal_values(rows.column(c).take(pa.array(order)), schema.field(c).type)
        assert got == expected[c], c


# ---------------------------------------------------------------- golden tables (no Java needed)

GOLDEN = [
    ROOT / "golden" / "tables" / version / name
    for version in ("java-0.9.0", "java-1.0-SNAPSHOT")
    for name in ("pk-fixed4-orc-mor", "append-partition-values")
]


@pytest.mark.parametrize("root", GOLDEN, ids=[f"{p.parent.name}/{p.name}" for p in GOLDEN])
def test_golden_orc_tables_read_as_their_sidecars_say(root):
    from paimon_conform.table.read.reader import logical_rows, read_latest
    from paimon_conform.table.validate.table import validate_table

    meta = json.loads(root.with_suffix(".json").read_text())
    schema, rows = read_latest(root)

    def canonical(rs: list[list]) -> list[str]:
        return sorted(json.dumps(r, sort_keys=True) for r in rs)

    assert canonical(logical_rows(schema, rows)) == canonical(meta["expected_rows"])
    findings = [f for r in validate_table(root) for f in r.findings]
    assert [f.line() for f in findings if f.severity == "must" or f.code == "MANIFEST_VALUE_STATS"] == []


# ---------------------------------------------------------------- the decoder against ORC C++


def java_readable(values: np.ndarray) -> np.ndarray:
    """Values whose pyarrow-written ORC Java can read: negatives rounded down to whole milliseconds.

    Arrow's ORC writer stores a value before 1970 with a fractional second as truncated seconds
    and negative nanos; Java Paimon throws on those unless they are whole milliseconds
    (test_pyarrow_writes_negative_nanos_java_cannot_read)."""
    return np.where(values < 0, values // 1_000_000 * 1_000_000, values)


def cpp_written(values: np.ndarray, mask: np.ndarray, compression: str, version: str, stripe_size: int) -> bytes:
    """An ORC file ORC C++ (pyarrow) writes (writer zone GMT): `values` as ns, ns with tz UTC
    (ORC's instant type) and us (null where the others are not)."""
    table = pa.table(
        {
            "id": pa.array(np.arange(len(values), dtype=np.int32)),
            "ts": pa.array(values, pa.timestamp("ns"), mask=mask),
            "ltz": pa.array(values, pa.timestamp("ns", tz="UTC")),
            "us": pa.array(values // 1000, pa.timestamp("us"), mask=~mask),
        }
    )
    buf = io.BytesIO()
    po.write_table(table, buf, compression=compression, file_version=version, stripe_size=stripe_size, batch_size=256)
    return buf.getvalue()


PATTERNS = ["random", "small", "repeat", "sequence", "increasing", "decreasing", "outliers", "near-epoch"]


def pattern(name: str, n: int, rng: np.random.Generator) -> np.ndarray:
    lo, hi = -(2**63) + 10**9, 2**63 - 10**9
    if name == "random":
        return rng.integers(lo, hi, n)
    if name == "small":
        return rng.integers(-(10**12), 10**12, n)
    if name == "repeat":
        return np.repeat(rng.integers(-(10**18), 10**18, n // 20 + 1), 20)[:n]
    if name == "short-repeats":  # runs of 3..10 equal values: RLE v2 SHORT_REPEAT
        return np.repeat(rng.integers(-(10**15), 10**15, n // 5 + 1) * 10**3, 5)[:n]
    if name == "sequence":
        return np.arange(n, dtype=np.int64) * 1_000_000_000 + 1_700_000_000 * 10**9
    if name == "increasing":
        return np.cumsum(rng.integers(0, 10**12, n)) - 10**15
    if name == "decreasing":
        return 10**15 - np.cumsum(rng.integers(0, 10**12, n))
    if name == "outliers":  # mostly narrow, a few wide: ORC's PATCHED_BASE runs
        wide = rng.integers(-(10**18), 10**18, n)
        narrow = rng.integers(0, 1000, n) * 10**9 + 10**17
        return np.where(rng.random(n) < 0.03, wide, narrow)
    return rng.integers(-5 * 10**9, 5 * 10**9, n)


# each example writes up to 3,000 timestamps with ORC C++ (pyarrow) and decodes them; 60 keep it near 10 s
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    name=st.sampled_from(PATTERNS),
    n=st.integers(0, 3000),
    compression=st.sampled_from(["uncompressed", "zlib", "snappy", "lz4", "zstd"]),
    version=st.sampled_from(["0.11", "0.12"]),  # integer RLE v1, v2
    stripe_size=st.sampled_from([1024, 64 * 1024 * 1024]),
)
def test_decoder_reads_what_orc_cpp_wrote(tmp_path_factory, seed, name, n, compression, version, stripe_size):
    """Files ORC C++ (pyarrow) wrote in GMT read back as written (what pyarrow reads too, where
    int64 nanoseconds hold the value)."""
    rng = np.random.default_rng(seed)
    values = java_readable(pattern(name, n, rng))
    mask = rng.random(n) < 0.1
    path = tmp_path_factory.mktemp("orc") / "f.orc"
    path.write_bytes(cpp_written(values, mask, compression, version, stripe_size))
    got = ots.read_timestamps(path)
    assert set(got) == {"ts", "ltz", "us"}
    written = {
        "ts": [None if m else int(v) for v, m in zip(values, mask, strict=True)],
        "ltz": [int(v) for v in values],
        "us": [None if not m else int(v) // 1000 * 1000 for v, m in zip(values, mask, strict=True)],
    }
    for c in ("ts", "ltz", "us"):
        assert [None if v is None else v[0] * 1_000_000 + v[1] for v in got[c].internal_values()] == written[c], c
    back = po.ORCFile(str(path)).read()
    assert ots.fix_table(path, back).select(["id", "ts", "ltz"]).equals(back.select(["id", "ts", "ltz"]))
    # stripe by stripe (the streaming validator's windows): the same values, exact decimal nanoseconds
    f = po.ORCFile(str(path))
    exact: dict[str, list] = {c: [] for c in written}
    for i in range(f.nstripes):
        part = ots.fix_table(path, pa.Table.from_batches([f.read_stripe(i)]), stripes=range(i, i + 1), exact=True)
        for c in written:
            assert is_exact_ns(part.schema.field(c)), c
            exact[c] += [None if v is None else int(v) for v in part.column(c).to_pylist()]
    assert exact == written


@pytest.mark.java
def test_pyarrow_writes_negative_nanos_java_cannot_read(java, tmp_path):
    """Arrow's ORC writer (the kit's own ORC writer) stores a value before 1970 with a fractional
    second as truncated seconds and negative nanos. Java Paimon reads whole milliseconds right and
    throws on the rest; the kit marks exactly those values unreadable."""
    values = [-208_372_625, -1_000_000, -1_500_000_000, -999_999_999, 5, -1, -1_500_000_001, -(10**12) - 1000]
    values += [wall_ns("1969-07-20T20:17:40", 123_000_000), wall_ns("1900-01-01T00:00:00", 1)]
    path = tmp_path / "pyarrow.orc"
    po.write_table(pa.table({"ts": pa.array(values, pa.timestamp("ns"))}), str(path))
    answer = java.read_file(path, [{"name": "ts", "type": "TIMESTAMP(9)"}])
    col = ots.read_timestamps(path)["ts"]
    java_values = [r[0] for r in answer["rows"]]
    assert [isinstance(v, str) for v in java_values] == col.unreadable.tolist()
    assert col.unreadable.any()
    pairs = zip(col.millis.tolist(), col.nanos.tolist(), col.unreadable.tolist(), strict=True)
    assert [(m, n) for m, n, bad in pairs if not bad] == [tuple(v) for v in java_values if not isinstance(v, str)]
    with pytest.raises(OrcError, match="negative nanoseconds"):
        ots.fix_table(path, po.ORCFile(str(path)).read())
    # "keep": the values the writer meant (what pyarrow reads), for a finding of its own
    assert [m * 1_000_000 + n for m, n in col.internal_values("keep")] == values
    table = po.ORCFile(str(path)).read()
    assert ots.fix_table(path, table, unreadable="keep").equals(table)


def test_every_run_kind_is_decoded(tmp_path, monkeypatch):
    """The files above exercise every integer run kind, and several stripes."""
    seen: set[str] = set()
    kinds = {"_short_repeat", "_direct", "_patched_base", "_delta", "ints_v1"}  # RLE v2 runs, RLE v1
    for kind in sorted(kinds):
        module = ots if kind == "ints_v1" else rle  # the reader calls ints_v1 by its name in timestamps
        real = getattr(module, kind)

        def spy(*args, _real=real, _kind=kind):
            seen.add(_kind)
            return _real(*args)

        monkeypatch.setattr(module, kind, spy)
    rng = np.random.default_rng(1)
    stripes = 0
    for version in ("0.11", "0.12"):
        for name in [*PATTERNS, "short-repeats"]:
            values = java_readable(pattern(name, 20000, rng))
            path = tmp_path / f"{version}-{name}.orc"
            path.write_bytes(cpp_written(values, rng.random(20000) < 0.1, "zstd", version, 1024))
            stripes = max(stripes, len(ots.writer_zones(path)))
            back = po.ORCFile(str(path)).read()
            assert ots.fix_table(path, back).equals(back)
    assert seen == kinds
    assert stripes > 1


def test_files_without_timestamps_and_damaged_files(tmp_path):
    plain = tmp_path / "plain.orc"
    po.write_table(pa.table({"a": [1, 2, 3]}), str(plain))
    assert ots.read_timestamps(plain) == {}
    good = tmp_path / "good.orc"
    good.write_bytes(cpp_written(np.arange(100, dtype=np.int64) * 10**9, np.zeros(100, bool), "zstd", "0.12", 1024))
    assert len(ots.read_timestamps(good)["ts"].valid) == 100
    data = good.read_bytes()
    for damaged in (data[: len(data) // 2], data[:3] + bytes(len(data) - 3), b"PAR1" + data[4:]):
        bad = tmp_path / "bad.orc"
        bad.write_bytes(damaged)
        with pytest.raises(OrcError):
            ots.read_timestamps(bad)


def _encode(msg: dict[int, list]) -> bytes:
    """A protobuf message of varint and length-delimited fields (as protobuf.message parses it)."""

    def varint(v: int) -> bytes:
        out = bytearray()
        while True:
            b, v = v & 0x7F, v >> 7
            out.append(b | (0x80 if v else 0))
            if not v:
                return bytes(out)

    out = bytearray()
    for number, values in msg.items():
        for v in values:
            if isinstance(v, int):
                out += varint(number << 3) + varint(v)
            else:
                out += varint(number << 3 | 2) + varint(len(v)) + bytes(v)
    return bytes(out)


def with_writer_zone(data: bytes, zone: str | int) -> bytes:
    """An uncompressed one-stripe ORC file with its stripe footer's writer zone replaced (an int: stored as a
    varint, as a damaged file may)."""
    tail = orc_tail.read_tail(data)
    (stripe,) = tail.stripes
    ps_len = data[-1]
    ps = protobuf.message(data[-1 - ps_len : -1])
    footer_at = len(data) - 1 - ps_len - ps[1][0]
    footer = protobuf.message(data[footer_at : -1 - ps_len])
    body_end = stripe.offset + stripe.index_length + stripe.data_length
    stripe_footer = protobuf.message(data[body_end : body_end + stripe.footer_length])
    stripe_footer[3] = [zone if isinstance(zone, int) else zone.encode()]
    new_stripe_footer = _encode(stripe_footer)
    grown = len(new_stripe_footer) - stripe.footer_length
    info = protobuf.message(footer[3][0])
    info[4] = [len(new_stripe_footer)]
    footer[3] = [_encode(info)]
    footer[2] = [footer[2][0] + grown]
    new_footer = _encode(footer)
    ps[1] = [len(new_footer)]
    new_ps = _encode(ps)
    metadata = data[body_end + stripe.footer_length : footer_at]
    return data[:body_end] + new_stripe_footer + metadata + new_footer + new_ps + bytes([len(new_ps)])


def test_varints_where_bytes_belong(tmp_path, monkeypatch):
    """A tail or stripe footer with a varint where a length-delimited field belongs (the root type's field
    names, a stripe's writer zone; found by fuzzing stripe windows): OrcTimestampError, never a TypeError nor
    bytes(n) of the varint's value; the streaming read ends in a UsageError (DATA_FILE_UNREADABLE) at most."""
    from paimon_conform.core.errors import UsageError
    from paimon_conform.table.read import data_files

    buf = io.BytesIO()
    po.write_table(pa.table({"ts": pa.array([0, 10**9], pa.timestamp("ns"))}), buf, compression="uncompressed")
    data = buf.getvalue()
    ps_len = data[-1]
    ps = protobuf.message(data[-1 - ps_len : -1])
    footer_at = len(data) - 1 - ps_len - ps[1][0]
    footer = protobuf.message(data[footer_at : -1 - ps_len])
    root = protobuf.message(footer[4][0])
    root[3] = [2**40]
    footer[4] = [_encode(root), *footer[4][1:]]
    new_footer = _encode(footer)
    ps[1] = [len(new_footer)]
    new_ps = _encode(ps)
    names = data[:footer_at] + new_footer + new_ps + bytes([len(new_ps)])
    path = tmp_path / "bad.orc"
    monkeypatch.setattr(data_files, "WINDOW_SHARE", 1 << 40)
    for damaged, where in ((names, orc_tail.stripe_estimates), (with_writer_zone(data, 2**40), ots.writer_zones)):
        path.write_bytes(damaged)
        for read in (where, ots.read_timestamps):
            with pytest.raises(OrcError):
                read(path)
        with contextlib.suppress(UsageError):
            list(data_files.read_windows(path))


ODD_ZONES = ["GMT+08:00", "CTT", "XYZ", "Asia/No_Such_Zone", "America/Argentina/Nowhere", "Etc/GMT-14"]


@pytest.mark.java
@pytest.mark.parametrize("zone", ODD_ZONES)
def test_any_writer_zone_id(java, tmp_path, zone):
    """A writer zone pyarrow cannot load (Java-only IDs, IDs nobody knows): prepare_pyarrow lets
    pyarrow open the file without touching the system's zone files, and the values are Java's
    (Java reads an unknown ID as GMT)."""
    values = [wall_ns("2024-03-10T02:30:00", 5), -8 * HOUR - 500_000_000, 0, wall_ns("1901-01-01T00:00:00")]
    buf = io.BytesIO()
    po.write_table(
        pa.table({"ts": pa.array(values, pa.timestamp("ns")), "ltz": pa.array(values, pa.timestamp("ns", tz="UTC"))}),
        buf,
        compression="uncompressed",
    )
    path = tmp_path / "zone.orc"
    path.write_bytes(with_writer_zone(buf.getvalue(), zone))
    assert ots.writer_zones(path) == [zone]
    fields = [{"name": "ts", "type": "TIMESTAMP(9)"}, {"name": "ltz", "type": "TIMESTAMP_LTZ(9)"}]
    answer = java.read_file(path, fields)  # a JVM in UTC: TIMESTAMP moves from the writer zone to UTC
    got = ots.read_timestamps(path, reader_zone="UTC")
    for i, name in enumerate(("ts", "ltz")):
        assert got[name].internal_values() == [tuple(r[i]) for r in answer["rows"]], name
    script = (
        "import json, sys, pyarrow.orc as po\n"
        "from paimon_conform.formats.orc import timestamps as ots, tzdir\n"
        "tzdir.prepare_pyarrow(sys.argv[1])\n"
        "t = ots.fix_table(sys.argv[1], po.ORCFile(sys.argv[1]).read())\n"
        "print(json.dumps([t.num_rows, str(t.schema.field('ltz').type)]))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "TZDIR"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, env=env, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == [4, "timestamp[ns, tz=UTC]"]
    assert not Path("/usr/share/zoneinfo", zone).exists() or zone in ("Etc/GMT-14",)


def test_java_zone_ids():
    assert java_zones.java_zone("CTT").tz.key == "Asia/Shanghai"  # type: ignore[attr-defined]
    assert java_zones.java_zone("GMT+8").raw_seconds == 8 * 3600
    assert java_zones.java_zone("GMT-05:30").raw_seconds == -(5 * 3600 + 1800)
    assert java_zones.java_zone("EST").raw_seconds == -5 * 3600  # a fixed offset in Java, not America/Panama
    assert java_zones.java_zone("No/Such_Zone").raw_seconds == 0  # Java: GMT
    # before 1900 Java's zones have their standard offset, not local mean time
    assert java_zones.java_offset_ms("Asia/Shanghai", np.array([wall_ns("1850-01-01T00:00:00") // 10**6])).tolist() == [
        8 * 3600 * 1000
    ]


def _chunk(body: bytes, original: bool = False) -> bytes:
    """One ORC compression chunk: the 3-byte header (length << 1 | original) and the body."""
    header = len(body) << 1 | int(original)
    return header.to_bytes(3, "little") + body


def test_compressed_chunks_never_exceed_the_block_size():
    """Decompression bombs in an ORC stream are refused before they are built: a 2 KB zstd chunk of 64 MiB, a
    snappy chunk stating 4 GiB, a tail whose block size is beyond the memory budget; chunks of exactly the block
    size, in every codec, still decode."""
    import cramjam

    block = 256 * 1024
    bomb = bytes(cramjam.zstd.compress(bytes(64 << 20)))
    assert len(bomb) < 4096
    with pytest.raises(OrcError, match="larger than the compression block size"):
        orc_tail.decompress_stream(5, block, _chunk(bomb))
    snappy_bomb = b"\xff\xff\xff\xff\x0f" + b"\x00a"  # states 2^32 - 1 bytes
    with pytest.raises(OrcError, match="states 4294967295 bytes, more than the compression block size"):
        orc_tail.decompress_stream(2, block, _chunk(snappy_bomb))
    with pytest.raises(OrcError, match="beyond the memory budget"):
        orc_tail.decompress_stream(5, 1 << 40, _chunk(bytes(cramjam.zstd.compress(b"x"))))
    full = bytes(range(256)) * (block // 256)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunks = {
        1: deflate.compress(full) + deflate.flush(),
        2: bytes(cramjam.snappy.compress_raw(full)),
        4: bytes(cramjam.lz4.compress_block(full, store_size=False)),
        5: bytes(cramjam.zstd.compress(full)),
    }
    for codec, body in chunks.items():
        assert orc_tail.decompress_stream(codec, block, _chunk(body) + _chunk(body)) == full + full, codec
