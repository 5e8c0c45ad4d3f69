"""The reference table writer: a whole primary-key table laid out as Java Paimon lays it out.

Writes schema-0, Parquet data files (Java's column order, rows sorted by key, one file per
partition and bucket, at the highest level as after a full compaction), a separate
`.index` file-index container per data file (bloom filter on a column), deletion vectors
for deleted rows (index file + index manifest), manifests, manifest lists and snapshot 1,
with the Avro records built from the spec's `metadata_records` (Java's field order,
names and codec). The bucket of every row comes from the kit's BinaryRow hash. Java's own
reader reads it (conformance/test_table_writer.py); the main job validates it.
"""

from __future__ import annotations

import io
import json
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import binary_row, bucketing
from .. import table_layout as tl
from ..errors import UsageError
from ..layouts import deletion_vectors, file_index
from ..types import DataType, parse_type
from .files import arrow_type, stats_of_columns

AVRO_NAMESPACE = "org.apache.paimon.avro.generated.record"
MAX_LEVEL = 5  # num-levels defaults to 6: a full compaction writes level 5
MANIFEST_ENTRY_VERSION, MANIFEST_FILE_META_VERSION, INDEX_ENTRY_VERSION = 2, 2, 1


# ---------------------------------------------------------------- Avro schemas from the spec


def _avro_type(t: Any, name: str, nullable: bool, release: str) -> Any:
    if isinstance(t, dict):
        items = _avro_type(t["array"], f"{name}", bool(t.get("nullable_items")), release)
        out: Any = {"type": "array", "items": items}
    elif t == "timestamp_millis":
        out = {"type": "long", "logicalType": "timestamp-millis"}
    elif t in ("int", "long", "string", "bytes"):
        out = t
    else:
        out = avro_record(t, name, release)
    return ["null", out] if nullable else out


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("-")[0].split("."))


def avro_record(kind: str, name: str = AVRO_NAMESPACE, release: str = "0.9.0") -> dict:
    """The Avro schema Java `release` writes for a metadata record (the fields it knows)."""
    fields = []
    for f in tl.spec()["metadata_records"][kind]["fields"]:
        if "since" in f and _version(f["since"]) > _version(release):
            continue
        entry: dict[str, Any] = {
            "name": f["name"],
            "type": _avro_type(f["type"], f"{name}_{f['name']}", False, release),
        }
        if f.get("nullable"):
            entry = {"default": None, "name": f["name"], "type": ["null", entry["type"]]}
        fields.append(entry)
    return {"type": "record", "name": name, "fields": fields}


def avro_bytes(kind: str, records: list[dict], release: str = "0.9.0") -> bytes:
    """Records of a metadata kind as the Avro file Java `release` writes (zstandard codec)."""
    import fastavro

    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(avro_record(kind, release=release)), records, codec="zstandard")
    return buf.getvalue()


def write_avro(path: Path, kind: str, records: list[dict], release: str = "0.9.0") -> int:
    """Write records of a metadata kind as Java `release` does; return the file size."""
    data = avro_bytes(kind, records, release)
    path.write_bytes(data)
    return len(data)


# ---------------------------------------------------------------- the table


@dataclass
class SampleTable:
    """What a reference table holds, for tests: rows kept, rows deleted, per-file facts."""

    root: Path
    rows: list[dict] = field(default_factory=list)  # the rows a reader must return
    deleted: list[dict] = field(default_factory=list)


FIELDS = [("dt", "STRING", False), ("id", "BIGINT", False), ("v", "DOUBLE", True), ("s", "STRING", True)]


def _name(kind: str, uid: str, n: int) -> str:
    return f"{kind}-{uid}-{n}"


def _key_row(key_types: list[DataType], row: dict) -> bytes:
    return binary_row.serialize_for_manifest(binary_row.write(key_types, [row["id"]]), 1)


def _schema_json(options: dict[str, str]) -> dict:
    return {
        "version": 3,
        "id": 0,
        "fields": [
            {"id": i, "name": n, "type": t + ("" if nullable else " NOT NULL")}
            for i, (n, t, nullable) in enumerate(FIELDS)
        ],
        "highestFieldId": len(FIELDS) - 1,
        "partitionKeys": ["dt"],
        "primaryKeys": ["dt", "id"],
        "options": options,
        "timeMillis": 1_700_000_000_000,
    }


