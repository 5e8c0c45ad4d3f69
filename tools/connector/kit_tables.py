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

SEED = 20261129
ROWS = 20
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
KINDS: dict[str, tuple[list[str], list[str], dict[str, str]]] = {  # name: (primary keys, partition keys, options)
    "kit_append": ([], ["dt"], {"bucket": "-1"}),
    "kit_append_bucketed": ([], [], {"bucket": "2", "bucket-key": "id"}),
    "kit_pk": (["id"], [], {"bucket": "2"}),
    "kit_pk_dv": (["dt", "id"], ["dt"], {"bucket": "2", "deletion-vectors.enabled": "true"}),
    "kit_pk_dynamic": (["id"], [], {"bucket": "-1"}),
}
FILTERS = [("id", "=", 3), ("id", ">=", 15), ("dt", "=", "'2024-01-02'"), ("i", ">=", 0), ("s", "<", "'m'")]


def _stamp(rng: random.Random) -> str:
    y, mo, d = rng.randint(1600, 2200), rng.randint(1, 12), rng.randint(1, 28)
    return f"{y:04d}-{mo:02d}-{d:02d}T{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}" + (
        f".{rng.randint(0, 999_999):06d}"
    )


def value(rng: random.Random, name: str, key: int) -> Any:
    """One logical value of a column (a sixth of the nullable cells null)."""
    if name == "id":
        return key
    if name == "dt":
        return ("2024-01-01", "2024-01-02")[key % 2]
    if rng.random() < 1 / 6:
        return None
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


def commits(name: str, primary: bool) -> list[list[list[Any]]]:
    """Three commits; a primary-key table's later ones write half old keys (upserts), half new ones."""
    rng = random.Random(f"{SEED}:{name}")
    out, next_key = [], 0
    for n in range(3):
        keys = list(range(next_key, next_key + ROWS))
        if n and primary:
            keys = rng.sample(range(next_key), ROWS // 2) + list(range(next_key, next_key + ROWS // 2))
        next_key = max(next_key, max(keys) + 1)
        out.append([[value(rng, f["name"], k) for f in FIELDS] for k in keys])
    return out


def model(primary: list[str], written: list[list[list[Any]]]) -> list[list[Any]]:
    """Every row of an append table; the last row per key of a primary-key one."""
    if not primary:
        return [r for c in written for r in c]
    at = [[f["name"] for f in FIELDS].index(k) for k in primary]
    last: dict[tuple, list[Any]] = {}
    for c in written:
        for r in c:
            last[tuple(r[i] for i in at)] = r
    return list(last.values())


def main(argv: list[str]) -> int:
    warehouse, out = Path(argv[0]), Path(argv[1])
    doc = {}
    try:
        for name, (primary, partition, options) in KINDS.items():
            path = warehouse / "kit.db" / name
            table = {"fields": FIELDS, "primary_keys": primary, "partition_keys": partition, "options": options}
            written = commits(name, bool(primary))
            spark_testee.write_table(str(path), table, written)
            doc[name] = {"path": str(path), **table, "model": model(primary, written), "filters": FILTERS}
    finally:
        if spark_testee._spark:
            spark_testee._spark[0].stop()
    out.write_text(json.dumps(doc), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
