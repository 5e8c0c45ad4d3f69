"""What real Java Paimon does with one deliberate change to a Java-written table.

Each experiment copies a table Java Paimon 0.9.0 wrote (golden/tables/java-0.9.0/, or a small
timestamp table VerdictProbe writes with the 0.9.0 jar at test time), changes one thing
(conformance/java_mutations.py), and then

* reads it with Java Paimon 0.9.0 and 1.0-SNAPSHOT (the query path: scan, read, deletion vectors
  applied): the same rows as the unchanged table, other rows, or an exception;
* for the deletion-vector and thin-mode experiments, also upserts one row into the bucket of the
  changed file with Java's writer (the write path: the writer restores the bucket's deletion
  vectors, and its lookup compaction reads the keys of the bucket's files), then reads again;
* runs the kit's `validate_table` and records its findings.

test_java_read / test_java_upsert assert what Java did, so the evidence is re-checked whenever the
suite runs. test_kit_agrees_with_java requires the kit's verdict for Java 0.9 (a must-finding or
not) to be Java's (some jar rejects or misreads on some path, or not). build/java-verdicts/report.json
lists every experiment with Java's outcome per jar and the kit's findings.
Both jars run at once, one JVM each for all experiments (about 20-35 s for the whole file).

Jars (tools/paimon_java.py): 0.9.0, and 1.0-SNAPSHOT = paimon-core built 2024-09-04, BEFORE
release 1.0.0 (it lacks e.g. apache/paimon#4651, #4666 thin mode and #4322 _VALUE_STATS_COLS).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import java_releases
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from java_verdicts_record import category
from support import java_mutations as jm
from support.environment import ROOT

from paimon_conform.core.java_releases import judge
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("java",)

KIT_TARGET = "0.9"  # both jars here read like 0.9 for what these experiments change

GOLDEN = ROOT / "golden" / "tables" / "java-0.9.0"
REPORT = jm.BUILD / "report.json"
V09, V10 = jm.VERSIONS

# ---------------------------------------------------------------------------------------------
# Timestamp tables (append, bucket-unaware, Parquet), written by Java 0.9.0 at test time

# After 1970 only: Java 0.9.0 / 1.0-SNAPSHOT cannot read back their own INT96 TIMESTAMP(9) value
# before 1970 with a sub-second part (the "ts9-pre1970" table, experiment B2-ts9-pre1970-as-java-wrote-it).
TS_ROWS = [[1, [1700000000123, 456789]], [2, [34560000000, 1000]], [3, None], [4, [0, 999999]]]
TS_TABLES = {
    "ts3": "TIMESTAMP(3)",
    "ts6": "TIMESTAMP(6)",
    "ts9": "TIMESTAMP(9)",
    "ltz9": "TIMESTAMP(9) WITH LOCAL TIME ZONE",
    "ts9-pre1970": "TIMESTAMP(9)",
}
TS_PRE1970_ROWS = [[1, [-1500, 1000]]]
# Compact DECIMAL tables (append, bucket-unaware, Parquet): Java writes p <= 9 as INT32, p <= 18 as INT64
DEC_TABLES = {"dec5": "DECIMAL(5, 2)", "dec10": "DECIMAL(10, 2)"}
DEC_ROWS = {
    "dec5": [[1, "123.45"], [2, "-0.01"], [3, None], [4, "0.00"]],
    "dec10": [[1, "12345678.91"], [2, "-0.01"], [3, None], [4, "-99999999.99"]],
}
CREATED = {**TS_TABLES, **DEC_TABLES}  # the bases written by Java 0.9.0 at test time


def _ts_expected(name: str) -> list[list]:
    """The rows Java reads back: the timestamp as 'millis,nanoOfMillisecond' at the type's precision."""
    precision = int(re.search(r"\((\d)\)", TS_TABLES[name]).group(1))
    keep = 10 ** (9 - precision)
    out = []
    for i, v in TS_PRE1970_ROWS if name == "ts9-pre1970" else TS_ROWS:
        if v is None:
            out.append([i, None])
            continue
        nanos = v[0] * 1_000_000 + v[1]
        nanos -= nanos % keep
        out.append([i, f"{nanos // 1_000_000},{nanos % 1_000_000}"])
    return out