def write_table(
    root: Path, rows: int = 400, buckets: int = 4, seed: int = 7, delete_every: int = 9, release: str = "0.9.0"
) -> SampleTable:
    """Write a primary-key table (dt, id, v, s) with `rows` rows over two partitions under `root`.

    `release`: the Java release whose manifest records to write (0.9.0: what both bundled
    jars write; 1.0.0 adds `_VALUE_STATS_COLS` and `_CARDINALITY`, written as null).
    """
    rng = np.random.default_rng(seed)
    if root.exists() and any(root.iterdir()):
        raise UsageError(f"{root} is not empty; the reference table writer writes into an empty directory")
    root.mkdir(parents=True, exist_ok=True)
    options = {
        "bucket": str(buckets),
        "file.format": "parquet",
        "deletion-vectors.enabled": "true",
        "file-index.bloom-filter.columns": "s",
        "file-index.in-manifest-threshold": "1 b",
    }
    (root / "schema").mkdir()
    (root / "schema" / "schema-0").write_text(json.dumps(_schema_json(options), indent=2))
    types = {n: parse_type(t) for n, t, _ in FIELDS}
    table = [
        {
            "dt": ["2024-01-01", "2024-01-02"][i % 2],
            "id": int(i),
            "v": None if i % 11 == 0 else round(float(rng.uniform(-100, 100)), 3),
            "s": None if i % 13 == 0 else f"s{int(rng.integers(0, 50))}",
        }
        for i in range(rows)
    ]
    key_types = [types["id"]]
    hashes = bucketing.hash_columns(key_types, [pa.array([r["id"] for r in table], pa.int64())])
    groups: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for r, h in zip(table, hashes, strict=True):
        groups[(r["dt"], int(bucketing.default_bucket(int(h), buckets)))].append(r)
    out = SampleTable(root)
    uid = str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)), version=4))
    layout = tl.LayoutOptions.of(options)
    entries, index_entries, vectors_per_bucket = [], [], {}
    partitions: dict[str, bytes] = {}  # dt -> serialized partition row
    seq = 0
    for n, ((dt, bucket), group) in enumerate(sorted(groups.items())):
        group.sort(key=lambda r: r["id"])
        folder = tl.partition_path([("dt", types["dt"])], [dt], layout) + tl.bucket_dir(bucket)
        (root / folder).mkdir(parents=True, exist_ok=True)
        name = f"data-{uid}-{n}.parquet"
        seqs = list(range(seq, seq + len(group)))
        seq += len(group)
        columns = {
            "_KEY_id": pa.array([r["id"] for r in group], pa.int64()),
            "_SEQUENCE_NUMBER": pa.array(seqs, pa.int64()),
            "_VALUE_KIND": pa.array([tl.row_kind_byte("+I")] * len(group), pa.int8()),
        } | {c: pa.array([r[c] for r in group], arrow_type(types[c])) for c, _, _ in FIELDS}
        schema = pa.schema([pa.field(k, v.type, nullable=k in ("v", "s")) for k, v in columns.items()])
        pq.write_table(pa.table(columns, schema=schema), root / folder / name, compression="zstd")
        values = [r["s"] for r in group]
        index_name = f"{name}.index"
        index_bytes = file_index.encode(
            {
                "case_format": 1,
                "kind": "file-index",
                "columns": [
                    {
                        "name": "s",
                        "type": "STRING",
                        "values": values,
                        "indexes": [{"index_type": "bloom-filter", "options": {"items": len(values)}}],
                    }
                ],
            }
        )
        (root / folder / index_name).write_bytes(index_bytes)
        deleted = [i for i, r in enumerate(group) if r["id"] % delete_every == 0]
        out.deleted += [group[i] for i in deleted]
        gone = set(deleted)
        out.rows += [r for i, r in enumerate(group) if i not in gone]
        if deleted:
            vectors_per_bucket[(dt, bucket)] = {name: np.array(deleted)}
        partition = partitions.setdefault(
            dt, binary_row.serialize_for_manifest(binary_row.write([types["dt"]], [dt]), 1)
        )
        entries.append(
            {
                "_VERSION": MANIFEST_ENTRY_VERSION,
                "_KIND": 0,
                "_PARTITION": partition,
                "_BUCKET": bucket,
                "_TOTAL_BUCKETS": buckets,
                "_FILE": {
                    "_FILE_NAME": name,
                    "_FILE_SIZE": (root / folder / name).stat().st_size,
                    "_ROW_COUNT": len(group),
                    "_MIN_KEY": _key_row(key_types, group[0]),
                    "_MAX_KEY": _key_row(key_types, group[-1]),
                    "_KEY_STATS": stats_of_columns(key_types, [[r["id"] for r in group]]),
                    "_VALUE_STATS": stats_of_columns(
                        [types[c] for c, _, _ in FIELDS], [[r[c] for r in group] for c, _, _ in FIELDS]
                    ),
                    "_MIN_SEQUENCE_NUMBER": seqs[0],
                    "_MAX_SEQUENCE_NUMBER": seqs[-1],
                    "_SCHEMA_ID": 0,
                    "_LEVEL": MAX_LEVEL,
                    "_EXTRA_FILES": [index_name],
                    "_CREATION_TIME": 1_700_000_000_000,
                    "_DELETE_ROW_COUNT": 0,
                    "_EMBEDDED_FILE_INDEX": None,
                    "_FILE_SOURCE": 1,  # COMPACT: these files stand where a full compaction puts them
                },
            }
        )
    (root / "manifest").mkdir()
    (root / "index").mkdir()
    for n, ((dt, bucket), vectors) in enumerate(sorted(vectors_per_bucket.items())):
        written = deletion_vectors.write_files(vectors)[0]
        index_name = _name("index", uid, n)
        (root / "index" / index_name).write_bytes(written.data)
        index_entries.append(
            {
                "_VERSION": INDEX_ENTRY_VERSION,
                "_KIND": 0,
                "_PARTITION": partitions[dt],
                "_BUCKET": bucket,
                "_INDEX_TYPE": "DELETION_VECTORS",
                "_FILE_NAME": index_name,
                "_FILE_SIZE": len(written.data),
                "_ROW_COUNT": len(written.ranges),
                "_DELETIONS_VECTORS_RANGES": [
                    {"f0": f, "f1": off, "f2": length} for f, (off, length, _) in written.ranges.items()
                ],
            }
        )
    manifest = _name("manifest", uid, 0)
    size = write_avro(root / "manifest" / manifest, "manifest_entry", entries, release)
    dts = sorted({r["dt"] for r in table})
    meta = {
        "_VERSION": MANIFEST_FILE_META_VERSION,
        "_FILE_NAME": manifest,
        "_FILE_SIZE": size,
        "_NUM_ADDED_FILES": len(entries),
        "_NUM_DELETED_FILES": 0,
        "_PARTITION_STATS": stats_of_columns([types["dt"]], [dts]),
        "_SCHEMA_ID": 0,
    }
    base, delta = _name("manifest-list", uid, 0), _name("manifest-list", uid, 1)
    write_avro(root / "manifest" / base, "manifest_file_meta", [], release)
    write_avro(root / "manifest" / delta, "manifest_file_meta", [meta], release)
    index_manifest = _name("index-manifest", uid, 0)
    write_avro(root / "manifest" / index_manifest, "index_manifest_entry", index_entries, release)
    snapshot = {
        "version": 3,
        "id": 1,
        "schemaId": 0,
        "baseManifestList": base,
        "deltaManifestList": delta,
        "changelogManifestList": None,
        "indexManifest": index_manifest,
        "commitUser": str(uuid.UUID(int=int(rng.integers(0, 2**63)), version=4)),
        "commitIdentifier": 9223372036854775807,
        "commitKind": "APPEND",
        "timeMillis": 1_700_000_000_000,
        "logOffsets": {},
        "totalRecordCount": len(table),
        "deltaRecordCount": len(table),
        "changelogRecordCount": 0,
    }
    (root / "snapshot").mkdir()
    (root / "snapshot" / "snapshot-1").write_text(json.dumps(snapshot, indent=2))
    (root / "snapshot" / "EARLIEST").write_text("1")
    (root / "snapshot" / "LATEST").write_text("1")
    return out
