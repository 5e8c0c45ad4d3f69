#!/usr/bin/env python3
"""Regenerate the Java-written table goldens with real Java Paimon of several releases (VERSIONS).

    python tools/golden_java_tables.py [--out DIR] [--case NAME ...] [--paimon VERSION ...]

Defines the table cases (seeded, so the rows are the same on every run), has
tools/java/tables/TableGoldenWriter.java create each table on the local file
system and write it in several batch commits with Paimon's own writers
(BatchWriteBuilder, BatchTableWrite, write.compact), read it back with
Paimon's own reader, and stores:

  tables/java-<version>/<case>/       the whole table directory as Java wrote it
  tables/java-<version>/<case>.json   its sidecar (plain JSON, sorted keys; the case
                                         schemas do not know kind "table")

Sidecar keys: schema (fields with id, name, type as parse_type reads it, nullable;
primary_keys, partition_keys, options as Java stored them), partitions (every distinct
partition written: logical values and FileStorePathFactory.getPartitionString),
data_file_fields (primary-key tables: KeyValue.schema over PrimaryKeyFieldsExtractor's
key and value fields; null for append tables), expected_rows (what Java reads from the
latest snapshot, logical JSON in schema column order, sorted) with expected_row_kinds,
latest_snapshot and snapshots (each snapshot's counters), latest_data_files and
latest_index_files (the latest snapshot's files without their random names), notes,
provenance. The rows Java reads back are checked against the rows the case wrote.

Schema-evolution cases (steps with "op": "alter": SchemaManager.commitChanges, then the table
is opened again) also carry `schemas` (every schema version: id, fields, highest_field_id),
and `schema_id` in each of latest_data_files (the schema the file was written with). Their
expected_rows are read under the latest schema; the model applies the alters by field id
(rename keeps the id, drop removes it, add takes highest_field_id + 1, columns added later
are null in older rows, type changes cast the older values: widening integers, FLOAT to
DOUBLE, integers to STRING), and its schema must equal the one Java stored.

File names (UUIDs), commit users, commit times and the schema's creation time are
random in Java, and so are Avro sync markers: a rerun writes the same sidecars and an
equivalent tree (same Parquet, ORC and index bytes) under other file names.
The jars: 1.0-SNAPSHOT from the PyPI wheel paimon-python-ali==0.1.1; 0.9.0 from the
sdist pypaimon==0.2.0, run with the 1.0 jar after it for Hadoop only (tools/paimon_java.py).
Default out: golden/.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import java_releases
import paimon_java
from golden.evidence import java_written
from golden.java.common import java_value

from paimon_conform.core import cases
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json

ROOT = Path(__file__).resolve().parent.parent
VERSIONS = (
    paimon_java.PAIMON_VERSION,
    paimon_java.PAIMON_10_VERSION,
    "1.0.1",
    "1.1.1",
    "1.2.0",
    "1.3.1",
    "1.4.2",
    "2.0.0",
)
# Every case from 0.9.0, the 1.0-SNAPSHOT jar, 1.2.0 and 2.0.0; from the releases between, the cases whose metadata
# moved between releases (manifests, manifest lists, index manifests, snapshots, statistics, tags; deletion
# vectors, HASH files, file indexes), so every release's metadata is a golden.
BETWEEN_CASES = ("append-file-index-separate", "pk-dynamic-parquet", "pk-fixed4-parquet-dv", "pk-tags-changelog")
ALL_CASES = (paimon_java.PAIMON_VERSION, paimon_java.PAIMON_10_VERSION, "1.2.0", "2.0.0")
# The feature tables (feature_cases), each written by the release of ours that first has the feature and by 2.0.0.
FEATURE_RELEASES = {
    "append-branch": ("0.9.0", "2.0.0"),
    "pk-thin-dense-stats": ("1.0.1", "2.0.0"),
    "pk-dv64-parquet": ("1.2.0", "2.0.0"),
    "pk-dynamic-index-in-bucket-dir": ("1.3.1", "2.0.0"),
    "append-row-tracking": ("1.3.1", "2.0.0"),
    "append-blob": ("1.4.2", "2.0.0"),
    "append-data-evolution": ("1.3.1", "2.0.0"),
    "append-global-index-btree": ("1.4.2", "2.0.0"),
    "append-global-index-bitmap": ("1.4.2", "2.0.0"),
}


def base_cases_of(version: str) -> tuple[str, ...] | None:
    """The base cases (all_cases but the feature tables) committed for a release (None: all of them)."""
    return None if version in ALL_CASES else BETWEEN_CASES


def cases_of(version: str) -> tuple[str, ...]:
    """The names of every case committed for a release: its base cases and the feature tables it writes."""
    base = base_cases_of(version)
    names = [c["name"] for c in base_cases()] if base is None else list(base)
    return (*names, *(name for name, releases in FEATURE_RELEASES.items() if version in releases))


SIDECAR_FORMAT = 1

KV_FIELDS = [("dt", "STRING"), ("id", "BIGINT"), ("v", "DOUBLE"), ("s", "STRING")]
DAYS = ["2024-01-01", "2024-01-02"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randrange(1, 9)))


def _kv_rows(rng: random.Random, ids: range) -> list[list]:
    """["+I", {column: value}] rows over both days for the dt/id/v/s tables."""
    return [
        ["+I", {"dt": d, "id": i, "v": round(rng.uniform(-100, 100), 3), "s": _word(rng)}] for d in DAYS for i in ids
    ]


def _changes(rng: random.Random, ids: list[int], updates: int, deletes: int, new: range) -> list[list]:
    """Upserts (+U) and deletes (-D) of existing keys, then inserts of new keys."""
    keys = [(d, i) for d in DAYS for i in ids]
    picked = rng.sample(keys, updates + deletes)
    rows = [
        ["+U", {"dt": d, "id": i, "v": round(rng.uniform(-100, 100), 3), "s": _word(rng)}] for d, i in picked[:updates]
    ]
    rows += [["-D", {"dt": d, "id": i, "v": None, "s": None}] for d, i in picked[updates:]]
    return rows + _kv_rows(rng, new)


def _write(rows: list[list]) -> dict:
    return {"op": "write", "rows": rows}


def _alter(*changes: dict) -> dict:
    """One schema version: SchemaManager.commitChanges(changes)."""
    return {"op": "alter", "changes": list(changes)}


def _add(name: str, type_text: str, to: str | None = None, ref: str | None = None) -> dict:
    move = None if to is None else {"to": to} | ({"ref": ref} if ref else {})
    return {"kind": "add", "name": name, "type": type_text, "move": move}


def _move(name: str, to: str, ref: str | None = None) -> dict:
    return {"kind": "move", "name": name, "move": {"to": to} | ({"ref": ref} if ref else {})}


def _rename(name: str, new_name: str) -> dict:
    return {"kind": "rename", "name": name, "new_name": new_name}


def _drop(name: str) -> dict:
    return {"kind": "drop", "name": name}


def _retype(name: str, type_text: str) -> dict:
    return {"kind": "type", "name": name, "type": type_text}


def _set_option(key: str, value: str) -> dict:
    return {"kind": "set_option", "key": key, "value": value}


def _case(name: str, fields, primary_keys, partition_keys, options, steps, notes: str) -> dict:
    return {
        "name": name,
        "fields": [{"name": n, "type": t} for n, t in fields],
        "primary_keys": primary_keys,
        "partition_keys": partition_keys,
        "options": options,
        "steps": steps,
        "notes": notes,
    }


def pk_cases() -> list[dict]:
    """The primary-key tables: fixed buckets with deletion vectors, merge-on-read ORC, dynamic buckets."""
    rng = random.Random(20261201)
    ids = list(range(20))
    dv = _case(
        "pk-fixed4-parquet-dv",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {"bucket": "4", "file.format": "parquet", "deletion-vectors.enabled": "true"},
        [
            _write(_kv_rows(rng, range(20))),
            _write(_changes(rng, ids, 10, 5, range(20, 22))),
            {"op": "compact", "full": True},
            _write(_changes(rng, ids, 6, 3, range(22, 23))),
        ],
        "commit 1 inserts 40 rows; commit 2 upserts 10, deletes 5 and inserts 4; commit 3 fully compacts every "
        "(partition, bucket); commit 4 upserts 6, deletes 3 and inserts 2. With deletion vectors every write "
        "commit is followed by a COMPACT snapshot: the new level-0 files are compacted at once (lookup), and the "
        "rows they replace in older files are marked in DELETION_VECTORS index files (index/index-*); the full "
        "compaction leaves 1-byte (empty) DV files in the buckets it cleaned, and commit 4 gives the latest "
        "snapshot non-empty vectors again",
    )
    mor = _case(
        "pk-fixed4-orc-mor",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {
            "bucket": "4",
            "file.format": "orc",
            "changelog-producer": "input",
            "data-file.prefix": "part-",
            "changelog-file.prefix": "log-",
        },
        [
            _write(_kv_rows(rng, range(20))),
            _write(_changes(rng, ids, 10, 5, range(20, 22))),
            _write(_changes(rng, ids, 4, 2, range(22, 23))),
        ],
        "three write commits, no compaction: several level-0 files per bucket (merge on read); "
        "changelog-producer input writes each commit's input rows again as changelog files",
    )
    dyn_rows = [
        ["+I", {"dt": rng.choice(DAYS), "id": i, "v": round(rng.uniform(-100, 100), 3), "s": _word(rng)}]
        for i in range(30)
    ]
    dyn_second = [["+U", dict(r[1], v=round(rng.uniform(-100, 100), 3))] for r in rng.sample(dyn_rows, 8)]
    dyn_second += [
        ["+I", {"dt": rng.choice(DAYS), "id": i, "v": round(rng.uniform(-100, 100), 3), "s": _word(rng)}]
        for i in range(30, 42)
    ]
    dynamic = _case(
        "pk-dynamic-parquet",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {"bucket": "-1", "file.format": "parquet", "dynamic-bucket.target-row-num": "5"},
        [_write(dyn_rows), _write(dyn_second)],
        "dynamic buckets: each row's bucket from a fresh HashBucketAssigner per commit (one channel) over "
        "the partition and the trimmed primary key (id), then write(row, bucket); 30 rows, then 8 upserts "
        "and 12 new keys; the writer keeps the HASH index (index/index-*)",
    )
    return [dv, mor, dynamic]


def append_cases() -> list[dict]:
    """The append tables: file indexes (separate and embedded), typed partition values, fixed buckets in Avro."""
    rng = random.Random(20261202)

    def rows(n: int, start: int) -> list[list]:
        return [
            [
                "+I",
                {
                    "dt": rng.choice(DAYS),
                    "id": start + i,
                    "v": round(rng.uniform(-100, 100), 3),
                    "s": None if rng.random() < 0.1 else _word(rng),
                },
            ]
            for i in range(n)
        ]

    index_options = {
        "bucket": "-1",
        "file.format": "parquet",
        "file-index.bloom-filter.columns": "s",
        "file-index.bitmap.columns": "dt",
        "file-index.bloom-filter.s.items": "50",  # the default (1,000,000 items) makes a 600 KB bloom filter
    }
    separate = _case(
        "append-file-index-separate",
        KV_FIELDS,
        [],
        ["dt"],
        index_options | {"file-index.in-manifest-threshold": "1 b"},
        [_write(rows(20, 0)), _write(rows(15, 20))],
        "bloom filter on s, bitmap on dt; threshold 1 byte: every data file's index goes to a separate "
        "<data file>.index file listed in the file's extra files",
    )
    embedded = _case(
        "append-file-index-embedded",
        KV_FIELDS,
        [],
        ["dt"],
        index_options,
        [_write(rows(20, 0)), _write(rows(15, 20))],
        "bloom filter on s, bitmap on dt; default threshold (500 B): the index bytes are embedded in the "
        "manifest entry (_EMBEDDED_FILE_INDEX), no .index file",
    )
    fixed = _case(
        "append-fixed3-avro",
        KV_FIELDS,
        [],
        ["dt"],
        {"bucket": "3", "bucket-key": "id", "file.format": "avro"},
        [_write(rows(20, 0)), _write(rows(15, 20))],
        "append table with three fixed buckets keyed by id; two commits",
    )
    return [separate, embedded, partition_values_case(), fixed]


PARTITION_FIELDS = [
    ("s", "STRING"),
    ("d", "DATE"),
    ("ts", "TIMESTAMP(3)"),
    ("b", "BOOLEAN"),
    ("dec", "DECIMAL(10, 2)"),
    ("f", "DOUBLE"),
    ("i", "INT"),
]


def partition_values_case() -> dict:
    """An append table partitioned by seven typed columns whose values need escaping or are edge cases."""
    values = {
        "s": [
            "a/b",
            "x=y:z",
            "%#?*",
            "[]{}^'\"\\",
            "ctl\u0001x",
            "del\u007fx",
            "with space",
            "\u00fcn\u00ef",
            "",
            "  ",
            None,
            "plain",
        ],
        "d": ["2024-02-29", "1970-01-01", "1969-12-31", None, "2000-01-01"],
        "ts": ["2024-01-01T00:00:00", "2024-01-01T12:34:00", "2024-01-01T12:34:56", "2024-01-01T12:34:56.789", None],
        "b": [True, False, None],
        "dec": ["-1.50", "0.00", "12345678.99", "-0.01", None],
        "f": [1.0e10, 0.001, 1.0, -2.5, 1.0e-7, 123456789.0, -0.0, "NaN", None],
        "i": [0, -1, 2**31 - 1, None],
    }
    rng = random.Random(20261203)
    n = 24
    columns = {}
    for c, vs in values.items():
        cycled = [vs[r % len(vs)] for r in range(n)]  # every value at least twice
        rng.shuffle(cycled)
        columns[c] = cycled
    rows = [["+I", {c: columns[c][r] for c in values} | {"v": r}] for r in range(n)]
    rows.append(["+I", dict(rows[0][1], v=n)])  # a second row in the first partition
    # "", "  " and null strings with the same other values: three partitions, one directory name
    same = {"d": "2024-02-29", "ts": "2024-01-01T00:00:00", "b": True, "dec": "0.00", "f": 1.0, "i": 7}
    rows += [["+I", same | {"s": s, "v": n + 1 + k}] for k, s in enumerate(["", "  ", None])]
    return _case(
        "append-partition-values",
        [*PARTITION_FIELDS, ("v", "BIGINT")],
        [],
        [c for c, _ in PARTITION_FIELDS],
        {"bucket": "-1", "file.format": "orc"},
        [_write(rows[:14]), _write(rows[14:])],
        "seven partition columns; values that need escaping (/ = : % # ? * [ ] { } ^ ' \" \\ \\u0001 \\u007f), "
        "a space, non-ASCII, the empty string, whitespace only, nulls, timestamps with zero seconds / millis, "
        "doubles printed in exponent form, -0.0 and NaN, negative decimals; rows that differ only in a string "
        "partition value of '', '  ' or null; two commits",
    )


EVOLUTION_FIELDS = [
    ("id", "INT"),
    ("a", "INT"),
    ("b", "STRING"),
    ("c", "DOUBLE"),
    ("d", "BIGINT"),
    ("g", "FLOAT"),
    ("h", "INT"),
]


def evolution_alters(rename_extra: tuple[dict, ...] = ()) -> list[dict]:
    """The alters every evolution case goes through, between its writes (never on key or partition columns).

    `rename_extra`: option changes committed with the rename (Paimon does not rename a column in the
    file-index options; a write after the rename fails with "b does not exist in column fields").
    """
    return [
        _alter(_add("e", "STRING"), _add("f", "INT", "first")),
        _alter(_rename("b", "b2"), _drop("c"), *rename_extra),
        _alter(_move("d", "first")),
        _alter(_retype("a", "BIGINT"), _retype("g", "DOUBLE"), _retype("h", "STRING")),
    ]


EVOLUTION_NOTE = (
    "schema 0 has id INT, a INT, b STRING, c DOUBLE, d BIGINT, g FLOAT, h INT; alter 1 adds e STRING at the end "
    "and f INT first; alter 2 renames b to b2 and drops c (one schema version); alter 3 moves d first; alter 4 "
    "widens a INT to BIGINT, g FLOAT to DOUBLE and changes h INT to STRING; every alter is followed by a write "
    "with the new schema (the table opened again). Rows written before a column was added read it as null; "
    "older FLOAT values read as the DOUBLE of the same 32-bit value, older INT h as its decimal string"
)


def _random_value(rng: random.Random, type_text: str, nulls: float = 0.15) -> Any:
    if rng.random() < nulls:
        return None
    t = parse_type(type_text)
    if t.root == "INT":
        return rng.choice([rng.randrange(-1000, 1000), 0, -(2**31), 2**31 - 1])
    if t.root == "BIGINT":
        return rng.choice([rng.randrange(-(2**40), 2**40), -(2**63), 2**63 - 1])
    if t.root in ("DOUBLE", "FLOAT"):
        return rng.choice([round(rng.uniform(-100, 100), 2), 0.1, -0.0])
    return rng.choice([_word(rng), "", "\u00e9t\u00e9"])


def _evolution_rows(rng: random.Random, fields: list[dict], ids: list[int], fixed: dict | None = None) -> list[list]:
    """+I rows for the given ids with random values for every current column."""
    fixed = fixed or {}
    return [
        [
            "+I",
            {
                f["name"]: fixed.get(f["name"], i if f["name"] == "id" else _random_value(rng, f["type"]))
                for f in fields
            },
        ]
        for i in ids
    ]


def evolution_steps(rng: random.Random, case: dict, plan: list) -> list[dict]:
    """Steps from a plan of alters, ("write", ids, kind) and ("compact",) entries, rows drawn for the schema
    current at each write (so a write after an alter uses the new columns)."""
    steps: list[dict] = []
    fields = initial_fields(case)
    highest = len(fields) - 1
    for item in plan:
        if isinstance(item, dict):
            fields, highest = apply_changes(fields, highest, item["changes"])
            steps.append(item)
        elif item[0] == "compact":
            steps.append({"op": "compact", "full": True})
        else:
            _, ids, kind, fixed = item
            rows = _evolution_rows(rng, fields, ids, fixed)
            if kind == "-D":
                rows = [["-D", {k: (v if k in ("id", "dt") else None) for k, v in r.items()}] for _, r in rows]
            else:
                rows = [[kind, r] for _, r in rows]
            steps.append(_write(rows))
    return steps


def evolution_cases() -> list[dict]:
    """Schema evolution: an append table, a primary-key table with deletion vectors and a merge-on-read ORC one."""
    rng = random.Random(20261204)
    alters = evolution_alters()
    append = _case(
        "evolution-append-parquet",
        EVOLUTION_FIELDS,
        [],
        [],
        {
            "bucket": "-1",
            "file.format": "parquet",
            "file-index.bloom-filter.columns": "b,a",
            "file-index.bitmap.columns": "b,h",
            "file-index.bloom-filter.b.items": "50",
            "file-index.bloom-filter.a.items": "50",
            "file-index.in-manifest-threshold": "1 b",
        },
        [],
        "append table, bucket-unaware, Parquet; bloom-filter on b and a, bitmap on b and h (b is renamed, a and h "
        "change type later), threshold 1 byte: separate <data file>.index files; value statistics on every "
        "column (default stats mode). Paimon does not rename a column in the file-index options (a write after "
        "the rename fails: b does not exist in column fields), so the rename's schema version also sets them to "
        "b2. Files written before the rename keep index entries named b. " + EVOLUTION_NOTE,
    )
    append["expect"] = {"live_schema_ids": 5}
    index_alters = evolution_alters(
        (
            _set_option("file-index.bloom-filter.columns", "b2,a"),
            _set_option("file-index.bitmap.columns", "b2,h"),
            _set_option("file-index.bloom-filter.b2.items", "50"),
            {"kind": "remove_option", "key": "file-index.bloom-filter.b.items"},
        )
    )
    append["steps"] = evolution_steps(
        rng,
        append,
        [
            ("write", range(0, 10), "+I", None),
            alters[0],
            ("write", range(10, 20), "+I", None),
            index_alters[1],
            ("write", range(20, 30), "+I", None),
            alters[2],
            ("write", range(30, 40), "+I", None),
            alters[3],
            ("write", range(40, 50), "+I", None),
        ],
    )
    dv = _case(
        "evolution-pk-parquet-dv",
        EVOLUTION_FIELDS,
        ["id"],
        [],
        {"bucket": "2", "file.format": "parquet", "deletion-vectors.enabled": "true"},
        [],
        "primary key id, two fixed buckets, Parquet, deletion vectors; upserts and deletes under every schema "
        "version; a full compaction after the second alter's write, so the latest snapshot holds level-5 files of "
        "that schema next to files written under the two later schemas. " + EVOLUTION_NOTE,
    )
    dv["expect"] = {"live_schema_ids": 2}
    dv["steps"] = evolution_steps(
        rng,
        dv,
        [
            ("write", range(0, 16), "+I", None),
            alters[0],
            ("write", [1, 2, 3, 16, 17], "+U", None),
            ("write", [4, 5], "-D", None),
            alters[1],
            ("write", [2, 6, 7, 18], "+U", None),
            ("write", [8], "-D", None),
            ("compact",),
            alters[2],
            ("write", [3, 9, 19, 20], "+U", None),
            ("write", [10], "-D", None),
            alters[3],
            ("write", [6, 11, 21], "+U", None),
            ("write", [12, 17], "-D", None),
        ],
    )
    orc_fields = [("dt", "STRING"), *EVOLUTION_FIELDS]
    mor = _case(
        "evolution-pk-orc",
        orc_fields,
        ["dt", "id"],
        ["dt"],
        {"bucket": "2", "file.format": "orc", "write-only": "true"},
        [],
        "primary key (dt, id), partitioned by dt STRING, two fixed buckets, ORC, merge on read (write-only, so no "
        "compaction: "
        "level-0 files of every schema version are merged by key when read); upserts and deletes under every "
        "schema version. " + EVOLUTION_NOTE,
    )
    plan: list = []
    updates = [[1, 2, 3, 16], [2, 6, 7, 17], [3, 9, 18], [6, 11, 19]]
    deletes = [[4, 5], [8], [10], [12, 16]]
    for k, day in enumerate(DAYS):
        plan.append(
            ("write", range(0, 16), "+I", {"dt": day}) if k == 0 else ("write", range(0, 10), "+I", {"dt": day})
        )
    for n, alter in enumerate(alters):
        plan.append(alter)
        for day in DAYS:
            plan.append(("write", updates[n], "+U", {"dt": day}))
        plan.append(("write", deletes[n], "-D", {"dt": DAYS[n % 2]}))
    mor["expect"] = {"live_schema_ids": 5}
    mor["steps"] = evolution_steps(rng, mor, plan)
    return [append, dv, mor]


def retention_cases() -> list[dict]:
    """Tables whose metadata outlives their snapshots: tags, long-lived changelogs, consumers, statistics."""
    rng = random.Random(20261124)
    ids = list(range(16))
    keep = {"snapshot.num-retained.min": "1", "snapshot.num-retained.max": "2"}
    pk = _case(
        "pk-tags-changelog",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {"bucket": "2", "file.format": "parquet", "changelog-producer": "input", "changelog.num-retained.max": "20"}
        | keep,
        [
            _write(_kv_rows(rng, range(16))),
            {"op": "tag", "name": "first", "snapshot": 1},
            _write(_changes(rng, ids, 6, 3, range(16, 18))),
            _write(_changes(rng, ids, 4, 2, range(18, 19))),
            {"op": "compact", "full": True},
            {"op": "tag", "name": "compacted", "snapshot": 4, "retained_seconds": 86400},
            _write(_changes(rng, ids, 3, 1, range(19, 20))),
            {"op": "analyze", "column": {"name": "id", "field_id": 1, "distinct": 20, "min": 0, "max": 19}},
            {"op": "consumer", "id": "reader-1", "next_snapshot": 6},
        ],
        "snapshots keep at most 2 (each commit expires older ones), changelogs 20: expired snapshots 1 to 4 "
        "live on as changelog/changelog-N (changelog-producer input, decoupled changelog retention) whose base "
        "and delta manifest lists are deleted with the snapshot; tag 'first' keeps snapshot 1 (files the full "
        "compaction replaced, referred to by no snapshot), tag 'compacted' keeps snapshot 4 with a "
        "tagTimeRetained; an ANALYZE commit (FileStoreCommit.commitStatistics) writes statistics/stats-* and a "
        "snapshot naming it; consumer reader-1 resumes at snapshot 6",
    )
    append = _case(
        "append-tags-expired",
        KV_FIELDS,
        [],
        ["dt"],
        {"bucket": "2", "bucket-key": "id", "file.format": "orc"} | keep,
        [
            _write(_kv_rows(rng, range(12))),
            {"op": "tag", "name": "2024-01-01", "snapshot": 1},
            _write(_kv_rows(rng, range(12, 20))),
            _write(_kv_rows(rng, range(20, 28))),
            {"op": "compact", "full": True},
            _write(_kv_rows(rng, range(28, 32))),
        ],
        "append table with two fixed buckets, at most 2 snapshots kept: tag '2024-01-01' keeps snapshot 1, "
        "whose data files the full compaction (three files per bucket, the least Java's full compaction of an "
        "append bucket takes) replaced and no snapshot refers to",
    )
    return [pk, append]


def _hex(rng: random.Random, n: int) -> str:
    return rng.randbytes(n).hex()


def _three_commits(rng: random.Random, ids: list[int]) -> list[dict]:
    """Inserts of 32 rows, then two commits of upserts, deletes and inserts."""
    return [
        _write(_kv_rows(rng, range(16))),
        _write(_changes(rng, ids, 6, 3, range(16, 18))),
        _write(_changes(rng, ids, 4, 2, range(18, 19))),
    ]


SCORED_FIELDS = [("id", "INT"), ("name", "STRING"), ("score", "DOUBLE")]
DATA_EVOLUTION = {"file.format": "parquet", "row-tracking.enabled": "true", "data-evolution.enabled": "true"}


def _scored_rows(rng: random.Random, ids: range) -> list[list]:
    """["+I", {id, name, score}] rows of the SCORED_FIELDS tables."""
    return [["+I", {"id": i, "name": _word(rng), "score": round(rng.uniform(0, 100), 2)}] for i in ids]


def feature_cases() -> list[dict]:
    """The tables of features a release introduced (FEATURE_RELEASES): branches, thin mode with dense statistics,
    64-bit deletion vectors, index files in bucket directories, row tracking, BLOB columns."""
    rng = random.Random(20261129)
    ids = list(range(16))
    branch = _case(
        "append-branch",
        KV_FIELDS,
        [],
        ["dt"],
        {"bucket": "-1", "file.format": "parquet"},
        [
            _write(_kv_rows(rng, range(8))),
            {"op": "tag", "name": "t1", "snapshot": 1},
            {"op": "branch", "name": "b1", "tag": "t1"},
            _write(_kv_rows(rng, range(8, 12))) | {"branch": "b1"},
            _write(_kv_rows(rng, range(12, 14))),
        ],
        "an append table (bucket -1) with a tag 't1' of snapshot 1 and a branch 'b1' created from it "
        "(branch/branch-b1/ with its own schema, snapshot and tag folders, sharing the data files of the tag); "
        "one commit to the branch, then one to the main branch",
    )
    thin = _case(
        "pk-thin-dense-stats",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {
            "bucket": "2",
            "file.format": "parquet",
            "data-file.thin-mode": "true",
            "metadata.stats-dense-store": "true",
            "fields.s.stats-mode": "none",
        },
        [
            _write(_kv_rows(rng, range(16))),
            _write(_changes(rng, ids, 6, 3, range(16, 18))),
            {"op": "compact", "full": True},
            _write(_changes(rng, ids, 3, 1, range(18, 19))),
        ],
        "thin mode: the data files hold no _KEY_ copies of the key columns; dense statistics with column s "
        "left out (fields.s.stats-mode none), so _VALUE_STATS_COLS lists the columns that have statistics",
    )
    dv64 = _case(
        "pk-dv64-parquet",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {
            "bucket": "2",
            "file.format": "parquet",
            "deletion-vectors.enabled": "true",
            "deletion-vectors.bitmap64": "true",
        },
        _three_commits(rng, ids),
        "deletion vectors in the 64-bit (Iceberg-compatible Roaring64) form: DELETION_VECTORS index files of "
        "Bitmap64DeletionVector frames",
    )
    in_bucket = _case(
        "pk-dynamic-index-in-bucket-dir",
        KV_FIELDS,
        ["dt", "id"],
        ["dt"],
        {
            "bucket": "-1",
            "dynamic-bucket.target-row-num": "6",
            "file.format": "parquet",
            "deletion-vectors.enabled": "true",
            "index-file-in-data-file-dir": "true",
        },
        _three_commits(rng, ids),
        "dynamic buckets (at most 6 keys a bucket) with deletion vectors, index-file-in-data-file-dir: the HASH "
        "and DELETION_VECTORS index files live in their bucket directories, not under index/",
    )
    tracking = _case(
        "append-row-tracking",
        KV_FIELDS,
        [],
        ["dt"],
        {"bucket": "-1", "file.format": "parquet", "row-tracking.enabled": "true", "compaction.min.file-num": "3"},
        [
            _write(_kv_rows(rng, range(6))),
            _write(_kv_rows(rng, range(6, 10))),
            _write(_kv_rows(rng, range(10, 14))),
            {"op": "compact", "full": True},
            _write(_kv_rows(rng, range(14, 16))),
        ],
        "row tracking: data files carry _FIRST_ROW_ID, snapshots nextRowId; the compaction (AppendCompactCoordinator, "
        "at least 3 files) rewrites each partition's first three files with their _ROW_ID and _SEQUENCE_NUMBER "
        "columns stored",
    )
    blob_fields = [("dt", "STRING"), ("id", "INT"), ("name", "STRING"), ("picture", "BLOB")]

    def blob_rows(ids: range, nulls: bool) -> list[list]:
        return [
            [
                "+I",
                {
                    "dt": DAYS[i % 2],
                    "id": i,
                    "name": _word(rng),
                    "picture": None if nulls and i % 3 == 0 else _hex(rng, rng.randrange(0, 40)),
                },
            ]
            for i in ids
        ]

    blob = _case(
        "append-blob",
        blob_fields,
        [],
        ["dt"],
        {
            "file.format": "parquet",
            "row-tracking.enabled": "true",
            "data-evolution.enabled": "true",
            "blob.target-file-size": "100 b",
        },
        [_write(blob_rows(range(8), False)), _write(blob_rows(range(8, 14), True))],
        "a BLOB column (row tracking and data evolution on) in a table partitioned by dt: each write puts the "
        "other columns of a partition in a Parquet file and its BLOB values in .blob files of at most about 100 "
        "bytes (blob.target-file-size), which tile the Parquet file's row ids; the second commit has null BLOB "
        "values",
    )
    evolution = _case(
        "append-data-evolution",
        SCORED_FIELDS,
        [],
        [],
        DATA_EVOLUTION,
        [
            _write(_scored_rows(rng, range(8))),
            _write(_scored_rows(rng, range(8, 13))),
            {
                "op": "update_columns",
                "columns": ["name"],
                "first_row_id": 0,
                "rows": [{"name": _word(rng)} for _ in range(8)],
            },
            {
                "op": "update_columns",
                "columns": ["score"],
                "first_row_id": 8,
                "rows": [{"score": None if i == 2 else round(rng.uniform(0, 100), 2)} for i in range(5)],
            },
            {
                "op": "update_columns",
                "columns": ["name"],
                "first_row_id": 0,
                "rows": [{"name": _word(rng)} for _ in range(8)],
            },
        ],
        "data evolution: two commits of whole rows (row ids 0-7 and 8-12), then commits of one column each whose files "
        "take the row ids of the rows they update (_FIRST_ROW_ID, _WRITE_COLS): name of rows 0-7 twice (the newer "
        "file wins), score of rows 8-12 (one null); a read merges each row range's files by column",
    )
    global_btree = _case(
        "append-global-index-btree",
        SCORED_FIELDS,
        [],
        [],
        DATA_EVOLUTION,
        [
            _write(_scored_rows(rng, range(12))),
            _write(_scored_rows(rng, range(12, 20))),
            {"op": "global_index", "type": "btree", "field": "name"},
        ],
        "a BTree global index on name (1.4: BTreeGlobalIndexBuilder, 2.0: SortedGlobalIndexBuilder 'btree') over "
        "the 20 rows of two commits: index files under index/ named in the index manifest with _GLOBAL_INDEX",
    )
    colours = ["red", "green", "blue", None]
    global_bitmap = _case(
        "append-global-index-bitmap",
        SCORED_FIELDS,
        [],
        [],
        DATA_EVOLUTION,
        [
            _write([["+I", {**row, "name": rng.choice(colours)}] for _, row in _scored_rows(rng, range(12))]),
            _write([["+I", {**row, "name": rng.choice(colours)}] for _, row in _scored_rows(rng, range(12, 20))]),
            {"op": "global_index", "type": "bitmap", "field": "name"},
        ],
        "a bitmap global index on name (three values and nulls) over the 20 rows of two commits: 1.4 writes each "
        "split's keys in row-id order as a bitmap file-index payload (GlobalIndexBuilderUtils.createIndexWriter), "
        "2.0 its BGIX layout (SortedGlobalIndexBuilder 'bitmap')",
    )
    return [branch, thin, dv64, in_bucket, tracking, blob, evolution, global_btree, global_bitmap]


def base_cases() -> list[dict]:
    """The tables every release of ALL_CASES writes, in golden order."""
    return pk_cases() + append_cases() + evolution_cases() + retention_cases()


def all_cases() -> list[dict]:
    """Every table case, in golden order."""
    return base_cases() + feature_cases()


def initial_fields(case: dict) -> list[dict]:
    """The created schema's fields with Java's ids (0, 1, ... in order)."""
    return [{"id": i, "name": f["name"], "type": f["type"]} for i, f in enumerate(case["fields"])]


def _apply_move(fields: list[dict], name: str, move: dict) -> None:
    names = [f["name"] for f in fields]
    field = fields.pop(names.index(name))
    names = [f["name"] for f in fields]
    to = move["to"]
    at = {"first": 0, "last": len(fields)}.get(to)
    if at is None:
        at = names.index(move["ref"]) + (1 if to == "after" else 0)
    fields.insert(at, field)


def apply_changes(fields: list[dict], highest: int, changes: list[dict]) -> tuple[list[dict], int]:
    """The fields after one alter step (as SchemaManager.commitChanges applies it), and the highest field id."""
    fields = [dict(f) for f in fields]
    for ch in changes:
        names = [f["name"] for f in fields]
        kind = ch["kind"]
        if kind == "add":
            highest += 1
            fields.append({"id": highest, "name": ch["name"], "type": ch["type"]})
            if ch.get("move"):
                _apply_move(fields, ch["name"], ch["move"])
        elif kind == "rename":
            fields[names.index(ch["name"])]["name"] = ch["new_name"]
        elif kind == "drop":
            del fields[names.index(ch["name"])]
        elif kind == "type":
            fields[names.index(ch["name"])]["type"] = ch["type"]
        elif kind == "move":
            _apply_move(fields, ch["name"], ch["move"])
        elif kind not in ("set_option", "remove_option"):
            raise ValueError(f"schema change {kind}")
    return fields, highest


def fields_at_steps(case: dict) -> list[list[dict]]:
    """The fields current at each step (after it, for an alter)."""
    fields = initial_fields(case)
    highest = len(fields) - 1
    out = []
    for step in case["steps"]:
        if step["op"] == "alter":
            fields, highest = apply_changes(fields, highest, step["changes"])
        out.append(fields)
    return out


def _value_type(text: str) -> str:
    """The type whose values model a column's: BYTES for a BLOB (hex of the data, as Blob.toData gives it)."""
    return "BYTES" if text.strip().upper().removesuffix(" NOT NULL") == "BLOB" else text


