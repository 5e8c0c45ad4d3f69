"""The type x role x writer matrix, driven through the testee protocol (the tests: test_type_matrix_peers.py;
the cells: type_matrix_cells.py).

Each *cell* is one table: a writer, a column type (or several, for a multi-field bucket key) and the role the
column plays (primary key, bucket key under a bucket function, partition key, file-index column, plain value
column). The writers are the reference testees (tools/testees/reference.json): pypaimon, pypaimon-rust, the
kit's write engine (kit) and its Spark source (kit-spark); Java Paimon 1.0-SNAPSHOT writes the same cells as the
*control* (the roles its writer has: no hive / mod bucket function, no BSI / range-bitmap index). Every cell is
a `write-table` request of kind `custom`: fields, keys, options and commits, values in the protocol's logical
JSON.

`build` writes every cell (one session per writer, all at once), validates each table with the kit's console
script, and reads each with the reader testees: Java 1.0-SNAPSHOT with `probe` (rows, an `= value` / IS NULL
read per distinct value, each row re-hashed to its bucket, the index manifest and HASH files), Java 0.9.0
(rows) and the kit (rows). What Java does with its own control table is not held against a peer
(`subtract_java_own`). KNOWN holds the evidence of the peers' incompatibilities; which cells show each one is
pinned in tools/testees/failures/type-matrix.txt (`incompatible:<cell>  # <known ids>`).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paimon_conform.testee.process import Session
from paimon_conform.testee.rows import compare
from paimon_conform.testee.tables import CUSTOM
from support import known_incompatibilities as known
from support import testees
from support.type_matrix_cells import CONTROL, WRITERS, Cell, TableSpec, canonical, cells, spec

PROBING = "java-1.0-SNAPSHOT"  # the reader asked for filtered reads, buckets and index files
JAVA_READERS = ("java-1.0-SNAPSHOT", "java-0.9.0")
KIT_READER = "kit"
MAX_PROBES = 24
JAVA_TARGET = "0.9"  # the line the validator judges for: the jars here are 0.9-era (1.0-SNAPSHOT predates 1.0.0)
MAX_SINGLE_RUNS = 60  # tables the console script checks one by one after a batch run failed


# --------------------------------------------------------------------------- what readers returned


@dataclass
class JavaRead:
    """What one Java reader did with a table."""

    error: str | None = None
    missing: list[str] = field(default_factory=list)  # model rows Java did not return (canonical text)
    extra: list[str] = field(default_factory=list)  # rows Java returned that were not written
    rows: list[list[Any]] = field(default_factory=list)
    probe_misses: dict[str, str] = field(default_factory=dict)  # "k = v" -> "0 of 1 row(s)" (filtered reads)
    probe_errors: dict[str, str] = field(default_factory=dict)  # "k = v" -> Java's exception
    java_own: list[str] = field(default_factory=list)  # misses / errors Java shows on its own control table too
    probed: list[str] = field(default_factory=list)  # the filtered reads run ("k = v")
    same_as_own: bool = False  # Java cannot read the table, and fails the same way on its own control table
    rows_as_own: bool = False  # Java returns other rows than written, as it does from its own control table
    wrong_bucket: int = 0
    wrong_bucket_example: str | None = None
    index_entries: int | None = None  # entries of the index manifest Java read (None: none, or not asked)
    index_error: str | None = None
    hash_missing: int = 0
    hash_missing_example: str | None = None

    @property
    def reads(self) -> bool:
        return self.error is None

    @property
    def rows_equal(self) -> bool:
        return self.reads and not self.missing and not self.extra

    def problems(self) -> list[str]:
        """Every piece of Java's evidence of an incompatibility (empty: Java reads the table right)."""
        if self.same_as_own:
            return []
        if self.error:
            return [f"cannot read: {self.error}"]
        out = []
        if self.missing or self.extra:
            out.append(f"other rows: missing {self.missing[:3]}, extra {self.extra[:3]}")
        if self.probe_misses:
            shown = [f"{k}: {v}" for k, v in list(self.probe_misses.items())[:4]]
            out.append(f"filtered reads skip matching rows ({len(self.probe_misses)} value(s)): {shown}")
        if self.probe_errors:
            kinds: dict[str, str] = {}
            for k, v in self.probe_errors.items():
                kinds.setdefault(exception_text(v), f"{k}: {v}")
            out.append(f"filtered reads fail ({len(self.probe_errors)} value(s)), e.g. {' | '.join(kinds.values())}")
        if self.wrong_bucket:
            out.append(f"{self.wrong_bucket} row(s) in another bucket than Java's: {self.wrong_bucket_example}")
        if self.index_error:
            out.append(f"cannot read the index manifest: {self.index_error}")
        if self.hash_missing:
            out.append(f"{self.hash_missing} key hash(es) missing from the HASH index: {self.hash_missing_example}")
        return out

    @property
    def problem(self) -> str | None:
        found = self.problems()
        return found[0] if found else None

    @property
    def index_read_ok(self) -> bool:
        """Java read the index manifest (and the HASH index files) without a problem."""
        return self.index_entries is not None and not self.index_error and not self.hash_missing


