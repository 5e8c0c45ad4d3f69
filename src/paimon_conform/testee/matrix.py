"""The producer x consumer matrix: every testee that declares `write-table` writes each table kind of `tables`,
the kit validates each table for the producer's Java line, and every testee that declares `read-table` reads
each one; each read is compared with the model (the rows written, last per key). Results come as one entry per
check, with ids a failure list can name:

    write:<producer>:<kind>               the producer wrote the table
    validate-<java>:<producer>:<kind>     the kit finds no must-finding in it for that Java line (the producer's
                                          claimed line, or the newest, and each Java reader's line)
    read:<producer>><consumer>:<kind>     the consumer reads the model's rows from it

A failed read by a testee claiming a Java line whose validation finds nothing is a miss of the kit's (the
matrix test holds there are none)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paimon_conform.core.errors import PaimonConformError, UsageError
from paimon_conform.core.java_releases import RELEASES
from paimon_conform.testee import tables
from paimon_conform.testee.judge_table import java_target, must_findings
from paimon_conform.testee.process import Testee, TesteeFault
from paimon_conform.testee.protocol import VERSION, problem
from paimon_conform.testee.rows import compare

MAX_TESTEES = 32


@dataclass
class Check:
    """One write, validation or read: its id, whether it passed, and what happened."""

    id: str
    step: str  # write, validate, read
    producer: str
    consumer: str | None
    kind: str
    ok: bool
    detail: str = ""
    expected: str | None = None  # the failure list's reason, when it lists this check


@dataclass
class Matrix:
    """Every testee's handshake (by name) and every check."""

    testees: dict[str, dict[str, Any]] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def producers(self) -> list[str]:
        return [n for n, h in self.testees.items() if h.get("capabilities", {}).get("write-table")]

    def consumers(self) -> list[str]:
        return [n for n, h in self.testees.items() if "table" in h.get("capabilities", {}).get("read-table", [])]

    def releases(self) -> list[str]:
        """The Java lines tables are validated for: each producer's target and each consumer's claimed line."""
        lines = {java_target(self.testees[n]) for n in self.producers()}
        lines |= {self.testees[n].get("java_release") for n in self.consumers()} & set(RELEASES)
        return sorted(lines, key=RELEASES.index)

    def unexpected(self) -> list[Check]:
        """Checks that fail the run: failures not listed, and listed checks that pass."""
        return [c for c in self.checks if c.ok == (c.expected is not None)]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": VERSION,
            "testees": self.testees,
            "kinds": {k: tables.KINDS[k].doc for k in self.kinds},
            "skipped": self.skipped,
            "checks": [asdict(c) for c in self.checks],
        }


