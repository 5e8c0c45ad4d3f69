"""The fault-injection catalog (its tests: test_fault_catalog.py): faults injected into a copy of a clean
Java-written table (golden/tables/java-1.0-SNAPSHOT/), each with the finding code that must catch it.

Faults come from the issue's list and from ../shared/ecosystem-bugs.md (the numbers in
the comments): what other Paimon ports actually shipped. Metadata faults rewrite the
Avro files with fastavro, keeping the writer schema and codec, and keep the manifest
lists' _FILE_SIZE in step so that only the injected fault is wrong.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import fastavro
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from paimon_conform.core import structure
from paimon_conform.core.java_releases import NEWEST
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.file_index import entry as file_index
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.table.validate.table import validate_table
from support.environment import ROOT

JAVA = ROOT / "golden" / "tables" / "java-1.0-SNAPSHOT"


# ---------------------------------------------------------------- helpers


def avro(path: Path) -> tuple[dict, list[dict], str]:
    with path.open("rb") as f:
        r = fastavro.reader(f)
        return r.writer_schema, list(r), r.codec


def dump_avro(path: Path, schema: dict, records: list[dict], codec: str) -> None:
    with path.open("wb") as f:
        fastavro.writer(f, fastavro.parse_schema(schema), records, codec=codec)


def write_avro(path: Path, schema: dict, records: list[dict], codec: str) -> None:
    """Rewrite a manifest and keep the manifest lists' size of it true."""
    dump_avro(path, schema, records, codec)
    root = path.parent.parent
    for lst in root.glob("manifest/manifest-list-*"):  # keep the summaries' sizes true
        s, recs, c = avro(lst)
        if any(r["_FILE_NAME"] == path.name for r in recs):
            for r in recs:
                if r["_FILE_NAME"] == path.name:
                    r["_FILE_SIZE"] = path.stat().st_size
            dump_avro(lst, s, recs, c)


def edit_avro(path: Path, change: Callable[[list[dict]], None]) -> None:
    schema, records, codec = avro(path)
    change(records)
    write_avro(path, schema, records, codec)


def latest(root: Path) -> dict:
    return json.loads(
        (root / "snapshot" / f"snapshot-{(root / 'snapshot' / 'LATEST').read_text().strip()}").read_text()
    )


def latest_manifests(root: Path) -> list[Path]:
    """The manifests of the latest snapshot's base and delta lists."""
    snap = latest(root)
    out = []
    for key in ("baseManifestList", "deltaManifestList"):
        out += [root / "manifest" / r["_FILE_NAME"] for r in avro(root / "manifest" / snap[key])[1]]
    return out


def live_entry(root: Path, pick: Callable[[dict], bool] = lambda r: True) -> tuple[Path, int]:
    """(manifest, record index) of an ADD entry that is live in the latest snapshot and that `pick` accepts.

    Liveness: added in the latest snapshot's base or delta manifests and not deleted there
    with the same name and level (what FileEntry.mergeEntries cancels).
    """
    adds, deleted = [], set()
    for m in latest_manifests(root):
        for i, r in enumerate(avro(m)[1]):
            ident = (r["_PARTITION"], r["_BUCKET"], r["_FILE"]["_LEVEL"], r["_FILE"]["_FILE_NAME"])
            if r["_KIND"] == 0:
                adds.append((ident, m, i, r))
            else:
                deleted.add(ident)
    for ident, m, i, r in adds:
        if ident not in deleted and pick(r):
            return m, i
    raise AssertionError("no such entry")


def edit_live_entry(root: Path, change: Callable[[dict], None], pick: Callable[[dict], bool] = lambda r: True) -> None:
    """Change one live ADD entry in place."""
    m, i = live_entry(root, pick)

    def apply(records: list[dict]) -> None:
        change(records[i])

    edit_avro(m, apply)


def index_manifest(root: Path) -> Path:
    return root / "manifest" / latest(root)["indexManifest"]


