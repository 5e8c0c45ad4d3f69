"""Read a table's metadata: snapshot JSON, and the manifest lists, manifests and index
manifests (Avro by default, or the table's `manifest.format`: Parquet, ORC).

Readers raise MetadataProblem (code, field path, message); the table validator turns it
into a finding on the file. Records are read by field name, as Java's reader resolves
the writer schema; the shape of that schema is checked separately (manifest_schema.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from paimon_conform.core import budget, json_text
from paimon_conform.core.errors import PaimonConformError
from paimon_conform.formats import file_format
from paimon_conform.formats.avro import container as avro_container


class MetadataProblem(PaimonConformError):
    """A metadata file that cannot be used: finding code, field path, message (reported as a finding)."""

    def __init__(self, code: str, path: str, message: str) -> None:
        super().__init__(message)
        self.code, self.path, self.message = code, path, message


# ---------------------------------------------------------------- snapshot


@dataclass(frozen=True)
class Snapshot:
    """The fields of a snapshot file (Snapshot.java) the validator follows."""

    id: int
    version: int | None
    schema_id: int
    base_manifest_list: str
    delta_manifest_list: str
    changelog_manifest_list: str | None
    index_manifest: str | None
    commit_kind: str
    total_record_count: int | None
    delta_record_count: int | None
    changelog_record_count: int | None
    statistics: str | None = None  # the statistics/ file an ANALYZE commit wrote (carried to later snapshots)
    keys: frozenset[str] = frozenset()  # the JSON fields present (which releases write them: release_fit.py)
    writer_version: str | None = None  # the writer's release (Java after 2.0.0)


COMMIT_KINDS = ("APPEND", "COMPACT", "OVERWRITE", "ANALYZE")


def _typed(doc: dict, name: str, kind: type, required: bool, code: str = "SNAPSHOT_MALFORMED") -> Any:
    value = doc.get(name)
    if value is None:
        if required:
            raise MetadataProblem(code, name, f"required property {name!r} is missing or null")
        return None
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise MetadataProblem(code, name, f"{name} must be an integer, not {value!r}")
    if kind is str and not isinstance(value, str):
        raise MetadataProblem(code, name, f"{name} must be a string, not {value!r}")
    if kind is dict and not isinstance(value, dict):
        raise MetadataProblem(code, name, f"{name} must be a JSON object, not {str(value)[:80]}")
    return value


def _json_object(path: Path, code: str, what: str) -> dict:
    """A small JSON metadata file's object (MetadataProblem with `code` when it is not one)."""
    try:
        doc = json_text.load_file(path, what)
    except json_text.JsonLimitError as exc:
        raise MetadataProblem(code, "", str(exc)) from None
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise MetadataProblem(code, "", f"not JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise MetadataProblem(code, "", "not a JSON object")
    return doc


def read_snapshot(path: Path) -> Snapshot:
    """A snapshot file, or a tag or long-lived changelog file (Tag and Changelog extend Snapshot's JSON);
    MetadataProblem when it is not valid snapshot JSON."""
    doc = _json_object(path, "SNAPSHOT_MALFORMED", "the snapshot")
    kind = _typed(doc, "commitKind", str, True)
    if kind not in COMMIT_KINDS:
        raise MetadataProblem("SNAPSHOT_MALFORMED", "commitKind", f"commitKind {kind!r} is not one of {COMMIT_KINDS}")
    return Snapshot(
        id=_typed(doc, "id", int, True),
        version=_typed(doc, "version", int, False),
        schema_id=_typed(doc, "schemaId", int, True),
        base_manifest_list=_typed(doc, "baseManifestList", str, True),
        delta_manifest_list=_typed(doc, "deltaManifestList", str, True),
        changelog_manifest_list=_typed(doc, "changelogManifestList", str, False),
        index_manifest=_typed(doc, "indexManifest", str, False),
        commit_kind=kind,
        total_record_count=_typed(doc, "totalRecordCount", int, False),
        delta_record_count=_typed(doc, "deltaRecordCount", int, False),
        changelog_record_count=_typed(doc, "changelogRecordCount", int, False),
        statistics=_typed(doc, "statistics", str, False),
        keys=frozenset(k for k, v in doc.items() if v is not None),
        writer_version=_typed(doc, "writerVersion", str, False),
    )


def read_consumer(path: Path) -> int:
    """A consumer file's nextSnapshot (Consumer.java: {"nextSnapshot": <long>})."""
    doc = _json_object(path, "CONSUMER_MALFORMED", "the consumer")
    return _typed(doc, "nextSnapshot", int, True, "CONSUMER_MALFORMED")


@dataclass(frozen=True)
class Statistics:
    """The fields of a statistics file (Statistics.java) the validator checks."""

    snapshot_id: int
    schema_id: int
    columns: tuple[str, ...]  # the colStats keys: column names


def read_statistics(path: Path) -> Statistics:
    """A statistics file (statistics/stats-<uuid>-<n>, written by ANALYZE / FileStoreCommit.commitStatistics)."""
    code = "STATISTICS_MALFORMED"
    doc = _json_object(path, code, "the statistics")
    for name in ("mergedRecordCount", "mergedRecordSize"):
        _typed(doc, name, int, False, code)
    cols = _typed(doc, "colStats", dict, False, code) or {}
    return Statistics(_typed(doc, "snapshotId", int, True, code), _typed(doc, "schemaId", int, True, code), tuple(cols))


# ---------------------------------------------------------------- record files


@dataclass
class RecordFile:
    """A manifest-like file: its writer schema (Avro JSON form) and its records."""

    format: str
    schema: Any
    records: list[dict]


def read_records(path: Path) -> RecordFile:
    """Records of an Avro, Parquet or ORC metadata file (chosen by magic bytes), read within the memory budget.

    Every count and length the file states is checked against the bytes that remain and against
    the budget (budget.py) before anything is built from it; a file past the budget raises
    BudgetExceeded (the table is unusable within the budget: exit 2 with the reason), never a
    MemoryError, and never a finding against a file Java may read well.
    """
    try:
        size = path.stat().st_size
        budget.reserve(size, f"reading {path.name}")
        fmt = file_format(path)
        if fmt == "avro":
            return read_avro(path.read_bytes())
        if fmt in ("parquet", "orc"):
            return _columnar(path, fmt)
    except budget.BudgetExceeded as exc:  # the kit cannot check it: not a finding; the reason names the file
        if path.name in exc.what:
            raise
        raise budget.BudgetExceeded(f"{path.name}: {exc.what}", exc.needed, exc.limit) from None
    except (MetadataProblem, MemoryError):
        raise
    except Exception as exc:  # noqa: BLE001 - fastavro and pyarrow raise many kinds on damaged files
        raise MetadataProblem("MANIFEST_UNREADABLE", "", f"{exc.__class__.__name__}: {exc}") from None
    raise MetadataProblem("MANIFEST_UNREADABLE", "", "not an Avro, Parquet or ORC file")


def read_avro(data: bytes) -> RecordFile:
    """The records of an Avro metadata file, read within the memory budget (formats/avro/container.py)."""
    try:
        schema, records = avro_container.read(data)
    except avro_container.AvroContainerError as exc:
        raise MetadataProblem("MANIFEST_UNREADABLE", exc.path, exc.message) from None
    return RecordFile("avro", schema, records)


def _unreadable(path: str, message: str) -> MetadataProblem:
    return MetadataProblem("MANIFEST_UNREADABLE", path, message)


def _columnar(path: Path, fmt: str) -> RecordFile:
    """Records of a Parquet or ORC metadata file; row counts and sizes checked against the budget first."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        pf = pq.ParquetFile(path)
        md = pf.metadata
        raw = sum(md.row_group(i).total_byte_size for i in range(md.num_row_groups))
        _rows_fit(md.num_rows, md.num_columns, raw, path)
        table = pf.read()
    else:
        from paimon_conform.formats.orc.worker import read_orc

        table = read_orc(path)  # read in the ORC worker process; its rows are built here
    _rows_fit(table.num_rows, sum(_leaves(t) for t in table.schema.types), table.nbytes, path)
    return RecordFile(fmt, None, table.to_pylist())


def _leaves(t: Any) -> int:
    """Leaf columns of an Arrow type (a struct counts its fields)."""
    fields = getattr(t, "num_fields", 0)
    return sum(_leaves(t.field(i).type) for i in range(fields)) + 1 if fields else 1


def _rows_fit(rows: int, leaves: int, nbytes: int, path: Path) -> None:
    """Refuse a columnar file whose rows, as Python records, would take more than the budget."""
    if rows < 0 or nbytes < 0:
        raise _unreadable("", f"claims {rows} rows of {nbytes} bytes")
    record, field = avro_container.RECORD_COST, avro_container.FIELD_COST
    per_row = record + leaves * (record + field)  # a leaf may sit in a struct of its own
    budget.reserve(rows * per_row + avro_container.STRING_RATIO * nbytes, f"the rows of {path.name}")


# ---------------------------------------------------------------- typed records


def _field(rec: Any, name: str, kinds: tuple[type, ...], where: str, nullable: bool = False) -> Any:
    if not isinstance(rec, dict):
        raise MetadataProblem("MANIFEST_MALFORMED", where, "not a record")
    value = rec.get(name)
    if value is None:
        if nullable:
            return None
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}.{name}".lstrip("."), f"{name} is missing or null")
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise MetadataProblem(
            "MANIFEST_MALFORMED", f"{where}.{name}".lstrip("."), f"{name} holds {type(value).__name__}"
        )
    return value


@dataclass(frozen=True)
class SimpleStats:
    """SimpleStats: serialized BinaryRows of minimums and maximums, and null counts."""

    min_values: bytes
    max_values: bytes
    null_counts: tuple[int | None, ...] | None


def _stats(rec: dict, name: str, where: str) -> SimpleStats:
    s = _field(rec, name, (dict,), where)
    # declared nullable, but SimpleStats.fromRow reads it without a null check: Java fails (NPE) on a missing or
    # null _NULL_COUNTS in every release 0.9-2.0 (Java 0.9.0 and the 1.0-SNAPSHOT jar, test_java_verdicts)
    nulls = _field(s, "_NULL_COUNTS", (list,), f"{where}.{name}")
    return SimpleStats(
        bytes(_field(s, "_MIN_VALUES", (bytes,), f"{where}.{name}")),
        bytes(_field(s, "_MAX_VALUES", (bytes,), f"{where}.{name}")),
        tuple(nulls),
    )


@dataclass(frozen=True)
class ManifestFileMeta:
    """One manifest-list record: a manifest file and its summary."""

    file_name: str
    file_size: int
    num_added_files: int
    num_deleted_files: int
    partition_stats: SimpleStats
    schema_id: int


def manifest_file_meta(rec: dict, where: str) -> ManifestFileMeta:
    """A ManifestFileMeta from a manifest-list record."""
    return ManifestFileMeta(
        _field(rec, "_FILE_NAME", (str,), where),
        _field(rec, "_FILE_SIZE", (int,), where),
        _field(rec, "_NUM_ADDED_FILES", (int,), where),
        _field(rec, "_NUM_DELETED_FILES", (int,), where),
        _stats(rec, "_PARTITION_STATS", where),
        _field(rec, "_SCHEMA_ID", (int,), where),
    )


@dataclass(frozen=True)
class DataFileMeta:
    """The `_FILE` record of a manifest entry (DataFileMeta)."""

    file_name: str
    file_size: int
    row_count: int
    min_key: bytes
    max_key: bytes
    key_stats: SimpleStats
    value_stats: SimpleStats
    min_sequence_number: int
    max_sequence_number: int
    schema_id: int
    level: int
    extra_files: tuple[str, ...]
    delete_row_count: int | None
    embedded_index: bytes | None
    file_source: int | None
    value_stats_cols: tuple[str, ...] | None
    external_path: str | None
    write_cols: tuple[str, ...] | None = None  # data evolution (1.3): the columns this file holds
    first_row_id: int | None = None  # row tracking (1.3): the row id of the file's first row
    creation_time: datetime | int | None = None  # `_CREATION_TIME` (Java sets it for every file it writes)


def data_file_meta(rec: dict, where: str) -> DataFileMeta:
    """A DataFileMeta from a manifest entry's `_FILE` record."""
    extra = _field(rec, "_EXTRA_FILES", (list,), where)
    if not all(isinstance(x, str) for x in extra):
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}._EXTRA_FILES", "holds a non-string")
    cols = _field(rec, "_VALUE_STATS_COLS", (list,), where, nullable=True)
    embedded = _field(rec, "_EMBEDDED_FILE_INDEX", (bytes,), where, nullable=True)
    return DataFileMeta(
        file_name=_field(rec, "_FILE_NAME", (str,), where),
        file_size=_field(rec, "_FILE_SIZE", (int,), where),
        row_count=_field(rec, "_ROW_COUNT", (int,), where),
        min_key=bytes(_field(rec, "_MIN_KEY", (bytes,), where)),
        max_key=bytes(_field(rec, "_MAX_KEY", (bytes,), where)),
        key_stats=_stats(rec, "_KEY_STATS", where),
        value_stats=_stats(rec, "_VALUE_STATS", where),
        min_sequence_number=_field(rec, "_MIN_SEQUENCE_NUMBER", (int,), where),
        max_sequence_number=_field(rec, "_MAX_SEQUENCE_NUMBER", (int,), where),
        schema_id=_field(rec, "_SCHEMA_ID", (int,), where),
        level=_field(rec, "_LEVEL", (int,), where),
        extra_files=tuple(extra),
        delete_row_count=_field(rec, "_DELETE_ROW_COUNT", (int,), where, nullable=True),
        embedded_index=None if embedded is None else bytes(embedded),
        file_source=_field(rec, "_FILE_SOURCE", (int,), where, nullable=True),
        value_stats_cols=None if cols is None else tuple(str(c) for c in cols),
        external_path=_field(rec, "_EXTERNAL_PATH", (str,), where, nullable=True),
        write_cols=_names(rec, "_WRITE_COLS", where),
        first_row_id=_field(rec, "_FIRST_ROW_ID", (int,), where, nullable=True),
        creation_time=_field(rec, "_CREATION_TIME", (datetime, int), where, nullable=True),
    )


