"""Every column type the kit models in every role, in tables Java Paimon 0.9.0, 1.0, 1.2.0 and 2.0.0 wrote and read.

The tables are written at test time (conformance/support/java_matrix.py: one JVM run per jar, cached
under build/java-matrix/). For each table and jar: the kit's validator, in-process and through
the CLI, finds nothing Java would reject (Java wrote the table and read it back), and the kit's
reader returns the rows Java's reader returned. Where Java itself refuses a (type, role) the
case is skipped with Java's message; the refusals, and the rows Java does not read back as
written, are pinned below so a change in either jar is noticed.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import background
from support import java_matrix as jm
from support.environment import ROOT, require
from support.jobs import java_matrix_job

from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.schema import read_schema
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

pytestmark = pytest.mark.java

CASES = jm.matrix_cases()
PARAMS = [pytest.param(v, c["name"], id=f"{v}/{c['name']}") for v in jm.VERSIONS for c in CASES]
DECIMALS = ("decimal-5-2", "decimal-18-4", "decimal-38-10")
INT96 = ("timestamp-9", "timestamp-9-with-local-time-zone")
FILE_INDEX = ("file-index", "file-index-embedded")

OLD_JARS = ("0.9.0", "1.0-SNAPSHOT")  # before 1.1: no bitmap index on BOOLEAN
FLOAT_KEYS_FIXED = "2.0.0"  # the first release of the matrix that keeps every FLOAT / DOUBLE key
INT96_FIXED = (1, 3)  # the first release line whose Parquet INT96 writer keeps pre-1970 sub-millisecond values


def _line(version: str) -> tuple[int, int]:
    """A release's line as numbers (1.0-SNAPSHOT -> (1, 0))."""
    major, minor = version.split("-")[0].split(".")[:2]
    return int(major), int(minor)


BINARIES = ("binary-4", "varbinary-10", "bytes")


def known_refusals(version: str) -> dict[tuple[str, str], str]:
    """(role, type slug) -> what Java says, for the cases the jar of `version` neither writes nor reads back."""
    refusals = {
        **{
            (role, t): "the bloom filter and the bitmap index both refuse the type"
            for role in FILE_INDEX
            for t in DECIMALS
        },
        # the partition path holds byte[].toString() (k=%5BB@<identity hash>): Java cannot find its own file
        **{("partition", t): "FileNotFoundException" for t in BINARIES},
        # "Avro does not support TIMESTAMP type with precision: 9" (AvroSchemaConverter, at create)
        **{("value-avro", t): "IllegalArgumentException" for t in INT96},
    }
    if version in OLD_JARS:
        refusals.update(
            {(role, "boolean"): "the bloom filter and the bitmap index both refuse the type" for role in FILE_INDEX}
        )
    if version == "1.2.0":
        # the second write looks the key up in 1.2.0's sort lookup store, whose comparator casts byte[] to Comparable
        refusals.update({("pk", t): "ClassCastException" for t in BINARIES})
    return refusals


def known_fallbacks(version: str) -> dict[tuple[str, str], str]:
    """Cases the jar of `version` writes only with a later variant of the case (the first attempt failed).

    Before 1.3 Java's Parquet INT96 writer (TIMESTAMP(7..9)) truncates the day division, so a value before 1970
    that is not at midnight gets a negative nano-of-day and Java's reader fails on it (Timestamp.fromEpochMillis);
    those values are left out (run: 1.3.1 and 1.4.2 in test_timestamp_zones_java, 2.0.0 here). From 1.1 a file
    index on BOOLEAN is a bitmap only (the bloom filter refuses it), and on the binary types a bloom filter only
    (the bitmap refuses them)."""
    fallbacks = {}
    if _line(version) < INT96_FIXED:
        fallbacks.update(
            {
                (role, t): "values Java's INT96 round trip survives"
                for role in ("pk", "bucket-key", "value")
                for t in INT96
            }
        )
        fallbacks.update(
            {
                (role, t): "bloom filter and bitmap, values Java's INT96 round trip survives"
                for role in FILE_INDEX
                for t in INT96
            }
        )
    if version not in OLD_JARS:
        fallbacks.update({(role, "boolean"): "bitmap only" for role in FILE_INDEX})
        fallbacks.update({(role, t): "bloom filter only" for role in FILE_INDEX for t in BINARIES})
    return fallbacks


# cases whose rows Java reads back other than they were written (Java is still the reference)
ORC_TIMESTAMPS = ("timestamp-0", "timestamp-3", "timestamp-6", "timestamp-9")


def known_java_round_trip(version: str) -> dict[tuple[str, str], str]:
    """Cases whose rows the jar of `version` reads back other than they were written (Java is still the reference)."""
    differ = {
        # ORC: java.sql.Timestamp's Julian calendar before 1582, and ORC's one-second error between -1 s and 0
        **{("value-orc", t): "timestamps shifted" for t in ORC_TIMESTAMPS},
        **{("value-orc", f"{t}-with-local-time-zone"): "timestamps shifted" for t in ORC_TIMESTAMPS[1:]},
        # ORC CHAR(n) reads back right-trimmed: " " -> ""
        ("value-orc", "char-5"): "trailing spaces trimmed",
    }
    if version != FLOAT_KEYS_FIXED:
        # deletes / upserts of float keys: DOUBLE -0.0 and 0.0 are one key, the FLOAT key -Infinity is lost
        differ.update({("pk", "float"): "a row missing", ("pk", "double"): "a row missing"})
    return differ


@pytest.fixture(scope="module")
def matrices():
    """jm.build per jar, once per run (started beside the first tests: conftest; the build is cached on disk)."""
    require("javac")
    require("java")
    return background.result("java-matrix", java_matrix_job).__getitem__