def exception_text(error: str | None) -> str:
    """An exception's class and message, without stack frames, the table's path, file names and identity
    hashes (so a peer's and the control's failures compare)."""
    text = (error or "").split(" at ", 1)[0]
    text = re.sub(r"/\S*?/db\.db/[^/]+", "<table>", text)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return re.sub(r"@[0-9a-f]+", "@<hash>", text)


def java_read(s: TableSpec, reply: dict[str, Any] | None, why: str) -> JavaRead:
    """A Java testee's read-table reply (None: it failed, `why`) as evidence about the table."""
    if reply is None:
        return JavaRead(error=why.removeprefix("error: ") or "no reply")
    types = s.types
    got = Counter(canonical(types, r) for r in reply["rows"])
    want = Counter(canonical(types, r) for r in s.model)
    misses, errors = {}, {}
    for p in reply.get("probes", []):
        key = f"{p['column']} = {p['value']}"
        if "error" in p:
            errors[key] = p["error"][:400]
        elif p.get("filtered", 0) < p.get("full", 0):
            misses[key] = f"{p['filtered']} of {p['full']} row(s)"
    return JavaRead(
        missing=sorted((want - got).elements()),
        extra=sorted((got - want).elements()),
        rows=reply["rows"],
        probe_misses=misses,
        probe_errors=errors,
        probed=[f"{p['column']} = {p['value']}" for p in reply.get("probes", [])],
        wrong_bucket=reply.get("wrong_bucket", 0) if s.cell.bucket_function in (None, "default") else 0,
        wrong_bucket_example=reply.get("wrong_bucket_example"),
        index_entries=reply.get("index_entries"),
        index_error=reply.get("index_error"),
        hash_missing=reply.get("hash_missing", 0),
        hash_missing_example=reply.get("hash_missing_example"),
    )


@dataclass
class CellResult:
    """Everything observed for one cell."""

    cell: Cell
    spec: TableSpec
    dir: str
    written: bool
    write_error: str | None = None
    cli_rc: int | None = None
    cli_stderr: str = ""
    findings: list[dict] = field(default_factory=list)
    java: dict[str, JavaRead] = field(default_factory=dict)
    kit_rows: list[list[Any]] | None = None
    kit_error: str | None = None

    @property
    def musts(self) -> list[dict]:
        return [f for f in self.findings if f.get("severity") == "must"]

    @property
    def codes(self) -> list[str]:
        return sorted({f"{f['code']}[{f['severity']}]" for f in self.findings if f.get("severity") != "warning"})

    @property
    def crashed(self) -> str | None:
        """Why the validator's run is not a clean 0/1 exit without a traceback, or None."""
        if not self.written:
            return None
        if has_traceback(self.cli_stderr):
            last = [ln for ln in self.cli_stderr.strip().splitlines() if ln.strip()]
            return f"traceback: {last[-1] if last else ''}"[:500]
        if self.cli_rc not in (0, 1):
            return f"exit {self.cli_rc}: {self.cli_stderr.strip()[-400:]}"
        return None

    @property
    def java_problem(self) -> str | None:
        """Java's evidence (1.0-SNAPSHOT first, then 0.9.0) that the table is incompatible."""
        for name in JAVA_READERS:
            r = self.java.get(name)
            if r is not None and r.problem:
                return f"{name}: {r.problem}"
        return None

    @property
    def java_evidence(self) -> str:
        """All of Java's evidence, both readers, one text (what KNOWN entries' patterns match)."""
        return "\n".join(f"{n}: {p}" for n in JAVA_READERS if n in self.java for p in self.java[n].problems())