def _names(rec: dict, name: str, where: str) -> tuple[str, ...] | None:
    """A nullable array of strings (`_WRITE_COLS`)."""
    value = _field(rec, name, (list,), where, nullable=True)
    if value is None:
        return None
    if not all(isinstance(x, str) for x in value):
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}.{name}", "holds a non-string")
    return tuple(value)


ADD, DELETE = 0, 1


@dataclass(frozen=True)
class ManifestEntry:
    """One manifest record: a data file added to or deleted from a partition and bucket."""

    kind: int
    partition: bytes
    bucket: int
    total_buckets: int
    file: DataFileMeta
    manifest: str
    index: int

    @property
    def identifier(self) -> tuple:
        """FileEntry.Identifier: what an ADD and its DELETE share."""
        f = self.file
        return (self.partition, self.bucket, f.level, f.file_name, f.extra_files, f.embedded_index, f.external_path)


def manifest_entry(rec: dict, manifest: str, index: int) -> ManifestEntry:
    """A ManifestEntry from a manifest record."""
    where = f"entries[{index}]"
    kind = _field(rec, "_KIND", (int,), where)
    if kind not in (ADD, DELETE):
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}._KIND", f"_KIND {kind} is neither 0 (ADD) nor 1 (DELETE)")
    return ManifestEntry(
        kind,
        bytes(_field(rec, "_PARTITION", (bytes,), where)),
        _field(rec, "_BUCKET", (int,), where),
        _field(rec, "_TOTAL_BUCKETS", (int,), where),
        data_file_meta(_field(rec, "_FILE", (dict,), where), f"{where}._FILE"),
        manifest,
        index,
    )


