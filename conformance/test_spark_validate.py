"""Distributed validation (`validate TABLE --spark`, `spark.validate.validate_on_spark`): the data files are
checked in Spark tasks on local[2], and the reports, the run's statistics and the key hashes equal the
single-process run's on every golden table, every third-party corpus table, and a golden table with each
fault of the fault catalog injected (so that tables with findings in data files, index files and metadata
are compared, not only clean ones)."""

from __future__ import annotations

import json
import pickle
import shutil
from pathlib import Path

import pytest
from support.environment import PAIMON_CPP_TABLES, ROOT, form, require_corpus
from support.fault_catalog import CATALOG, JAVA, avro, index_manifest, write_avro, wrong_bucket

from paimon_conform import cli
from paimon_conform.core import budget
from paimon_conform.core.budget import BudgetExceeded
from paimon_conform.core.errors import InternalError, InvariantError, UsageError
from paimon_conform.spark.validate import validate_on_spark
from paimon_conform.table.read import index_files
from paimon_conform.table.validate.table import TableStats, validate_table
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("kit",)

pytestmark = pytest.mark.spark

GOLDEN_TABLES = sorted(p for p in (ROOT / "golden" / "tables").glob("*/*") if p.is_dir())


def both(spark, root: Path, slices: int | None = None) -> tuple[list[tuple], TableStats, list[tuple], TableStats]:
    """The single-process run and the Spark run of `root`, with their statistics."""
    here, there = TableStats(), TableStats()
    a = form(validate_table(root, stats=here))
    b = form(validate_on_spark(spark, root, stats=there, slices=slices))
    return a, here, b, there


def assert_same(spark, root: Path, slices: int | None = None) -> list[tuple]:
    a, here, b, there = both(spark, root, slices)
    assert b == a
    assert (there.data_files, there.rows, there.bucket_rows) == (here.data_files, here.rows, here.bucket_rows)
    return a


@pytest.mark.parametrize("root", GOLDEN_TABLES, ids=[f"{p.parent.name}/{p.name}" for p in GOLDEN_TABLES])
def test_golden_table(spark, root):
    assert_same(spark, root)


def test_corpus_tables(spark):
    tables = sorted(p for p in require_corpus().joinpath(*PAIMON_CPP_TABLES).glob("*/*") if p.is_dir())
    assert len(tables) >= 40
    findings = 0
    for root in tables:
        findings += sum(len(r[4]) for r in assert_same(spark, root))
    assert findings  # tables with findings (pk_09, the global-index tables) are among them


@pytest.mark.parametrize(("fault", "table", "inject", "code"), CATALOG, ids=[c[0] for c in CATALOG])
def test_faulty_table(spark, fault, table, inject, code, tmp_path):
    root = shutil.copytree(JAVA / table, tmp_path / table, symlinks=True)
    inject(root)
    report = assert_same(spark, root)
    assert any(f[0] == code for r in report for f in r[4]) or any(r[2] for r in report), fault


@pytest.mark.parametrize("slices", [1, 3, 64])
def test_any_slicing(spark, slices):
    """One task, a few, more tasks than files: the same report (the merge keeps file order, first files)."""
    root = JAVA / "pk-dynamic-parquet"  # key hashes gathered across tasks for the HASH-index check
    assert_same(spark, root, slices)


def _doubled(root: Path, kind: str) -> None:
    """Every index file of `kind` copied under another name and listed after all the records (a second DV for
    each data file, a second HASH file for each bucket), so different tasks read the two."""
    im = index_manifest(root)
    header, records, codec = avro(im)
    copies = []
    for r in records:
        if r["_INDEX_TYPE"] == kind:
            copy = dict(r, _FILE_NAME=r["_FILE_NAME"] + "-copy")
            shutil.copyfile(root / "index" / r["_FILE_NAME"], root / "index" / copy["_FILE_NAME"])
            copies.append(copy)
    write_avro(im, header, records + copies, codec)


@pytest.mark.parametrize(
    ("table", "kind", "code"),
    [
        ("pk-fixed4-parquet-dv", "DELETION_VECTORS", "DV_DUPLICATE"),
        ("pk-dynamic-parquet", "HASH", "HASH_INDEX_DUPLICATE"),
    ],
)
@pytest.mark.parametrize("slices", [1, 2, 64])
def test_index_files_read_in_tasks(spark, tmp_path, monkeypatch, table, kind, code, slices):
    """The index files are read and checked in the tasks (the driver reads none: a spy on its DV and HASH
    readers sees no call, where the plain run's sees every file), and what joins them is found on the driver:
    a second vector for a data file, a second HASH file for a bucket, read by different tasks."""
    root = shutil.copytree(JAVA / table, tmp_path / table, symlinks=True)
    _doubled(root, kind)
    calls: list[str] = []
    for name in ("_read_dv", "_read_hash"):
        real = getattr(index_files, name)
        monkeypatch.setattr(index_files, name, lambda rel, *a, _real=real: calls.append(rel) or _real(rel, *a))
    records = [r for r in avro(index_manifest(root))[1] if r["_INDEX_TYPE"] == kind]
    here, there = TableStats(), TableStats()
    a = form(validate_table(root, stats=here))
    assert len(calls) >= len(records) > 1  # the plain run read every index file here
    calls.clear()
    b = form(validate_on_spark(spark, root, stats=there, slices=slices))
    assert calls == []  # the Spark run's driver read none
    assert b == a
    assert (there.data_files, there.rows) == (here.data_files, here.rows)
    assert any(f[0] == code for r in a for f in r[4])


def test_budget_reaches_the_tasks(spark, tmp_path):
    """A memory budget too small for a data file's index ends both runs the same way: the tasks, which read
    the data files and their indexes, run under the budget in force on the driver."""
    root = tmp_path / "t"
    write_table(root, rows=100_000, buckets=1, seed=1)
    with budget.limited(2 * budget.MIN_MAX_MEMORY):
        a, _, b, _ = both(spark, root)
    assert b == a
    assert "more than the memory budget" in (a[0][2] or "")


@pytest.mark.parametrize(
    "error",
    [
        UsageError("x"),
        BudgetExceeded("a data file", 10, 5),
        InvariantError("deletion_vectors", "DV_CRC_MISMATCH", "vectors[0].crc", 12, "wrong"),
        InternalError("f.parquet", "rows", KeyError("k")),
    ],
)
def test_errors_travel_from_tasks(error):
    """A kit error raised in a task reaches the driver as the same error (class, message, attributes)."""
    back = pickle.loads(pickle.dumps(error))  # noqa: S301 - our own bytes
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert {k: v for k, v in vars(back).items() if k != "cause"} == {
        k: v for k, v in vars(error).items() if k != "cause"
    }


def test_cli_spark_option(spark, tmp_path, capsys):
    """`validate TABLE --spark local[2]` (this run's session is reused) reports what a plain run does."""
    root = shutil.copytree(JAVA / "pk-fixed4-parquet-dv", tmp_path / "t", symlinks=True)
    wrong_bucket(root)
    reports = []
    for extra in ([], ["--spark", "local[2]"]):
        out = tmp_path / f"report-{len(reports)}.json"
        code = cli.main(["validate", str(root), "--report", "json", "-o", str(out), *extra])
        capsys.readouterr()
        reports.append((code, json.loads(out.read_text())))
    assert reports[1] == reports[0]
    assert reports[0][0] == 1
    assert "DATA_FILE_WRONG_BUCKET" in json.dumps(reports[0][1])
