"""The main job's Spark pipeline: a built-in sample dataset written to a local warehouse through
`format("paimon")`, read back through it, compared with a pandas model, and validated.

Two tables: `db.orders`, a primary-key table (partitioned by day, 4 buckets, deletion
vectors, a bloom filter on `status`) written in three jobs (insert, then upserts and deletes
through `rowkind.field`, then late orders); and `db.events`, an append table with a bitmap
index on `kind`. Runs on the session it is given.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from paimon_conform.core.findings import Finding
from paimon_conform.table.validate.table import validate_table

ORDERS_OPTIONS = {
    "primary-key": "dt,id",
    "partition": "dt",
    "bucket": "4",
    "deletion-vectors.enabled": "true",
    "rowkind.field": "op",
    "file-index.bloom-filter.columns": "status",
    "file-index.bloom-filter.status.items": "5000",
}
EVENTS_OPTIONS = {"partition": "dt", "file-index.bitmap.columns": "kind"}
STATUSES = ["new", "paid", "shipped", "returned"]


@dataclass
class TableRun:
    """What the pipeline did to one table."""

    name: str
    path: Path
    rows_expected: int
    rows_read: int
    equal: bool
    snapshots: int
    findings: list[Finding] = field(default_factory=list)


def _orders(ids: np.ndarray, seed: int, op: str) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "id": ids.astype(np.int64),
            "dt": [f"2024-03-0{i % 4 + 1}" for i in ids],
            "amount": np.round(rng.uniform(1, 500, len(ids)), 2),
            "status": rng.choice(STATUSES, len(ids)),
            "op": op,
        }
    )


def sample_batches(n: int = 20_000) -> list[pd.DataFrame]:
    """The orders written in three jobs: all, then 10 % upserts + 2 % deletes, then late orders."""
    ids = np.arange(n)
    upserts = _orders(ids[::10], 2, "+U")
    deletes = _orders(ids[5::50], 3, "-D")
    late = _orders(np.arange(n, n + n // 20), 4, "+I")
    return [_orders(ids, 1, "+I"), pd.concat([upserts, deletes], ignore_index=True), late]


def model_rows(batches: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows a reader must return after the batches, by Paimon's rules (last per key; -D removes)."""
    frame = pd.concat(batches, ignore_index=True).drop_duplicates(["dt", "id"], keep="last")
    return frame[~frame["op"].isin(["-U", "-D"])].sort_values(["dt", "id"]).reset_index(drop=True)


def _same(got: pd.DataFrame, want: pd.DataFrame, columns: list[str]) -> bool:
    a = got[columns].sort_values(columns).reset_index(drop=True)
    b = want[columns].sort_values(columns).reset_index(drop=True)
    return a.shape == b.shape and bool((a.astype(str) == b.astype(str)).all().all())


def run(spark, warehouse: Path, n: int = 20_000) -> list[TableRun]:
    """Write, read back and validate the sample tables under `warehouse` (must not hold them yet)."""
    from paimon_conform.spark.source import write

    out = []
    orders = warehouse / "db.db" / "orders"
    batches = sample_batches(n)
    for i, frame in enumerate(batches):
        df = spark.createDataFrame(frame, "id BIGINT, dt STRING, amount DOUBLE, status STRING, op STRING")
        if i == 0:  # a plain write: rows of a bucket arrive from several tasks
            df.write.format("paimon").mode("append").options(**ORDERS_OPTIONS).save(str(orders))
        else:  # one task per bucket
            write(df, str(orders), **ORDERS_OPTIONS)
    want = model_rows(batches)
    got = spark.read.format("paimon").load(str(orders)).toPandas()
    columns = ["id", "dt", "amount", "status", "op"]
    out.append(_result("db.orders", orders, want, got, columns))

    events = warehouse / "db.db" / "events"
    rng = np.random.default_rng(9)
    frame = pd.DataFrame(
        {
            "dt": [f"2024-03-0{i % 4 + 1}" for i in range(n // 4)],
            "kind": rng.choice(["view", "click", "buy"], n // 4),
            "user": rng.integers(0, 1000, n // 4).astype(np.int64),
        }
    )
    spark.createDataFrame(frame, "dt STRING, kind STRING, user BIGINT").write.format("paimon").mode("append").options(
        **EVENTS_OPTIONS
    ).save(str(events))
    got = spark.read.format("paimon").load(str(events)).toPandas()
    out.append(_result("db.events", events, frame, got, ["dt", "kind", "user"]))
    return out


def _result(name: str, path: Path, want: pd.DataFrame, got: pd.DataFrame, columns: list[str]) -> TableRun:
    findings = [f for r in validate_table(path) for f in r.findings if f.severity != "warning"]
    snapshots = len(list((path / "snapshot").glob("snapshot-*")))
    return TableRun(name, path, len(want), len(got), _same(got, want, columns), snapshots, findings)


def report(runs: list[TableRun], seconds: float) -> tuple[str, bool]:
    """A short summary of a pipeline run, and whether it passed."""
    lines = [f"Spark pipeline (format('paimon'), local[2], {seconds:.1f} s):"]
    ok = True
    for r in runs:
        good = r.equal and not r.findings
        ok &= good
        state = "OK" if good else "FAILED"
        lines.append(
            f"  {r.name}: {r.rows_read} rows read back, model {r.rows_expected} "
            f"({'equal' if r.equal else 'DIFFERENT'}), {r.snapshots} snapshots, "
            f"{len(r.findings)} finding(s) at should level: {state}"
        )
        lines += [f"    {f.line()}" for f in r.findings[:10]]
    return "\n".join(lines) + "\n", ok


def main_job(warehouse: Path) -> bool:
    """Run the pipeline into `warehouse` (on the active session, else a new one), print the summary;
    whether it passed."""
    from pyspark.sql import SparkSession

    from paimon_conform.spark.source import register, session

    start = time.perf_counter()
    active = SparkSession.getActiveSession()
    spark = active or session("paimon-conform-main")
    register(spark)
    try:
        runs = run(spark, warehouse)
    finally:
        if active is None:
            spark.stop()
    text, ok = report(runs, time.perf_counter() - start)
    print(text, end="")
    return ok
