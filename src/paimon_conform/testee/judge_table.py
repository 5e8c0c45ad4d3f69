"""A table a testee wrote (`write-table`), judged: the kit validates it for the Java release the testee claims
(a must-finding fails the case), reads it back and compares the rows with the model, and a second testee (a
Java reader, say) reads it too when one is given."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.java_releases import NEWEST, RELEASES
from paimon_conform.table.validate.table import validate_table
from paimon_conform.testee import kit
from paimon_conform.testee.process import Session, TesteeFault
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


def table_musts(path: Path, release: str) -> list[str]:
    """must_findings, a table the kit cannot judge being one (`unusable: ...`)."""
    try:
        return must_findings(path, release)
    except PaimonConformError as exc:
        return [f"unusable: {exc}"]


def read_against(session: Session, path: Path, fields: list[dict[str, Any]], model: list[list[Any]]) -> str:
    """'' when the testee of `session` reads the model's rows from the table; else what went wrong."""
    request = {"op": "read-table", "kind": "table", "path": str(path), "fields": fields}
    reply, why = session.exchange(request, "read_table_reply")
    if reply is not None:
        differs = compare(fields, reply["rows"], model)
        why = f"other rows than written: {differs}" if differs else ""
    return why


class Reader:
    """A second testee that reads the tables the first writes (one session, started on first use)."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.session = Session(command, timeout)

    def read(self, path: Path, fields: list[dict[str, Any]]) -> tuple[list | None, str]:
        """(rows, "") or (None, why not)."""
        try:
            hello = self.session.open()
        except TesteeFault as fault:
            return None, f"the reader failed: {fault}"
        if "table" not in hello["capabilities"].get("read-table", []):
            return None, "the reader does not declare read-table"
        request = {"op": "read-table", "kind": "table", "path": str(path), "fields": fields}
        reply, why = self.session.exchange(request, "read_table_reply")
        return (reply["rows"], "") if reply is not None else (None, f"the reader: {why}")

    def close(self) -> None:
        self.session.close()


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
        why = compare(fields, kit.read_table(path, fields), case.expected)
    except PaimonConformError as exc:
        return False, f"the kit cannot read the table back: {exc}"
    except MemoryError:
        raise  # the kit ran out of memory: no verdict on the testee's table
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
