"""The reference testees (tools/testees/reference.json) as the suite's one way to drive another implementation:
a protocol session per testee, and the table operations the tests ask of them."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from paimon_conform.table.schema import read_schema
from paimon_conform.testee.matrix import load_testees
from paimon_conform.testee.process import Session
from paimon_conform.testee.tables import CUSTOM
from support.environment import ROOT

REFERENCE = ROOT / "tools" / "testees" / "reference.json"
MATRIX_LIST = ROOT / "tools" / "testees" / "failures" / "matrix.txt"
TIMEOUT = 300.0  # seconds per exchange: guards a hang, never judges speed


@cache
def commands() -> dict[str, list[str]]:
    """Each reference testee's command line, by name."""
    return dict(load_testees(REFERENCE))


def session(name: str) -> Session:
    """A session of one reference testee (started on first use; close it)."""
    return Session(commands()[name], TIMEOUT)


@contextmanager
def opened(name: str) -> Iterator[Session]:
    """A session of one reference testee, closed on leaving."""
    s = session(name)
    try:
        yield s
    finally:
        s.close()


def table_fields(path: Path, columns: list[str] | None = None) -> list[dict[str, Any]]:
    """The protocol fields of `columns` of a table (default all, in schema order), their types from its latest
    schema."""
    types = {f.name: str(f.type) for f in read_schema(path).fields}
    return [{"name": c, "type": types[c]} for c in columns or types]


def read_request(path: Path | str, fields: list[dict[str, Any]], probe: list[str] | None = None, **more: Any) -> dict:
    """A read-table request of a table's `fields`; with `probe` (columns, possibly none) the probing read of a
    testee that declares it (the Java testees: file and deletion-vector counts, row kinds, filtered reads)."""
    request: dict[str, Any] = {"op": "read-table", "kind": "table", "path": str(path), "fields": fields}
    return request if probe is None else {**request, "probe": probe, **more}


def write_request(path: Path | str, table: dict[str, Any], commits: list[list[list[Any]]]) -> dict:
    """A write-table request of a table the request describes in full (kind custom)."""
    return {"op": "write-table", "kind": CUSTOM, "path": str(path), "table": table, "commits": commits}


def read_reply(name: str, path: Path, columns: list[str] | None = None, probe: list[str] | None = None) -> tuple:
    """(reply, why) of testee `name`'s read-table of a table: `columns` (default all, in schema order), probing
    with `probe` (read_request)."""
    with opened(name) as s:
        return s.exchange(read_request(path, table_fields(path, columns), probe), "read_table_reply")


def read_replies(name: str, paths: list[Path]) -> list[tuple]:
    """(reply, why) of testee `name`'s read-table of each table (every column), all in one session."""
    with opened(name) as s:
        return [s.exchange(read_request(p, table_fields(p)), "read_table_reply") for p in paths]


def read_rows(name: str, path: Path, columns: list[str] | None = None) -> list[list[Any]]:
    """The rows testee `name` reads from a table (its read-table), in logical JSON; AssertionError when it fails."""
    reply, why = read_reply(name, path, columns)
    assert reply is not None, f"{name} cannot read {path}: {why}"
    return reply["rows"]


def write_table(name: str, path: Path, table: dict[str, Any], commits: list[list[list[Any]]]) -> None:
    """A table written by testee `name` (its write-table, kind custom); AssertionError when it fails."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with opened(name) as s:
        reply, why = s.exchange(write_request(path, table, commits), "write_table_reply")
    assert reply is not None, f"{name} cannot write {path}: {why}"


def run_matrix(out: Path) -> subprocess.CompletedProcess:
    """`paimon-conform matrix --failure-list <matrix list> -o OUT` as a user runs it (from the checkout)."""
    command = [sys.executable, "-m", "paimon_conform.cli", "matrix", "--failure-list", str(MATRIX_LIST), "-o", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=1200, cwd=ROOT, check=False)


TESTEES = ROOT / "tools" / "testees"
JAVA_OPS = frozenset({"decode", "encode", "hash", "query", "read-table", "write-table"})
TABLE_OPS = frozenset({"read-table", "write-table"})


def reference_runs_listed() -> dict[str, tuple[list[str], str, frozenset[str]]]:
    """Each reference testee `paimon-conform testee` runs over every case: (command, failure list, operations
    that must have passing cases). Java of every release in tools/java/releases.tsv and the 1.0-SNAPSHOT jar,
    pypaimon, pypaimon-rust, Paimon's Spark connector."""
    import java_releases

    return {
        **{
            f"java-{v}": ([str(TESTEES / "java_paimon.py"), v], f"java-{v}.txt", JAVA_OPS)
            for v in (*java_releases.releases(), "1.0-SNAPSHOT")
        },
        "pypaimon": ([str(TESTEES / "pypaimon_testee.py")], "pypaimon.txt", frozenset({"hash", "write-table"})),
        "pypaimon-rust": ([str(TESTEES / "rust_testee.py")], "rust.txt", frozenset({"read-table", "write-table"})),
        **{
            f"paimon-spark-{v}": ([str(TESTEES / "paimon_spark.py"), v], f"paimon-spark-{v}.txt", TABLE_OPS)
            for v in java_releases.connectors()
        },
    }


def reference_run(name: str, out: Path) -> tuple[subprocess.CompletedProcess, dict]:
    """`paimon-conform testee --failure-list <its list> --report json` over one reference testee, as a user runs
    it: the process and its JSON report ({} when it wrote none)."""
    command, listing, _ = reference_runs_listed()[name]
    report = out / f"{name}.json"
    cli = [sys.executable, "-m", "paimon_conform.cli", "testee", "--failure-list", str(TESTEES / "failures" / listing)]
    done = subprocess.run(
        [*cli, "--report", "json", "-o", str(report), "--", sys.executable, *command],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=ROOT,
    )
    return done, (json.loads(report.read_text()) if report.is_file() else {})