def _key(name: str) -> tuple[str, str]:
    role, _, t = name.partition(".")
    return role, t


def _written(matrices, version: str, name: str) -> jm.Table | None:
    """The table Java wrote for a cell, or None when Java refused it (the refusals are pinned in
    test_java_refuses_only_the_known_cases; nothing else to check, and not a skip)."""
    t = matrices(version).tables[name]
    return None if t.refused else t


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_one_jvm_run_writes_the_matrix(matrices, version):
    """One run per jar writes every cell; its wall time is kept in complete.json and printed (a figure, not an
    assertion: a loaded machine is no fault of the writer)."""
    m = matrices(version)
    assert len(m.tables) == len(jm.TYPES) * len(jm.ROLES)
    print(f"the Java {version} matrix run took {m.seconds} s")


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_java_refuses_only_the_known_cases(matrices, version):
    m = matrices(version)
    refused = {_key(n): t.refused for n, t in m.tables.items() if t.refused}
    assert set(refused) == set(known_refusals(version)), refused
    for key, why in known_refusals(version).items():
        if " " not in why:  # an exception's name: Java's message names it
            assert why in refused[key], (key, refused[key])
    fallbacks = {_key(n): t.variant["label"] for n, t in m.tables.items() if not t.refused and t.report.get("attempt")}
    assert fallbacks == known_fallbacks(version)


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_java_reads_back_what_it_wrote_except_the_known_cases(matrices, version):
    import golden_java_tables as gjt

    differ = set()
    for name, t in matrices(version).tables.items():
        if t.refused:
            continue
        want = sorted(map(gjt._canonical, gjt.model_rows(t.written_case())))
        if want != sorted(map(gjt._canonical, t.java_rows())):
            differ.add(_key(name))
    assert differ == set(known_java_round_trip(version))


def _must_lines(results) -> list[str]:
    return [f.line() for r in results for f in r.findings if f.severity == "must"] + [
        f"{r.file}: UNUSABLE {r.unusable}" for r in results if r.unusable
    ]


@pytest.mark.parametrize(("version", "name"), PARAMS)
def test_validator_finds_nothing_java_would_reject(matrices, version, name):
    t = _written(matrices, version, name)
    if t is None:
        return
    results = validate_table(t.root)
    must = _must_lines(results)
    assert not must, f"{len(must)} must finding(s):\n" + "\n".join(must[:12])


def _cli() -> list[str]:
    script = Path(sys.executable).parent / "paimon-conform"
    if not script.is_file():
        script = ROOT / ".venv" / "bin" / "paimon-conform"
    return [str(script)]


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_cli_validates_every_table_without_crashing(matrices, version):
    """The console script over all of a jar's tables at once (one process): exit 0 or 1, whole JSON, every table
    reported, no traceback."""
    roots = [t.root for t in matrices(version).tables.values() if not t.refused]
    done = subprocess.run(
        [*_cli(), "validate", *map(str, roots), "--report", "json"], capture_output=True, text=True, timeout=1800
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "internal error" not in done.stderr, done.stderr[-3000:]
    assert done.returncode in (0, 1), f"exit {done.returncode}: {done.stderr[-2000:]}{done.stdout[-2000:]}"
    report = json.loads(done.stdout)
    assert report["exit_code"] == done.returncode
    reported = {f["file"] for f in report["files"] if f["kind"] == "table"}
    assert reported == {str(r) for r in roots}


def _canonical(rows: list[list]) -> list[str]:
    return sorted(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows)


@pytest.mark.parametrize(("version", "name"), PARAMS)
def test_reader_returns_javas_rows(matrices, version, name):
    t = _written(matrices, version, name)
    if t is None:
        return
    schema, rows = read_latest(t.root)
    ours = _canonical(logical_rows(schema, rows))
    javas = _canonical(t.java_rows())
    if ours != javas:
        only_ours = sorted(set(ours) - set(javas))[:6]
        only_javas = sorted(set(javas) - set(ours))[:6]
        pytest.fail(
            f"{len(ours)} rows, Java {len(javas)}; only ours: {only_ours}; only Java's: {only_javas}",
        )


def _at_spark_precision(schema, rows: list[list]) -> list[list]:
    """Java's rows as Spark can hold them: TIMESTAMP(7..9) floored to microseconds (the logical form prints the
    nano-of-second, which is never negative, so flooring drops its last three digits)."""
    stamps = ("TIMESTAMP", "TIMESTAMP_LTZ")
    fine = [i for i, f in enumerate(schema.fields) if f.type.root in stamps and f.type.timestamp_precision > 6]
    out = []
    for row in rows:
        row = list(row)
        for i in fine:
            if row[i] is not None:
                row[i] = row[i][:-3] + "000"
        out.append(row)
    return out


@pytest.mark.spark
@pytest.mark.parametrize("name", [c["name"] for c in CASES])
def test_spark_source_returns_javas_rows(matrices, spark, name):
    """`spark.read.format("paimon")` over the tables Java 1.0-SNAPSHOT wrote returns Java's rows (at Spark's
    microsecond precision), every type in every role."""
    t = _written(matrices, "1.0-SNAPSHOT", name)
    if t is None:
        return
    schema = read_schema(t.root)
    ours = _canonical(logical_rows(schema, spark.read.format("paimon").load(str(t.root)).toArrow()))
    javas = _canonical(_at_spark_precision(schema, t.java_rows()))
    assert ours == javas, (sorted(set(ours) - set(javas))[:4], sorted(set(javas) - set(ours))[:4])
