#!/usr/bin/env python3
"""Benchmark: the Spark pipeline against pypaimon 2.1.0, pypaimon-rust 0.4.0 and Paimon's Spark connector 0.9.0,
same machine, same run.

    .venv/bin/python tools/benchmarks/spark_pipeline.py [--rows 1000000 10000000] [--only spark,pypaimon,rust,connector]

For each size N: a primary-key table (id BIGINT, dt STRING partition of 4 days, v DOUBLE,
s STRING; 4 fixed buckets; `op` as rowkind.field so deletes can be written) gets N rows, then
one write of 10 % upserts (id % 10 == 0) and 2 % deletes (id % 50 == 1), then a full read of
the latest snapshot into Arrow. Every contender runs in its own child process (pypaimon with
`pypaimon_rust` made unimportable, so it stays on its Python path) and reports its phase times
and the rows it read (count and sum of v, which must agree). Ours: `paimon_conform.spark.source.write`
on a local[2] session (deletion vectors on: the update ends compacted, as Java's compaction
leaves it; Spark's Parquet writer writes the files) and `spark.read.format("paimon")`; the session start is reported
separately. Our read phase materializes every row and column in Spark (the `noop` sink, Spark's
way to time a full read); collecting the same read to the driver as Arrow is reported beside it.
The connector (paimon-spark-3.5 0.9.0, in .venv-connector on PySpark 3.5: it cannot load into the kit's Spark 4,
nor our Python data source into Spark 3.5, so the two run in two sessions, one after the other) runs the same
pipeline in Spark SQL: the same rows from spark.range, the same table (DataFrameWriterV2 appends, deletion vectors
on, `op` as rowkind.field), the `noop` read; cold and warm as ours.

Prints per size the seconds per phase, ratios ours / peer, and growth from the first size to
the last; for ours, cold (session start + the session's first pipeline, whose first jobs start the
Python workers and import the kit) and warm (the same pipeline again in that session) apart. Goals:
cold ahead of pypaimon at both sizes; warm within 3x of pypaimon-rust at 10^7 rows; warm within 1.5x of the
connector's warm pipeline at 10^7 rows.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DAYS = 4

COMMON = """
import json, sys, time
import numpy as np
import pyarrow as pa
N = int(sys.argv[1]); WH = sys.argv[2]
def base(n):
    ids = np.arange(n, dtype=np.int64)
    return ids
def frame(ids, op, upsert=False):
    day = np.array([f"2024-01-0{d}" for d in range(1, 5)])[ids % 4]
    v = (ids * 7 % 1000) / 10.0
    if upsert:
        v = -v
    s = np.char.add("s", (ids % 1000).astype(str))
    return pa.table({"id": ids, "dt": day, "v": v, "s": s, "op": np.full(len(ids), op)})
def update():
    ids = np.arange(N, dtype=np.int64)
    up = frame(ids[ids % 10 == 0], "+U", True)
    gone = frame(ids[ids % 50 == 1], "-D")
    return pa.concat_tables([up, gone])
def report(d): print("RESULT " + json.dumps(d))
"""

PYPAIMON = """
class _NoRust:
    def find_spec(self, name, path=None, target=None):
        if name.startswith("pypaimon_rust"):
            raise ImportError("blocked")
sys.meta_path.insert(0, _NoRust())
from pypaimon import CatalogFactory, Schema
catalog = CatalogFactory.create({"warehouse": WH})
catalog.create_database("db", True)
first = frame(base(N), "+I")
catalog.create_table("db.t", Schema.from_pyarrow_schema(first.schema, partition_keys=["dt"],
    primary_keys=["dt", "id"], options={"bucket": "4", "rowkind.field": "op"}), False)
t = catalog.get_table("db.t")
def commit(data):
    wb = t.new_batch_write_builder(); w = wb.new_write(); c = wb.new_commit()
    w.write_arrow(data); c.commit(w.prepare_commit()); w.close(); c.close()