def subtract_java_own(results: list[CellResult]) -> None:
    """Drop from a peer's evidence what Java's reader also does with its own control table."""
    controls = {(r.cell.types, r.cell.role): r for r in results if r.cell.writer == CONTROL and r.written}
    for r in results:
        c = controls.get((r.cell.types, r.cell.role))
        if r.cell.writer == CONTROL or c is None:
            continue
        for name, jr in r.java.items():
            cj = c.java.get(name)
            if cj is None:
                continue
            if not jr.reads and not cj.reads and exception_text(jr.error) == exception_text(cj.error):
                jr.java_own.append(f"Java fails the same way on its own table: {jr.error}")
                jr.same_as_own = True
                continue
            if not cj.reads or not jr.reads:
                continue
            if (jr.missing or jr.extra) and (cj.missing or cj.extra):
                # Java misreads its own table of the cell too (its key comparator and NaN, say): what it returns
                # from the peer's says nothing about the peer
                own_rows = f"own: missing {cj.missing[:2]}"
                jr.java_own.append(f"rows: missing {jr.missing[:2]}, extra {jr.extra[:2]} ({own_rows})")
                jr.missing, jr.extra, jr.rows_as_own = [], [], True
            for key in [k for k in jr.probe_misses if k in cj.probe_misses]:
                jr.java_own.append(f"{key}: {jr.probe_misses.pop(key)}")
            for key, error in list(jr.probe_errors.items()):  # the same exception, not just any failure
                if key in cj.probe_errors and exception_text(error) == exception_text(cj.probe_errors[key]):
                    jr.java_own.append(f"{key}: {jr.probe_errors.pop(key)}")


# --------------------------------------------------------------------------- the kit's console script


def cli_command() -> list[str]:
    """The kit's console script in the venv running the tests."""
    script = Path(sys.executable).with_name("paimon-conform")
    return [str(script)] if script.exists() else [sys.executable, "-m", "paimon_conform.cli"]


def has_traceback(stderr: str) -> bool:
    return "Traceback (most recent call last)" in stderr


def findings_of(stdout: str) -> list[dict]:
    """The findings of a `--report json` document (empty when stdout holds none)."""
    start = stdout.find("{")
    if start < 0:
        return []
    try:
        doc = json.loads(stdout[start:])
    except json.JSONDecodeError:
        return []
    return [f for r in doc.get("files", []) for f in r.get("findings", [])]


def run_cli(dirs: list[str]) -> subprocess.CompletedProcess:
    """`paimon-conform validate DIR... --report json --java-version JAVA_TARGET`, the real console script."""
    command = [*cli_command(), "validate", *dirs, "--report", "json", "--java-version", JAVA_TARGET]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def validate(dirs: list[str]) -> dict[str, tuple[int, str, list[dict]]]:
    """(exit code, stderr, findings) per table: one console-script run over all; when it does not exit 0 or 1
    cleanly, one run per table (up to MAX_SINGLE_RUNS; the rest keep the batch's outcome)."""
    if not dirs:
        return {}
    batch = run_cli(dirs)
    if batch.returncode in (0, 1) and not has_traceback(batch.stderr):
        found: dict[str, list[dict]] = {d: [] for d in dirs}
        for f in findings_of(batch.stdout):
            owner = next((d for d in dirs if f.get("file", "") == d or f.get("file", "").startswith(d + "/")), None)
            if owner is not None:
                found[owner].append(f)
        return {d: (batch.returncode, "", found[d]) for d in dirs}
    out = {d: (batch.returncode, batch.stderr[-4000:], []) for d in dirs}
    for d in dirs[:MAX_SINGLE_RUNS]:
        one = run_cli([d])
        out[d] = (one.returncode, one.stderr[-4000:], findings_of(one.stdout))
    return out


# --------------------------------------------------------------------------- the build


def _write_all(session: Session, specs: list[TableSpec], base: Path) -> dict[str, tuple[bool, str]]:
    """Each spec written by one writer session: (written, why not) by cell id."""
    out: dict[str, tuple[bool, str]] = {}
    try:
        hello = session.open()
    except Exception as exc:  # noqa: BLE001 - TesteeFault or the environment: every cell records it
        return {s.cell.id: (False, f"the testee did not start: {exc}") for s in specs}
    if CUSTOM not in hello["capabilities"].get("write-table", []):
        return {s.cell.id: (False, f"the testee does not declare write-table {CUSTOM}") for s in specs}
    for s in specs:
        path = base / s.cell.writer / "db.db" / s.cell.name
        path.parent.mkdir(parents=True, exist_ok=True)
        reply, why = session.exchange(testees.write_request(path, s.table(), s.commits), "write_table_reply")
        out[s.cell.id] = (reply is not None, why.removeprefix("error: "))
    return out