@dataclass(frozen=True)
class DeletionVectorRange:
    """DeletionVectorMeta: where one data file's deletion vector sits in an index file."""

    data_file: str
    offset: int
    length: int
    cardinality: int | None


@dataclass(frozen=True)
class GlobalIndexMeta:
    """GlobalIndexMeta (1.4.1): the rows a global-index file covers and the column it indexes."""

    row_range_start: int
    row_range_end: int
    index_field_id: int
    index_meta: bytes | None = None  # _INDEX_META: the index type's own bytes (2.0 sorted indexes: SortedIndexFileMeta)


def _global_index(rec: dict, where: str) -> GlobalIndexMeta | None:
    g = _field(rec, "_GLOBAL_INDEX", (dict,), where, nullable=True)
    if g is None:
        return None
    at = f"{where}._GLOBAL_INDEX"
    return GlobalIndexMeta(
        _field(g, "_ROW_RANGE_START", (int,), at),
        _field(g, "_ROW_RANGE_END", (int,), at),
        _field(g, "_INDEX_FIELD_ID", (int,), at),
        _field(g, "_INDEX_META", (bytes,), at, nullable=True),
    )


@dataclass(frozen=True)
class IndexManifestEntry:
    """One index-manifest record: a HASH, DELETION_VECTORS or (1.4.1) global index file."""

    kind: int
    partition: bytes
    bucket: int
    index_type: str
    file_name: str
    file_size: int
    row_count: int
    dv_ranges: tuple[DeletionVectorRange, ...] | None
    external_path: str | None
    index: int
    global_index: GlobalIndexMeta | None = None


