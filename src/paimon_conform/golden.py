"""Check the golden corpus: every file against its sidecar.

A valid golden must inspect to its sidecar's content, re-encode byte for byte
from the sidecar and validate with no must or should finding. A must-reject
golden must produce, as its first must finding, the code, path and offset its
sidecar names. A dynamic_bucket golden (Java's bucket assignment sequence)
must replay exactly with the kit's assigners. A golden table (a whole table
directory written by Java Paimon, tables/java-*/<case>/) must validate with no
must or should finding.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

from paimon_conform.core import cases
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.findings import Finding, place
from paimon_conform.core.java_releases import judge
from paimon_conform.core.report import FileResult
from paimon_conform.formats.orc import worker as orc_worker
from paimon_conform.layouts.hash_index import dynamic_bucket
from paimon_conform.layouts.registry import get


def default_root() -> Path | None:
    """The repository's golden/ folder, when running from a checkout."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "golden").is_dir() and (parent / "specs").is_dir():
            return parent / "golden"
    return None


def sidecars(root: Path) -> list[Path]:
    """Every sidecar under a golden root, sorted."""
    return sorted(p for p in root.rglob("*.json") if p.with_suffix(".bin").is_file())


def check_one(sidecar: Path, root: Path) -> FileResult:
    """Check one golden file against its sidecar."""
    rel = str(sidecar.with_suffix(".bin").relative_to(root))
    try:
        case = cases.check(json.loads(sidecar.read_text()))
    except (PaimonConformError, json.JSONDecodeError) as exc:
        return FileResult(rel, "?", unusable=f"sidecar: {exc}")
    layout = get(case["kind"])
    data = sidecar.with_suffix(".bin").read_bytes()
    result = FileResult(rel, layout.kind)
    found = layout.validate(data, layout.case_types(case))
    if "must_reject" in case:
        expected = case["must_reject"]
        musts = [f for f in found if f.severity == "must"]
        if not musts:
            result.findings.append(
                Finding(
                    "GOLDEN_NOT_REJECTED",
                    "must",
                    expected["path"],
                    expected["offset"],
                    f"accepted, but must be rejected with {expected['code']}",
                    rel,
                )
            )
        else:
            got = musts[0]
            if (got.code, got.path, got.offset) != (expected["code"], expected["path"], expected.get("offset")):
                result.findings.append(
                    Finding(
                        "GOLDEN_WRONG_REJECTION",
                        "must",
                        got.path,
                        got.offset,
                        f"rejected with {got.code} at {got.where()}, expected {expected['code']} at "
                        f"{place(expected['path'], expected.get('offset'))}",
                        rel,
                    )
                )
        return result
    for f in judge(found):  # a valid golden is valid for the newest release; an older one may not read it
        f.file = rel
        if f.severity != "warning":
            result.findings.append(f)
    try:
        if cases.content(layout.inspect(data, layout.case_types(case))) != cases.content(case):
            result.findings.append(
                Finding("GOLDEN_INSPECT_MISMATCH", "must", "", None, "inspect output differs from the sidecar", rel)
            )
        if layout.encode(case) != data:
            result.findings.append(
                Finding(
                    "GOLDEN_ENCODE_MISMATCH", "must", "", None, "encoding the sidecar does not reproduce the file", rel
                )
            )
    except PaimonConformError as exc:
        result.findings.append(Finding("GOLDEN_ERROR", "must", "", None, str(exc), rel))
    return result


def check_sequence(path: Path, root: Path) -> FileResult:
    """Replay one dynamic_bucket golden (Java's assignment sequence) with the kit's assigners."""
    rel = str(path.relative_to(root))
    result = FileResult(rel, "dynamic-bucket")
    try:
        problems = dynamic_bucket.replay(json.loads(path.read_text()))
    except (PaimonConformError, json.JSONDecodeError, OSError) as exc:
        return FileResult(rel, "dynamic-bucket", unusable=str(exc))
    result.findings.extend(Finding("GOLDEN_ASSIGNMENT_MISMATCH", "must", "", None, p, rel) for p in problems)
    return result


