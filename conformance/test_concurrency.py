"""Concurrent writers on one table: forced interleavings and killed writers.

Writers run in separate processes (this file, run as `python test_concurrency.py worker`)
through the plain write engine (write.prepare, write.write_task, commit.commit). Each
holds at every step: `begin` (before planning), `planned` (data files written), then
every step commit.py names through its `step` hook (`append`, `compact`, `hints`,
`discard`, ...). The test releases one writer at a time and waits for its next step, so a
schedule is an exact interleaving, chosen by hand or from a fixed seed; a writer held at a
step may instead be killed with SIGKILL. After each scenario the table must validate
without a must-level finding (orphans of killed writers are warnings), read back as the
rows of exactly the writes that landed (each writer has its own keys, so that is well
defined), and take a further write, after which the rows of a write whose APPEND landed
without its COMPACT are visible too (deletion-vector tables).
"""

from __future__ import annotations

import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from paimon_conform.table.read.reader import read_latest
from paimon_conform.table.schema import read_schema
from paimon_conform.table.state import latest_state
from paimon_conform.table.validate.directories import is_temp_name
from paimon_conform.table.validate.table import validate_table
from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write

EVIDENCE = ("kit", "contract")

SCHEMA = pa.schema([("id", pa.int64()), ("dt", pa.string()), ("v", pa.float64()), ("op", pa.string())])
KINDS: dict[str, dict[str, str]] = {
    "append": {"partition": "dt", "bucket": "-1"},
    "pk": {"primary-key": "dt,id", "partition": "dt", "bucket": "2", "rowkind.field": "op"},
    "dv": {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": "2",
        "rowkind.field": "op",
        "deletion-vectors.enabled": "true",
    },
    "dynamic": {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": "-1",
        "rowkind.field": "op",
        "dynamic-bucket.target-row-num": "5",
    },
}
TIMEOUT = 60  # seconds a writer may take to reach its next step: a safety net, not a synchronisation
# what a killed or losing writer may leave (killed between its APPEND and its COMPACT snapshot: level-0 rows of a
# deletion-vector table, which batch reads skip until a compaction, as with a Java writer stopped there)
ORPHAN_CODES = {"TABLE_UNREFERENCED_FILE", "SNAPSHOT_HINT", "TABLE_DV_LEVEL0_ROWS"}
BASE_KEYS = 12  # keys 0..11 in the table before the writers start (dt a / b by parity)


# ---------------------------------------------------------------- the writer process


