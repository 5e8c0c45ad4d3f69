"""Tables with BLOBs inside an ARRAY or a MAP (Paimon 2.0), written by Java 2.0.0 and read by the releases around it,
for test_blob_nested_java.py: no committed golden holds them (the kit's table goldens model atomic types only)."""

from __future__ import annotations

import json
from typing import Any

import paimon_java
import pytest

from support import testees

WRITER = "2.0.0"  # the first release with nested BLOBs
READERS = ("1.3.1", "1.4.2", "2.0.0")
OPTIONS = {"file.format": "parquet", "row-tracking.enabled": "true", "data-evolution.enabled": "true"}
COLUMNS: dict[str, Any] = {
    "array-blob": {"type": "ARRAY", "element": "BLOB"},
    "map-blob": {"type": "MAP", "key": "INT", "value": "BLOB"},
}
VALUES: dict[str, list[Any]] = {  # the column's value of rows 0..5 in TableGoldenWriter's form (BLOB data as hex)
    "array-blob": [None, ["0a0b", "0c"], [], ["", "ff"], None, ["00" * 40]],
    "map-blob": [None, [[1, "0a0b"], [2, "0c"]], [], [[7, ""]], None, [[-3, "00" * 40]]],
}


def _case(name: str) -> dict[str, Any]:
    rows = [["+I", [i, v]] for i, v in enumerate(VALUES[name])]
    return {
        "name": name,
        "fields": [{"name": "id", "type": "INT"}, {"name": "pics", "type": COLUMNS[name]}],
        "primary_keys": [],
        "partition_keys": [],
        "options": OPTIONS,
        "steps": [{"op": "write", "fields": ["id", "pics"], "rows": part} for part in (rows[:4], rows[4:])],
    }


def run(factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Per table: its folder, the rows Java 2.0.0 read back, and each reader release's (reply, why) of reading
    the id column."""
    base = factory.mktemp("nested-blob")
    (base / "cases.json").write_text(json.dumps({"cases": [_case(n) for n in COLUMNS]}))
    paimon_java.run_java_tables(WRITER, "TableGoldenWriter", str(base / "cases.json"), str(base / "out"))
    out: dict[str, dict[str, Any]] = {}
    for name in COLUMNS:
        report = json.loads((base / "out" / f"{name}.report.json").read_text())
        out[name] = {"root": base / "out" / name, "rows": report["rows"], "reads": {}}
    for release in READERS:
        with testees.opened(f"java-{release}") as s:
            for table in out.values():
                request = testees.read_request(table["root"], [{"name": "id", "type": "INT"}])
                table["reads"][release] = s.exchange(request, "read_table_reply")
    return out