def _type_text(text: str) -> str:
    """A column type as the sidecar states it (parse_type's form; BLOB as it is)."""
    return "BLOB" if _value_type(text) != text else str(parse_type(text))


def cast_internal(src: DataType, dst: DataType, v: Any) -> Any:
    """An internal value of an older column type as Paimon's reader casts it to the newer type."""
    if v is None or src == dst:
        return v
    if src.root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        if dst.root in ("SMALLINT", "INT", "BIGINT"):
            return v
        if dst.is_string:
            return str(v)
        if dst.root in ("FLOAT", "DOUBLE"):
            return to_internal(dst, v)
    if src.root == "FLOAT" and dst.root == "DOUBLE":
        return v
    if src.is_string and dst.root == "VARCHAR":
        return v
    raise NotImplementedError(f"cast {src} -> {dst} is not modelled")


def _java_rows(fields: list[dict], rows: list[list]) -> list[list]:
    """Rows as the Java program reads them: [kind, [internal values in field order]]."""
    names = {f["name"] for f in fields}
    for _, row in rows:
        if not set(row) <= names:
            raise ValueError(f"row columns {sorted(set(row) - names)} are not in the schema {sorted(names)}")
    return [[kind, [java_value(_value_type(f["type"]), row.get(f["name"])) for f in fields]] for kind, row in rows]