def _create_job(name: str, dir_: Path) -> dict:
    """VerdictProbe's job writing one of the CREATED tables."""
    rows = DEC_ROWS[name] if name in DEC_TABLES else TS_PRE1970_ROWS if name == "ts9-pre1970" else TS_ROWS
    return {
        "op": "create",
        "dir": str(dir_),
        "columns": [["id", "INT"], ["t", CREATED[name]]],
        "primary": [],
        "partition": [],
        "options": {"bucket": "-1", "file.format": "parquet"},
        "commits": [rows],
    }


# ---------------------------------------------------------------------------------------------
# Experiments


@dataclass
class Experiment:
    id: str
    base: str  # a golden java-0.9.0 table or a CREATED name
    mutate: Callable[[Path], Any]
    # What Java does, per jar: "same" (the unchanged table's rows), "other" (reads other rows),
    # or a regex the exception chain must match. Upsert: "ok" or a regex.
    read: dict[str, str]
    upsert: dict[str, str] | None = None
    note: str = ""
    info: bool = False  # not a writer's fault: left out of the kit/Java disagreements


def _avro(kind: str, schema_fn=None, record_fn=None) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        assert jm.rewrite_avro(root, kind, schema_fn, record_fn) > 0
        jm.fix_sizes(root)

    return mutate


def _nullable(t):
    return ["null", t]


def _null_second(t):
    inner = [x for x in t if x != "null"] if isinstance(t, list) else [t]
    return [*inner, "null"]


def _as_long(t):
    assert t == "int", t
    return "long"


def _rest_reversed(fields):
    return fields[:1] + list(reversed(fields[1:]))


UNKNOWN = {"name": "_UNKNOWN", "type": "long"}
STATS_COLS = {"name": "_VALUE_STATS_COLS", "type": ["null", {"type": "array", "items": "string"}], "default": None}

PK = "pk-fixed4-parquet-dv"
DYN = "pk-dynamic-parquet"


def both(outcome: str) -> dict[str, str]:
    return {V09: outcome, V10: outcome}


SAME = both("same")
OTHER = both("other")
UPSERT_OK = both("ok")
# Exceptions (regexes over the exception chain VerdictProbe reports)
NULL_SECOND = both(r'IllegalArgumentException: Unsupported type: "null"')  # AvroSchemaVisitor.primitive
LONG_AS_INT = both(r"class java.lang.Long cannot be cast to class java.lang.Integer")
NOT_NULL_MISSING = both(r'NullPointerException: Cannot invoke "java.lang.(Integer.intValue|Long.longValue)\(\)"')
NULL_COUNTS_NULL = both(r'NullPointerException: Cannot invoke "org.apache.paimon.data.InternalArray.size\(\)"')
KEY_MISSING = both(r"Required column is missing in data file. Col: \[_KEY_id\]")  # ParquetReaderFactory.checkSchema
INT64_NOT_INT96 = both(r"IllegalArgumentException: Unexpected type: INT64 at .*ParquetSplitReaderUtil")
INT96_DICT_LOW_P = both(r"UnsupportedOperationException: .*PlainBinaryDictionary at .*Dictionary.decodeToLong")
INT96_PLAIN_LOW_P = both(
    r"ClassCastException: class .*HeapLongVector cannot be cast to class .*WritableTimestampVector"
)
DECIMAL_FIXED = both(r"UnsupportedOperationException: .*PlainBinaryDictionary")  # a decimal from a dictionary
TS_CHECK = both(r"IllegalArgumentException: null at .*Preconditions.checkArgument.* < .*Timestamp.<init>")
DV_CRC = both(r"Unable to read deletion vectors from file: .* <- java.lang.RuntimeException: Checksum not match")
DV_VERSION = both(r"Unable to read deletion vectors from file: .* <- .*Version not match, actual version: 2")
DV_MAGIC = both(r"Invalid magic number: 305419896")
DV_SIZE_25_24 = both(r"Size not match, actual size: 25, expert size: 24")
DV_SIZE_24_25 = both(r"Size not match, actual size: 24, expert size: 25")


def _a(eid: str, kind: str, read: dict[str, str], schema_fn=None, record_fn=None, note: str = "") -> Experiment:
    """An Avro experiment on every metadata file of `kind` in the DV table."""
    return Experiment(eid, PK, _avro(kind, schema_fn, record_fn), read, note=note)


