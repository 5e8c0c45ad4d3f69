"""A table a testee wrote (`write-table`), judged: the kit validates it for the Java release the testee claims
(a must-finding fails the case), reads it back and compares the rows with the model, and a second testee (a
Java reader, say) reads it too when one is given."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.java_releases import NEWEST, RELEASES
from paimon_conform.table.read.reader import logical_rows, read_latest
from paimon_conform.table.validate.table import validate_table
from paimon_conform.testee.process import Testee, TesteeFault
from paimon_conform.testee.protocol import VERSION, problem
from paimon_conform.testee.rows import compare
from paimon_conform.testee.suite import Case

MAX_CODES = 6


def java_target(hello: dict[str, Any]) -> str:
    """The Java release a testee's tables are judged for: the line it claims, else the newest the kit knows."""
    claimed = hello.get("java_release")
    return claimed if claimed in RELEASES else NEWEST


def must_findings(path: Path, release: str) -> list[str]:
    """`file: CODE` for each must-finding of the kit's validation (an unusable table is one)."""
    out = []
    for r in validate_table(path, java_version=release):
        if r.unusable:
            out.append(f"{r.file}: unusable: {r.unusable[:200]}")
        out += [f"{Path(f.file or r.file).name}: {f.code}" for f in r.findings if f.severity == "must"]
    return out


class Reader:
    """A second testee that reads the tables the first writes; started on first use, restarted after a fault."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.command, self.timeout = command, timeout
        self.testee: Testee | None = None
        self.asked = 0

    def read(self, path: Path, fields: list[dict[str, Any]]) -> tuple[list | None, str]:
        """(rows, "") or (None, why not)."""
        try:
            if self.testee is None:
                self.testee = Testee(self.command, self.timeout)
                hello = self.testee.ask({"id": 0, "op": "hello", "protocol": VERSION})
                why = problem(hello, "hello_reply")
                if why or "table" not in hello["capabilities"].get("read-table", []):
                    raise TesteeFault(why or "the reader does not declare read-table")
            self.asked += 1
            request = {"id": self.asked, "op": "read-table", "kind": "table", "path": str(path), "fields": fields}
            reply = self.testee.ask(request)
        except TesteeFault as fault:
            self.close()
            return None, f"the reader failed: {fault}"
        why = problem(reply, "read_table_reply")
        if why:
            return None, f"the reader answered outside the protocol: {why}"
        if "error" in reply:
            return None, f"the reader could not read it: {reply['error'].get('message', '')[:300]}"
        return reply["rows"], ""

    def close(self) -> None:
        if self.testee is not None:
            self.testee.close({"id": self.asked + 1, "op": "bye"})
            self.testee = None


def judge(case: Case, path: Path, hello: dict[str, Any], reader: Reader | None) -> tuple[bool, str]:
    """Whether the table at `path` passes a write-table case, and why not."""
    fields = case.request["table"]["fields"]
    release = java_target(hello)
    try:
        musts = must_findings(path, release)
        if musts:
            top = Counter(m.split(": ", 1)[1] for m in musts).most_common(MAX_CODES)
            return False, f"the kit finds {len(musts)} must-finding(s) for Java {release}: " + ", ".join(
                f"{c} x{n}" for c, n in top
            )
        schema, rows = read_latest(path)
        got = logical_rows(schema, rows)
        names = [f.name for f in schema.fields]
        at = [names.index(f["name"]) if f["name"] in names else None for f in fields]
        if None in at:
            return False, f"the table has columns {names}, the case {[f['name'] for f in fields]}"
        why = compare(fields, [[r[i] for i in at] for r in got], case.expected)
    except PaimonConformError as exc:
        return False, f"the kit cannot read the table back: {exc}"
    except Exception as exc:  # noqa: BLE001 - a testee's table is untrusted: the case fails, the run goes on
        return False, f"the kit failed on the table (a kit defect, please report): {type(exc).__name__}: {exc}"[:800]
    if why:
        return False, f"the kit reads other rows than were written: {why}"
    if reader is not None:
        rows, problem_ = reader.read(path, fields)
        if rows is None:
            return False, problem_
        why = compare(fields, rows, case.expected)
        if why:
            return False, f"the reader reads other rows than were written: {why}"
    return True, ""