def java_spec(case: dict) -> dict:
    """The case as TableGoldenWriter reads it (each write's rows in the columns current at that step)."""
    steps = []
    for s, fields in zip(case["steps"], fields_at_steps(case), strict=True):
        if s["op"] == "write":
            s = dict(s, rows=_java_rows(fields, s["rows"]), fields=[f["name"] for f in fields])
        elif s["op"] == "update_columns":  # rows of the updated columns only, in their order
            updated = [f for f in fields if f["name"] in s["columns"]]
            if [f["name"] for f in updated] != s["columns"]:
                raise ValueError(f"update_columns {s['columns']} must name columns of the schema in its order")
            s = dict(s, rows=[values for _, values in _java_rows(updated, [["+I", r] for r in s["rows"]])])
        steps.append(s)
    return {k: v for k, v in case.items() if k not in ("notes", "expect")} | {"steps": steps}


def from_java(t: DataType, v: Any) -> Any:
    """A value in the Java program's internal JSON form, in the kit's logical JSON form."""
    if v is None:
        return None
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return to_json(t, (v[0], v[1]))
    if t.root == "DECIMAL":
        return to_json(t, (int(v[0]), v[1], v[2]))
    if t.is_binary:
        return v
    if t.root in ("FLOAT", "DOUBLE"):
        return to_json(t, to_internal(t, v))
    return to_json(t, v)