MANIFEST, LIST, INDEX = "manifest", "manifest_list", "index_manifest"
AVRO = [
    # (1) _FILE as ["null", record]: read (the generic Avro reader decodes with the writer schema)
    _a("A1-manifest-_FILE-nullable", MANIFEST, SAME, jm.set_type("_FILE", _nullable)),
    # (2) top-level ["null", record]
    _a("A2-manifest-top-nullable", MANIFEST, SAME, jm.top_level_nullable),
    _a("A2-manifest_list-top-nullable", LIST, SAME, jm.top_level_nullable),
    _a("A2-index_manifest-top-nullable", INDEX, SAME, jm.top_level_nullable),
    # (3) fields reordered: matched by name
    _a("A3-manifest-_FILE-reordered", MANIFEST, SAME, jm.reorder("_FILE", jm.reversed_fields)),
    _a("A3-manifest_list-reordered", LIST, SAME, jm.reorder("", _rest_reversed)),
    _a("A3-index_manifest-reordered", INDEX, SAME, jm.reorder("", _rest_reversed)),
    # (4) _VERSION last
    _a("A4-manifest-_VERSION-last", MANIFEST, SAME, jm.reorder("", jm.version_last)),
    _a("A4-manifest_list-_VERSION-last", LIST, SAME, jm.reorder("", jm.version_last)),
    _a("A4-index_manifest-_VERSION-last", INDEX, SAME, jm.reorder("", jm.version_last)),
    # (5) a NOT NULL field as a union with null first
    _a("A5-manifest-_KEY_STATS-nullable", MANIFEST, SAME, jm.set_type("_FILE._KEY_STATS", _nullable)),
    _a("A5-manifest-_FILE_NAME-nullable", MANIFEST, SAME, jm.set_type("_FILE._FILE_NAME", _nullable)),
    _a("A5-manifest_list-_PARTITION_STATS-nullable", LIST, SAME, jm.set_type("_PARTITION_STATS", _nullable)),
    _a("A5-index_manifest-_FILE_SIZE-nullable", INDEX, SAME, jm.set_type("_FILE_SIZE", _nullable)),
    # (6) a union with null second: FieldReaderFactory.visitUnion visits the "null" branch as a type
    _a("A6-manifest-_MIN_KEY-null-second", MANIFEST, NULL_SECOND, jm.set_type("_FILE._MIN_KEY", _null_second)),
    _a(
        "A6-manifest-_DELETE_ROW_COUNT-null-second",
        MANIFEST,
        NULL_SECOND,
        jm.set_type("_FILE._DELETE_ROW_COUNT", _null_second),
    ),
    _a(
        "A6-manifest_list-_NULL_COUNTS-null-second",
        LIST,
        NULL_SECOND,
        jm.set_type("_PARTITION_STATS._NULL_COUNTS", _null_second),
    ),
    _a(
        "A6-index_manifest-_DELETIONS_VECTORS_RANGES-null-second",
        INDEX,
        NULL_SECOND,
        jm.set_type("_DELETIONS_VECTORS_RANGES", _null_second),
    ),
    # (7) an int written as long
    _a("A7-manifest-_BUCKET-long", MANIFEST, LONG_AS_INT, jm.set_type("_BUCKET", _as_long)),
    _a("A7-manifest-_LEVEL-long", MANIFEST, LONG_AS_INT, jm.set_type("_FILE._LEVEL", _as_long)),
    _a("A7-manifest_list-_VERSION-long", LIST, LONG_AS_INT, jm.set_type("_VERSION", _as_long)),
    _a("A7-index_manifest-_BUCKET-long", INDEX, LONG_AS_INT, jm.set_type("_BUCKET", _as_long)),
    # (8) an extra field appended: skipped
    _a("A8-manifest-extra-field", MANIFEST, SAME, jm.add_field("", UNKNOWN), jm.set_value("_UNKNOWN", 7)),
    _a(
        "A8-manifest-_FILE-_VALUE_STATS_COLS-null",
        MANIFEST,
        SAME,
        jm.add_field("_FILE", STATS_COLS),
        jm.set_value("_FILE._VALUE_STATS_COLS", None),
    ),
    _a("A8-manifest_list-extra-field", LIST, SAME, jm.add_field("", UNKNOWN), jm.set_value("_UNKNOWN", 7)),
    _a("A8-index_manifest-extra-field", INDEX, SAME, jm.add_field("", UNKNOWN), jm.set_value("_UNKNOWN", 7)),
    # (9) a nullable field missing: null; harmless for some, fatal for _NULL_COUNTS (the stats
    # converters call BinaryArray.fromLongArray on it), silently wrong for the DV ranges
    _a("A9-manifest-_FILE_SOURCE-missing", MANIFEST, SAME, jm.drop_field("_FILE._FILE_SOURCE")),
    _a("A9-manifest-_DELETE_ROW_COUNT-missing", MANIFEST, SAME, jm.drop_field("_FILE._DELETE_ROW_COUNT")),
    _a("A9-manifest_list-_NULL_COUNTS-missing", LIST, NULL_COUNTS_NULL, jm.drop_field("_PARTITION_STATS._NULL_COUNTS")),
    _a(
        "A9-manifest-_VALUE_STATS._NULL_COUNTS-missing",
        MANIFEST,
        NULL_COUNTS_NULL,
        jm.drop_field("_FILE._VALUE_STATS._NULL_COUNTS"),
    ),
    _a(
        "A9-index_manifest-_DELETIONS_VECTORS_RANGES-missing",
        INDEX,
        OTHER,
        jm.drop_field("_DELETIONS_VECTORS_RANGES"),
        note="no vector is applied: the deleted rows are read again",
    ),
    # (10) a NOT NULL field missing
    _a("A10-manifest-_LEVEL-missing", MANIFEST, NOT_NULL_MISSING, jm.drop_field("_FILE._LEVEL")),
    _a("A10-manifest_list-_NUM_DELETED_FILES-missing", LIST, NOT_NULL_MISSING, jm.drop_field("_NUM_DELETED_FILES")),
    _a("A10-index_manifest-_ROW_COUNT-missing", INDEX, NOT_NULL_MISSING, jm.drop_field("_ROW_COUNT")),
    # (11) Java's writer schema, a nullable field's value null
    _a(
        "A11-manifest_list-_NULL_COUNTS-null",
        LIST,
        NULL_COUNTS_NULL,
        record_fn=jm.set_value("_PARTITION_STATS._NULL_COUNTS", None),
    ),
    _a(
        "A11-manifest-_VALUE_STATS._NULL_COUNTS-null",
        MANIFEST,
        NULL_COUNTS_NULL,
        record_fn=jm.set_value("_FILE._VALUE_STATS._NULL_COUNTS", None),
    ),
    _a(
        "A11-manifest-_KEY_STATS._NULL_COUNTS-null",
        MANIFEST,
        NULL_COUNTS_NULL,
        record_fn=jm.set_value("_FILE._KEY_STATS._NULL_COUNTS", None),
    ),
]


