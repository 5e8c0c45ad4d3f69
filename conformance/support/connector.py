"""Paimon's Spark connector from the suite: its SQL workloads (tools/connector/workloads.py) run in the connector's
virtualenv, and what it read back. The kit's own checks run here, in the kit's venv."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import java_releases

from support.environment import missing

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv-connector" / "bin" / "python"
WORKLOADS = ROOT / "tools" / "connector" / "workloads.py"


def release() -> java_releases.Connector:
    """The connector release the suite runs (the newest in tools/java/releases.tsv)."""
    return list(java_releases.connectors().values())[-1]


KIT_TABLES = ROOT / "tools" / "connector" / "kit_tables.py"
NULL_CREATION_TIME = "kit_pk_dv_null_creation_time"  # kit_pk_dv with one live file's _CREATION_TIME nulled


def run_workloads(work: Path) -> tuple[Path, dict[str, Any], subprocess.CompletedProcess]:
    """(warehouse, what the connector read, the last process) of every workload, run into `work`/warehouse, and of
    the kit's tables (kit_tables.py, in this venv, into `work`/kit; the connector reads and writes them): the
    document has `kit_written` (what kit_tables.py wrote), `kit` and `kit_errors` besides the workloads'."""
    if not VENV_PYTHON.is_file():
        missing(f"no {VENV_PYTHON}: tools/install.sh makes the connector's virtualenv")
    jar = java_releases.resolve(release().jar)
    warehouse, out, kit = work / "warehouse", work / "connector.json", work / "kit.json"
    done = subprocess.run(
        [sys.executable, str(KIT_TABLES), str(work / "kit"), str(kit)], capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        return warehouse, {}, done
    written = json.loads(kit.read_text(encoding="utf-8"))
    written[NULL_CREATION_TIME] = _null_creation_time(written["kit_pk_dv"])
    kit.write_text(json.dumps(written), encoding="utf-8")
    command = [str(VENV_PYTHON), str(WORKLOADS), str(jar), str(warehouse), str(out), "--kit", str(kit)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    doc = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    if doc:
        doc["kit_written"] = written
    return warehouse, doc, done


def _null_creation_time(table: dict[str, Any]) -> dict[str, Any]:
    """A copy of a kit table whose newest live file has no `_CREATION_TIME` (a fault the kit's writer once made)."""
    from support import fault_catalog

    source = Path(table["path"])
    copy = shutil.copytree(source, source.parent / NULL_CREATION_TIME)

    def null(record: dict) -> None:
        record["_FILE"]["_CREATION_TIME"] = None

    fault_catalog.edit_live_entry(copy, null)
    return {**table, "path": str(copy)}


def literal(text: Any) -> Any:
    """A workload filter's SQL literal as a logical value: a number, or a quoted string unquoted."""
    if isinstance(text, str) and len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1]
    return text


def _comparable(v: Any) -> Any:
    """A logical value compared as SQL compares its column (DECIMAL text as a number)."""
    if isinstance(v, str):
        try:
            return Decimal(v) if v[:1].isdigit() or v[:1] == "-" else v
        except ArithmeticError:
            return v
    return v


def matches(value: Any, op: str, lit: Any) -> bool:
    """SQL's answer for `value op lit` (NULL never matches)."""
    if value is None:
        return False
    a, b = (value, lit) if isinstance(value, str) else (_comparable(value), _comparable(lit))
    if op == "=":
        return a == b
    if op == "<":
        return a < b
    if op == ">=":
        return a >= b
    raise ValueError(f"no filter operator {op!r}")


def filtered(fields: list[dict[str, Any]], rows: list[list[Any]], column: str, op: str, lit: Any) -> list[list[Any]]:
    """The rows whose `column` matches the filter."""
    at = [f["name"] for f in fields].index(column)
    return [r for r in rows if matches(r[at], op, literal(lit))]
