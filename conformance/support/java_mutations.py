"""Mutations of Java-written tables, and one JVM per Paimon jar to read (or write) many of them.

Used by test_java_verdicts.py to find out what real Java Paimon does with one deliberate change
to a Java-written table: a manifest's Avro writer schema, a data file's physical layout, a
deletion-vector index file. Every mutation keeps the rest of the table consistent: after a file
is rewritten, `fix_sizes` puts its new size into the manifest entry (`_FILE._FILE_SIZE`, which
Java's Parquet reader uses to find the footer), each manifest's new size into the manifest lists
and each index file's size into the index manifests.

`run_probes` runs tools/java/testee/VerdictProbe.java once per release, the JVMs at once: compiled with the
testee of each release (java_releases.testee_classpath; for 0.9.0 and 1.0-SNAPSHOT with the tables programs).
"""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import fastavro
import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent.parent

import java_releases  # noqa: E402
import paimon_java  # noqa: E402

BUILD = ROOT / "build" / "java-verdicts"
VERSIONS = (paimon_java.PAIMON_VERSION, paimon_java.PAIMON_10_VERSION)  # the jars with hand-written expectations
RELEASES = tuple(v for v in java_releases.releases() if v not in VERSIONS)  # the releases whose outcomes are pinned

# Avro metadata files by kind, as named in manifest/ (`manifest-<uuid>-N` are manifests).
KIND_GLOBS = {
    "manifest": "manifest-[0-9a-f]*",
    "manifest_list": "manifest-list-*",
    "index_manifest": "index-manifest-*",
}


# ---------------------------------------------------------------------------------------------
# Avro metadata files


def avro_read(path: Path) -> tuple[Any, list[dict], str]:
    """(writer schema, records, codec) of an Avro container file."""
    with path.open("rb") as f:
        reader = fastavro.reader(f)
        return reader.writer_schema, list(reader), reader.codec


def avro_write(path: Path, schema: Any, records: list[dict], codec: str) -> None:
    """Write `records` under writer schema `schema` (fastavro picks union branches by value)."""
    parsed = fastavro.parse_schema(copy.deepcopy(schema), _write_hint=False, expand=False)
    with path.open("wb") as f:
        fastavro.writer(f, parsed, records, codec=codec)


def metadata_files(root: Path, kind: str) -> list[Path]:
    return sorted((root / "manifest").glob(KIND_GLOBS[kind]))


def rewrite_avro(
    root: Path,
    kind: str,
    schema_fn: Callable[[Any], Any] | None = None,
    record_fn: Callable[[dict], dict] | None = None,
) -> int:
    """Rewrite every metadata file of `kind` with a changed writer schema and/or records.

    Returns the number of files rewritten (empty files too: their schema changes as well).
    """
    files = metadata_files(root, kind)
    for path in files:
        schema, records, codec = avro_read(path)
        if schema_fn is not None:
            schema = schema_fn(copy.deepcopy(schema))
        if record_fn is not None:
            records = [record_fn(copy.deepcopy(r)) for r in records]
        avro_write(path, schema, records, codec)
    return len(files)


def record_of(schema: Any) -> dict:
    """The record of a schema that may be a top-level union with null."""
    if isinstance(schema, list):
        return next(s for s in schema if s != "null")
    return schema


def _field(record: dict, name: str) -> dict:
    return next(f for f in record["fields"] if f["name"] == name)


def nested_record(schema: Any, path: str) -> dict:
    """The record at a dotted path of record fields ("" = top level, "_FILE", "_FILE._KEY_STATS")."""
    rec = record_of(schema)
    for part in [p for p in path.split(".") if p]:
        rec = record_of(_field(rec, part)["type"])
    return rec