def _parquet(fn, files: Callable[[Path], list[Path]] = jm.data_files, option: tuple[str, str] | None = None, **kw):
    def mutate(root: Path) -> None:
        paths = files(root)
        assert paths
        for p in paths:
            jm.rewrite_parquet(p, fn, **kw)
        if option:
            jm.set_schema_option(root, *option)
        jm.fix_sizes(root)

    return mutate


def _keep(t: pa.Table) -> pa.Table:
    return t


PK_IDS = {"_KEY_id": 1073741823 + 1, "_SEQUENCE_NUMBER": 2147483646, "_VALUE_KIND": 2147483645}
PK_IDS |= {"dt": 0, "id": 1, "v": 2, "s": 3}
PK_WRONG_IDS = PK_IDS | {"dt": 3, "id": 2, "v": 1, "s": 0}
NS, US, MS = pa.timestamp("ns"), pa.timestamp("us"), pa.timestamp("ms")

DATA = [
    Experiment("B0-parquet-rewritten-unchanged", PK, _parquet(_keep), SAME, UPSERT_OK, note="control: pyarrow rewrite"),
    Experiment("B0-parquet-rewritten-unchanged-mor", DYN, _parquet(_keep), SAME, note="control: pyarrow rewrite"),
    # (1) thin mode (no _KEY_ columns). The DV table's query path reads value columns only (its
    # splits are raw-convertible), the upsert's lookup compaction reads the keys; the merge-on-read
    # table (pk-dynamic-parquet, level-0 files merged) reads the keys on the query path.
    Experiment("B1-thin-mode-undeclared-dv", PK, _parquet(jm.without_columns("_KEY_")), SAME, KEY_MISSING),
    Experiment(
        "B1-thin-mode-declared-dv",
        PK,
        _parquet(jm.without_columns("_KEY_"), option=("data-file.thin-mode", "true")),
        SAME,
        KEY_MISSING,
    ),
    Experiment("B1-thin-mode-undeclared-mor", DYN, _parquet(jm.without_columns("_KEY_")), KEY_MISSING),
    Experiment(
        "B1-thin-mode-declared-mor",
        DYN,
        _parquet(jm.without_columns("_KEY_"), option=("data-file.thin-mode", "true")),
        KEY_MISSING,
    ),
    # (2) timestamps. Java writes p 0-3 INT64 MILLIS, 4-6 INT64 MICROS, 7-9 INT96; the controls
    # rewrite with those types
    Experiment("B2-ts3-int64-millis-control", "ts3", _parquet(_keep), SAME),
    Experiment("B2-ts6-int64-micros-control", "ts6", _parquet(_keep), SAME),
    Experiment("B2-ts9-int96-control", "ts9", _parquet(_keep, use_deprecated_int96_timestamps=True), SAME),
    Experiment("B2-ltz9-int96-control", "ltz9", _parquet(_keep, use_deprecated_int96_timestamps=True), SAME),
    Experiment("B2-ts9-int64-nanos", "ts9", _parquet(jm.cast_column("t", NS)), INT64_NOT_INT96),
    Experiment("B2-ts9-int64-micros", "ts9", _parquet(jm.cast_column("t", US, safe=False)), INT64_NOT_INT96),
    Experiment(
        "B2-ltz9-int64-nanos", "ltz9", _parquet(jm.cast_column("t", pa.timestamp("ns", tz="UTC"))), INT64_NOT_INT96
    ),
    # the INT64 value is taken in the precision's unit whatever the annotation says
    Experiment("B2-ts3-int64-micros", "ts3", _parquet(jm.cast_column("t", US)), OTHER),
    Experiment("B2-ts6-int64-millis", "ts6", _parquet(jm.cast_column("t", MS, safe=False)), OTHER),
    Experiment("B2-ts6-int64-nanos", "ts6", _parquet(jm.cast_column("t", NS)), OTHER),
    Experiment("B2-ts3-int96", "ts3", _parquet(_keep, use_deprecated_int96_timestamps=True), INT96_DICT_LOW_P),
    Experiment("B2-ts6-int96", "ts6", _parquet(_keep, use_deprecated_int96_timestamps=True), INT96_DICT_LOW_P),
    Experiment(
        "B2-ts6-int96-plain",
        "ts6",
        _parquet(_keep, use_deprecated_int96_timestamps=True, use_dictionary=False),
        INT96_PLAIN_LOW_P,
        note="INT96 without a dictionary page",
    ),
    Experiment(
        "B2-ts9-pre1970-as-java-wrote-it",
        "ts9-pre1970",
        lambda root: None,
        TS_CHECK,
        note="unchanged: Java cannot read back its own INT96 value -1500 ms + 1000 ns (a Java bug, not a writer's)",
        info=True,
    ),
    # (3) Parquet field ids (Java 0.9.0 and this 1.0-SNAPSHOT write none; readers match by name)
    Experiment("B3-field-ids-javas", PK, _parquet(jm.with_field_ids(PK_IDS)), SAME),
    Experiment("B3-field-ids-wrong", PK, _parquet(jm.with_field_ids(PK_WRONG_IDS)), SAME),
    # (4) compact DECIMAL: Java's INT32 / INT64 (controls), and FIXED_LEN_BYTE_ARRAY as pyarrow (pypaimon) writes it
    Experiment("B4-dec5-int32-control", "dec5", _parquet(_keep, store_decimal_as_integer=True), SAME),
    Experiment("B4-dec10-int64-control", "dec10", _parquet(_keep, store_decimal_as_integer=True), SAME),
    Experiment("B4-dec5-fixed", "dec5", _parquet(_keep), DECIMAL_FIXED),
    Experiment("B4-dec10-fixed", "dec10", _parquet(_keep), DECIMAL_FIXED),
]


