"""The table kinds a testee's `write-table` is asked for (and the matrix writes with every writer): a fixed
set of schemas and options, rows drawn with a fixed seed over the column types every writer at hand has, and
the model, the rows a reader of the finished table must return."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SEED = 20261124
CUSTOM = "custom"  # the write-table kind of a table the request describes in full (the type x role matrix)
EXISTING = "existing"  # declared by a testee that writes into a table another writer made (the matrix's chains)
CHAIN_KIND = "pk-dv"  # the kind of table the matrix's chains continue: one writer's table, a commit by another
ROWS = 24  # rows per commit

FIELDS: list[dict[str, Any]] = [
    {"name": "id", "type": "BIGINT", "nullable": False},
    {"name": "dt", "type": "STRING", "nullable": False},
    {"name": "i", "type": "INT", "nullable": True},
    {"name": "d", "type": "DOUBLE", "nullable": True},
    {"name": "s", "type": "STRING", "nullable": True},
    {"name": "dec", "type": "DECIMAL(10, 2)", "nullable": True},
    {"name": "day", "type": "DATE", "nullable": True},
    {"name": "ts", "type": "TIMESTAMP(6)", "nullable": True},
    {"name": "flag", "type": "BOOLEAN", "nullable": True},
    {"name": "bin", "type": "BYTES", "nullable": True},
]


@dataclass(frozen=True)
class TableKind:
    """One kind of table: its keys and options, how many commits, and whether later commits upsert keys."""

    name: str
    primary_keys: tuple[str, ...]
    partition_keys: tuple[str, ...]
    options: dict[str, str]
    commits: int
    doc: str

    def table(self) -> dict[str, Any]:
        """The `table` object of a write-table request."""
        return {
            "fields": FIELDS,
            "primary_keys": list(self.primary_keys),
            "partition_keys": list(self.partition_keys),
            "options": {"file.format": "parquet", **self.options},
        }


KINDS: dict[str, TableKind] = {
    k.name: k
    for k in (
        TableKind("append", (), (), {"bucket": "-1"}, 2, "append table, no buckets (bucket -1), two commits"),
        TableKind(
            "append-bucketed",
            (),
            ("dt",),
            {"bucket": "2", "bucket-key": "id"},
            2,
            "append table partitioned by dt, 2 buckets by id",
        ),
        TableKind("pk", ("id",), (), {"bucket": "2"}, 2, "primary key id, 2 buckets; the second commit upserts"),
        TableKind(
            "pk-partitioned",
            ("dt", "id"),
            ("dt",),
            {"bucket": "2"},
            3,
            "primary key (dt, id) partitioned by dt, 2 buckets; later commits upsert",
        ),
    )
}


def keyed_value(rng: random.Random, name: str, key: int, draw: Callable[[], Any]) -> Any:
    """A row's value of a column: `id` is the key, `dt` one of two days by it; any other column is null in a sixth
    of the cells, else `draw()`."""
    if name == "id":
        return key
    if name == "dt":
        return ("2024-01-01", "2024-01-02")[key % 2]
    if rng.random() < 1 / 6:
        return None
    return draw()


def _value(rng: random.Random, name: str, key: int) -> Any:
    """One value of a column of FIELDS."""
    return keyed_value(rng, name, key, lambda: _draw(rng, name))


def _draw(rng: random.Random, name: str) -> Any:
    """A non-null value of a column of FIELDS besides id and dt."""
    if name == "i":
        return rng.choice([rng.randint(-(2**31), 2**31 - 1), 0, -1, 2**31 - 1])
    if name == "d":
        return rng.choice([round(rng.uniform(-1e6, 1e6), 3), 0.0, -0.5, 1e300])
    if name == "s":
        return "".join(rng.choice("abcxyzé中 ") for _ in range(rng.randint(0, 9)))
    if name == "dec":
        return f"{rng.randint(-(10**8) + 1, 10**8 - 1) / 100:.2f}"
    if name == "day":
        y, m, d = rng.randint(1970, 2100), rng.randint(1, 12), rng.randint(1, 28)
        return f"{y:04d}-{m:02d}-{d:02d}"
    if name == "ts":
        y, m, d = rng.randint(1971, 2100), rng.randint(1, 12), rng.randint(1, 28)
        t = f"{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
        return f"{y:04d}-{m:02d}-{d:02d}T{t}.{rng.randint(0, 999_999):06d}"
    if name == "flag":
        return rng.random() < 0.5
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 6))).hex()


def commits(
    kind: TableKind,
    seed: int = SEED,
    fields: list[dict[str, Any]] = FIELDS,
    value: Callable[[random.Random, str, int], Any] = _value,
) -> list[list[list[Any]]]:
    """The rows of each commit: keys 0..ROWS-1 first; later commits of a primary-key table write half old keys
    (upserts) and half new ones, an append table's only new rows. `fields` and `value` (a column's value for a
    key) default to the matrix's columns."""
    rng = random.Random(f"{seed}:{kind.name}")
    out, next_key = [], 0
    for n in range(kind.commits):
        if n and kind.primary_keys:
            keys = rng.sample(range(next_key), ROWS // 2) + list(range(next_key, next_key + ROWS // 2))
        else:
            keys = list(range(next_key, next_key + ROWS))
        next_key = max(next_key, max(keys) + 1)
        out.append([[value(rng, f["name"], k) for f in fields] for k in keys])
    return out


CHAIN = TableKind(
    CHAIN_KIND,
    ("id",),
    (),
    {"bucket": "2", "deletion-vectors.enabled": "true"},
    2,
    "primary key id, 2 buckets, deletion vectors; the second commit upserts (the matrix's chains)",
)


def chain_commit(kind: TableKind, seed: int = SEED) -> list[list[Any]]:
    """The commit a second writer adds to a table of `kind` (the matrix's chains): half upserts of keys the
    first writer wrote, half new keys."""
    rng = random.Random(f"{seed}:{kind.name}:chain")
    written = commits(kind, seed)
    known = sorted({r[0] for c in written for r in c})
    keys = rng.sample(known, ROWS // 2) + list(range(known[-1] + 1, known[-1] + 1 + ROWS // 2))
    return [[_value(rng, f["name"], k) for f in FIELDS] for k in keys]


def model(kind: TableKind, written: list[list[list[Any]]], fields: list[dict[str, Any]] = FIELDS) -> list[list[Any]]:
    """The rows a reader must return: every row of an append table; the last row per key of a primary-key one
    (the deduplicate merge engine)."""
    if not kind.primary_keys:
        return [r for c in written for r in c]
    at = [next(i for i, f in enumerate(fields) if f["name"] == k) for k in kind.primary_keys]
    last: dict[tuple, list[Any]] = {}
    for c in written:
        for r in c:
            last[tuple(r[i] for i in at)] = r
    return list(last.values())


def table_dir(work: Path, owner: str, kind: str) -> Path:
    """Where a table of `kind` goes under `work`: <work>/<owner>/db.db/<kind with _ for -> (the form every
    table path of the protocol has, and a name SQL engines take unquoted)."""
    return work / owner / "db.db" / kind.replace("-", "_")


def location(path: str | Path) -> tuple[str, str, str]:
    """(warehouse, database, table) of a protocol table path <warehouse>/<database>.db/<table>."""
    p = Path(path)
    return str(p.parent.parent), p.parent.name.removesuffix(".db"), p.name
