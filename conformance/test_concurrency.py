"""Writers and the files they leave: temporary files of an unfinished commit are warnings."""

from __future__ import annotations

import uuid
from pathlib import Path

import pyarrow as pa

from paimon_conform.table import commit, write
from paimon_conform.table.layout import is_temp_name
from paimon_conform.table.validate import validate_table

SCHEMA = pa.schema([("id", pa.int64()), ("dt", pa.string()), ("v", pa.float64()), ("op", pa.string())])
KINDS: dict[str, dict[str, str]] = {
    "append": {"partition": "dt", "bucket": "-1"},
    "pk": {"primary-key": "dt,id", "partition": "dt", "bucket": "2", "rowkind.field": "op"},
    "dv": {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": "2",
        "rowkind.field": "op",
        "deletion-vectors.enabled": "true",
    },
    "dynamic": {
        "primary-key": "dt,id",
        "partition": "dt",
        "bucket": "-1",
        "rowkind.field": "op",
        "dynamic-bucket.target-row-num": "5",
    },
}
BASE_KEYS = 12  # keys 0..11 in the table before the writers start (dt a / b by parity)


def base_rows() -> list[tuple]:
    return [(k, "ab"[k % 2], 0.0, "+I") for k in range(BASE_KEYS)]


def write_here(root: Path, options: dict[str, str], rows: list[tuple]) -> list[int]:
    """A write in this process (no held steps)."""
    plan = write.prepare(root, SCHEMA, options, False)
    table = pa.Table.from_pylist([dict(zip(SCHEMA.names, r, strict=True)) for r in rows], SCHEMA)
    return commit.commit(plan, [write.write_task(plan, table.to_batches(), 0)])


def new_table(tmp_path: Path, kind: str) -> tuple[Path, dict[str, str]]:
    root = tmp_path / kind
    options = KINDS[kind]
    write_here(root, options, base_rows())
    return root, options


def test_temporary_files_of_an_unfinished_commit_are_warnings(tmp_path):
    """`.<name>.<uuid>.tmp` (Java's Path.createTempPath, and this writer's) where a killed commit leaves it: a
    warning, as Java ignores the file; a name that only looks temporary is still a bad name."""
    root, _ = new_table(tmp_path, "dv")
    bucket = next(p.parent for p in root.rglob("*.parquet"))
    temps = [
        root / "snapshot" / f".snapshot-9.{uuid.uuid4()}.tmp",
        root / "snapshot" / f".LATEST.{uuid.uuid4()}.tmp",
        root / "schema" / f".schema-1.{uuid.uuid4()}.tmp",
        bucket / f".data-{uuid.uuid4()}-0.parquet.{uuid.uuid4()}.tmp",
    ]
    bad = root / "snapshot" / ".snapshot-9.tmp"
    for p in [*temps, bad]:
        p.write_text("{")
    assert all(is_temp_name(p.name) for p in temps)
    assert not is_temp_name(bad.name)
    found = {(f.code, f.severity, Path(f.file).name) for r in validate_table(root) for f in r.findings}
    for p in temps:
        assert ("TABLE_UNREFERENCED_FILE", "warning", p.name) in found
    assert {(code, sev) for code, sev, name in found if name != bad.name} == {("TABLE_UNREFERENCED_FILE", "warning")}
    assert ("TABLE_BAD_FILE_NAME", "must", bad.name) in found