def _dv(change: Callable[[Path, dict, dict], None]) -> Callable[[Path], dict]:
    """Apply change(index file, index manifest entry, range) to every vector of one live DV index file."""

    def mutate(root: Path) -> dict:
        entry = jm.live_dv_entries(root)[0]
        path = root / "index" / entry["_FILE_NAME"]
        for rng in entry["_DELETIONS_VECTORS_RANGES"]:
            change(path, entry, rng)
        jm.fix_sizes(root)
        return entry

    return mutate


def _bad_crc(path: Path, entry: dict, rng: dict) -> None:
    at = rng["f1"] + 4 + rng["f2"]
    crc = path.read_bytes()[at : at + 4]
    jm.patch_bytes(path, at, bytes(b ^ 0xFF for b in crc))


def _bad_version(path: Path, entry: dict, rng: dict) -> None:
    jm.patch_bytes(path, 0, b"\x02")


def _bad_magic(path: Path, entry: dict, rng: dict) -> None:
    jm.patch_bytes(path, rng["f1"] + 4, (0x12345678).to_bytes(4, "big"))


def _bad_length_word(path: Path, entry: dict, rng: dict) -> None:
    jm.patch_bytes(path, rng["f1"], (rng["f2"] + 1).to_bytes(4, "big"))


def _bad_manifest_length(root: Path) -> dict:
    entry = jm.live_dv_entries(root)[0]
    name = jm.latest_snapshot(root)["indexManifest"]

    def fix(r: dict) -> dict:
        if r["_FILE_NAME"] == entry["_FILE_NAME"]:
            for rng in r["_DELETIONS_VECTORS_RANGES"]:
                rng["f2"] += 1
        return r

    path = root / "manifest" / name
    schema, records, codec = jm.avro_read(path)
    jm.avro_write(path, schema, [fix(r) for r in records], codec)
    return entry