def data_files(root: Path, suffix: str = ".parquet") -> list[Path]:
    return sorted(p for p in root.rglob(f"bucket-*/*{suffix}"))


def rewrite_parquet(path: Path, change: Callable[[pa.Table], pa.Table]) -> None:
    table = pq.ParquetFile(path).read()
    pq.write_table(change(table), path)


# ---------------------------------------------------------------- faults: data files


def wrong_bucket(root: Path) -> None:
    """Swap the contents of two files of different buckets in one partition."""
    part = sorted((root / "dt=2024-01-01").glob("bucket-*"))
    a, b = sorted(part[0].glob("data-*")), sorted(part[1].glob("data-*"))
    da, db = a[0].read_bytes(), b[0].read_bytes()
    a[0].write_bytes(db)
    b[0].write_bytes(da)


def wrong_partition(root: Path) -> None:
    a = sorted((root / "dt=2024-01-01" / "bucket-0").glob("data-*"))[0]
    b = sorted((root / "dt=2024-01-02" / "bucket-0").glob("data-*"))[0]
    da, db = a.read_bytes(), b.read_bytes()
    a.write_bytes(db)
    b.write_bytes(da)


def missing_system_column(root: Path) -> None:
    for f in data_files(root)[:1]:
        rewrite_parquet(f, lambda t: t.drop_columns(["_SEQUENCE_NUMBER"]))


def reordered_system_columns(root: Path) -> None:
    """_VALUE_KIND before _SEQUENCE_NUMBER, as the documentation page lists them."""

    def swap(t: pa.Table) -> pa.Table:
        names = t.column_names
        i, j = names.index("_SEQUENCE_NUMBER"), names.index("_VALUE_KIND")
        names[i], names[j] = names[j], names[i]
        return t.select(names)

    rewrite_parquet(data_files(root)[0], swap)


def bad_value_kind(root: Path) -> None:
    def change(t: pa.Table) -> pa.Table:
        kinds = pa.array([7] * t.num_rows, pa.int8())
        return t.set_column(t.column_names.index("_VALUE_KIND"), "_VALUE_KIND", kinds)

    rewrite_parquet(data_files(root)[0], change)


def missing_data_file(root: Path) -> None:
    m, i = live_entry(root)
    next(root.rglob(avro(m)[1][i]["_FILE"]["_FILE_NAME"])).unlink()


def bad_data_file_name(root: Path) -> None:
    (root / "dt=2024-01-01" / "bucket-0" / "part-0001.parquet").write_bytes(b"PAR1")


def partition_dir_level_missing(root: Path) -> None:
    (root / "bucket-0").mkdir()
    shutil.copy(data_files(root)[0], root / "bucket-0" / data_files(root)[0].name)


def escaping_symlink(root: Path) -> None:
    os.symlink("/etc", root / "dt=2024-01-01" / "bucket-0" / "data-00000000-0000-0000-0000-000000000000-0.parquet")


# ---------------------------------------------------------------- faults: snapshots and manifests


def snapshot_missing_manifest_list(root: Path) -> None:
    snap = latest(root)
    (root / "manifest" / snap["deltaManifestList"]).unlink()


def snapshot_schema_unknown(root: Path) -> None:
    path = root / "snapshot" / f"snapshot-{latest(root)['id']}"
    doc = json.loads(path.read_text())
    doc["schemaId"] = 7
    path.write_text(json.dumps(doc))


def reference_escapes_root(root: Path) -> None:
    path = root / "snapshot" / f"snapshot-{latest(root)['id']}"
    doc = json.loads(path.read_text())
    doc["deltaManifestList"] = "../../../../etc/passwd"
    path.write_text(json.dumps(doc))


def data_file_name_escapes(root: Path) -> None:
    def change(r: dict) -> None:
        r["_FILE"]["_FILE_NAME"] = "../../../../../etc/hosts"

    edit_live_entry(root, change)