def _on_branch(case: dict, step_no: int, branch: str | None) -> bool:
    """Whether step `step_no` wrote what `branch` (None: the main branch) reads: its own writes, and for a branch
    the main branch's writes before the branch was made (of a tag of the then latest snapshot, as the cases do)."""
    step = case["steps"][step_no]
    if step.get("branch") == branch:
        return True
    made = next((i for i, s in enumerate(case["steps"]) if s["op"] == "branch" and s["name"] == branch), None)
    return branch is not None and "branch" not in step and made is not None and step_no < made


def model_rows(case: dict, branch: str | None = None) -> list[list]:
    """The rows a reader must see, from the case's writes alone, in the logical form.

    Append tables keep every row. Primary-key tables (deduplicate merge engine): the last
    +I / +U of a key wins, -U / -D remove it; compactions change nothing. Alters: values are
    kept by field id with the type they were written with and read under the latest schema
    (null for a column the row did not have, older values cast to a changed type). With `branch`, the
    rows of that branch (_on_branch).
    """
    steps_fields = fields_at_steps(case)
    final = steps_fields[-1] if steps_fields else initial_fields(case)
    written = []  # (kind, {field id: (type, internal value)})
    for step_no, (step, fields) in enumerate(zip(case["steps"], steps_fields, strict=True)):
        if step["op"] == "update_columns":  # data evolution: new values of some columns of rows by row id
            if case["primary_keys"] or case["partition_keys"]:
                raise ValueError("update_columns is modelled for unpartitioned append tables (row ids in write order)")
            for k, row in enumerate(step["rows"]):
                values = written[step["first_row_id"] + k][1]
                for f in fields:
                    if f["name"] in row:
                        t = parse_type(_value_type(f["type"]))
                        values[f["id"]] = (t, to_internal(t, row[f["name"]]))
            continue
        if step["op"] != "write" or not _on_branch(case, step_no, branch):
            continue
        for kind, row in step["rows"]:
            values = {}
            for f in fields:
                t = parse_type(_value_type(f["type"]))
                values[f["id"]] = (t, to_internal(t, row.get(f["name"])))
            written.append((kind, values))
    key_ids = [next(f["id"] for f in final if f["name"] == k) for k in case["primary_keys"]]

    def logical(values: dict) -> list:
        out = []
        for f in final:
            t = parse_type(_value_type(f["type"]))
            src, v = values.get(f["id"], (t, None))
            out.append(to_json(t, cast_internal(src, t, v)))
        return out

    if not case["primary_keys"]:
        return [logical(values) for _, values in written]
    state: dict[str, dict] = {}
    for kind, values in written:
        key = _canonical([to_json(*values[i]) for i in key_ids])
        if kind in ("+I", "+U"):
            state[key] = values
        else:
            state.pop(key, None)
    return [logical(values) for values in state.values()]


