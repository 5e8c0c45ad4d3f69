"""Paimon's Spark connector from the suite: its SQL workloads (tools/connector/workloads.py) run in the connector's
virtualenv, and what it read back. The kit's own checks run here, in the kit's venv."""

from __future__ import annotations

import json
import subprocess
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


def run_workloads(work: Path) -> tuple[Path, dict[str, Any], subprocess.CompletedProcess]:
    """(warehouse, what the connector read, the process) of every workload, run into `work`/warehouse."""
    if not VENV_PYTHON.is_file():
        missing(f"no {VENV_PYTHON}: tools/install.sh makes the connector's virtualenv")
    jar = java_releases.resolve(release().jar)
    warehouse, out = work / "warehouse", work / "connector.json"
    command = [str(VENV_PYTHON), str(WORKLOADS), str(jar), str(warehouse), str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1200)
    doc = json.loads(out.read_text(encoding="utf-8")) if out.is_file() else {}
    return warehouse, doc, done


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
