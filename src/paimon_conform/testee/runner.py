"""Run a testee over the cases: handshake, one exchange per case (skipped when the testee does not declare the
operation and kind), judged against the kit's expectation and the failure list; a testee that crashes,
hangs or writes garbage fails that case and is started again for the next."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paimon_conform.core import cases as case_format
from paimon_conform.testee import judge_table, queries, tables
from paimon_conform.testee.process import TesteeFault, start
from paimon_conform.testee.protocol import problem
from paimon_conform.testee.rows import compare
from paimon_conform.testee.suite import Case

PASSED, FAILED, SKIPPED = "passed", "failed", "skipped"
EXPECTED, UNEXPECTED_PASS = "expected-failure", "unexpected-pass"
MAX_RESTARTS = 20  # a testee that cannot be started again this often fails the rest of the cases


@dataclass
class Result:
    """What one case came to: status, and why (the failure, the skip, the listed reason)."""

    case: Case
    status: str
    detail: str = ""


@dataclass
class Run:
    """A whole run: the testee's handshake, every case's result, its stderr's tail."""

    hello: dict[str, Any] = field(default_factory=dict)
    results: list[Result] = field(default_factory=list)
    stderr: str = ""

    def failed(self) -> list[Result]:
        """The results that fail the run (failures not listed, and listed cases that now pass)."""
        return [r for r in self.results if r.status in (FAILED, UNEXPECTED_PASS)]

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)


def judge(case: Case, reply: dict[str, Any]) -> tuple[bool, str]:
    """Whether a well-formed reply passes the case, and what it said otherwise."""
    error = reply.get("error")
    if case.expect == "error":
        if error is not None:
            return True, f"refused: {error.get('code', '')} {error.get('message', '')[:200]}".strip()
        return False, f"accepted a file that must be rejected with {case.expected['code']}"
    if error is not None:
        what = {"rows": "could not read the table", "table": "could not write the table"}.get(case.expect)
        said = f"{error.get('code', '')} {error.get('message', '')[:300]}".strip()
        return False, f"{what or 'refused a valid case'}: {said}"
    if case.expect == "table":
        return True, ""  # judge_table judges what was written
    if case.expect == "rows":
        why = compare(case.request["fields"], reply.get("rows"), case.expected)
        return (True, "") if why is None else (False, f"other rows than Java read: {why}")
    if case.expect == "hash":
        got = {k: reply[k] for k in ("row", "hash", "buckets")}
        if got == case.expected:
            return True, ""
        wrong = [k for k in ("row", "hash", "buckets") if got[k] != case.expected[k]]
        shown = "; ".join(f"{k} {got[k]!r}, Java {case.expected[k]!r}" for k in wrong)
        return False, f"another {', '.join(wrong)} than Java's: {shown}"[:600]
    if case.expect == "query":
        got, want = queries.outcome(reply), queries.outcome(case.expected)
        if got == want:
            return True, ""
        return False, f"answered {queries.describe_outcome(got)}; Java's rules give {queries.describe_outcome(want)}"
    if case.expect == "bytes":
        got, want = bytes.fromhex(reply["data"]), bytes.fromhex(case.expected)
        if got == want:
            return True, ""
        at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        return False, f"other bytes than the golden file's: {len(got)} bytes for {len(want)}, first difference at {at}"
    try:
        got_content = case_format.content(reply["case"])
    except MemoryError:
        raise  # never a fault of the input (errors.OutOfMemory)
    except Exception as exc:  # noqa: BLE001 - a testee's case is untrusted input
        return False, f"a case the kit cannot read: {exc}"
    if got_content == case.expected:
        return True, ""
    keys = sorted(k for k in set(got_content) | set(case.expected) if got_content.get(k) != case.expected.get(k))
    return False, f"another case than the sidecar's: {', '.join(keys[:8])} differ"


def _place(case: Case, n: int, work: Path) -> dict[str, Any]:
    """The request of a case, with its id; a table operation's `path` (<warehouse>/db.db/<table>) under `work`:
    a copy of the golden table to read, or where a new table goes."""
    request = {"id": n, **case.request}
    if case.op == "read-table" and case.source:
        path = work / f"read-{n}" / "db.db" / Path(case.source).name.replace("-", "_")
        shutil.copytree(case.source, path)
        request["path"] = str(path)
    elif case.op == "write-table":
        path = tables.table_dir(work, f"write-{n}", case.kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        request["path"] = str(path)
    return request


def run(
    command: list[str],
    suite: list[Case],
    failure_list: dict[str, str] | None = None,
    timeout: float = 30.0,
    progress: Callable[[str], None] | None = None,
    reader: list[str] | None = None,
    work: Path | None = None,
) -> Run:
    """Every case through the testee; TesteeFault only when the first start or handshake fails. `reader`: a
    second testee that reads every table the first writes (its failure fails the write case); `work`: where
    tables go (a temporary folder, removed after the run, when not given)."""
    with tempfile.TemporaryDirectory(prefix="paimon-conform-testee-") as tmp:
        return _run(command, suite, failure_list or {}, timeout, progress, reader, work or Path(tmp))


def _run(
    command: list[str],
    suite: list[Case],
    listed: dict[str, str],
    timeout: float,
    progress: Callable[[str], None] | None,
    reader: list[str] | None,
    work: Path,
) -> Run:
    testee, hello = start(command, timeout)
    out = Run(hello=hello)
    caps = hello["capabilities"]
    restarts = 0
    second = judge_table.Reader(reader, timeout) if reader else None
    try:
        for n, case in enumerate(suite, 1):
            if progress and (n % 200 == 0 or n == len(suite)):
                progress(f"case {n}/{len(suite)}")
            if case.kind not in caps.get(case.op, []):
                out.results.append(Result(case, SKIPPED, f"the testee does not declare {case.op} of {case.kind}"))
                continue
            if testee is None:
                out.results.append(Result(case, FAILED, "the testee could not be started again"))
                continue
            try:
                request = _place(case, n, work)
                reply = testee.ask(request)
                why = problem(reply, f"{case.op.replace('-', '_')}_reply")
                ok, detail = (False, why) if why else judge(case, reply)
                if ok and case.expect == "table":
                    ok, detail = judge_table.judge(case, Path(request["path"]), hello, second)
            except TesteeFault as fault:
                ok, detail = False, f"the testee failed: {fault}"
                out.stderr = testee.stderr_tail()
                testee.close()
                testee = None
                restarts += 1
                if restarts <= MAX_RESTARTS:
                    try:
                        testee, _ = start(command, timeout)
                    except TesteeFault:
                        testee = None
            out.results.append(_listed(case, ok, detail, listed))
    finally:
        if testee is not None:
            out.stderr = out.stderr or testee.stderr_tail()
            testee.close({"id": len(suite) + 1, "op": "bye"})
        if second is not None:
            second.close()
    return out


def _listed(case: Case, ok: bool, detail: str, listed: dict[str, str]) -> Result:
    """A result under the failure list's semantics."""
    if case.id in listed:
        if ok:
            return Result(case, UNEXPECTED_PASS, "listed as a failure but passes: remove it from the list")
        return Result(case, EXPECTED, listed[case.id] or detail)
    return Result(case, PASSED if ok else FAILED, detail)


def fixed_list(run_: Run, listed: dict[str, str]) -> dict[str, str]:
    """The failure list this run found: every failing case, with its old reason when it had one."""
    out = {}
    for r in run_.results:
        if r.status in (FAILED, EXPECTED):
            out[r.case.id] = listed.get(r.case.id) or r.detail
    return out