def load_testees(path: Path) -> list[tuple[str, list[str]]]:
    """(name, command) of each testee a list names: JSON [{"name", "command": [...]}]; `{python}` is this Python,
    an argument starting with ./ is relative to the list's folder."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the testee list {path}: {exc}") from None
    if not isinstance(doc, list) or not 0 < len(doc) <= MAX_TESTEES:
        raise UsageError(f"{path}: a JSON list of 1 to {MAX_TESTEES} testees")
    out = []
    for n, entry in enumerate(doc):
        if not (
            isinstance(entry, dict) and isinstance(entry.get("name"), str) and isinstance(entry.get("command"), list)
        ):
            raise UsageError(f"{path}: entry {n} needs a name and a command list")
        command = [
            sys.executable if a == "{python}" else str(path.parent / a[2:]) if a.startswith("./") else str(a)
            for a in entry["command"]
        ]
        out.append((entry["name"], command))
    return out


def _hello(testee: Testee) -> dict[str, Any]:
    hello = testee.ask({"id": 0, "op": "hello", "protocol": VERSION, "runner": "paimon-conform matrix"})
    why = problem(hello, "hello_reply")
    if why:
        raise TesteeFault(f"handshake: {why}")
    return hello


def _session(command: list[str], timeout: float) -> tuple[Testee, dict[str, Any]]:
    testee = Testee(command, timeout)
    try:
        return testee, _hello(testee)
    except TesteeFault:
        testee.close()
        raise


def _table_dir(work: Path, producer: str, kind: str) -> Path:
    return work / producer / "db.db" / kind.replace("-", "_")


def _ask(testee: Testee | None, command: list[str], timeout: float, request: dict[str, Any], op: str):
    """(testee, reply or None, problem): one exchange; a testee that fails it is started again for the next."""
    try:
        if testee is None:
            testee, _ = _session(command, timeout)
        reply = testee.ask(request)
    except TesteeFault as fault:
        if testee is not None:
            testee.close()
        return None, None, f"the testee failed: {fault}"
    why = problem(reply, f"{op}_reply")
    if why:
        return testee, None, why
    if "error" in reply:
        return testee, None, f"error: {reply['error'].get('message', '')[:600]}"
    return testee, reply, ""


def _writes(
    name: str, command: list[str], hello: dict[str, Any], kinds: list[str], work: Path, timeout: float
) -> list[Check]:
    """Each table kind the producer declares, written; the rest skipped (not checks)."""
    out, testee = [], None
    declared = hello["capabilities"].get("write-table", [])
    for n, kind in enumerate(k for k in kinds if k in declared):
        spec = tables.KINDS[kind]
        path = _table_dir(work, name, kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        request = {"id": n + 1, "op": "write-table", "kind": kind, "path": str(path), "table": spec.table()}
        request["commits"] = tables.commits(spec)
        testee, reply, why = _ask(testee, command, timeout, request, "write_table")
        out.append(Check(f"write:{name}:{kind}", "write", name, None, kind, reply is not None, why))
    if testee is not None:
        testee.close({"id": len(kinds) + 1, "op": "bye"})
    return out


def _validate(name: str, release: str, kind: str, work: Path) -> Check:
    try:
        musts = must_findings(_table_dir(work, name, kind), release)
    except PaimonConformError as exc:
        musts = [f"unusable: {exc}"]
    detail = f"for Java {release}: " + ("; ".join(musts[:20]) if musts else "no must-finding")
    return Check(f"validate-{release}:{name}:{kind}", "validate", name, f"Java {release}", kind, not musts, detail)


def _reads(
    consumer: str, command: list[str], written: list[Check], work: Path, timeout: float, counter: list[int]
) -> list[Check]:
    out, testee = [], None
    for w in written:
        spec = tables.KINDS[w.kind]
        fields = spec.table()["fields"]
        counter[0] += 1
        path = _table_dir(work, w.producer, w.kind)
        request = {"id": counter[0], "op": "read-table", "kind": "table", "path": str(path), "fields": fields}
        testee, reply, why = _ask(testee, command, timeout, request, "read_table")
        if reply is not None:
            why = compare(fields, reply["rows"], tables.model(spec, tables.commits(spec))) or ""
            why = f"other rows than written: {why}" if why else ""
        cid = f"read:{w.producer}>{consumer}:{w.kind}"
        out.append(Check(cid, "read", w.producer, consumer, w.kind, not why, why))
    if testee is not None:
        testee.close({"id": counter[0] + 1, "op": "bye"})
    return out


def build(
    testees: list[tuple[str, list[str]]],
    work: Path,
    kinds: list[str] | None = None,
    listed: dict[str, str] | None = None,
    timeout: float = 120.0,
    progress: Callable[[str], None] | None = None,
) -> Matrix:
    """Write with every producer, validate, read with every consumer; `listed` marks expected failures."""
    say = progress or (lambda _m: None)
    m = Matrix(kinds=[k for k in tables.KINDS if not kinds or k in kinds])
    commands = dict(testees)
    for name, command in testees:
        say(f"{name}: handshake")
        try:
            testee, hello = _session(command, timeout)
            testee.close({"id": 1, "op": "bye"})
        except TesteeFault as fault:
            m.skipped.append(f"{name}: did not start as protocol 1 says: {fault}")
            continue
        m.testees[name] = hello
    for name in m.producers():
        say(f"{name}: writing {len(m.kinds)} table kind(s)")
        writes = _writes(name, commands[name], m.testees[name], m.kinds, work, timeout)
        m.checks += writes
        say(f"{name}: validating")
        m.checks += [_validate(name, r, w.kind, work) for r in m.releases() for w in writes if w.ok]
    written = [c for c in m.checks if c.step == "write" and c.ok]
    counter = [0]
    for name in m.consumers():
        say(f"{name}: reading {len(written)} table(s)")
        m.checks += _reads(name, commands[name], written, work, timeout, counter)
    for c in m.checks:
        if listed and c.id in listed:
            c.expected = listed[c.id] or c.detail or "listed"
    return m