DV = [
    Experiment("C0-dv-unchanged", PK, lambda root: jm.live_dv_entries(root)[0], SAME, UPSERT_OK, note="control"),
    # the query path (DeletionVector.read) checks length and magic, not the version byte or the CRC;
    # the write path (DeletionVectorsIndexFile.readAllDeletionVectors) checks all four
    Experiment("C1-dv-bad-crc", PK, _dv(_bad_crc), SAME, DV_CRC),
    Experiment("C2-dv-version-byte-2", PK, _dv(_bad_version), SAME, DV_VERSION),
    Experiment("C3-dv-bad-magic", PK, _dv(_bad_magic), DV_MAGIC, both(r"Unable to read deletion vectors from file")),
    Experiment("C4-dv-length-word-off-by-one", PK, _dv(_bad_length_word), DV_SIZE_25_24, DV_SIZE_25_24),
    Experiment("C4-dv-manifest-length-off-by-one", PK, _bad_manifest_length, DV_SIZE_24_25, DV_SIZE_24_25),
]

EXPERIMENTS = AVRO + DATA + DV


# ---------------------------------------------------------------------------------------------
# Running everything once


def _sort(rows: list[list]) -> list[list]:
    return sorted(rows, key=lambda r: json.dumps(r))


def _expected(base: str) -> list[list]:
    if base in TS_TABLES:
        return _ts_expected(base)
    if base in DEC_TABLES:
        return DEC_ROWS[base]
    return json.loads((GOLDEN / f"{base}.json").read_text())["expected_rows"]


def _upsert_row(root: Path, entry: dict | None) -> list:
    """A row with the key of the first row of a data file the DV entry covers (so: its partition and
    bucket), or of the first data file when there is no entry."""
    first = jm.data_files(root)[0] if entry is None else None
    path = first or next(root.rglob(entry["_DELETIONS_VECTORS_RANGES"][0]["f0"]))
    table = pq.ParquetFile(path).read(columns=["dt", "id"])
    return [table.column("dt")[0].as_py(), table.column("id")[0].as_py(), 0.5, "upserted"]