def truncated_manifest(root: Path) -> None:
    m = latest_manifests(root)[0]
    m.write_bytes(m.read_bytes()[: m.stat().st_size // 2])


def manifest_row_count(root: Path) -> None:
    def change(r: dict) -> None:
        r["_FILE"]["_ROW_COUNT"] += 1

    edit_live_entry(root, change)


def manifest_list_counts(root: Path) -> None:
    snap = latest(root)
    lst = root / "manifest" / snap["baseManifestList"]
    schema, records, codec = avro(lst)
    records[0]["_NUM_ADDED_FILES"] += 1
    dump_avro(lst, schema, records, codec)


def manifest_version_last(root: Path) -> None:
    """ecosystem-bugs 23 (paimon-rust#741): _VERSION written last."""
    m, _ = live_entry(root)
    schema, records, codec = avro(m)
    schema["fields"] = schema["fields"][1:] + schema["fields"][:1]
    write_avro(m, schema, records, codec)


def manifest_file_nullable_union(root: Path) -> None:
    """ecosystem-bugs 23 (paimon-rust#742): _FILE written as ["null", record]."""
    m, _ = live_entry(root)
    schema, records, codec = avro(m)
    for f in schema["fields"]:
        if f["name"] == "_FILE":
            f["type"] = ["null", f["type"]]
            f["default"] = None
    write_avro(m, schema, records, codec)


def empty_partition_row(root: Path) -> None:
    """ecosystem-bugs 8/9 (paimon-rust#349, #603): a BinaryRow written as 4 or 0 bytes."""

    def change(r: dict) -> None:
        r["_PARTITION"] = struct.pack(">i", 1)

    edit_live_entry(root, change)


def recount_lists(root: Path) -> None:
    """Set the latest snapshot's manifest-list added / deleted counts to what the manifests hold."""
    snap = latest(root)
    for key in ("baseManifestList", "deltaManifestList"):
        lst = root / "manifest" / snap[key]
        schema, recs, codec = avro(lst)
        for r in recs:
            entries = avro(root / "manifest" / r["_FILE_NAME"])[1]
            r["_NUM_ADDED_FILES"] = sum(e["_KIND"] == 0 for e in entries)
            r["_NUM_DELETED_FILES"] = sum(e["_KIND"] == 1 for e in entries)
        dump_avro(lst, schema, recs, codec)


def duplicate_add(root: Path) -> None:
    m, i = live_entry(root)

    def change(records: list[dict]) -> None:
        records.append(records[i])

    edit_avro(m, change)
    recount_lists(root)  # keep the list's counts true, so only the duplicate is wrong


def delete_unknown(root: Path) -> None:
    m, i = live_entry(root)

    def change(records: list[dict]) -> None:
        records.append(dict(records[i], _KIND=1, _FILE=dict(records[i]["_FILE"], _FILE_NAME="data-ghost.parquet")))

    edit_avro(m, change)
    recount_lists(root)


def entry_in_wrong_bucket(root: Path) -> None:
    """The entry's _BUCKET says another bucket than the directory the file was written to."""

    def change(r: dict) -> None:
        r["_BUCKET"] = (r["_BUCKET"] + 1) % 4

    edit_live_entry(root, change)


def append_file_at_a_level(root: Path) -> None:
    def change(r: dict) -> None:
        r["_FILE"]["_LEVEL"] = 3

    edit_live_entry(root, change)


def sequence_range(root: Path) -> None:
    def change(r: dict) -> None:
        r["_FILE"]["_MAX_SEQUENCE_NUMBER"] -= 1

    edit_live_entry(root, change)


def key_range(root: Path) -> None:
    def change(r: dict) -> None:
        f = r["_FILE"]
        f["_MIN_KEY"] = f["_MAX_KEY"]
        f["_MAX_KEY"] = f["_MIN_KEY"][:-8] + struct.pack("<q", 10**9)

    edit_live_entry(root, change, lambda r: r["_FILE"]["_ROW_COUNT"] > 1)


def null_count_understated(root: Path) -> None:
    def change(r: dict) -> None:
        r["_FILE"]["_VALUE_STATS"]["_NULL_COUNTS"] = [0] * len(r["_FILE"]["_VALUE_STATS"]["_NULL_COUNTS"])

    edit_live_entry(root, change, lambda r: any(r["_FILE"]["_VALUE_STATS"]["_NULL_COUNTS"]))


# ---------------------------------------------------------------- faults: deletion vectors


def dv_entry(root: Path) -> tuple[Path, list[dict], dict, str, Path]:
    """The index manifest, its records, the first DV record with a vector, its schema codec, its file."""
    im = index_manifest(root)
    _, records, codec = avro(im)
    rec = next(r for r in records if r["_INDEX_TYPE"] == "DELETION_VECTORS" and r["_DELETIONS_VECTORS_RANGES"])
    return im, records, rec, codec, root / "index" / rec["_FILE_NAME"]


def dv_length_off_by_framing(root: Path) -> None:
    """ecosystem-bugs 5 and the 32/64-bit convention: the 32-bit length recorded with the 4-byte CRC."""
    im, records, rec, codec, _ = dv_entry(root)
    rec["_DELETIONS_VECTORS_RANGES"][0]["f2"] += 4
    write_avro(im, avro(im)[0], records, codec)


def dv_bad_crc(root: Path) -> None:
    """ecosystem-bugs 4 (paimon#9992): a CRC that does not match; Java itself skipped it."""
    _, _, rec, _, path = dv_entry(root)
    r = rec["_DELETIONS_VECTORS_RANGES"][0]
    data = bytearray(path.read_bytes())
    end = r["f1"] + 4 + r["f2"]  # 32-bit: length word, then `length` bytes, then the CRC
    data[end] ^= 0xFF
    path.write_bytes(bytes(data))


def dv_position_past_end(root: Path) -> None:
    im, records, rec, codec, path = dv_entry(root)
    ranges = rec["_DELETIONS_VECTORS_RANGES"]
    data, spans = dv.encode_file([("bitmap32", np.array([10**6])) for _ in ranges])
    path.write_bytes(data)
    for r, (offset, length) in zip(ranges, spans, strict=True):
        r["f1"], r["f2"] = offset, length
    rec["_FILE_SIZE"] = len(data)
    write_avro(im, avro(im)[0], records, codec)


def dv_unknown_data_file(root: Path) -> None:
    im, records, rec, codec, _ = dv_entry(root)
    rec["_DELETIONS_VECTORS_RANGES"][0]["f0"] = "data-00000000-0000-0000-0000-000000000000-0.parquet"
    write_avro(im, avro(im)[0], records, codec)


# ---------------------------------------------------------------- faults: HASH index


def hash_entries(root: Path) -> tuple[Path, list[dict], str]:
    im = index_manifest(root)
    _, records, codec = avro(im)
    return im, records, codec


def hash_missing_key(root: Path) -> None:
    im, records, codec = hash_entries(root)
    rec = next(r for r in records if r["_INDEX_TYPE"] == "HASH" and r["_ROW_COUNT"] > 1)
    path = root / "index" / rec["_FILE_NAME"]
    hashes = hash_index.load(path.read_bytes())[1:]
    path.write_bytes(hash_index.encode_hashes(hashes))
    rec["_FILE_SIZE"], rec["_ROW_COUNT"] = path.stat().st_size, len(hashes)
    write_avro(im, avro(im)[0], records, codec)


def hash_key_in_two_buckets(root: Path) -> None:
    """ecosystem-bugs 12 (paimon#8781): one key assigned to two buckets."""
    im, records, codec = hash_entries(root)
    hashes = [r for r in records if r["_INDEX_TYPE"] == "HASH"]
    a = next(r for r in hashes if r["_ROW_COUNT"] > 0)
    b = next(r for r in hashes if r["_PARTITION"] == a["_PARTITION"] and r["_BUCKET"] != a["_BUCKET"])
    pa_, pb = root / "index" / a["_FILE_NAME"], root / "index" / b["_FILE_NAME"]
    moved = np.concatenate([hash_index.load(pb.read_bytes()), hash_index.load(pa_.read_bytes())[:1]])
    pb.write_bytes(hash_index.encode_hashes(moved))
    b["_FILE_SIZE"], b["_ROW_COUNT"] = pb.stat().st_size, len(moved)
    write_avro(im, avro(im)[0], records, codec)


# ---------------------------------------------------------------- faults: file indexes


def _container(path: Path) -> list[tuple[str, list[tuple[str, bytes | None]]]]:
    data = path.read_bytes()
    obj = structure.parse(file_index.NAME, data)
    return [
        (
            c.name.value,
            [
                (e.index_type.value, None if e.is_empty else data[e.ofs_payload : e.ofs_payload + e.len_payload])
                for e in c.indexes
            ],
        )
        for c in obj.columns
    ]


def bloom_missing_value(root: Path) -> None:
    """ecosystem-bugs 15/16: probes that hash differently from Java's writer; here bits cleared."""
    path = sorted(root.rglob("*.index"))[0]
    columns = _container(path)
    out = []
    for name, indexes in columns:
        fixed = []
        for kind, payload in indexes:
            if kind == "bloom-filter" and payload is not None:
                payload = payload[:4] + bytes(len(payload) - 4)
            fixed.append((kind, payload))
        out.append((name, fixed))
    path.write_bytes(file_index.write(out))


def bitmap_wrong_position(root: Path) -> None:
    """ecosystem-bugs 17 (paimon#3911): a bitmap that points at the wrong rows."""
    path = sorted(root.rglob("*.index"))[0]
    rows = pq.ParquetFile(path.with_suffix("")).read().column("dt").to_pylist()
    wrong = ["2099-12-31", *rows[1:]]
    out = []
    for name, indexes in _container(path):
        fixed = []
        for kind, payload in indexes:
            if kind == "bitmap" and payload is not None:
                payload = bitmap.build(parse_type("STRING"), wrong, version=1)
            fixed.append((kind, payload))
        out.append((name, fixed))
    path.write_bytes(file_index.write(out))


# ---------------------------------------------------------------- the catalog

CATALOG: list[tuple[str, str, Callable[[Path], None], str]] = [
    # (fault, table, injector, expected code)
    ("row in the wrong bucket", "pk-fixed4-parquet-dv", wrong_bucket, "DATA_FILE_WRONG_BUCKET"),
    ("row in the wrong partition dir", "pk-fixed4-parquet-dv", wrong_partition, "DATA_FILE_WRONG_PARTITION"),
    ("missing system column", "pk-fixed4-parquet-dv", missing_system_column, "DATA_FILE_COLUMNS"),
    ("reordered system columns (ecosystem 22)", "pk-fixed4-parquet-dv", reordered_system_columns, "DATA_FILE_COLUMNS"),
    ("value kind that is no row kind", "pk-fixed4-parquet-dv", bad_value_kind, "DATA_FILE_BAD_VALUE_KIND"),
    ("dangling data-file reference", "pk-fixed4-parquet-dv", missing_data_file, "DATA_FILE_MISSING"),
    ("wrong data-file name", "pk-fixed4-parquet-dv", bad_data_file_name, "TABLE_BAD_FILE_NAME"),
    (
        "bucket dir outside its partition",
        "pk-fixed4-parquet-dv",
        partition_dir_level_missing,
        "TABLE_BAD_PARTITION_DIR",
    ),
    ("symlink out of the table", "pk-fixed4-parquet-dv", escaping_symlink, "TABLE_PATH_ESCAPES_ROOT"),
    (
        "snapshot names a missing manifest list",
        "pk-fixed4-parquet-dv",
        snapshot_missing_manifest_list,
        "SNAPSHOT_MISSING_MANIFEST_LIST",
    ),
    ("snapshot with an unknown schema id", "pk-fixed4-parquet-dv", snapshot_schema_unknown, "SNAPSHOT_SCHEMA_UNKNOWN"),
    (
        "manifest-list reference escaping the root",
        "pk-fixed4-parquet-dv",
        reference_escapes_root,
        "TABLE_REFERENCE_ESCAPES_ROOT",
    ),
    (
        "data-file reference escaping the root",
        "pk-fixed4-parquet-dv",
        data_file_name_escapes,
        "TABLE_REFERENCE_ESCAPES_ROOT",
    ),
    ("truncated manifest", "pk-fixed4-parquet-dv", truncated_manifest, "MANIFEST_UNREADABLE"),
    ("manifest row count wrong", "pk-fixed4-parquet-dv", manifest_row_count, "MANIFEST_ROW_COUNT"),
    ("manifest-list added-file count wrong", "pk-fixed4-parquet-dv", manifest_list_counts, "MANIFEST_LIST_COUNTS"),
    (
        "partition row of 4 bytes (ecosystem 8, 9)",
        "pk-fixed4-parquet-dv",
        empty_partition_row,
        "MANIFEST_BAD_PARTITION_ROW",
    ),
    ("file added twice", "pk-fixed4-parquet-dv", duplicate_add, "MANIFEST_DUPLICATE_ADD"),
    ("delete of a file never added", "pk-fixed4-parquet-dv", delete_unknown, "MANIFEST_DELETE_UNKNOWN"),
    ("sequence range wrong", "pk-fixed4-parquet-dv", sequence_range, "MANIFEST_SEQUENCE_RANGE"),
    (
        "entry's bucket is not the file's directory",
        "pk-fixed4-parquet-dv",
        entry_in_wrong_bucket,
        "MANIFEST_WRONG_LOCATION",
    ),
    ("append file at level 3", "append-fixed3-avro", append_file_at_a_level, "MANIFEST_LEVEL"),
    ("min/max key wrong", "pk-fixed4-parquet-dv", key_range, "MANIFEST_KEY_RANGE"),
    ("null count understated", "pk-fixed4-orc-mor", null_count_understated, "MANIFEST_VALUE_STATS"),
    ("DV length off by the 4-byte framing", "pk-fixed4-parquet-dv", dv_length_off_by_framing, "DV_LENGTH_CONVENTION"),
    ("DV CRC wrong (ecosystem 4)", "pk-fixed4-parquet-dv", dv_bad_crc, "DV_CRC_MISMATCH"),
    ("DV position past the row count", "pk-fixed4-parquet-dv", dv_position_past_end, "DV_POSITION_PAST_END"),
    ("DV for a file that is not live", "pk-fixed4-parquet-dv", dv_unknown_data_file, "DV_UNKNOWN_DATA_FILE"),
    ("HASH file missing a key", "pk-dynamic-parquet", hash_missing_key, "HASH_INDEX_MISSING_KEY"),
    (
        "key in two buckets' HASH files (ecosystem 12)",
        "pk-dynamic-parquet",
        hash_key_in_two_buckets,
        "HASH_INDEX_KEY_IN_TWO_BUCKETS",
    ),
    (
        "bloom filter missing a value (ecosystem 15, 16)",
        "append-file-index-separate",
        bloom_missing_value,
        "BLOOM_FALSE_NEGATIVE",
    ),
    (
        "bitmap with a wrong position (ecosystem 17)",
        "append-file-index-separate",
        bitmap_wrong_position,
        "BITMAP_WRONG_ROWS",
    ),
]


def must_codes(root: Path, java_version: str = NEWEST) -> set[str]:
    codes = set()
    for r in validate_table(root, java_version=java_version):
        assert r.unusable is None, r.unusable
        codes |= {f.code for f in r.findings if f.severity == "must"}
    return codes
