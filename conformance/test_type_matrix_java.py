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

import pytest
from support import background
from support import java_matrix as jm
from support import java_matrix_pins as pins
from support.environment import require
from support.jobs import java_matrix_job

from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.schema import read_schema
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

pytestmark = pytest.mark.java

CASES = jm.matrix_cases()
PARAMS = [pytest.param(v, c["name"], id=f"{v}/{c['name']}") for v in jm.VERSIONS for c in CASES]


@pytest.fixture(scope="module")
def matrices():
    """jm.build per jar, once per run (started beside the first tests: conftest; the build is cached on disk)."""
    require("javac")
    require("java")
    return background.result("java-matrix", java_matrix_job).__getitem__


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
    refused = {pins.key(n): t.refused for n, t in m.tables.items() if t.refused}
    assert set(refused) == set(pins.known_refusals(version)), refused
    for key, why in pins.known_refusals(version).items():
        if " " not in why:  # an exception's name: Java's message names it
            assert why in refused[key], (key, refused[key])
    fallbacks = {
        pins.key(n): t.variant["label"] for n, t in m.tables.items() if not t.refused and t.report.get("attempt")
    }
    assert fallbacks == pins.known_fallbacks(version)


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_java_reads_back_what_it_wrote_except_the_known_cases(matrices, version):
    import golden_java_tables as gjt

    differ = set()
    for name, t in matrices(version).tables.items():
        if t.refused:
            continue
        want = sorted(map(gjt._canonical, gjt.model_rows(t.written_case())))
        if want != sorted(map(gjt._canonical, t.java_rows())):
            differ.add(pins.key(name))
    assert differ == set(pins.known_java_round_trip(version))


@pytest.mark.parametrize(("version", "name"), PARAMS)
def test_validator_finds_nothing_java_would_reject(matrices, version, name):
    t = _written(matrices, version, name)
    if t is None:
        return
    results = validate_table(t.root)
    must = pins.must_lines(results)
    assert not must, f"{len(must)} must finding(s):\n" + "\n".join(must[:12])


@pytest.mark.parametrize("version", jm.VERSIONS)
def test_cli_validates_every_table_without_crashing(matrices, version):
    """The console script over all of a jar's tables at once (one process): exit 0 or 1, whole JSON, every table
    reported, no traceback."""
    roots = [t.root for t in matrices(version).tables.values() if not t.refused]
    done = subprocess.run(
        [*pins.cli(), "validate", *map(str, roots), "--report", "json"], capture_output=True, text=True, timeout=1800
    )
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    assert "internal error" not in done.stderr, done.stderr[-3000:]
    assert done.returncode in (0, 1), f"exit {done.returncode}: {done.stderr[-2000:]}{done.stdout[-2000:]}"
    report = json.loads(done.stdout)
    assert report["exit_code"] == done.returncode
    reported = {f["file"] for f in report["files"] if f["kind"] == "table"}
    assert reported == {str(r) for r in roots}


@pytest.mark.parametrize(("version", "name"), PARAMS)
def test_reader_returns_javas_rows(matrices, version, name):
    t = _written(matrices, version, name)
    if t is None:
        return
    schema, rows = read_latest(t.root)
    ours = pins.canonical(logical_rows(schema, rows))
    javas = pins.canonical(t.java_rows())
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
    ours = pins.canonical(logical_rows(schema, spark.read.format("paimon").load(str(t.root)).toArrow()))
    javas = pins.canonical(_at_spark_precision(schema, t.java_rows()))
    assert ours == javas, (sorted(set(ours) - set(javas))[:4], sorted(set(javas) - set(ours))[:4])