def _outcome(result: dict, expected: list[list] | None) -> str:
    if result["error"]:
        return "error: " + result["error"]
    if expected is None:
        return "ok"
    if _sort(result["rows"]) == _sort(expected):
        return "same"
    example = _first_difference(result["rows"], expected)
    return f"other: {len(result['rows'])} rows, {len(expected)} expected, e.g. {example}"


def _first_difference(got: list[list], want: list[list]) -> str:
    extra = [r for r in _sort(got) if r not in want]
    missing = [r for r in _sort(want) if r not in got]
    return f"read {extra[:1]} not expected, {missing[:1]} expected not read"


def _kit_verdict(findings: list[dict]) -> str:
    severities = {f["severity"] for f in findings}
    return "must" if "must" in severities else "should" if "should" in severities else "clean"


RELEASE_LINES = sorted({java_releases.release(v).line for v in jm.RELEASES})


def _kit_verdict_for(found: list, line: str) -> str:
    """The kit's verdict for one release line (`validate --java-version`) from a table's unjudged findings."""
    return _kit_verdict([{"severity": f.severity} for f in judge(copy.deepcopy(found), line)])


def _java_fails(outcomes: dict[str, str]) -> list[str]:
    """The jars that reject or misread (an exception or other rows) on any path."""
    return [v for v, o in outcomes.items() if o != "same" and o != "ok"]


@pytest.fixture(scope="module")
def verdicts(paimon_java, tmp_path_factory) -> dict[str, dict]:
    started = time.perf_counter()
    work = tmp_path_factory.mktemp("verdicts")
    bases = work / "bases"
    jm.run_probes({V09: [_create_job(n, bases / n) for n in CREATED]}, work)
    for n in CREATED:
        assert list((bases / n).rglob("*.parquet")), f"Java did not write {n}"
    jobs: dict[str, list[dict]] = {v: [] for v in (*jm.VERSIONS, *jm.RELEASES)}
    kit: dict[str, list[dict]] = {}
    kit_by_line: dict[str, dict[str, str]] = {}
    where: dict[str, dict] = {}
    for e in EXPERIMENTS:
        root = work / e.id
        shutil.copytree(bases / e.base if e.base in CREATED else GOLDEN / e.base, root)
        entry = e.mutate(root)
        kit[e.id] = [
            {"code": f.code, "severity": f.severity, "file": f.file, "path": f.path, "message": f.message}
            for r in validate_table(root, java_version=KIT_TARGET)
            for f in r.findings
        ]
        found = [f for r in validate_table(root, java_version=None) for f in r.findings]  # judged per line below
        kit_by_line[e.id] = {line: _kit_verdict_for(found, line) for line in RELEASE_LINES}
        where[e.id] = {}
        for v in jobs:
            where[e.id][v] = {"read": len(jobs[v])}
            jobs[v].append({"op": "read", "dir": str(root)})
            if e.upsert is not None:
                copy = work / f"{e.id}-upsert-{v}"
                shutil.copytree(root, copy)
                where[e.id][v]["upsert"] = len(jobs[v])
                jobs[v].append({"op": "upsert", "dir": str(copy), "rows": [_upsert_row(copy, entry)]})
                where[e.id][v]["read_after_upsert"] = len(jobs[v])
                jobs[v].append({"op": "read", "dir": str(copy)})
    results = jm.run_probes(jobs, work)
    out = {}
    for e in EXPERIMENTS:
        expected = _expected(e.base)
        java = {}
        for v in jobs:
            at = where[e.id][v]
            java[v] = {"read": _outcome(results[v][at["read"]], expected)}
            if "upsert" in at:
                java[v]["upsert"] = _outcome(results[v][at["upsert"]], None)
                after = results[v][at["read_after_upsert"]]
                java[v]["read_after_upsert"] = "error: " + after["error"] if after["error"] else "ok"
        out[e.id] = {"java": java, "kit": kit[e.id], "kit_by_line": kit_by_line[e.id], "note": e.note, "info": e.info}
    _write_report(out, time.perf_counter() - started)
    return out


