"""The crash sweep: the CLI over every table the suite built. Each test's own tables are swept as the test ends,
before its tmp_path goes (conftest's teardown hook); the tables of session fixtures by the last test
(test_zz_cli_on_built_tables); a test whose own harness already ran the validator on its tables with a crash
check (the adversarial suite, the peer matrix) hands them in with `checked` instead. A table may be valid, have
findings or be unusable (exit 0, 1, 2), but an internal error is a bug in the kit.

The last test also holds the sweep to the suite's own count (FLOORS): fewer tables from a module that ran in
full means tables went unswept (deleted before the sweep, or never found)."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

LAST = "test_every_table_the_suite_built_validates_without_a_crash"
SESSION = "(session fixtures)"  # tables of session- and module-scoped fixtures, swept by the last test
MAX_TABLES = 6000  # per directory swept

# Tables the sweep must see from each module when it runs in full: the counts of a full CI run (2026-11-28).
# Fixed by a module's cases and seeds, so the floor is the count; where Hypothesis draws the tables (session
# fixtures and test_table_fuzz: its examples; test_streaming, test_table_write_engine) about half of it.
# (test_java.py builds none: the tables it regenerates beside the first tests are compared with the table goldens
# byte for byte, and those the sweep sees from test_table_goldens.)
FLOORS: dict[str, int] = {
    SESSION: 110,
    "test_adversarial.py": 1100,
    "test_bench_table.py": 2,
    "test_blob_file.py": 7,
    "test_branches.py": 12,
    "test_budget.py": 2,
    "test_cli.py": 2,
    "test_concurrency.py": 35,
    "test_containment.py": 115,
    "test_external_corpus.py": 2,
    "test_fault_catalog.py": 39,
    "test_global_index.py": 23,
    "test_json_limits.py": 8,
    "test_manifest_schema.py": 4,
    "test_parquet_nan_statistics.py": 4,
    "test_read_damaged.py": 26,
    "test_retained_metadata.py": 21,
    "test_row_file.py": 5,
    "test_row_ids.py": 6,
    "test_spark_pipeline.py": 2,
    "test_spark_validate.py": 40,
    "test_streaming.py": 175,
    "test_table_peers.py": 50,
    "test_table_fuzz.py": 60,
    "test_table_reports.py": 11,
    "test_table_validate.py": 9,
    "test_table_write_engine.py": 5,
    "test_table_writer.py": 7,
    "test_tracebacks.py": 4,
    "test_type_matrix_peers.py": 850,
}

swept: Counter[str] = Counter()  # tables the CLI ran over (or a byte-identical copy of one), by test module
handed: Counter[str] = Counter()  # tables a test's own harness checked, by test module
identical: Counter[str] = Counter()  # of `swept`: byte-identical to a table already run (the CLI not run again)
spent: Counter[str] = Counter()  # seconds the sweep took, by test module (printed, never asserted)
_checked: set[str] = set()
_digests: set[bytes] = set()  # the tables the CLI ran over, by content (names, bytes, symlink targets)


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0].rsplit("/", 1)[-1]


def tables_under(base: Path) -> list[Path]:
    """Directories holding schema/ and snapshot/ (a table's root), symlinks not followed."""
    found = []
    for top, dirs, _ in os.walk(base, followlinks=False):
        if "schema" in dirs and "snapshot" in dirs:
            found.append(Path(top))
        dirs[:] = [d for d in dirs if d not in ("schema", "snapshot", "manifest", "index")]
        if len(found) >= MAX_TABLES:
            break
    return sorted(found)


def digest(table: Path) -> bytes:
    """A table's content: every name under it (relative), each file's bytes and each symlink's target, symlinks
    not followed; and its folder's name and whether its path is plain (printable ASCII, no space), so that a copy
    under an odd path is run again. Two tables with one digest are the same input to the CLI."""
    h = hashlib.blake2b(digest_size=20)
    text = str(table)
    plain = text.isascii() and text.isprintable() and " " not in text
    h.update(f"{table.name}\0{plain}\0".encode("utf-8", "surrogateescape"))
    for top, dirs, files in os.walk(table, followlinks=False):
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            path = os.path.join(top, name)
            h.update(os.path.relpath(path, table).encode("utf-8", "surrogateescape") + b"\0")
            if os.path.islink(path):
                h.update(b"link:" + os.readlink(path).encode("utf-8", "surrogateescape") + b"\0")
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    h.update(hashlib.file_digest(f, "blake2b").digest())
    return h.digest()


def checked(nodeid: str, tables: list[str | Path]) -> None:
    """A test's harness ran the validator on these tables and failed on an internal error: count them, and the
    teardown sweep does not run the CLI over them again."""
    _checked.update(str(Path(t)) for t in tables)
    handed[module_of(nodeid)] += len(tables)


def crash(table: Path, report: Path) -> str | None:
    """The CLI over one table: None when it ends as the CLI must (exit 0, 1 or 2, whole JSON report), else what
    went wrong."""
    from paimon_conform import cli

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(["validate", str(table), "--report", "json", "-o", str(report)])
        except BaseException as exc:  # noqa: BLE001 - anything escaping the CLI is the crash recorded
            return f"{table}: {type(exc).__name__}: {exc}"
    text = err.getvalue()
    if code not in (0, 1, 2) or "internal error" in text or "Traceback" in text:
        return f"{table}: exit {code}: {text.strip()[-500:]}"
    if code in (0, 1):
        try:
            json.loads(report.read_text())
        except ValueError as exc:
            return f"{table}: the JSON report is not whole: {exc}"
    return None


def sweep(owner: str, base: Path) -> list[str]:
    """Every table under `base` not handed in, through the CLI, counted for `owner` (a test module, or SESSION);
    the crashes."""
    tables = [t for t in tables_under(base) if str(t) not in _checked]
    if not tables:
        return []
    crashes = []
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="sweep-") as scratch:
        report = Path(scratch) / "r.json"
        for table in tables:
            swept[owner] += 1
            key = digest(table)
            if key in _digests:
                identical[owner] += 1
                continue
            problem = crash(table, report)
            _digests.add(key)
            if problem:
                crashes.append(problem)
    spent[owner] += time.monotonic() - t0
    return crashes


def sweep_test(nodeid: str, tmp_path: Path) -> list[str]:
    """The tables one test built in its tmp_path (called before pytest removes it)."""
    return sweep(module_of(nodeid), tmp_path) if tmp_path.is_dir() else []


def short_by_floor(ran_in_full: set[str]) -> list[str]:
    """Modules (and SESSION, when every module ran in full) that left fewer tables to the sweep than their
    floor."""
    seen = swept + handed
    return [f"{m}: {seen[m]} tables, floor {n}" for m, n in sorted(FLOORS.items()) if m in ran_in_full and seen[m] < n]