def _worker() -> None:
    """Serve writes, one JSON command a line on stdin; hold at every step until told `go`."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    sys.stdout = sys.stderr  # the protocol owns the real stdout

    def hold(name: str, **extra: Any) -> None:
        out.write(json.dumps({"at": name} | extra) + "\n")
        if sys.stdin.readline().strip() != "go":
            os._exit(3)

    commit.step = hold
    for line in sys.stdin:
        cmd = json.loads(line)
        try:
            hold("begin")
            plan = write.prepare(cmd["root"], SCHEMA, cmd["options"], cmd.get("overwrite", False))
            rows = pa.Table.from_pylist([dict(zip(SCHEMA.names, r, strict=True)) for r in cmd["rows"]], SCHEMA)
            result = write.write_task(plan, rows.to_batches(), 0)
            hold("planned", user=plan.commit_user, files=[f.record["_FILE_NAME"] for f in result.files])
            ids = commit.commit(plan, [result])
            out.write(json.dumps({"done": ids}) + "\n")
        except commit.CommitConflict as exc:
            out.write(json.dumps({"error": "CommitConflict", "message": str(exc)}) + "\n")
        except Exception as exc:  # noqa: BLE001 - any other failure goes to the test, which fails on it
            out.write(json.dumps({"error": type(exc).__name__, "message": str(exc)}) + "\n")


class Writer:
    """One writer process, driven step by step."""

    def __init__(self, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log.open("w"),
            text=True,
            bufsize=1,
        )
        self.events: queue.Queue[dict | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.pending: dict | None = None  # the step it is held at, or its result

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.events.put(json.loads(line))
        self.events.put(None)

    def _next(self) -> dict:
        try:
            event = self.events.get(timeout=TIMEOUT)
        except queue.Empty:
            event = None
        if event is None:
            raise AssertionError(f"writer {self.proc.pid} stopped or hung; its log:\n{self.log.read_text()[-3000:]}")
        return event

    def submit(self, root: Path, options: dict[str, str], rows: list[tuple]) -> dict:
        """Start a write; the first step it holds at (`begin`)."""
        self.proc.stdin.write(json.dumps({"root": str(root), "options": options, "rows": rows}) + "\n")
        self.proc.stdin.flush()
        self.pending = self._next()
        return self.pending

    def go(self) -> dict:
        """Release it from its step; the next step it holds at, or its result."""
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        self.pending = self._next()
        return self.pending

    def until(self, step: str) -> dict:
        """Release it step by step until it holds at `step`."""
        while self.pending.get("at") != step:
            assert "at" in self.pending, f"ended before {step}: {self.pending}"
            self.go()
        return self.pending

    def finish(self) -> dict:
        """Release it until the write ends; its result."""
        while "at" in self.pending:
            self.go()
        return self.pending

    def kill(self) -> None:
        """SIGKILL, wherever it is held."""
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=TIMEOUT)


class Pool:
    """Writer processes, started ahead (their imports overlap the test's own work)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.spare: list[Writer] = []
        self.all: list[Writer] = []

    def _start(self) -> Writer:
        w = Writer(self.folder / f"writer-{len(self.all)}.log")
        self.all.append(w)
        return w

    def take(self, n: int) -> list[Writer]:
        while len(self.spare) < n + 3:
            self.spare.append(self._start())
        out, self.spare = self.spare[:n], self.spare[n:]
        return out

    def give_back(self, writers: list[Writer]) -> None:
        self.spare += [w for w in writers if w.proc.poll() is None]

    def close(self) -> None:
        for w in self.all:
            if w.proc.poll() is None:
                w.proc.kill()
                w.proc.wait()


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    p = Pool(tmp_path_factory.mktemp("writers"))
    yield p
    p.close()


# ---------------------------------------------------------------- writes and what they must leave


@dataclass
class Write:
    """One writer's rows: its own new keys, and (primary-key tables) upserts and deletes of its own base keys."""

    rows: list[tuple]
    model: dict = field(default_factory=dict)  # (dt, id) -> v it sets; None: deleted

    @staticmethod
    def make(index: int, kind: str, inserts: int = 6) -> Write:
        value = float(index + 1)
        rows, model = [], {}
        for i in range(inserts):
            key = 1000 * (index + 1) + i
            dt = "ab"[i % 2]
            rows.append((key, dt, value, "+I"))
            model[(dt, key)] = value
        if kind != "append" and index < BASE_KEYS // 2:  # base keys 2i and 2i+1 are this writer's
            up, gone = 2 * index, 2 * index + 1
            rows += [(up, "ab"[up % 2], 100 + value, "+U"), (gone, "ab"[gone % 2], 0.0, "-D")]
            model[("ab"[up % 2], up)] = 100 + value
            model[("ab"[gone % 2], gone)] = None
        return Write(rows, model)


def base_rows() -> list[tuple]:
    return [(k, "ab"[k % 2], 0.0, "+I") for k in range(BASE_KEYS)]


def write_here(root: Path, options: dict[str, str], rows: list[tuple]) -> list[int]:
    """A write in this process (no held steps)."""
    plan = write.prepare(root, SCHEMA, options, False)
    table = pa.Table.from_pylist([dict(zip(SCHEMA.names, r, strict=True)) for r in rows], SCHEMA)
    return commit.commit(plan, [write.write_task(plan, table.to_batches(), 0)])


def expected(writes: list[Write], kind: str) -> list[tuple]:
    """The rows the table must hold after the base and `writes` landed: (dt, id, v), sorted."""
    model: dict = {("ab"[k % 2], k): 0.0 for k in range(BASE_KEYS)}
    for w in writes:
        model.update(w.model)
    return sorted((dt, key, v) for (dt, key), v in model.items() if v is not None)


def table_rows(root: Path) -> list[tuple]:
    _, rows = read_latest(root)
    return sorted((r["dt"], r["id"], r["v"]) for r in rows.to_pylist())


def assert_clean(root: Path) -> None:
    """No must-level finding; what else it says is about orphans (killed or losing writers)."""
    results = validate_table(root)
    assert [r.unusable for r in results if r.unusable] == []
    found = [f for r in results for f in r.findings]
    assert [f.line() for f in found if f.severity == "must"] == []
    assert {f.code for f in found} <= ORPHAN_CODES, [f.line() for f in found if f.code not in ORPHAN_CODES]


def level0_files(root: Path) -> set[str]:
    return {e.file.file_name for e in latest_state(root, read_schema(root)).live if e.file.level == 0}


def commit_users(root: Path) -> set[str]:
    return {json.loads(p.read_text())["commitUser"] for p in (root / "snapshot").glob("snapshot-*")}


def new_table(tmp_path: Path, kind: str) -> tuple[Path, dict[str, str]]:
    root = tmp_path / kind
    options = KINDS[kind]
    write_here(root, options, base_rows())
    return root, options


def settle(root: Path, options: dict[str, str], kind: str, landed: list[Write]) -> None:
    """A further write, into a partition no writer touched: it succeeds, and then every landed write is visible."""
    extra = Write([(9999, "z", 9.0, "+I")], {("z", 9999): 9.0})
    assert write_here(root, options, extra.rows)
    assert table_rows(root) == expected([*landed, extra], kind)
    if kind == "dv":
        assert level0_files(root) == set()
    assert_clean(root)


# ---------------------------------------------------------------- forced interleavings


@pytest.mark.parametrize("hold", ["append", "published"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_writer_that_loses_the_race_keeps_its_published_snapshot(pool, tmp_path, kind, hold):
    """W1 and W2 plan on the same base. W1 holds before publishing its APPEND (`append`), or after it (before
    its COMPACT, in a deletion-vector table: the campaign's corrupted table); W2 commits; W1 goes on. Both
    land (W1 retries on the new base where W2 took the snapshot id it wanted), and no file a published
    snapshot refers to is removed."""
    root, options = new_table(tmp_path, kind)
    w1, w2 = pool.take(2)
    writes = [Write.make(0, kind), Write.make(1, kind)]
    users = set()
    for w, data in zip((w1, w2), writes, strict=True):
        w.submit(root, options, data.rows)
        users.add(w.until("planned")["user"])
    w1.until(hold if hold == "append" else "compact" if kind == "dv" else "hints")
    assert w2.finish().get("done"), w2.pending
    assert w1.finish().get("done"), w1.pending
    assert users <= commit_users(root)
    assert table_rows(root) == expected(writes, kind)
    assert_clean(root)
    if kind == "dv":
        assert level0_files(root) == set()
    settle(root, options, kind, writes)
    pool.give_back([w1, w2])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_writer_killed_after_its_append_lands(pool, tmp_path, kind):
    """Killed between its APPEND and the next step (a deletion-vector writer: before its COMPACT). The table is
    readable and valid; a deletion-vector table shows the write's rows (upserts and deletes too) once the next
    write, into other buckets, compacts what the killed writer left at level 0."""
    root, options = new_table(tmp_path, kind)
    (w1,) = pool.take(1)
    killed = Write.make(0, kind)
    w1.submit(root, options, killed.rows)
    w1.until("compact" if kind == "dv" else "hints")
    w1.kill()
    assert_clean(root)
    if kind == "dv":
        assert level0_files(root)  # the APPEND landed uncompacted: invisible to the batch scan, as in Java
        assert table_rows(root) == expected([], kind)
    else:
        assert table_rows(root) == expected([killed], kind)
    settle(root, options, kind, [killed])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_writer_killed_before_its_append_lands(pool, tmp_path, kind):
    """Killed with its data and manifest files written but its snapshot not published: none of its rows appear,
    its files are orphans (warnings), and the next write succeeds."""
    root, options = new_table(tmp_path, kind)
    (w1,) = pool.take(1)
    lost = Write.make(0, kind)
    w1.submit(root, options, lost.rows)
    w1.until("append")
    w1.kill()
    assert table_rows(root) == expected([], kind)
    assert_clean(root)
    settle(root, options, kind, [])


# ---------------------------------------------------------------- seeded schedules with kills


SEEDS = [11, 23, 37]
KILL_STEPS = ["planned", "append", "hints", "compact", "discard"]


@dataclass
class Run:
    """One writer in a seeded schedule."""

    writer: Writer
    data: Write
    kill_at: tuple[str, int] | None  # kill it when it holds at the n-th time at this step
    steps: list[str] = field(default_factory=list)
    user: str | None = None
    files: list[str] = field(default_factory=list)
    outcome: str = "running"  # done, conflict, killed


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_seeded_schedules_with_kills(pool, tmp_path, kind, seed):
    """Three writers released one step at a time in a seeded order, some killed at seeded steps."""
    rng = random.Random(f"{kind}-{seed}")
    root, options = new_table(tmp_path, kind)
    runs = []
    for i, w in enumerate(pool.take(3)):
        kill_at = (rng.choice(KILL_STEPS), rng.choice([1, 2])) if rng.random() < 0.6 else None
        runs.append(Run(w, Write.make(i, kind), kill_at))
    for r in runs:
        r.steps.append(r.writer.submit(root, options, r.data.rows)["at"])
    while any(r.outcome == "running" for r in runs):
        r = rng.choice([r for r in runs if r.outcome == "running"])
        if r.kill_at is not None and r.steps[-1] == r.kill_at[0] and r.steps.count(r.kill_at[0]) == r.kill_at[1]:
            r.writer.kill()
            r.outcome = "killed"
            continue
        event = r.writer.go()
        if "at" in event:
            r.steps.append(event["at"])
            r.user = event.get("user", r.user)
            r.files = event.get("files", r.files)
        elif event.get("done") is not None:
            r.outcome = "done"
        else:
            assert event.get("error") == "CommitConflict", event
            r.outcome = "conflict"
    print(f"seed {seed} ({kind}):", [(r.outcome, r.kill_at, r.steps) for r in runs])
    # a write landed when its APPEND was published: it reached `hints` (the step after a publish)
    landed = [r for r in runs if "hints" in r.steps]
    assert all(r in landed for r in runs if r.outcome == "done")
    assert not any(r in landed for r in runs if r.outcome == "conflict")
    assert {r.user for r in landed} <= commit_users(root)
    assert not {r.user for r in runs if r not in landed} & commit_users(root)
    assert_clean(root)
    rows = table_rows(root)
    assert not [k for k, n in Counter((dt, key) for dt, key, _ in rows).items() if n > 1]
    if kind == "dv":  # a landed write is visible once its level-0 files are compacted
        waiting = level0_files(root)
        assert rows == expected([r.data for r in landed if not waiting & set(r.files)], kind)
    else:
        assert rows == expected([r.data for r in landed], kind)
    settle(root, options, kind, [r.data for r in landed])
    pool.give_back([r.writer for r in runs])


# ---------------------------------------------------------------- in one process


def test_a_stale_append_is_retried_on_the_new_base_as_java_does(tmp_path):
    """Planned on snapshot 1, committed after another write made snapshot 2: it lands as snapshot 3."""
    root, options = new_table(tmp_path, "pk")
    late = write.prepare(root, SCHEMA, options, False)
    rows = pa.Table.from_pylist([{"id": 500, "dt": "a", "v": 5.0, "op": "+I"}], SCHEMA)
    result = write.write_task(late, rows.to_batches(), 0)
    write_here(root, options, [(600, "b", 6.0, "+I")])
    assert commit.commit(late, [result]) == [3]
    extra = [Write([], {("a", 500): 5.0, ("b", 600): 6.0})]
    assert table_rows(root) == expected(extra, "pk")
    assert_clean(root)


def test_without_retries_a_commit_that_loses_the_race_fails_cleanly(tmp_path, monkeypatch):
    """commit.max-retries = 0: a commit whose snapshot id another writer takes while it holds before publishing
    fails with CommitConflict and removes every file it wrote; the other writer's snapshot is intact."""
    root = tmp_path / "t"
    options = KINDS["pk"] | {"commit.max-retries": "0"}
    write_here(root, options, base_rows())
    late = write.prepare(root, SCHEMA, options, False)
    rows = pa.Table.from_pylist([{"id": 500, "dt": "a", "v": 5.0, "op": "+I"}], SCHEMA)
    result = write.write_task(late, rows.to_batches(), 0)

    quiet = commit.step

    def race(name: str) -> None:
        if name == "append":  # another writer commits while this one holds before publishing
            monkeypatch.setattr(commit, "step", quiet)
            write_here(root, options, [(600, "b", 6.0, "+I")])

    monkeypatch.setattr(commit, "step", race)
    with pytest.raises(commit.CommitConflict, match="max-retries"):
        commit.commit(late, [result])
    assert not (root / result.files[0].relative).exists()
    assert [f.line() for r in validate_table(root) for f in r.findings] == []  # no orphan either
    assert table_rows(root) == expected([Write([], {("b", 600): 6.0})], "pk")


def test_a_failure_after_the_append_landed_keeps_its_files(tmp_path, monkeypatch):
    """A deletion-vector commit that fails between its APPEND and its COMPACT, then aborted as Spark does: the
    APPEND's manifests and data files stay, and the next write compacts them."""
    root, options = new_table(tmp_path, "dv")
    data = Write.make(0, "dv")
    plan = write.prepare(root, SCHEMA, options, False)
    table = pa.Table.from_pylist([dict(zip(SCHEMA.names, r, strict=True)) for r in data.rows], SCHEMA)
    results = [write.write_task(plan, table.to_batches(), 0)]

    def fail(name: str) -> None:
        if name == "compact":
            raise OSError("disk gone")

    monkeypatch.setattr(commit, "step", fail)
    with pytest.raises(OSError, match="disk gone"):
        commit.commit(plan, results)
    commit.abort(plan, results)
    monkeypatch.undo()
    assert all((root / f.relative).is_file() for f in results[0].files)
    assert_clean(root)
    assert table_rows(root) == expected([], "dv")
    settle(root, options, "dv", [data])


def test_a_key_another_writer_put_in_another_bucket_is_a_conflict(tmp_path):
    """Dynamic buckets: two writes planned on the same base place new key 5 in different buckets. The second
    cannot land (the key would live in two buckets): CommitConflict, and its files are gone."""
    root, options = new_table(tmp_path, "dynamic")  # five keys a bucket
    first = write.prepare(root, SCHEMA, options, False)
    second = write.prepare(root, SCHEMA, options, False)

    def rows(keys: list[int]) -> pa.Table:
        return pa.Table.from_pylist([{"id": k, "dt": "c", "v": 1.0, "op": "+I"} for k in keys], SCHEMA)

    one = [write.write_task(first, rows([5]).to_batches(), 0)]
    other = [write.write_task(second, rows([1, 2, 3, 4, 6, 5]).to_batches(), 0)]
    buckets = {f.bucket for f in other[0].files}
    assert one[0].files[0].bucket in buckets
    assert len(buckets) == 2  # bucket 0 was full when `other` placed key 5
    commit.commit(first, one)
    with pytest.raises(commit.CommitConflict, match="was put in bucket"):
        commit.commit(second, other)
    assert not any((root / f.relative).exists() for f in other[0].files)
    assert_clean(root)


def test_two_writers_creating_the_table(tmp_path):
    """Both planned before the table existed: the second finds the same schema-0 and lands on the first's
    snapshot; a writer with another schema gets CommitConflict."""
    root = tmp_path / "t"
    a = write.prepare(root, SCHEMA, KINDS["pk"], False)
    b = write.prepare(root, SCHEMA, KINDS["pk"], False)
    c = write.prepare(root, SCHEMA, KINDS["dv"], False)
    writes = [Write.make(i, "append") for i in range(3)]  # new keys only
    results = []
    for plan, data in zip((a, b, c), writes, strict=True):
        table = pa.Table.from_pylist([dict(zip(SCHEMA.names, r, strict=True)) for r in data.rows], SCHEMA)
        results.append([write.write_task(plan, table.to_batches(), 0)])
    assert commit.commit(a, results[0]) == [1]
    assert commit.commit(b, results[1]) == [2]
    with pytest.raises(commit.CommitConflict, match="another schema"):
        commit.commit(c, results[2])
    assert not any((root / f.relative).exists() for f in results[2][0].files)
    _, read = read_latest(root)
    want = {k: v for w in writes[:2] for k, v in w.model.items()}
    got = sorted((r["dt"], r["id"], r["v"]) for r in read.to_pylist())
    assert got == sorted((d, k, v) for (d, k), v in want.items())
    assert_clean(root)


# ---------------------------------------------------------------- temporary files


def test_temporary_files_of_an_unfinished_commit_are_warnings(tmp_path):
    """`.<name>.<uuid>.tmp` (Java's Path.createTempPath, and this writer's) where a killed commit leaves it: a
    warning, as Java ignores the file; a name that only looks temporary is still a bad name."""
    root, _ = new_table(tmp_path, "dv")
    bucket = next(p.parent for p in root.rglob("*.parquet"))
    temps = [
        root / "snapshot" / f".snapshot-9.{uuid.uuid4()}.tmp",
        root / "snapshot" / f".LATEST.{uuid.uuid4()}.tmp",
        root / "schema" / f".schema-1.{uuid.uuid4()}.tmp",
        bucket / f".data-{uuid.uuid4()}-0.parquet.{uuid.uuid4()}.tmp",
    ]
    bad = root / "snapshot" / ".snapshot-9.tmp"
    for p in [*temps, bad]:
        p.write_text("{")
    assert all(is_temp_name(p.name) for p in temps)
    assert not is_temp_name(bad.name)
    found = {(f.code, f.severity, Path(f.file).name) for r in validate_table(root) for f in r.findings}
    for p in temps:
        assert ("TABLE_UNREFERENCED_FILE", "warning", p.name) in found
    assert {(code, sev) for code, sev, name in found if name != bad.name} == {("TABLE_UNREFERENCED_FILE", "warning")}
    assert ("TABLE_BAD_FILE_NAME", "must", bad.name) in found


def test_a_data_file_a_killed_writer_left_half_written_is_a_warning(tmp_path):
    """A writer killed while writing a data file leaves it truncated and unreferenced: Java never opens it, so
    the validator warns; the same truncated bytes under a name a snapshot refers to are a must."""
    root, _ = new_table(tmp_path, "dv")
    data = next(root.rglob("data-*.parquet"))
    orphan = data.with_name(f"data-{uuid.uuid4()}-0.parquet")
    orphan.write_bytes(data.read_bytes()[: data.stat().st_size // 2])
    found = [(f.code, f.severity) for r in validate_table(root) for f in r.findings if Path(f.file) == orphan]
    assert ("DATA_FILE_UNREADABLE", "warning") in found
    assert all(sev == "warning" for _, sev in found)
    data.write_bytes(orphan.read_bytes())
    musts = [f.code for r in validate_table(root) for f in r.findings if f.severity == "must"]
    assert "DATA_FILE_UNREADABLE" in musts


if __name__ == "__main__" and sys.argv[1:] == ["worker"]:
    _worker()