def _write_report(out: dict[str, dict], seconds: float) -> None:
    disagreements = []
    for eid, r in out.items():
        if r["info"]:
            continue
        fails = sorted({v for v in jm.VERSIONS if _java_fails(r["java"][v])})
        verdict = _kit_verdict(r["kit"])
        if bool(fails) != (verdict == "must"):
            disagreements.append({"experiment": eid, "java_fails_in": fails, "kit": verdict, "java": r["java"]})
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(
        json.dumps({"seconds": round(seconds, 1), "experiments": out, "disagreements": disagreements}, indent=2)
    )


# ---------------------------------------------------------------------------------------------
# The tests


def _check(outcome: str, want: str) -> None:
    if want in ("same", "ok"):
        assert outcome == want
    elif want == "other":
        assert outcome.startswith("other: "), outcome
    else:
        assert outcome.startswith("error: "), outcome
        assert re.search(want, outcome), outcome


@pytest.mark.java
@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=[e.id for e in EXPERIMENTS])
@pytest.mark.parametrize("version", jm.VERSIONS)
def test_java_read(verdicts, experiment, version):
    """Java's query path on the mutated table: the unchanged rows, other rows, or the exception."""
    _check(verdicts[experiment.id]["java"][version]["read"], experiment.read[version])


@pytest.mark.java
@pytest.mark.parametrize(
    "experiment", [e for e in EXPERIMENTS if e.upsert], ids=[e.id for e in EXPERIMENTS if e.upsert]
)
@pytest.mark.parametrize("version", jm.VERSIONS)
def test_java_upsert(verdicts, experiment, version):
    """Java's write path (restores the bucket's deletion vectors) on the mutated table."""
    _check(verdicts[experiment.id]["java"][version]["upsert"], experiment.upsert[version])


JUDGED = [e for e in EXPERIMENTS if not e.info]


@pytest.mark.java
@pytest.mark.parametrize("experiment", JUDGED, ids=[e.id for e in JUDGED])
def test_kit_agrees_with_java(verdicts, experiment):
    """The kit, judging for Java 0.9 (`--java-version 0.9`: what both jars here behave like, the 1.0-SNAPSHOT
    predating 1.0.0's thin mode and dense stats), reports a must-finding exactly when a jar rejects or
    misreads the table on some path."""
    r = verdicts[experiment.id]
    fails = sorted({v for v in jm.VERSIONS if _java_fails(r["java"][v])})
    verdict = _kit_verdict(r["kit"])
    codes = sorted({f"{f['code']} [{f['severity']}]" for f in r["kit"]})
    java = {v: {k: o[:160] for k, o in paths.items()} for v, paths in r["java"].items()}
    assert bool(fails) == (verdict == "must"), f"kit {verdict} {codes}; Java fails in {fails or 'no jar'}: {java}"


# ---------------------------------------------------------------------------------------------
# Every other release: its outcomes pinned in java_verdicts_by_release.json (recorded from its own run:
# `.venv/bin/python tools/java_verdicts_record.py` after a run), and the kit's verdict for its line


PINNED = json.loads((ROOT / "conformance" / "java_verdicts_by_release.json").read_text())


@pytest.mark.java
@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=[e.id for e in EXPERIMENTS])
@pytest.mark.parametrize("version", jm.RELEASES)
def test_each_release_does_what_it_did(verdicts, experiment, version):
    """Each release's read (and upsert, and read after it) of the mutated table, as pinned from its run."""
    got = {path: category(o) for path, o in verdicts[experiment.id]["java"][version].items()}
    assert got == PINNED["outcomes"][experiment.id][version], verdicts[experiment.id]["java"][version]


@pytest.mark.java
@pytest.mark.parametrize("experiment", JUDGED, ids=[e.id for e in JUDGED])
@pytest.mark.parametrize("version", jm.RELEASES)
def test_kit_agrees_with_each_release(verdicts, experiment, version):
    """`validate --java-version <its line>` reports a must-finding exactly when that release rejects or
    misreads the table on some path; a pinned disagreement fails once the two agree."""
    r = verdicts[experiment.id]
    fails = bool(_java_fails(r["java"][version]))
    verdict = r["kit_by_line"][java_releases.release(version).line]
    known = f"{experiment.id} {version}" in PINNED["disagreements"]
    assert (fails == (verdict == "must")) != known, f"kit {verdict}; Java {version}: {r['java'][version]}"