def index_manifest_entry(rec: dict, index: int) -> IndexManifestEntry:
    """An IndexManifestEntry from an index-manifest record."""
    where = f"entries[{index}]"
    kind = _field(rec, "_KIND", (int,), where)
    if kind not in (ADD, DELETE):
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}._KIND", f"_KIND {kind} is neither 0 (ADD) nor 1 (DELETE)")
    ranges = _field(rec, "_DELETIONS_VECTORS_RANGES", (list,), where, nullable=True)
    if ranges is None and rec.get("_INDEX_TYPE") == "DELETION_VECTORS":
        msg = "a DELETION_VECTORS entry without ranges: Java reads no vector from it, deleted rows come back"
        raise MetadataProblem("MANIFEST_MALFORMED", f"{where}._DELETIONS_VECTORS_RANGES", msg)
    dv = None
    if ranges is not None:
        dv = tuple(
            DeletionVectorRange(
                _field(r, "f0", (str,), f"{where}._DELETIONS_VECTORS_RANGES[{i}]"),
                _field(r, "f1", (int,), f"{where}._DELETIONS_VECTORS_RANGES[{i}]"),
                _field(r, "f2", (int,), f"{where}._DELETIONS_VECTORS_RANGES[{i}]"),
                _field(r, "_CARDINALITY", (int,), f"{where}._DELETIONS_VECTORS_RANGES[{i}]", nullable=True),
            )
            for i, r in enumerate(ranges)
        )
    return IndexManifestEntry(
        kind,
        bytes(_field(rec, "_PARTITION", (bytes,), where)),
        _field(rec, "_BUCKET", (int,), where),
        _field(rec, "_INDEX_TYPE", (str,), where),
        _field(rec, "_FILE_NAME", (str,), where),
        _field(rec, "_FILE_SIZE", (int,), where),
        _field(rec, "_ROW_COUNT", (int,), where),
        dv,
        _field(rec, "_EXTERNAL_PATH", (str,), where, nullable=True),
        index,
        _global_index(rec, where),
    )