def _read_all(session: Session, results: list[CellResult], probe: bool) -> list[tuple[dict | None, str]]:
    """Each written table read by one reader session (with probes when `probe`)."""
    out = []
    for r in results:
        request = testees.read_request(r.dir, r.spec.fields, r.spec.probe if probe else None, max_probes=MAX_PROBES)
        out.append(session.exchange(request, "read_table_reply"))
    return out


def build(
    base: Path,
    writers: tuple[str, ...] = (*WRITERS, CONTROL),
    log: Any = None,
    only: Any = None,
) -> list[CellResult]:
    """Write, validate and read every cell's table (those `only(cell)` keeps) under `base` (see the module
    docstring)."""
    say = log or (lambda _m: None)
    chosen = [c for c in cells(writers) if only is None or only(c)]
    specs = {c: spec(c) for c in chosen}
    sessions = {n: testees.session(n) for n in {*writers, *JAVA_READERS, KIT_READER}}
    try:
        with ThreadPoolExecutor(len(writers)) as pool:
            futures = {
                w: pool.submit(_write_all, sessions[w], [specs[c] for c in chosen if c.writer == w], base)
                for w in writers
            }
            written = {cid: v for f in futures.values() for cid, v in f.result().items()}
        say("written")
        results = []
        for c in chosen:
            ok, why = written[c.id]
            d = str(base / c.writer / "db.db" / c.name)
            results.append(CellResult(c, specs[c], d, ok, None if ok else why or "no reason given"))
        ok = [r for r in results if r.written]
        with ThreadPoolExecutor(3) as pool:
            probing = pool.submit(_read_all, sessions[PROBING], ok, True)
            halves = [pool.submit(validate, [r.dir for r in ok[i::2]]) for i in range(2)]
            plain = {n: pool.submit(_read_all, sessions[n], ok, False) for n in (*JAVA_READERS[1:], KIT_READER)}
            reads = {PROBING: probing.result(), **{n: f.result() for n, f in plain.items()}}
            validated = {d: v for h in halves for d, v in h.result().items()}
        say("validated and read")
    finally:
        for s in sessions.values():
            s.close()
    for i, r in enumerate(ok):
        r.cli_rc, r.cli_stderr, r.findings = validated[r.dir]
        for name in JAVA_READERS:
            r.java[name] = java_read(r.spec, *reads[name][i])
        reply, why = reads[KIT_READER][i]
        if reply is None:
            r.kit_error = why
        else:
            r.kit_rows = reply["rows"]
    subtract_java_own(results)
    return results


def kit_reads_like_java(r: CellResult) -> str | None:
    """None when the kit's reader returned Java 1.0-SNAPSHOT's rows; else what differs."""
    if r.kit_error is not None:
        return f"the kit's reader refuses a table Java reads: {r.kit_error}"
    return compare(r.spec.fields, r.kit_rows, r.java[PROBING].rows)


# --------------------------------------------------------------------------- judging a cell


def short(text: str | None) -> str:
    """An error or evidence as one pinned-list reason."""
    text = re.sub(r"/\S*?/db\.db/", "<warehouse>/db.db/", text or "no error recorded")
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return " ".join(re.sub(r"@[0-9a-f]+", "@<hash>", text).split())[:240].replace("#", "No.")


def pinned(results: list[CellResult]) -> dict[str, str]:
    """What the run excuses or expects, as list ids with their reasons: `refused:<cell>` (the writer's error),
    `java-limit:<control cell>` (Java cannot read, or misreads, its own table), `java-own:<cell>` (evidence
    dropped because Java shows it on its own control table too: a failed read, other rows, filtered reads) and
    `incompatible:<cell>` (the KNOWN ids it shows; UNLISTED when Java shows
    a problem no entry explains)."""
    out = {}
    for r in results:
        cid = r.cell.id
        if not r.written:
            out[f"refused:{cid}"] = short(r.write_error)
            continue
        if r.cell.writer == CONTROL:
            if r.java_problem:
                out[f"java-limit:{cid}"] = short(r.java_problem)
            continue
        own = [f"{n}: {j.java_own[0]}" for n, j in r.java.items() if j.java_own]
        if own:
            out[f"java-own:{cid}"] = short(own[0])
        ids = known.shown(r.cell.writer, r.cell.role, r.cell.type_label, r.java_evidence if r.java_problem else "")
        if r.java_problem or ids:
            out[f"incompatible:{cid}"] = ", ".join(ids) or "UNLISTED"
    return out


