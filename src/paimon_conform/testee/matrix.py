"""The producer x consumer matrix: every testee that declares `write-table` writes each table kind of `tables`,
the kit validates each table for the producer's Java line, and every testee that declares `read-table` reads
each one; each read is compared with the model (the rows written, last per key). Results come as one entry per
check, with ids a failure list can name:

    write:<producer>:<kind>               the producer wrote the table
    validate-<java>:<producer>:<kind>     the kit finds no must-finding in it for that Java line (the producer's
                                          claimed line, or the newest, and each Java reader's line)
    read:<producer>><consumer>:<kind>     the consumer reads the model's rows from it
    chain-...:<first>+<second>...         a table one writer made, continued by another (chains.py)

A failed read by a testee claiming a Java line whose validation finds nothing is a miss of the kit's (the
matrix test holds there are none)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from paimon_conform.core.errors import UsageError
from paimon_conform.core.java_releases import RELEASES
from paimon_conform.testee import chains, tables
from paimon_conform.testee.checks import Check
from paimon_conform.testee.judge_table import java_target, read_against, table_musts
from paimon_conform.testee.process import Session, TesteeFault
from paimon_conform.testee.protocol import VERSION

MAX_TESTEES = 32
NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")  # a folder name and a check id part (no + > : /)
RESERVED = {"alone"}  # the page's column of each chain's first table


@dataclass
class Matrix:
    """Every testee's handshake (by name) and every check."""

    testees: dict[str, dict[str, Any]] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)
    checks: list[Check] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def producers(self) -> list[str]:
        return [n for n, h in self.testees.items() if h.get("capabilities", {}).get("write-table")]

    def chains(self) -> list[str]:
        """The chains checked (`<first>+<second>`), in the order they ran."""
        return list(dict.fromkeys(c.producer for c in self.checks if c.step.startswith("chain-")))

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
        if not NAME.fullmatch(entry["name"]) or entry["name"] in RESERVED:
            raise UsageError(
                f"{path}: entry {n}: a testee name of letters, digits, '.', '_' and '-' (not {entry['name']!r})"
            )
        command = [
            sys.executable if a == "{python}" else str(path.parent / a[2:]) if a.startswith("./") else str(a)
            for a in entry["command"]
        ]
        out.append((entry["name"], command))
    return out


def _writes(name: str, session: Session, kinds: list[str], work: Path, written: dict[str, list]) -> list[Check]:
    """Each table kind the producer declares, written; the rest skipped (not checks)."""
    out = []
    declared = session.hello["capabilities"].get("write-table", [])
    for kind in (k for k in kinds if k in declared):
        path = tables.table_dir(work, name, kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        request = {"op": "write-table", "kind": kind, "path": str(path), "table": tables.KINDS[kind].table()}
        reply, why = session.exchange({**request, "commits": written[kind]}, "write_table_reply")
        out.append(Check(f"write:{name}:{kind}", "write", name, None, kind, reply is not None, why))
    return out


def _validate(name: str, release: str, kind: str, work: Path) -> Check:
    musts = table_musts(tables.table_dir(work, name, kind), release)
    detail = f"for Java {release}: " + ("; ".join(musts[:20]) if musts else "no must-finding")
    return Check(f"validate-{release}:{name}:{kind}", "validate", name, f"Java {release}", kind, not musts, detail)


def _reads(consumer: str, session: Session, written: list[Check], work: Path, models: dict[str, list]) -> list[Check]:
    """Every written table, read by one consumer and compared with its kind's model."""
    out = []
    for w in written:
        why = read_against(session, tables.table_dir(work, w.producer, w.kind), tables.FIELDS, models[w.kind])
        out.append(Check(f"read:{w.producer}>{consumer}:{w.kind}", "read", w.producer, consumer, w.kind, not why, why))
    return out


def build(
    testees: list[tuple[str, list[str]]],
    work: Path,
    kinds: list[str] | None = None,
    listed: dict[str, str] | None = None,
    timeout: float = 120.0,
    progress: Callable[[str], None] | None = None,
) -> Matrix:
    """Write with every producer, validate, read with every consumer; `listed` marks expected failures. Each
    testee runs in one session from its handshake to the end (started again only after a fault)."""
    say = progress or (lambda _m: None)
    m = Matrix(kinds=[k for k in tables.KINDS if not kinds or k in kinds])
    written = {k: tables.commits(tables.KINDS[k]) for k in m.kinds}
    models = {k: tables.model(tables.KINDS[k], written[k]) for k in m.kinds}
    sessions: dict[str, Session] = {}
    try:
        for name, command in testees:
            say(f"{name}: handshake")
            session = Session(command, timeout)
            try:
                m.testees[name] = session.open()
            except TesteeFault as fault:
                m.skipped.append(f"{name}: did not start as protocol 1 says: {fault}")
                continue
            sessions[name] = session
        for name in m.producers():
            say(f"{name}: writing {len(m.kinds)} table kind(s)")
            writes = _writes(name, sessions[name], m.kinds, work, written)
            m.checks += writes
            say(f"{name}: validating")
            m.checks += [_validate(name, r, w.kind, work) for r in m.releases() for w in writes if w.ok]
        done = [c for c in m.checks if c.step == "write" and c.ok]
        for name in m.consumers():
            say(f"{name}: reading {len(done)} table(s)")
            m.checks += _reads(name, sessions[name], done, work, models)
        m.checks += chains.build(m.testees, m.producers(), m.consumers(), sessions, work, say)
    finally:
        for session in sessions.values():
            session.close()
    for c in m.checks:
        if listed and c.id in listed:
            c.expected = listed[c.id] or c.detail or "listed"
    return m