def judged_for(sidecar: Path) -> str:
    """The release line a golden table is judged for: the Java that wrote it (the 1.0-SNAPSHOT jar predates 1.0.0
    and reads like 0.9), else the newest."""
    from paimon_conform.core.java_releases import NEWEST, release

    _, writer = provenance(sidecar)
    if not writer.startswith("Java "):
        return NEWEST
    version = writer[5:]
    return "0.9" if version == "1.0-SNAPSHOT" else release(version)


def check_table(sidecar: Path, root: Path) -> FileResult:
    """Validate one golden table directory, judged for the release that wrote it (what other releases make of
    it is the testees' business); its must and should findings are failures."""
    from paimon_conform.table.validate.table import validate_table

    table = sidecar.with_suffix("")
    rel = str(table.relative_to(root))
    result = FileResult(rel, "table")
    for r in validate_table(table, java_version=judged_for(sidecar)):
        if r.unusable is not None:
            inner = Path(r.file)
            where = "" if inner == table else f"{inner.relative_to(table) if inner.is_relative_to(table) else inner}: "
            return FileResult(rel, "table", unusable=f"{where}{r.unusable}")
        result.findings.extend(f for f in r.findings if f.severity != "warning")
    return result


CHECKS = {"file": check_one, "sequence": check_sequence, "table": check_table}


EVIDENCE_KINDS = ("java-written", "java-read", "third-party", "kit")  # provenance.evidence.kind (schemas/common.json)


WRITERS = {
    "reference-encoder": "reference encoder",
    "mutation": "mutation",
    "java-verified-notes": "Java-verified notes",
}


def provenance(sidecar: Path) -> tuple[str, str]:
    """(evidence kind, writer) of a golden, from one read of its sidecar's provenance. The evidence kind says what
    its expected content rests on (java-written, java-read, third-party, kit); the writer who wrote it ("Java
    <release>", "reference encoder", "mutation": a must-reject file made from another, "Java-verified notes").
    Either is "unstated" when the sidecar does not say (or cannot be read: its check reports why)."""
    try:
        prov = json.loads(sidecar.read_text(encoding="utf-8"))["provenance"]
    except (OSError, ValueError, KeyError, TypeError):
        return "unstated", "unstated"
    if not isinstance(prov, dict):
        return "unstated", "unstated"
    evidence = prov.get("evidence")
    kind = evidence.get("kind") if isinstance(evidence, dict) else None
    producer, version = prov.get("producer"), prov.get("paimon_version")
    if producer == "java-paimon" and isinstance(version, str):
        writer = f"Java {version}"
    else:
        writer = WRITERS.get(producer, "unstated") if isinstance(producer, str) else "unstated"
    return (kind if isinstance(kind, str) and kind in EVIDENCE_KINDS else "unstated"), writer


def corpus_work(root: Path) -> list[tuple[str, Path, tuple[str, str, str]]]:
    """Every golden to check, in report order: (check, path, (layout, evidence kind, writer) for the tally)."""
    work = [("file", side, (side.parent.parent.name, *provenance(side))) for side in sidecars(root)]
    for path in sorted((root / "dynamic_bucket").rglob("*.json")):
        work.append(("sequence", path, (path.parent.parent.name, *provenance(path))))
    for side in sorted((root / "tables").glob("*/*.json")):
        if side.with_suffix("").is_dir():
            work.append(("table", side, ("table", *provenance(side))))
    return work


def _check(item: tuple[str, Path, tuple[str, str, str]], root: Path) -> FileResult:
    return CHECKS[item[0]](item[1], root)


def check_corpus(root: Path, jobs: int = 1) -> tuple[list[FileResult], Counter]:
    """Check every golden (in `jobs` forked processes when > 1; the results in the same order); also count
    files by layout, the evidence their expected content rests on and who wrote them."""
    work = corpus_work(root)
    tally = Counter(item[2] for item in work)
    if jobs <= 1 or len(work) < 2 or "fork" not in mp.get_all_start_methods():
        return [_check(item, root) for item in work], tally
    # forked after the imports: the workers start at once, under the budget in force here
    workers = min(jobs, len(work), 4 * (os.cpu_count() or 1))  # more than that only costs memory
    initializer = None
    if any(item[0] == "table" for item in work):
        orc_worker.warm()  # each worker forks its ORC reader at its start, ready, instead of starting Python
        initializer = orc_worker.fork_worker
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"), initializer=initializer) as pool:
        results = list(pool.map(partial(_check, root=root), work, chunksize=2))
    return results, tally
