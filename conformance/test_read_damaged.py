"""Reading never returns wrong rows: damaged deletion-vector metadata is refused, not ignored.

Each case changes one field of the latest index manifest of a deletion-vector table the kit
wrote (or removes the file it names). The reader and the Spark source either raise the kit's
UsageError or return exactly the rows of the undamaged table; before, a vector they could
not read was skipped and the deleted rows came back without a word.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import fastavro
import pytest

from paimon_conform.core.errors import UsageError
from paimon_conform.table.read import reader
from paimon_conform.table.validate.table import validate_table
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("contract",)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, list]:
    """A DV table with deletions in several files, and its rows as the reader returns them."""
    root = tmp_path_factory.mktemp("dv") / "t"
    write_table(root, rows=80, buckets=2, delete_every=3, release="1.0.0")  # 1.0 records carry _CARDINALITY
    schema, rows = reader.read_latest(root)
    return root, sorted(map(tuple, reader.logical_rows(schema, rows)), key=repr)


def _index_manifest(root: Path) -> Path:
    latest = max(root.glob("snapshot/snapshot-*"), key=lambda p: int(p.name.split("-")[1]))
    return root / "manifest" / json.loads(latest.read_text())["indexManifest"]


def _change_ranges(change: Callable[[list[dict]], None]) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        path = _index_manifest(root)
        with path.open("rb") as f:
            rd = fastavro.reader(f)
            schema, records = rd.writer_schema, list(rd)
        dv = [r for r in records if r["_INDEX_TYPE"] == "DELETION_VECTORS" and r["_DELETIONS_VECTORS_RANGES"]]
        change([rng for r in dv for rng in r["_DELETIONS_VECTORS_RANGES"]])
        with path.open("wb") as f:
            fastavro.writer(f, schema, records)

    return mutate


def _set(field: str, value: Callable[[dict], object]) -> Callable[[Path], None]:
    def change(ranges: list[dict]) -> None:
        ranges[0][field] = value(ranges[0])

    return _change_ranges(change)


def _swap_names(ranges: list[dict]) -> None:
    ranges[0]["f0"], ranges[1]["f0"] = ranges[1]["f0"], ranges[0]["f0"]


def _drop_index_file(root: Path) -> None:
    with _index_manifest(root).open("rb") as f:
        name = next(r["_FILE_NAME"] for r in fastavro.reader(f) if r["_INDEX_TYPE"] == "DELETION_VECTORS")
    (root / "index" / name).unlink()


def _truncate_index_file(root: Path) -> None:
    with _index_manifest(root).open("rb") as f:
        name = next(r["_FILE_NAME"] for r in fastavro.reader(f) if r["_INDEX_TYPE"] == "DELETION_VECTORS")
    path = root / "index" / name
    path.write_bytes(path.read_bytes()[:-7])


DAMAGE: dict[str, Callable[[Path], None]] = {
    "offset +1": _set("f1", lambda r: r["f1"] + 1),
    "offset -1": _set("f1", lambda r: r["f1"] - 1),
    "offset past the end": _set("f1", lambda r: 1 << 30),
    "offset negative": _set("f1", lambda r: -4),
    "length +1": _set("f2", lambda r: r["f2"] + 1),
    "length -1": _set("f2", lambda r: r["f2"] - 1),
    "length zero": _set("f2", lambda r: 0),
    "length huge": _set("f2", lambda r: (1 << 31) - 1),
    "cardinality wrong": _set("_CARDINALITY", lambda r: 1_000_000),
    "cardinality zero": _set("_CARDINALITY", lambda r: 0),
    "data file renamed": _set("f0", lambda r: "data-00000000-0000-0000-0000-000000000000-0.parquet"),
    "data file names swapped": _change_ranges(_swap_names),
    "index file removed": _drop_index_file,
    "index file truncated": _truncate_index_file,
}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_reader_refuses_damaged_deletion_vectors(pristine, tmp_path, damage):
    root, expected = pristine
    table = tmp_path / "t"
    shutil.copytree(root, table)
    DAMAGE[damage](table)
    try:
        schema, rows = reader.read_latest(table)
    except UsageError as exc:
        message = str(exc)
    else:
        message = ""
    if message:
        assert str(table) in message
        return
    assert sorted(map(tuple, reader.logical_rows(schema, rows)), key=repr) == expected, "wrong rows, no error"


def test_damage_cases_really_change_the_deletions(pristine, tmp_path):
    """Control: ignoring the damaged vector (what readers did) does return deleted rows."""
    root, expected = pristine
    table = tmp_path / "t"
    shutil.copytree(root, table)
    _drop_index_file(table)
    (table / "snapshot" / "LATEST").unlink(missing_ok=True)
    latest = max(table.glob("snapshot/snapshot-*"), key=lambda p: int(p.name.split("-")[1]))
    doc = json.loads(latest.read_text())
    del doc["indexManifest"]
    latest.write_text(json.dumps(doc))
    _, rows = reader.read_latest(table)
    assert len(rows) > len(expected)


@pytest.mark.spark
def test_spark_source_refuses_damaged_deletion_vectors(spark, pristine, tmp_path):
    root, _ = pristine
    table = tmp_path / "t"
    shutil.copytree(root, table)
    DAMAGE["cardinality wrong"](table)
    with pytest.raises(Exception, match=r"deletion vectors cannot be trusted|DV_CARDINALITY"):
        spark.read.format("paimon").load(str(table)).collect()


# ------------------------------------------------------------------------------ the latest snapshot


def _latest(root: Path) -> Path:
    return max(root.glob("snapshot/snapshot-*"), key=lambda p: int(p.name.split("-")[1]))


def _next_snapshot_outside(root: Path) -> None:
    """A snapshot N+1 as Java would write it, but stored outside the table and linked in: Java follows the
    link and reads it; the kit opens nothing outside the table, so it must refuse, not serve snapshot N."""
    latest = _latest(root)
    doc = json.loads(latest.read_text())
    outside = root.parent / "elsewhere"
    outside.mkdir()
    (outside / f"snapshot-{doc['id'] + 1}").write_text(json.dumps({**doc, "id": doc["id"] + 1}))
    (root / "snapshot" / f"snapshot-{doc['id'] + 1}").symlink_to(outside / f"snapshot-{doc['id'] + 1}")


def _next_snapshot(make: Callable[[Path], None]) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        sid = int(_latest(root).name.split("-")[1]) + 1
        make(root / "snapshot" / f"snapshot-{sid}")

    return mutate


def _schema_unknown(root: Path) -> None:
    latest = _latest(root)
    latest.write_text(json.dumps({**json.loads(latest.read_text()), "schemaId": 7}))


LATEST_DAMAGE: dict[str, Callable[[Path], None]] = {
    "the latest snapshot links outside the table": _next_snapshot_outside,
    "the latest snapshot is a dangling link": _next_snapshot(lambda p: p.symlink_to(p.parent / "gone")),
    "the latest snapshot is a directory": _next_snapshot(lambda p: p.mkdir()),
    "the latest snapshot is not JSON": _next_snapshot(lambda p: p.write_bytes(b"\xff{")),
    "the latest snapshot names an unknown schema": _schema_unknown,
}


@pytest.mark.parametrize("damage", sorted(LATEST_DAMAGE))
def test_a_latest_snapshot_that_cannot_be_read_is_an_error_not_the_one_before(pristine, tmp_path, damage):
    root, _ = pristine
    table = tmp_path / "t"
    shutil.copytree(root, table, symlinks=True)
    LATEST_DAMAGE[damage](table)
    with pytest.raises(UsageError, match=r"cannot read|snapshot") as err:
        reader.read_latest(table)
    assert str(table) in str(err.value)
    findings = [f for r in validate_table(table) for f in r.findings if f.severity == "must"]
    assert findings, "the validator must report what the reader refuses"


@pytest.mark.spark
@pytest.mark.parametrize("damage", sorted(LATEST_DAMAGE))
def test_the_spark_source_refuses_what_the_reader_refuses(spark, pristine, tmp_path, damage):
    """One planning path: the Spark source checks the snapshot chain as the reader does, and never serves the
    snapshot before one it cannot read."""
    root, _ = pristine
    table = tmp_path / "t"
    shutil.copytree(root, table, symlinks=True)
    LATEST_DAMAGE[damage](table)
    with pytest.raises(Exception, match=r"cannot read|snapshot"):  # Spark wraps the kit's UsageError
        spark.read.format("paimon").load(str(table)).collect()