out = {}
a = time.perf_counter(); commit(first); out["write"] = time.perf_counter() - a
u = update()
a = time.perf_counter(); commit(u); out["update"] = time.perf_counter() - a
a = time.perf_counter()
rb = t.new_read_builder(); rows = rb.new_read().to_arrow(rb.new_scan().plan().splits())
out["read"] = time.perf_counter() - a
assert "pypaimon_rust" not in sys.modules
out["rows"] = rows.num_rows; out["sum_v"] = float(pa.compute.sum(rows["v"]).as_py())
report(out)
"""

RUST = """
from pypaimon_rust.datafusion import PaimonCatalog, SQLContext
ctx = SQLContext(); ctx.register_catalog("paimon", {"warehouse": WH})
ctx.sql("CREATE SCHEMA paimon.db")
ctx.sql("CREATE TABLE paimon.db.t (id BIGINT NOT NULL, dt STRING NOT NULL, v DOUBLE, s STRING, op STRING, "
        "PRIMARY KEY (dt, id)) PARTITIONED BY (dt) WITH ('bucket'='4', 'rowkind.field'='op')")
t = PaimonCatalog({"warehouse": WH}).get_table("db.t")
def commit(data):
    wb = t.new_batch_write_builder(); w = wb.new_write()
    for b in data.to_batches(max_chunksize=1 << 20):
        w.write_arrow(b)
    c = wb.new_commit(); c.commit(w.prepare_commit()); w.close(); c.close()
out = {}
first = frame(base(N), "+I")
a = time.perf_counter(); commit(first); out["write"] = time.perf_counter() - a
u = update()
a = time.perf_counter(); commit(u); out["update"] = time.perf_counter() - a
a = time.perf_counter()
rb = t.new_read_builder(); batches = rb.new_read().read(rb.new_scan().plan().splits())
rows = pa.Table.from_batches(batches)
out["read"] = time.perf_counter() - a
out["rows"] = rows.num_rows; out["sum_v"] = float(pa.compute.sum(rows["v"]).as_py())
report(out)
"""

FRAME_SQL = """
import pyspark.sql.functions as F
def frame_sql(df, op, upsert):
    v = (F.col("id") * 7 % 1000) / 10.0
    day = F.concat(F.lit("2024-01-0"), (F.col("id") % 4 + 1).cast("string")).alias("dt")
    s = F.concat(F.lit("s"), (F.col("id") % 1000).cast("string")).alias("s")
    return df.select(F.col("id"), day, (-v if upsert else v).alias("v"), s, F.lit(op).alias("op"))
"""

SPARK = (
    FRAME_SQL
    + """
from paimon_conform.spark import source as ps
import pyspark.sql.functions as F
a = time.perf_counter(); spark = ps.session("bench"); out = {"session": time.perf_counter() - a}
path = WH + "/db.db/t"
opts = {"primary-key": "dt,id", "partition": "dt", "bucket": "4", "rowkind.field": "op",
        "deletion-vectors.enabled": "true"}
def pipeline(path, out, prefix):
    rng = spark.range(N)
    a = time.perf_counter(); ps.write(frame_sql(rng, "+I", False), path, **opts)
    out[prefix + "write"] = time.perf_counter() - a
    upd = frame_sql(rng.where("id % 10 = 0"), "+U", True).unionByName(frame_sql(rng.where("id % 50 = 1"), "-D", False))
    a = time.perf_counter(); ps.write(upd, path); out[prefix + "update"] = time.perf_counter() - a
    a = time.perf_counter(); spark.read.format("paimon").load(path).write.format("noop").mode("overwrite").save()
    out[prefix + "read"] = time.perf_counter() - a
pipeline(path, out, "")  # cold: the session's first jobs (Python workers start, import the kit)
pipeline(WH + "/db.db/t2", out, "warm_")  # warm: the same pipeline again in the same session, a new table
a = time.perf_counter(); rows = spark.read.format("paimon").load(path).toArrow()
out["collect"] = time.perf_counter() - a
out["rows"] = rows.num_rows; out["sum_v"] = float(pa.compute.sum(rows["v"]).as_py())
spark.stop()
report(out)
"""
)

CONNECTOR = (
    FRAME_SQL
    + """
