"""Tables the kit's `format("paimon")` writes for Paimon's Spark connector to read and then write into: run in the
kit's virtualenv (PySpark 4) as `kit_tables.py WAREHOUSE OUT.json`, before workloads.py (the connector's venv)
reads them with `--kit`.

Five table kinds (append, bucketed append, primary key, primary key with deletion vectors, dynamic bucket), each
with every type Spark SQL and the connector share, three commits of rows drawn with a fixed seed (later commits
of a primary-key table upsert half their keys). Written through the kit's Spark testee (tools/testees/
spark_testee.py: a DataFrame per commit, `format("paimon")`). OUT.json holds per table its path, fields,
options, the model (the rows a reader must return) and the filters the connector reads it with.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "testees"))

import spark_testee

from paimon_conform.testee import tables

SEED = 20261129
FIELDS: list[dict[str, Any]] = [
    {"name": "id", "type": "BIGINT", "nullable": False},
    {"name": "dt", "type": "STRING", "nullable": False},
    {"name": "b", "type": "BOOLEAN"},
    {"name": "t", "type": "TINYINT"},
    {"name": "sm", "type": "SMALLINT"},
    {"name": "i", "type": "INT"},
    {"name": "f", "type": "FLOAT"},
    {"name": "d", "type": "DOUBLE"},
    {"name": "dec_small", "type": "DECIMAL(5, 2)"},
    {"name": "dec_wide", "type": "DECIMAL(38, 10)"},
    {"name": "s", "type": "STRING"},
    {"name": "bin", "type": "BYTES"},
    {"name": "day", "type": "DATE"},
    {"name": "ts", "type": "TIMESTAMP(6)"},
    {"name": "lts", "type": "TIMESTAMP(6) WITH LOCAL TIME ZONE"},
]
KINDS = [
    tables.TableKind("kit_append", (), ("dt",), {"bucket": "-1"}, 3, "append, bucket -1, partitioned"),
    tables.TableKind("kit_append_bucketed", (), (), {"bucket": "2", "bucket-key": "id"}, 3, "append, 2 buckets"),
    tables.TableKind("kit_pk", ("id",), (), {"bucket": "2"}, 3, "primary key, 2 buckets"),
    tables.TableKind(
        "kit_pk_dv", ("dt", "id"), ("dt",), {"bucket": "2", "deletion-vectors.enabled": "true"}, 3, "deletion vectors"
    ),
    tables.TableKind("kit_pk_dynamic", ("id",), (), {"bucket": "-1"}, 3, "primary key, dynamic bucket"),
]
FILTERS = [("id", "=", 3), ("id", ">=", 15), ("dt", "=", "'2024-01-02'"), ("i", ">=", 0), ("s", "<", "'m'")]


def _stamp(rng: random.Random) -> str:
    y, mo, d = rng.randint(1600, 2200), rng.randint(1, 12), rng.randint(1, 28)
    return f"{y:04d}-{mo:02d}-{d:02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}" + (
        f".{rng.randint(0, 999_999):06d}"
    )


def value(rng: random.Random, name: str, key: int) -> Any:
    """One logical value of a column (tables.keyed_value: id, dt, a sixth of the other cells null)."""
    return tables.keyed_value(rng, name, key, lambda: _draw(rng, name))


def _draw(rng: random.Random, name: str) -> Any:
    """A non-null value of a column of FIELDS besides id and dt."""
    pick = {
        "b": lambda: rng.random() < 0.5,
        "t": lambda: rng.choice([-128, 127, 0, rng.randint(-128, 127)]),
        "sm": lambda: rng.choice([-32768, 32767, rng.randint(-32768, 32767)]),
        "i": lambda: rng.choice([-(2**31), 2**31 - 1, 0, rng.randint(-(2**31), 2**31 - 1)]),
        "f": lambda: rng.choice([0.5, -2.25, -0.0, "NaN", "Infinity", "-Infinity", 3.0e38]),
        "d": lambda: rng.choice([round(rng.uniform(-1e9, 1e9), 4), -0.0, "NaN", 1e308, 5e-324]),
        "dec_small": lambda: f"{rng.randint(-99999, 99999) / 100:.2f}",
        "dec_wide": lambda: f"{rng.randint(-(10**28) + 1, 10**28 - 1)}.{rng.randint(0, 10**10 - 1):010d}",
        "s": lambda: "".join(rng.choice("abmxyzé中 ") for _ in range(rng.randint(0, 8))),
        "bin": lambda: bytes(rng.randrange(256) for _ in range(rng.randint(0, 6))).hex(),
        "day": lambda: _stamp(rng)[:10],
        "ts": lambda: _stamp(rng),
        "lts": lambda: _stamp(rng),
    }
    return pick[name]()


def main(argv: list[str]) -> int:
    warehouse, out = Path(argv[0]), Path(argv[1])
    doc = {}
    try:
        for kind in KINDS:
            path = warehouse / "kit.db" / kind.name
            table = {
                "fields": FIELDS,
                "primary_keys": list(kind.primary_keys),
                "partition_keys": list(kind.partition_keys),
                "options": kind.options,
            }
            written = tables.commits(kind, SEED, FIELDS, value)
            spark_testee.write_table(str(path), table, written)
            model = tables.model(kind, written, FIELDS)
            doc[kind.name] = {"path": str(path), **table, "model": model, "filters": FILTERS}
    finally:
        spark_testee.stop()
    out.write_text(json.dumps(doc), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