def set_type(path: str, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A schema transform: field at dotted `path` gets type fn(old type)."""

    def transform(schema: Any) -> Any:
        parent, _, name = path.rpartition(".")
        f = _field(nested_record(schema, parent), name)
        f["type"] = fn(f["type"])
        if isinstance(f["type"], list) and f["type"][0] == "null":
            f["default"] = None
        else:
            f.pop("default", None)
        return schema

    return transform


def reorder(path: str, order: Callable[[list[dict]], list[dict]]) -> Callable[[Any], Any]:
    """A schema transform: the fields of the record at `path` in order(fields)."""

    def transform(schema: Any) -> Any:
        rec = nested_record(schema, path)
        rec["fields"] = order(rec["fields"])
        return schema

    return transform


def drop_field(path: str) -> Callable[[Any], Any]:
    def transform(schema: Any) -> Any:
        parent, _, name = path.rpartition(".")
        rec = nested_record(schema, parent)
        rec["fields"] = [f for f in rec["fields"] if f["name"] != name]
        return schema

    return transform


def add_field(path: str, field: dict) -> Callable[[Any], Any]:
    """A schema transform: `field` appended to the record at `path`."""

    def transform(schema: Any) -> Any:
        nested_record(schema, path)["fields"].append(copy.deepcopy(field))
        return schema

    return transform


def top_level_nullable(schema: Any) -> Any:
    return ["null", schema]


def version_last(fields: list[dict]) -> list[dict]:
    return [f for f in fields if f["name"] != "_VERSION"] + [f for f in fields if f["name"] == "_VERSION"]


def reversed_fields(fields: list[dict]) -> list[dict]:
    return list(reversed(fields))


def set_value(path: str, value: Any) -> Callable[[dict], dict]:
    """A record transform: the value at dotted `path` becomes `value`."""

    def transform(record: dict) -> dict:
        *parents, name = path.split(".")
        target = record
        for p in parents:
            target = target[p]
        target[name] = value
        return record

    return transform


# ---------------------------------------------------------------------------------------------
# Sizes: data files -> manifests -> manifest lists, index files -> index manifests


def _by_name(root: Path) -> dict[str, Path]:
    return {p.name: p for p in root.rglob("*") if p.is_file()}


def _fix(root: Path, kind: str, sizes: dict[str, int], get: Callable[[dict], dict], name_key: str) -> None:
    for path in metadata_files(root, kind):
        schema, records, codec = avro_read(path)
        changed = False
        for r in records:
            holder = get(r)
            if holder is None:
                continue
            want = sizes.get(holder[name_key])
            if want is not None and holder["_FILE_SIZE"] != want:
                holder["_FILE_SIZE"] = want
                changed = True
        if changed:
            avro_write(path, schema, records, codec)


def fix_sizes(root: Path) -> None:
    """Put every data file's, manifest's and index file's actual size where Java records it."""
    files = _by_name(root)
    sizes = {name: p.stat().st_size for name, p in files.items()}
    _fix(root, "manifest", sizes, lambda r: r.get("_FILE"), "_FILE_NAME")
    _fix(root, "index_manifest", sizes, lambda r: r, "_FILE_NAME")
    sizes = {p.name: p.stat().st_size for p in metadata_files(root, "manifest")}
    _fix(root, "manifest_list", sizes, lambda r: r, "_FILE_NAME")


# ---------------------------------------------------------------------------------------------
# Data files


def data_files(root: Path, suffix: str = ".parquet") -> list[Path]:
    return sorted(p for p in root.rglob(f"*{suffix}") if "bucket-" in p.parent.name)


def rewrite_parquet(path: Path, fn: Callable[[pa.Table], pa.Table], **write_options: Any) -> None:
    """Rewrite a Parquet file with pyarrow: fn(table) written with ZSTD, no Arrow schema stored."""
    table = fn(pq.ParquetFile(path).read())
    options = {"compression": "zstd", "store_schema": False} | write_options
    pq.write_table(table, path, **options)


def without_columns(prefix: str) -> Callable[[pa.Table], pa.Table]:
    return lambda t: t.select([n for n in t.column_names if not n.startswith(prefix)])


def with_field_ids(ids: dict[str, int]) -> Callable[[pa.Table], pa.Table]:
    """Give each top-level column the Parquet field id ids[name] (pyarrow's PARQUET:field_id)."""

    def fn(t: pa.Table) -> pa.Table:
        fields = [f.with_metadata({b"PARQUET:field_id": str(ids[f.name]).encode()}) for f in t.schema]
        return t.cast(pa.schema(fields))

    return fn


def cast_column(name: str, to: pa.DataType, safe: bool = True) -> Callable[[pa.Table], pa.Table]:
    def fn(t: pa.Table) -> pa.Table:
        i = t.column_names.index(name)
        field = t.schema.field(i)
        return t.set_column(i, field.with_type(to), t.column(i).cast(to, safe=safe))

    return fn


def parquet_column(path: Path, name: str) -> str:
    """The physical type and logical annotation of a column, e.g. 'INT64 Timestamp(...)'."""
    col = pq.ParquetFile(path).schema.column(pq.ParquetFile(path).schema.names.index(name))
    return f"{col.physical_type} {col.logical_type}"


def set_schema_option(root: Path, key: str, value: str) -> None:
    """Set an option in the newest schema file (schema/schema-N)."""
    path = max((root / "schema").glob("schema-*"), key=lambda p: int(p.name.split("-")[1]))
    schema = json.loads(path.read_text())
    schema["options"][key] = value
    path.write_text(json.dumps(schema, indent=2))


# ---------------------------------------------------------------------------------------------
# Deletion-vector index files


def latest_snapshot(root: Path) -> dict:
    latest = (root / "snapshot" / "LATEST").read_text().strip()
    return json.loads((root / "snapshot" / f"snapshot-{latest}").read_text())


def live_dv_entries(root: Path) -> list[dict]:
    """The latest snapshot's DELETION_VECTORS index manifest entries that hold vectors."""
    name = latest_snapshot(root)["indexManifest"]
    _, records, _ = avro_read(root / "manifest" / name)
    return [
        r
        for r in records
        if r["_INDEX_TYPE"] == "DELETION_VECTORS" and r["_KIND"] == 0 and r["_DELETIONS_VECTORS_RANGES"]
    ]


def patch_bytes(path: Path, offset: int, new: bytes) -> None:
    data = bytearray(path.read_bytes())
    data[offset : offset + len(new)] = new
    path.write_bytes(bytes(data))


# ---------------------------------------------------------------------------------------------
# Java


def run_probes(jobs: dict[str, list[dict]], work: Path) -> dict[str, list[dict]]:
    """Run VerdictProbe with each version's jobs, two JVMs at a time (the machine's cores); results in job
    order."""
    from concurrent.futures import ThreadPoolExecutor

    def run(version: str) -> list[dict]:
        cp = paimon_java.tables_classpath(version)
        job_file = work / f"jobs-{version}.json"
        job_file.write_text(json.dumps({"jobs": jobs[version]}))
        out = work / f"out-{version}.json"
        cmd = paimon_java.java_command(cp, "VerdictProbe", str(job_file), str(out), heap="512m", short=True)
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(
                f"VerdictProbe ({version}) failed with exit code {done.returncode}:\n{done.stdout[-4000:]}"
            )
        return json.loads(out.read_text())

    for version in jobs:
        paimon_java.tables_classpath(version)  # compile first, one at a time
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(jobs, pool.map(run, jobs), strict=True))


def sync_list_sizes(root: Path) -> None:
    """Every manifest list's _FILE_SIZE of each manifest set to the manifest's size now (after a rewrite)."""

    def listed(rec: dict) -> dict:
        rec["_FILE_SIZE"] = (root / "manifest" / rec["_FILE_NAME"]).stat().st_size
        return rec

    rewrite_avro(root, "manifest_list", record_fn=listed)
