"""Runs of the kit's write engine without Spark: changes (key, partition, row kind) split over tasks and
committed, and the model of what a reader must return."""

from __future__ import annotations

import pyarrow as pa

from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write

SCHEMA = pa.schema([("id", pa.int64()), ("dt", pa.string()), ("v", pa.float64()), ("op", pa.string())])


def run_writes(root, options, steps) -> dict:
    """Each step's changes written by `tasks` write tasks and committed; the model {(dt, id): v}."""
    model: dict = {}
    value = 0.0
    for changes, tasks in steps:
        rows = []
        for key, dt, op in changes:
            value += 1
            rows.append({"id": key, "dt": dt, "v": value, "op": op})
            if op in ("-D", "-U"):
                model.pop((dt, key), None)
            else:
                model[(dt, key)] = value
        plan = write.prepare(root, SCHEMA, options, False)
        if options["bucket"] == "-1":  # dynamic buckets: all rows of a key in one task
            parts = [[r for r in rows if r["id"] % tasks == i] for i in range(tasks)]
        else:
            size = -(-len(rows) // tasks)
            parts = [rows[i * size : (i + 1) * size] for i in range(tasks)]
        results = [write.write_task(plan, pa.Table.from_pylist(p, SCHEMA).to_batches(), i) for i, p in enumerate(parts)]
        commit.commit(plan, results)
    return model