from pyspark.sql import SparkSession
import pyspark.sql.functions as F
JAR = sys.argv[3]
a = time.perf_counter()
spark = (SparkSession.builder.appName("bench-connector").master("local[2]").config("spark.jars", JAR)
         .config("spark.sql.extensions", "org.apache.paimon.spark.extensions.PaimonSparkSessionExtensions")
         .config("spark.sql.catalog.bench", "org.apache.paimon.spark.SparkCatalog")
         .config("spark.sql.catalog.bench.warehouse", WH).config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").config("spark.sql.shuffle.partitions", "4")
         .config("spark.driver.memory", "4g").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
out = {"session": time.perf_counter() - a}
spark.sql("CREATE DATABASE bench.db")
def pipeline(table, out, prefix):
    spark.sql(f"CREATE TABLE bench.db.{table} (id BIGINT NOT NULL, dt STRING NOT NULL, v DOUBLE, s STRING, op STRING) "
              "PARTITIONED BY (dt) TBLPROPERTIES ('primary-key' = 'dt,id', 'bucket' = '4', 'rowkind.field' = 'op', "
              "'deletion-vectors.enabled' = 'true')")
    rng = spark.range(N)
    a = time.perf_counter(); frame_sql(rng, "+I", False).writeTo(f"bench.db.{table}").append()
    out[prefix + "write"] = time.perf_counter() - a
    upd = frame_sql(rng.where("id % 10 = 0"), "+U", True).unionByName(frame_sql(rng.where("id % 50 = 1"), "-D", False))
    a = time.perf_counter(); upd.writeTo(f"bench.db.{table}").append(); out[prefix + "update"] = time.perf_counter() - a
    a = time.perf_counter(); spark.table(f"bench.db.{table}").write.format("noop").mode("overwrite").save()
    out[prefix + "read"] = time.perf_counter() - a
pipeline("t", out, "")
pipeline("t2", out, "warm_")
got = spark.table("bench.db.t").agg(F.count("*").alias("n"), F.sum("v").alias("v")).collect()[0]
out["rows"] = int(got["n"]); out["sum_v"] = float(got["v"])
spark.stop()
report(out)
"""
)

CONTENDERS = {"spark": SPARK, "pypaimon": PYPAIMON, "rust": RUST, "connector": CONNECTOR}


def _command(name: str) -> list[str]:
    """The Python a contender runs on, and its extra arguments: the connector its own virtualenv and jar."""
    if name != "connector":
        return [sys.executable]
    sys.path.insert(0, str(ROOT / "tools"))
    import java_releases

    jar = java_releases.resolve(list(java_releases.connectors().values())[-1].jar)
    return [str(ROOT / ".venv-connector" / "bin" / "python"), str(jar)]


def run(name: str, rows: int, base: Path) -> dict:
    """One contender at one size in a child process: its phase times and what it read."""
    wh = base / f"{name}-{rows}"
    shutil.rmtree(wh, ignore_errors=True)
    wh.mkdir(parents=True)
    start = time.perf_counter()
    python, *extra = _command(name)
    done = subprocess.run(
        [python, "-c", COMMON + CONTENDERS[name], str(rows), str(wh), *extra],
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - start
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        return {"error": " | ".join(tail)}
    out = json.loads(lines[-1][7:])
    out["total"] = out["write"] + out["update"] + out["read"]
    out["wall"] = wall
    shutil.rmtree(wh, ignore_errors=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    p.add_argument("--only", default="spark,pypaimon,rust,connector", help="comma-separated contenders")
    p.add_argument("--dir", help="scratch directory (default: a temporary one)")
    args = p.parse_args()
    names = [n for n in args.only.split(",") if n]
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="paimon-bench-"))
    results: dict[int, dict[str, dict]] = {}
    for rows in args.rows:
        results[rows] = {}
        for name in names:
            print(f"running {name} at {rows:,} rows ...", file=sys.stderr, flush=True)
            results[rows][name] = run(name, rows, base)
    print_table(results, names)


def print_table(results: dict[int, dict[str, dict]], names: list[str]) -> None:
    """Phase times, ratios ours / peer, and growth across sizes."""
    print(
        f"{'rows':>12} {'contender':>10} {'write s':>9} {'update s':>9} {'read s':>8} {'total s':>8} {'rows read':>11}"
    )
    for rows, by_name in results.items():
        for name in names:
            r = by_name[name]
            if "error" in r:
                print(f"{rows:>12,} {name:>10}  failed: {r['error'][:150]}")
                continue
            print(
                f"{rows:>12,} {name:>10} {r['write']:>9.2f} {r['update']:>9.2f} {r['read']:>8.2f} "
                f"{r['total']:>8.2f} {r['rows']:>11,}"
            )
        ours = by_name.get("spark", {})
        for peer in ("pypaimon", "rust", "connector"):
            other = by_name.get(peer, {})
            if "total" in ours and "total" in other:
                print(
                    f"{'':>12} ours / {peer}: total {ours['total'] / other['total']:.2f}x  "
                    f"(write {ours['write'] / other['write']:.2f}x, update {ours['update'] / other['update']:.2f}x, "
                    f"read {ours['read'] / other['read']:.2f}x)"
                )
        if "session" in ours:
            cold = ours["session"] + ours["total"]
            warm = ours["warm_write"] + ours["warm_update"] + ours["warm_read"]
            print(
                f"{'':>12} ours cold (session start {ours['session']:.1f} s + first pipeline {ours['total']:.2f} s) "
                f"{cold:.2f} s; warm (the same again in that session: write {ours['warm_write']:.2f}, update "
                f"{ours['warm_update']:.2f}, read {ours['warm_read']:.2f}) {warm:.2f} s; the first jobs' own cost "
                f"{ours['total'] - warm:.2f} s; the read collected to the driver as Arrow {ours['collect']:.2f} s"
            )
            if "total" in by_name.get("pypaimon", {}):
                ratio = cold / by_name["pypaimon"]["total"]
                print(
                    f"{'':>12} goal cold ahead of pypaimon: {ratio:.2f}x its time, {'met' if ratio < 1 else 'NOT met'}"
                )
            if "total" in by_name.get("rust", {}):
                ratio = warm / by_name["rust"]["total"]
                print(
                    f"{'':>12} goal warm within 3x of pypaimon-rust: {ratio:.2f}x, {'met' if ratio <= 3 else 'NOT met'}"
                )
        conn = by_name.get("connector", {})
        if "session" in conn:
            warm_c = conn["warm_write"] + conn["warm_update"] + conn["warm_read"]
            cold_c = conn["session"] + conn["total"]
            print(
                f"{'':>12} connector cold (session start {conn['session']:.1f} s + first pipeline "
                f"{conn['total']:.2f} s) {cold_c:.2f} s; warm (write {conn['warm_write']:.2f}, "
                f"update {conn['warm_update']:.2f}, read {conn['warm_read']:.2f}) {warm_c:.2f} s"
            )
            if "session" in ours:
                warm = ours["warm_write"] + ours["warm_update"] + ours["warm_read"]
                ratios = {k: ours[f"warm_{k}"] / conn[f"warm_{k}"] for k in ("write", "update", "read")}
                phases = ", ".join(f"{k} {r:.2f}x" for k, r in ratios.items())
                print(f"{'':>12} ours / connector warm: {warm / warm_c:.2f}x ({phases}); goal within 1.5x at 10^7 rows")
        want = (rows - rows // 50) if rows % 50 == 0 else None
        for name in names:
            r = by_name[name]
            if "rows" in r and want is not None and r["rows"] != want:
                print(f"{'':>12} note: {name} read {r['rows']:,} rows, {want:,} expected after the deletes")
    sizes = sorted(results)
    if len(sizes) > 1:
        lo, hi = sizes[0], sizes[-1]
        for name in names:
            a, b = results[lo].get(name, {}), results[hi].get(name, {})
            if "total" in a and "total" in b:
                print(f"growth {lo:,} -> {hi:,} rows, {name}: {b['total'] / a['total']:.1f}x ({hi / lo:.0f}x the rows)")


if __name__ == "__main__":
    main()