def listed_known(r: CellResult, listed: dict[str, str]) -> list[known.Known]:
    """The KNOWN entries the pinned list expects the cell to show."""
    reason = listed.get(f"incompatible:{r.cell.id}", "")
    return [known.KNOWN[i] for i in reason.split(", ") if i in known.KNOWN]


# Must-findings about what filtered reads do (statistics, file indexes): only a filtered read through them can
# contradict one, on the column it names (`k: ...`), or on any data column for a table-wide one.
FILTER_CODES = frozenset(
    {
        "MANIFEST_VALUE_STATS",
        "MANIFEST_KEY_STATS",
        "MANIFEST_VALUE_STATS_COLS",
        "FILE_INDEX_NEEDS_NEWER_JAVA",
        "DATA_FILE_NAN_STATISTICS",
    }
)
COLUMN_FILTER_CODES = frozenset({"MANIFEST_VALUE_STATS", "MANIFEST_KEY_STATS", "DATA_FILE_NAN_STATISTICS"})


def _contradicted(r: CellResult, finding: dict, j: JavaRead | None) -> bool:
    """Whether Java's evidence for the cell contradicts a must-finding (Java read right where it applies)."""
    if finding["code"] not in FILTER_CODES:
        return True
    if j is None or not r.spec.reads_values or j.java_own:  # no probe, or Java's own limit dropped them
        return False
    if finding["code"] == "DATA_FILE_NAN_STATISTICS":  # path row_groups[g].<column>
        column = finding.get("path", "").split(".", 1)[-1]
    else:
        column = finding.get("message", "").split(":", 1)[0]
    probed = {key.split(" = ", 1)[0] for key in j.probed}
    return column in probed if finding["code"] in COLUMN_FILTER_CODES else bool(probed)


def false_musts(r: CellResult, listed: dict[str, str]) -> list[dict]:
    """Must-findings Java's evidence contradicts.

    A finding on the index manifest or a HASH index file is false when Java read them (and every key hash was
    where it belongs); any other must-finding is false when Java shows no problem at all and no listed
    incompatibility without Java evidence explains it; on a control table Java reads right, every one."""
    if not r.written or r.crashed:
        return []
    j = r.java.get(PROBING)
    out = []
    for f in r.musts:
        name = f.get("file", "").rsplit("/", 1)[-1]
        if (name.startswith("index-manifest") or "/index/" in f.get("file", "")) and j is not None and j.index_read_ok:
            out.append(f)
    if r.cell.writer == CONTROL:
        return r.musts if j is not None and j.rows_equal else out
    if not r.java_problem and not any(x.same_as_own for x in r.java.values()):
        unverifiable = {c for k in listed_known(r, listed) if k.java is None for c in k.codes}
        out += [f for f in r.musts if f not in out and f["code"] not in unverifiable and _contradicted(r, f, j)]
    return out


def report_markdown(results: list[CellResult], listed: dict[str, str]) -> str:
    """The matrix as Markdown, one line per cell."""
    head = [
        "cell",
        "written",
        "Java 1.0 reads",
        "rows / filtered reads",
        "Java 0.9 reads",
        "kit findings",
        "kit reader",
    ]
    lines = ["# Writers x types x roles", "", f"{len(results)} cells; validator judged for Java {JAVA_TARGET}.", ""]
    lines += ["| " + " | ".join([*head, "listed"]) + " |", "|" + "---|" * (len(head) + 1)]
    by_cell: dict[str, list[str]] = {}
    for k, v in listed.items():
        kind, _, cid = k.partition(":")
        by_cell.setdefault(cid, []).append(f"{kind}: {v[:60]}")
    for r in results:
        j10, j09 = r.java.get(PROBING), r.java.get("java-0.9.0")
        row = [
            r.cell.id,
            "yes" if r.written else f"no: {short(r.write_error)[:110]}",
            "-" if j10 is None else "yes" if j10.reads else f"no: {exception_text(j10.error)[:90]}",
            "-" if j10 is None or not j10.reads else (j10.problem or "right")[:120],
            "-" if j09 is None else "yes" if j09.reads else f"no: {exception_text(j09.error)[:60]}",
            r.crashed or ", ".join(r.codes) or ("-" if not r.written else "clean"),
            "-" if not r.written else (r.kit_error or "returned rows")[:80],
            "; ".join(by_cell.get(r.cell.id, [])) or "-",
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in row) + " |")
    return "\n".join(lines) + "\n"
