"""`validate TABLE_DIR` on a table written by pypaimon 2.1.0, clean and with injected faults."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.environment import missing

from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("third-party",)

ARROW_SCHEMA = pa.schema([("dt", pa.string()), ("id", pa.int64()), ("v", pa.float64()), ("s", pa.string())])


def write_pypaimon_table(warehouse: Path, file_format: str) -> Path:
    """A partitioned primary-key table, bucket = 4, written by pypaimon in one commit."""
    try:
        from pypaimon import CatalogFactory, Schema
    except ImportError:
        missing("pypaimon (the peers extra) is not installed")
    catalog = CatalogFactory.create({"warehouse": str(warehouse)})
    catalog.create_database("db", True)
    options = {"bucket": "4", "file.format": file_format}
    schema = Schema.from_pyarrow_schema(ARROW_SCHEMA, partition_keys=["dt"], primary_keys=["dt", "id"], options=options)
    catalog.create_table("db.t", schema, False)
    table = catalog.get_table("db.t")
    n = 200
    data = pa.table(
        {
            "dt": ["2024-01-01" if i % 3 else "x/y:z" for i in range(n)],
            "id": list(range(n)),
            "v": [i * 0.5 for i in range(n)],
            "s": [f"s{i}" for i in range(n)],
        },
        schema=ARROW_SCHEMA,
    )
    builder = table.new_batch_write_builder()
    write, commit = builder.new_write(), builder.new_commit()
    write.write_arrow(data)
    commit.commit(write.prepare_commit())
    write.close()
    commit.close()
    return warehouse / "db.db" / "t"


@pytest.fixture(scope="module")
def pypaimon_table(tmp_path_factory) -> Path:
    """The Parquet table the fault injections start from."""
    return write_pypaimon_table(tmp_path_factory.mktemp("wh"), "parquet")


def musts(root: Path) -> list[tuple[str, str]]:
    """(code, path relative to the root) of every must-level finding."""
    out = []
    for r in validate_table(root):
        assert r.unusable is None, r.unusable
        out += [(f.code, f.file.removeprefix(f"{root}/")) for f in r.findings if f.severity == "must"]
    return sorted(out)


def copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, symlinks=True)
    return dst


def data_files(root: Path) -> list[Path]:
    return sorted(root.rglob("bucket-*/data-*.parquet"))


def test_pypaimon_table_is_clean_and_fully_bucket_checked(pypaimon_table):
    stats = TableStats()
    results = validate_table(pypaimon_table, stats=stats)
    assert [f for r in results for f in r.findings if f.severity == "must"] == []
    assert stats.rows == stats.bucket_rows == 200
    # the partition with '/' and ':' is escaped in its directory name
    assert (pypaimon_table / "dt=x%2Fy%3Az").is_dir()


@pytest.mark.parametrize("file_format", ["avro", "orc"])
def test_pypaimon_avro_and_orc_tables_are_clean(tmp_path, file_format):
    root = write_pypaimon_table(tmp_path, file_format)
    stats = TableStats()
    results = validate_table(root, stats=stats)
    assert [f for r in results for f in r.findings if f.severity == "must"] == []
    assert stats.data_files >= 4
    assert stats.rows == stats.bucket_rows == 200


def test_row_in_the_wrong_bucket(pypaimon_table, tmp_path):
    root = copy(pypaimon_table, tmp_path / "t")
    f = data_files(root)[0]
    bucket = int(f.parent.name.split("-")[1])
    other = f.parent.parent / f"bucket-{(bucket + 1) % 4}"
    other.mkdir(exist_ok=True)
    f.rename(other / f.name)
    assert ("DATA_FILE_WRONG_BUCKET", str((other / f.name).relative_to(root))) in musts(root)


def test_wrong_bucket_follows_the_hash(pypaimon_table):
    """The bucket the check expects is the kit's hash of the key; every file's rows agree with it."""
    for f in data_files(pypaimon_table):
        table = pq.ParquetFile(f).read()
        buckets = bucketing.bucket_columns([parse_type("BIGINT")], [table.column("id")], 4)
        assert set(buckets.tolist()) == {int(f.parent.name.split("-")[1])}


def test_row_in_the_wrong_partition_dir(pypaimon_table, tmp_path):
    root = copy(pypaimon_table, tmp_path / "t")
    f = next(p for p in data_files(root) if "dt=2024-01-01" in str(p))
    target = root / "dt=x%2Fy%3Az" / f.parent.name
    target.mkdir(exist_ok=True)
    f.rename(target / f.name)
    assert ("DATA_FILE_WRONG_PARTITION", str((target / f.name).relative_to(root))) in musts(root)


@pytest.mark.parametrize("change", ["drop", "reorder"])
def test_missing_or_reordered_system_column(pypaimon_table, tmp_path, change):
    root = copy(pypaimon_table, tmp_path / "t")
    f = data_files(root)[0]
    table = pq.ParquetFile(f).read()
    names = table.column_names
    assert names[:3] == ["_KEY_id", "_SEQUENCE_NUMBER", "_VALUE_KIND"]
    if change == "drop":
        table = table.drop_columns(["_SEQUENCE_NUMBER"])
    else:
        table = table.select([names[0], names[2], names[1], *names[3:]])
    pq.write_table(table, f)
    assert ("DATA_FILE_COLUMNS", str(f.relative_to(root))) in musts(root)


def test_bad_value_kind(pypaimon_table, tmp_path):
    root = copy(pypaimon_table, tmp_path / "t")
    f = data_files(root)[0]
    table = pq.ParquetFile(f).read()
    i = table.column_names.index("_VALUE_KIND")
    kinds = pa.array([7] * table.num_rows, table.schema.field(i).type)
    pq.write_table(table.set_column(i, table.schema.field(i), kinds), f)
    assert ("DATA_FILE_BAD_VALUE_KIND", str(f.relative_to(root))) in musts(root)


def test_bad_names_and_escaping_paths(pypaimon_table, tmp_path):
    root = copy(pypaimon_table, tmp_path / "t")
    f = data_files(root)[0]
    renamed = f.with_name(f.name.replace("data-", "dta-"))
    f.rename(renamed)
    (root / "dt=zzz" / "bucket-one").mkdir(parents=True)
    (root / "nokey").mkdir()
    outside = tmp_path / "outside.parquet"
    outside.write_bytes(b"PAR1")
    (root / "dt=zzz" / "bucket-0").mkdir()
    (root / "dt=zzz" / "bucket-0" / "data-link.parquet").symlink_to(outside)
    (root / "manifest" / "manifest-not-a-uuid-0").write_bytes(b"")
    found = musts(root)
    assert ("TABLE_BAD_FILE_NAME", str(renamed.relative_to(root))) in found
    assert ("TABLE_BAD_BUCKET_DIR", "dt=zzz/bucket-one") in found
    assert ("TABLE_BAD_PARTITION_DIR", "nokey") in found
    assert ("TABLE_PATH_ESCAPES_ROOT", "dt=zzz/bucket-0/data-link.parquet") in found
    assert ("TABLE_BAD_FILE_NAME", "manifest/manifest-not-a-uuid-0") in found


def test_unreadable_data_file_and_missing_schema(pypaimon_table, tmp_path):
    root = copy(pypaimon_table, tmp_path / "t")
    f = data_files(root)[0]
    f.write_bytes(f.read_bytes()[:100])
    assert ("DATA_FILE_UNREADABLE", str(f.relative_to(root))) in musts(root)
    shutil.rmtree(root / "schema")
    [result] = validate_table(root)
    assert result.unusable is not None
    assert "schema" in result.unusable


def test_cli_json_report_for_a_table(pypaimon_table, tmp_path, capsys):
    from paimon_conform.cli import main

    root = copy(pypaimon_table, tmp_path / "t")
    assert main(["validate", str(root), "--report", "json"]) == 0
    f = data_files(root)[0]
    f.rename(f.with_name("bogus.parquet"))
    capsys.readouterr()
    assert main(["validate", str(root), "--report", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    codes = [x["code"] for r in report["files"] for x in r["findings"]]
    assert "TABLE_BAD_FILE_NAME" in codes