def _row_key(row: list) -> list:
    return [(v is None, isinstance(v, str), "" if v is None else v) for v in row]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _file_key(f: dict) -> tuple:
    return (f["partition"], f["bucket"], f.get("index_type", ""), f.get("level", 0), _canonical(f))


def _sorted_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_keys(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(v) for v in value]
    return value


def _fields(fields: list[dict]) -> list[dict]:
    return [
        {"id": f["id"], "name": f["name"], "type": _type_text(f["type"]), "nullable": f["nullable"]} for f in fields
    ]


def _provenance(version: str) -> dict:
    """Which jar wrote the table."""
    if version == paimon_java.PAIMON_10_VERSION:
        return {"artifact": paimon_java.ARTIFACT_10, "artifact_sha256": paimon_java.JAR_10_SHA256}
    jar = java_releases.release(version).jar
    return {
        "artifact": f"{jar.coordinate} (Maven Central)",
        "artifact_sha256": jar.sha256,
        "class_path_note": "with " + ", ".join(j.coordinate for j in java_releases.registry()[1]),
    }


def sidecar(case: dict, report: dict, version: str) -> dict:
    """The sidecar of one table from Java's report."""
    schema = report["schema"]
    types = {f["name"]: parse_type(_value_type(f["type"])) for f in schema["fields"]}
    order = [f["name"] for f in schema["fields"]]
    partitions = [
        {
            "values": {k: from_java(types[k], v) for k, v in zip(schema["partition_keys"], p["values"], strict=True)},
            "path": p["path"],
        }
        for p in report["partitions"]
    ]
    partitions.sort(key=lambda p: (p["path"], _canonical(p["values"])))
    read = [
        ([from_java(types[n], v) for n, v in zip(order, r, strict=True)], kind)
        for r, kind in zip(report["rows"], report["row_kinds"], strict=True)
    ]
    read.sort(key=lambda rk: (_row_key(rk[0]), rk[1]))
    evolution = any(s["op"] == "alter" for s in case["steps"])
    if evolution:
        model = [(f["name"], _type_text(f["type"])) for f in fields_at_steps(case)[-1]]
        java = [(f["name"], _type_text(f["type"])) for f in schema["fields"]]
        if model != java:
            raise SystemExit(f"{case['name']}: the model's latest schema {model} is not Java's {java}")
    if sorted(map(_canonical, model_rows(case))) != sorted(_canonical(r) for r, _ in read):
        raise SystemExit(f"{case['name']}: Java read back other rows than the case wrote")
    branches = {}
    for name, got in report.get("branches", {}).items():
        rows = sorted(
            ([from_java(types[n], v) for n, v in zip(order, r, strict=True)] for r in got["rows"]), key=_row_key
        )
        if sorted(map(_canonical, model_rows(case, name))) != sorted(map(_canonical, rows)):
            raise SystemExit(f"{case['name']}: Java read other rows from branch {name} than the case wrote there")
        branches[name] = {"expected_rows": rows, "latest_snapshot": got["latest_snapshot"]}
    data_files = report["data_files"]
    if evolution:
        live = {f["schema_id"] for f in data_files}
        if len(live) < case.get("expect", {}).get("live_schema_ids", 0):
            raise SystemExit(f"{case['name']}: the latest snapshot's files are of schema(s) {sorted(live)} only")
    else:
        data_files = [{k: v for k, v in f.items() if k != "schema_id"} for f in data_files]
    snapshots = report["snapshots"]
    how = (
        "tools/java/tables/TableGoldenWriter.java: SchemaManager.createTable + FileStoreTableFactory.create on the "
        "local file system; one BatchWriteBuilder / BatchTableWrite / commit per step ("
        + ", ".join(_step_text(s) for s in case["steps"])
        + "); expected_rows from newReadBuilder() over all splits of the latest snapshot; partition paths from "
        "FileStorePathFactory.getPartitionString"
    )
    out = {
        "case_format": SIDECAR_FORMAT,
        "kind": "table",
        "name": case["name"],
        "schema": {
            "fields": _fields(schema["fields"]),
            "primary_keys": schema["primary_keys"],
            "partition_keys": schema["partition_keys"],
            "options": schema["options"],
        },
        "partitions": partitions,
        "data_file_fields": None if report["data_file_fields"] is None else _fields(report["data_file_fields"]),
        "expected_rows": [r for r, _ in read],
        "expected_row_kinds": [k for _, k in read],
        "latest_snapshot": snapshots[-1],
        "latest_data_files": sorted(data_files, key=_file_key),
        "latest_index_files": sorted(report["index_files"], key=_file_key),
        "snapshots": snapshots,
        "notes": case["notes"],
        "provenance": {
            "producer": "java-paimon",
            "paimon_version": version,
            "how": how,
            "evidence": java_written(version),
        }
        | _provenance(version),
    }
    for key in ("tags", "consumers"):  # TagManager.tags (name -> snapshot id), ConsumerManager.consumers
        if key in report:
            out[key] = report[key]
    if branches:  # each branch's rows as Java reads its latest snapshot (FileStoreTable.switchToBranch)
        out["branches"] = branches
    if evolution:
        out["schemas"] = [
            {"id": v["id"], "fields": _fields(v["fields"]), "highest_field_id": v["highest_field_id"]}
            for v in sorted(report["schemas"], key=lambda v: v["id"])
        ]
        out["provenance"]["how"] = out["provenance"]["how"].replace(
            "SchemaManager.createTable", "SchemaManager.createTable / commitChanges"
        )
    return _sorted_keys(out)


def _change_text(ch: dict) -> str:
    kind = ch["kind"]
    move = ch.get("move") or {}
    where = " ".join(x for x in (move.get("to"), move.get("ref")) if x)
    if kind == "add":
        return f"add {ch['name']} {ch['type']}" + (f" {where}" if where else "")
    if kind == "rename":
        return f"rename {ch['name']} to {ch['new_name']}"
    if kind == "drop":
        return f"drop {ch['name']}"
    if kind == "type":
        return f"{ch['name']} to {ch['type']}"
    if kind == "move":
        return f"move {ch['name']} {where}"
    return f"{kind} {ch.get('key')}"


def _step_text(s: dict) -> str:
    if s["op"] == "write":
        return "write " + str(len(s["rows"])) + " rows" + (f" to branch {s['branch']!r}" if "branch" in s else "")
    if s["op"] == "global_index":
        return f"{s['type']} global index on {s['field']}"
    if s["op"] == "update_columns":
        return f"update {', '.join(s['columns'])} of {len(s['rows'])} rows from row id {s['first_row_id']}"
    if s["op"] == "branch":
        return f"createBranch {s['name']!r}" + (f" from tag {s['tag']!r}" if "tag" in s else "")
    if s["op"] == "alter":
        return "alter (" + "; ".join(map(_change_text, s["changes"])) + ")"
    if s["op"] == "tag":
        return f"createTag {s['name']!r} of snapshot {s['snapshot']}"
    if s["op"] == "consumer":
        return f"consumer {s['id']!r} at snapshot {s['next_snapshot']}"
    if s["op"] == "analyze":
        return f"commitStatistics with column statistics of {s['column']['name']}"
    return ("full " if s["full"] else "") + "compact"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    parser.add_argument("--case", action="append", help="only this case (repeatable)")
    known = [*java_releases.releases(), paimon_java.PAIMON_10_VERSION]
    parser.add_argument(
        "--paimon", action="append", choices=known, help=f"only this Paimon version (repeatable; default {VERSIONS})"
    )
    args = parser.parse_args()
    specs = all_cases()
    if args.case:
        unknown = set(args.case) - {c["name"] for c in specs}
        if unknown:
            parser.error(f"unknown case(s): {', '.join(sorted(unknown))}")
        specs = [c for c in specs if c["name"] in args.case]
    for version in args.paimon or VERSIONS:
        folder = args.out / "tables" / f"java-{version}"
        wanted = cases_of(version)
        ours = [c for c in specs if (args.case and c["name"] not in FEATURE_RELEASES) or c["name"] in wanted]
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            (work / "cases.json").write_text(json.dumps({"cases": [java_spec(c) for c in ours]}))
            paimon_java.run_java_tables(version, "TableGoldenWriter", str(work / "cases.json"), str(work / "out"))
            folder.mkdir(parents=True, exist_ok=True)
            for case in ours:
                report = json.loads((work / "out" / f"{case['name']}.report.json").read_text())
                target = folder / case["name"]
                if target.exists():
                    shutil.rmtree(target)
                shutil.copytree(work / "out" / case["name"], target)
                (folder / f"{case['name']}.json").write_text(cases.dumps(sidecar(case, report, version)))
        print(f"golden_java_tables: wrote {len(ours)} Java {version} table(s) under {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
