"""The type x role x writer matrix of the peer writers and the kit's own: helpers (the tests are in
test_type_matrix_peers.py).

Each *cell* is one table: a writer (`pypaimon` 2.1.0 through its Python API in a child process
that cannot import pypaimon_rust, `rust` = pypaimon-rust 0.4.0 through its DataFusion SQL
context: CREATE TABLE ... WITH (...), INSERT ... SELECT from a registered Arrow batch, `engine` =
the kit's write engine called directly, `spark` = the same engine through `format("paimon")` on
PySpark, for the types Spark SQL has), a column
type (or several, for a multi-field bucket key) and the role the column plays (primary key,
bucket key under a bucket function, partition key, file-index column, plain value column). The
*control* cells are the same tables written by Java Paimon 1.0-SNAPSHOT itself (the roles its
writer has: no hive / mod bucket function, no BSI / range-bitmap index).

`build_matrix` writes every table (one child per writer, all at once), validates each with the
kit's CLI (`cli.main` per table in two child processes, then the console script once over all
tables and once for each table the first pass failed on), reads each with Java 1.0-SNAPSHOT
(tools/java/tables/TablesReader.java: rows, an `= value` / IS NULL read per distinct value, each
row re-hashed to its bucket, the index manifest and HASH files) and with Java 0.9.0 (rows), and
with the kit's reader, and returns one `CellResult` per cell. What Java does with its own control
table (a filtered read that fails or skips, a read that fails the same way) is not held against a
peer (`_subtract_java_own`). `KNOWN` lists the peers' incompatibilities with their Java evidence;
`flags` / `verdict` judge a cell; `report_markdown` writes the matrix.

Values travel as JSON ("transport" form, one per column type):

| type | transport |
|---|---|
| BOOLEAN, TINYINT..BIGINT | JSON bool / int |
| FLOAT, DOUBLE | number, "NaN", "Infinity", "-Infinity" (-0.0 survives JSON) |
| DECIMAL(p, s) | string |
| DATE | days since 1970-01-01 |
| TIME | millis of day |
| TIMESTAMP(p), TIMESTAMP_LTZ(p) | epoch nanoseconds (a multiple of the precision's unit) |
| CHAR, VARCHAR, STRING | string |
| BINARY, VARBINARY, BYTES | hex |

and are compared in one canonical form (`canon`: floats as `repr` of the float the type holds,
decimals as their unscaled integer, timestamps as epoch nanoseconds, bytes as hex), whatever
produced them: the written values, Java's TablesReader output (`canon_java`) or the kit's
reader (`canon_kit`). This module imports only the standard library at the top (pyarrow inside
functions): the writer and validator child processes import it too.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from decimal import Context, Decimal, localcontext
from pathlib import Path

from support.strategies import MATRIX_TYPES

HERE = Path(__file__).resolve().parent.parent  # conformance/, where the child processes import support from
ROOT = HERE.parent
PEERS = ("pypaimon", "rust", "engine", "spark")  # engine: the kit's write engine called directly; spark: through
# format("paimon") on PySpark (the types Spark SQL has)
KIT_WRITERS = ("engine", "spark")
CONTROL = "java"  # Java 1.0-SNAPSHOT writing the same cells: what its own reader does with its own tables
CONTROL_ROLES = ("pk", "pk_dynamic", "bucket_default", "partition", "index_bloom-filter", "index_bitmap", "value")

# --------------------------------------------------------------------------- types and values

TYPES = MATRIX_TYPES
_TYPE_RE = re.compile(r"^([A-Z_]+)(?:\((\d+)(?:,\s*(\d+))?\))?( WITH LOCAL TIME ZONE)?$")
NS = 1_000_000_000
DAY_NS = 86_400 * NS


@dataclass(frozen=True)
class PType:
    """A column type as this module needs it: root, precision / length, scale."""

    text: str
    root: str
    precision: int | None = None
    scale: int | None = None

    @property
    def is_timestamp(self) -> bool:
        return self.root in ("TIMESTAMP", "TIMESTAMP_LTZ")

    @property
    def is_binary(self) -> bool:
        return self.root in ("BINARY", "VARBINARY", "BYTES")

    @property
    def is_string(self) -> bool:
        return self.root in ("CHAR", "VARCHAR", "STRING")


def ptype(text: str) -> PType:
    """Parse one of TYPES (Java's own spelling in a schema)."""
    m = _TYPE_RE.match(text.strip().upper())
    if not m:
        raise ValueError(f"unknown type {text!r}")
    root = "TIMESTAMP_LTZ" if m.group(4) else m.group(1)
    p = int(m.group(2)) if m.group(2) else None
    s = int(m.group(3)) if m.group(3) else None
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and p is None:
        p = 6
    return PType(text, root, p, s)


def slug(text: str) -> str:
    """A type as a short identifier: `DECIMAL(38, 10)` -> `decimal38_10`, LTZ -> `ltz`."""
    t = ptype(text)
    base = "ltz" if t.root == "TIMESTAMP_LTZ" else t.root.lower()
    if t.precision is None:
        return base
    return f"{base}{t.precision}" + (f"_{t.scale}" if t.scale is not None else "")


def _ts_unit(t: PType) -> int:
    """Nanoseconds per unit of the Arrow timestamp a precision maps to (s, ms, us, ns)."""
    p = t.precision
    return NS if p == 0 else 1_000_000 if p <= 3 else 1_000 if p <= 6 else 1


def _days(y: int, m: int, d: int) -> int:
    import datetime as dt

    return (dt.date(y, m, d) - dt.date(1970, 1, 1)).days


def special_values(text: str) -> list:
    """The edge values of a type (transport form), None included."""
    t = ptype(text)
    r = t.root
    if r == "BOOLEAN":
        return [True, False, None]
    if r in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[r]
        return [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1, 0, -1, None]
    if r == "FLOAT":
        return ["NaN", -0.0, "Infinity", "-Infinity", 3.4028234663852886e38, 1.401298464324817e-45, -1.5, None]
    if r == "DOUBLE":
        return ["NaN", -0.0, "Infinity", "-Infinity", 1.7976931348623157e308, 5e-324, -2.5, None]
    if r == "DECIMAL":
        p, s = t.precision, t.scale
        top = "9" * (p - s) + ("." + "9" * s if s else "")
        tiny = "0." + "0" * (s - 1) + "1" if s else "1"
        out = [top, "-" + top, "0", tiny, "-" + tiny, None]
        if p == 38:
            out[2:2] = ["1234567890123456789012345678.0123456789", "-0.0000000001", "31415926535897932384.6264338327"]
        return out
    if r == "DATE":
        return [0, -1, _days(1, 1, 1), _days(9999, 12, 31), _days(2024, 2, 29), None]
    if r == "TIME":
        return [0, 86_399_000, 45_296_000, None]
    if t.is_timestamp:
        unit = _ts_unit(t)
        vals = [
            0,
            -1 * unit,  # one unit before the epoch: 1969-12-31T23:59:59.999... at the precision
            -DAY_NS * 365 * 70 - 123_456_789 // unit * unit,  # 1900: pre-1970 with sub-millisecond digits
            1_700_000_000 * NS + 123_456_789 // unit * unit,
        ]
        if unit == 1:
            vals += [-9_000_000_000_000_000_001, 9_000_000_000_000_000_123]  # near the INT64 nanosecond ends
        else:
            vals += [_days(1, 1, 1) * DAY_NS, (_days(9999, 12, 31) + 1) * DAY_NS - unit]
        return [*vals, None]
    if r == "CHAR":
        return ["", "abcde", "éüñ", "a/b=", None]
    if r in ("VARCHAR", "STRING"):
        out = ["", "abcdefg", "abcdefgh", "日本語テキスト", "a/b=c d%", "😀", None]
        if r == "STRING":
            out.insert(5, "long-" + "x" * 95)
        return out
    if r == "BINARY":
        return ["00000000", "ffffffff", "01020304", None]
    if r in ("VARBINARY", "BYTES"):
        n = 100 if r == "BYTES" else 10
        return ["", "00", "01" * 7, "ff" * 8, "30" * n, None]
    raise ValueError(text)


def ordinary_values(text: str, n: int) -> list:
    """`n` plain, distinct, non-null values (transport form) that spread over buckets."""
    t = ptype(text)
    r = t.root
    if r == "BOOLEAN":
        return [bool(i % 2) for i in range(n)]
    if r in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return [i * 7 + 11 for i in range(n)]
    if r in ("FLOAT", "DOUBLE"):
        return [i * 1.25 + 0.5 for i in range(n)]
    if r == "DECIMAL":
        return [str(Decimal(i * 3 + 1).scaleb(-min(t.scale, 2))) for i in range(n)]
    if r == "DATE":
        return [19_000 + i * 37 for i in range(n)]
    if r == "TIME":
        return [(i * 3_607 % 86_400) * 1000 for i in range(n)]
    if t.is_timestamp:
        unit = _ts_unit(t)
        return [(1_600_000_000 + i * 86_461) * NS + (i * 1_234_567) // unit * unit for i in range(n)]
    if r == "CHAR":
        return [f"c{i}" for i in range(n)]
    if r in ("VARCHAR", "STRING"):
        return [f"value-{i}" for i in range(n)]
    if r == "BINARY":
        return [f"{i * 2654435761 & 0xFFFFFFFF:08x}" for i in range(n)]
    return [bytes([i, i * 3 & 0xFF, 7]).hex() for i in range(n)]


def arrow_type(text: str):
    """The Arrow type pypaimon 2.1.0 maps a Paimon type to (PyarrowFieldParser.from_paimon_type)."""
    import pyarrow as pa

    t = ptype(text)
    simple = {
        "BOOLEAN": pa.bool_(),
        "TINYINT": pa.int8(),
        "SMALLINT": pa.int16(),
        "INT": pa.int32(),
        "BIGINT": pa.int64(),
        "FLOAT": pa.float32(),
        "DOUBLE": pa.float64(),
        "DATE": pa.date32(),
        "TIME": pa.time32("ms"),
    }
    if t.root in simple:
        return simple[t.root]
    if t.root == "DECIMAL":
        return pa.decimal128(t.precision, t.scale)
    if t.is_timestamp:
        unit = {NS: "s", 1_000_000: "ms", 1_000: "us", 1: "ns"}[_ts_unit(t)]
        return pa.timestamp(unit, tz="UTC" if t.root == "TIMESTAMP_LTZ" else None)
    return pa.string() if t.is_string else pa.binary()


def _float(v) -> float:
    return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}.get(v, v) if isinstance(v, str) else v


def to_arrow(text: str, values: list):
    """Transport values as an Arrow array of `arrow_type(text)`."""
    import pyarrow as pa

    t = ptype(text)
    target = arrow_type(text)
    if t.root in ("FLOAT", "DOUBLE"):
        return pa.array([None if v is None else _float(v) for v in values], target)
    if t.root == "DECIMAL":
        return pa.array([None if v is None else Decimal(v) for v in values], target)
    if t.root in ("DATE", "TIME"):
        return pa.array(values, pa.int32()).cast(target)
    if t.is_timestamp:
        unit = _ts_unit(t)
        return pa.array([None if v is None else v // unit for v in values], pa.int64()).cast(target)
    if t.is_binary:
        return pa.array([None if v is None else bytes.fromhex(v) for v in values], target)
    return pa.array(values, target)


def engine_inputs(warehouse: str, t: dict):
    """(table dir, options, one Arrow table per commit) for the kit's engine writing a TableSpec's JSON form."""
    import pyarrow as pa

    root = Path(warehouse) / "db.db" / t["name"]
    schema = pa.schema([pa.field(n, arrow_type(ty), nullable) for n, ty, nullable in t["columns"]])
    options = dict(t["options"])
    if t["primary"]:
        options["primary-key"] = ",".join(t["primary"])
        options["deletion-vectors.enabled"] = "true"
    if t["partition"]:
        options["partition"] = ",".join(t["partition"])
    types = [ty for _, ty, _ in t["columns"]]
    batches = [
        pa.Table.from_arrays(
            [to_arrow(ty, [r[i] for r in rows]).cast(schema.field(i).type) for i, ty in enumerate(types)],
            schema=schema,
        )
        for rows in t["commits"]
    ]
    return root, options, batches


# Paimon types a Spark SQL column becomes through format("paimon") (the kit's Spark source maps Spark's types
# to Arrow and Arrow to Paimon), besides DECIMAL(p, s): no TIME (the engine does not write it), no CHAR / VARCHAR /
# BINARY lengths, timestamps in microseconds only.
SPARK_TYPES = frozenset(
    {
        "BOOLEAN",
        "TINYINT",
        "SMALLINT",
        "INT",
        "BIGINT",
        "FLOAT",
        "DOUBLE",
        "DATE",
        "TIMESTAMP(6)",
        "TIMESTAMP(6) WITH LOCAL TIME ZONE",
        "STRING",
        "BYTES",
    }
)


def spark_frame(spark, data, types: list[str]):
    """A Spark DataFrame of an Arrow table of the given Paimon types (TypeError unless all are SPARK_TYPES)."""
    import pyspark.sql.functions as F

    missing = [t for t in types if t not in SPARK_TYPES and ptype(t).root != "DECIMAL"]
    if missing:
        raise TypeError(f"Spark SQL has no type that format('paimon') writes as {', '.join(missing)}")
    df = spark.createDataFrame(data)
    for f in data.schema:
        if str(f.type) == "timestamp[us]":  # Spark reads naive Arrow timestamps as TIMESTAMP (local time zone)
            df = df.withColumn(f.name, F.col(f.name).cast("timestamp_ntz"))
    return df


def _f32(x: float) -> float:
    return struct.unpack(">f", struct.pack(">f", x))[0]


def canon(text: str, v):
    """The canonical form of a transport value."""
    if v is None:
        return None
    t = ptype(text)
    if t.root == "FLOAT":
        return repr(_f32(_float(v)))
    if t.root == "DOUBLE":
        return repr(float(_float(v)))
    if t.root == "DECIMAL":
        with localcontext(Context(prec=100)):
            return str(int(Decimal(v).scaleb(t.scale)))
    return v


def canon_java(text: str, v):
    """The canonical form of a value TablesReader printed (see tools/java/tables/TablesReader.java)."""
    if v is None:
        return None
    t = ptype(text)
    if t.root in ("FLOAT", "DOUBLE"):
        return canon(text, float(v))  # Java prints every number as text, NaN and Infinity as Java spells them
    if t.root == "DECIMAL":
        with localcontext(Context(prec=100)):
            d = Decimal(v).scaleb(t.scale)
            if d != d.to_integral_value():
                return f"unscaled {v}"
    if t.is_timestamp:
        millis, nano = (int(x) for x in v.split(","))
        return millis * 1_000_000 + nano
    return canon(text, v)


def canon_kit(text: str, v):
    """The canonical form of a value in the kit's internal form (paimon_conform.core.types.to_internal)."""
    if v is None:
        return None
    t = ptype(text)
    if t.root in ("FLOAT", "DOUBLE"):
        return repr(_f32(v) if t.root == "FLOAT" else float(v))
    if t.root == "DECIMAL":
        return str(v[0])
    if t.is_timestamp:
        return v[0] * 1_000_000 + v[1]
    if t.is_binary:
        return bytes(v).hex()
    return v


def row_text(values: list) -> str:
    return json.dumps(values, ensure_ascii=False)


# --------------------------------------------------------------------------- cells

ROLES = (
    "pk",
    "pk_dynamic",
    "bucket_default",
    "bucket_mod",
    "bucket_hive",
    "partition",
    "index_bloom-filter",
    "index_bitmap",
    "index_bsi",
    "index_range-bitmap",
    "value",
)
INDEX_KINDS = ("bloom-filter", "bitmap", "bsi", "range-bitmap")
DYNAMIC_TYPES = ("STRING", "DECIMAL(38, 10)")
MOD_TYPES = ("INT", "BIGINT")
MULTI_KEYS = (("INT", "STRING"), ("DATE", "DECIMAL(5, 2)"), ("TINYINT", "SMALLINT", "BINARY(4)"))
MULTI_ROLES = ("bucket_default", "bucket_hive")


@dataclass(frozen=True)
class Cell:
    """One table of the matrix: writer, key/column type(s), role."""

    peer: str
    types: tuple[str, ...]
    role: str

    @property
    def type_label(self) -> str:
        return " + ".join(self.types)

    @property
    def id(self) -> str:
        return f"{self.peer}-{self.role}-{'+'.join(slug(t) for t in self.types)}"

    @property
    def name(self) -> str:
        """The table's name (also its directory under db.db/)."""
        return re.sub(r"[^a-z0-9_]", "_", f"{self.role}__{'__'.join(slug(t) for t in self.types)}")

    @property
    def columns(self) -> list[str]:
        return ["k"] + [f"k{i + 2}" for i in range(len(self.types) - 1)] + ["v"]

    @property
    def bucket_function(self) -> str | None:
        return self.role.split("_", 1)[1] if self.role.startswith("bucket_") else None

    @property
    def index_kind(self) -> str | None:
        return self.role.split("_", 1)[1] if self.role.startswith("index_") else None


def cells(peers: Iterable[str] = (*PEERS, CONTROL)) -> list[Cell]:
    """Every cell of the matrix, in a stable order (the Java control cells: only CONTROL_ROLES)."""
    out = []
    for peer in peers:
        for t in TYPES:
            roles = ["pk", "bucket_default", "bucket_hive", "partition", *(f"index_{k}" for k in INDEX_KINDS), "value"]
            if t in MOD_TYPES:
                roles.insert(2, "bucket_mod")
            if t in DYNAMIC_TYPES:
                roles.insert(1, "pk_dynamic")
            out += [Cell(peer, (t,), r) for r in roles if peer != CONTROL or r in CONTROL_ROLES]
        out += [Cell(peer, ts, r) for ts in MULTI_KEYS for r in MULTI_ROLES if peer != CONTROL or r in CONTROL_ROLES]
    return out


@dataclass
class TableSpec:
    """What to create and write for a cell; `expected` holds the canonical rows to read back."""

    cell: Cell
    columns: list[tuple[str, str, bool]]  # name, type, nullable
    primary: list[str]
    partition: list[str]
    options: dict[str, str]
    commits: list[list[list]]
    expected: list[str]
    probe: list[str]

    def to_json(self) -> dict:
        return {
            "name": self.cell.name,
            "columns": self.columns,
            "primary": self.primary,
            "partition": self.partition,
            "options": self.options,
            "commits": self.commits,
        }


def _distinct(text: str, values: list) -> list:
    seen, out = set(), []
    for v in values:
        c = canon(text, v)
        if v is not None and c not in seen:
            seen.add(c)
            out.append(v)
    return out


def spec(cell: Cell) -> TableSpec:
    """The table a cell writes: columns k (k2, ...) of the cell's types and v INT."""
    role = cell.role
    keyed = role in ("pk", "pk_dynamic")
    n_plain = 4 if role == "partition" else 12
    cols = []
    for t in cell.types:
        vals = special_values(t) + ordinary_values(t, n_plain)
        cols.append(_distinct(t, vals) if keyed else vals)
    n = max(len(c) for c in cols)
    if keyed:
        n = min(len(c) for c in cols)
    cols = [(c * (n // len(c) + 1))[:n] for c in cols]
    rows = [[*(c[i] for c in cols), i] for i in range(n)]
    columns = [(name, t, not keyed) for name, t in zip(cell.columns, cell.types, strict=False)]
    columns.append(("v", "INT", True))
    keys = [c[0] for c in columns[: len(cell.types)]]
    options: dict[str, str] = {}
    primary: list[str] = []
    partition: list[str] = []
    commits = [rows]
    if keyed:
        primary = keys
        options["bucket"] = "3" if role == "pk" else "-1"
        if role == "pk_dynamic":
            options["dynamic-bucket.target-row-num"] = "5"
        upserts = [[*r[:-1], 1000 + r[-1]] for r in rows[::2]]
        commits = [rows, upserts]
        merged = {json.dumps(r[:-1]): r for r in rows} | {json.dumps(r[:-1]): r for r in upserts}
        final = list(merged.values())
    else:
        final = rows
    fn = cell.bucket_function
    probe = ["k"]
    if fn is not None:
        options["bucket"] = "3"
        options["bucket-key"] = ",".join(keys)
        if fn != "default":
            options["bucket-function.type"] = fn
            probe = []  # Java 0.9 / 1.0 hash every bucket key with the default function: no probe
    if role == "partition":
        partition = ["k"]
    if cell.index_kind:
        options[f"file-index.{cell.index_kind}.columns"] = "k"
        if cell.index_kind in ("bsi", "range-bitmap"):
            probe = []  # Java 0.9 / 1.0-SNAPSHOT know no such index ("Can't find file index for type")
    types = [t for _, t, _ in columns]
    expected = sorted(row_text([canon(t, v) for t, v in zip(types, r, strict=True)]) for r in final)
    return TableSpec(cell, columns, primary, partition, options, commits, expected, probe)


# --------------------------------------------------------------------------- writers (child processes)


def write_many(
    write_one: Callable[[dict], Iterable[str]], describe: Callable[[BaseException], str] | None = None
) -> None:
    """The loop of a writer child process (argv: warehouse, tables JSON, this folder, result JSON): each table
    written by the generator `write_one(table)`, which yields the name of each stage it enters; the result
    records per table `ok`, or the stage it failed in with the error (`describe(exc)`, default its type and
    message) and the traceback. Anything a writer raises is recorded, BaseException too (pypaimon-rust's
    panics); an interrupt is not."""
    out = {}
    for t in json.loads(Path(sys.argv[2]).read_text()):
        stage = "prepare"
        try:
            for stage in write_one(t):  # noqa: B007 - the last stage entered is the one that failed
                pass
            out[t["name"]] = {"ok": True}
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - a peer's failure is the outcome recorded, whatever it is
            error = describe(exc) if describe else f"{type(exc).__name__}: {exc}"
            trace = traceback.format_exc()[-3000:]
            out[t["name"]] = {"ok": False, "stage": stage, "error": error[:1500], "trace": trace}
    Path(sys.argv[4]).write_text(json.dumps(out))


PYPAIMON_WRITE_MANY = """
import sys
import pyarrow as pa
from support import peers_matrix as pm
from pypaimon import CatalogFactory, Schema
from pypaimon.schema.data_types import AtomicType, DataField, PyarrowFieldParser
catalog = CatalogFactory.create({"warehouse": sys.argv[1]})
catalog.create_database("db", True)

def write_one(t):
    yield "create"
    fields = [DataField(i, n, AtomicType(ty, nullable)) for i, (n, ty, nullable) in enumerate(t["columns"])]
    catalog.create_table("db." + t["name"], Schema(fields, t["partition"], t["primary"], t["options"]), False)
    table = catalog.get_table("db." + t["name"])
    target = PyarrowFieldParser.from_paimon_schema(table.table_schema.fields)
    for rows in t["commits"]:
        yield "write"
        arrays = []
        for i, (name, ty, _) in enumerate(t["columns"]):
            arr = pm.to_arrow(ty, [r[i] for r in rows])
            want = target.field(name).type
            arrays.append(arr if arr.type == want else arr.cast(want))
        data = pa.Table.from_arrays(arrays, schema=target)
        wb = table.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        yield "commit"
        c.commit(w.prepare_commit())
        w.close()
        c.close()

pm.write_many(write_one)
assert "pypaimon_rust" not in sys.modules
"""

ENGINE_WRITE_MANY = """
import sys
from support import peers_matrix as pm
from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write

def write_one(t):
    root, options, batches = pm.engine_inputs(sys.argv[1], t)
    for data in batches:
        yield "write"
        plan = write.prepare(root, data.schema, options, False)
        result = write.write_task(plan, data.to_batches(), 0)
        yield "commit"
        commit.commit(plan, [result])

pm.write_many(write_one)
"""

SPARK_WRITE_MANY = """
import re, sys
from support import peers_matrix as pm
from paimon_conform.spark import source as ps
spark = ps.session("peers-matrix", "local[2]")

def write_one(t):
    root, options, batches = pm.engine_inputs(sys.argv[1], t)
    for data in batches:
        df = pm.spark_frame(spark, data, [ty for _, ty, _ in t["columns"]])
        yield "write"
        ps.write(df, str(root), **options)

def describe(exc):
    kit = re.search(r"paimon_conform\\.core\\.errors\\.(\\w+): (.*)", str(exc))  # raised in a Spark task
    return f"{kit.group(1)}: {kit.group(2)}" if kit else f"{type(exc).__name__}: {exc}"

pm.write_many(write_one, describe)
spark.stop()
"""

RUST_WRITE_MANY = """
import sys
import pyarrow as pa
from support import peers_matrix as pm
from pypaimon_rust.datafusion import SQLContext
ctx = SQLContext()
ctx.register_catalog("paimon", {"warehouse": sys.argv[1]})
ctx.sql("CREATE SCHEMA paimon.db")

def write_one(t):
    yield "create"
    cols = ", ".join(f"{c} {pm.rust_sql_type(ty)}" + ("" if nullable else " NOT NULL")
                     for c, ty, nullable in t["columns"])
    pk = f", PRIMARY KEY ({', '.join(t['primary'])})" if t["primary"] else ""
    part = f" PARTITIONED BY ({', '.join(t['partition'])})" if t["partition"] else ""
    opts = ", ".join(f"'{k}'='{v}'" for k, v in t["options"].items())
    ctx.sql(f"CREATE TABLE paimon.db.{t['name']} ({cols}{pk}){part}" + (f" WITH ({opts})" if opts else ""))
    for j, rows in enumerate(t["commits"]):
        yield "write"
        arrays = [pm.to_arrow(ty, [r[i] for r in rows]) for i, (_, ty, _) in enumerate(t["columns"])]
        batch = pa.RecordBatch.from_arrays(arrays, names=[c for c, _, _ in t["columns"]])
        src = f"src_{t['name']}_{j}"
        ctx.register_batch(src, batch)
        ctx.sql(f"INSERT INTO paimon.db.{t['name']} SELECT * FROM {src}")

pm.write_many(write_one)
"""


def rust_sql_type(text: str) -> str:
    """How a Paimon type is spelled in pypaimon-rust's CREATE TABLE (its parser has no TIMESTAMP_LTZ)."""
    t = ptype(text)
    if t.root == "TIMESTAMP_LTZ":
        return f"TIMESTAMP({t.precision}) WITH TIME ZONE"
    return text


def _block_rust() -> str:
    from support.peers import BLOCK_RUST

    return BLOCK_RUST


def _writer_process(peer: str, warehouse: Path, specs: list[TableSpec], work: Path) -> subprocess.Popen:
    tables = work / f"{peer}-tables.json"
    out = work / f"{peer}-written.json"
    if peer == CONTROL:
        tables.write_text(json.dumps({"warehouse": str(warehouse), "tables": [s.to_json() for s in specs]}))
        cp = _java_classpath("1.0-SNAPSHOT")
        args = _java_command(cp, "TablesReader", "--write-controls", str(tables), str(out))
    else:
        tables.write_text(json.dumps([s.to_json() for s in specs]))
        script = {
            "pypaimon": _block_rust() + PYPAIMON_WRITE_MANY,
            "rust": RUST_WRITE_MANY,
            "engine": ENGINE_WRITE_MANY,
            "spark": SPARK_WRITE_MANY,
        }[peer]
        args = [sys.executable, "-c", script, str(warehouse), str(tables), str(HERE), str(out)]
    log = (work / f"{peer}-writer.log").open("w")
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, text=True, env=child_env())


# --------------------------------------------------------------------------- validation and the kit's reader

VALIDATE_MANY = """
import contextlib, io, json, sys, traceback
from support import peers_matrix as pm
from paimon_conform import cli
jobs = json.load(open(sys.argv[1]))
extra = json.loads(sys.argv[4])
out = {}
for job in jobs:
    d = job["dir"]
    so, se = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
        try:
            rc = cli.main(["validate", d, *extra])
        except BaseException:  # what Python would print for an uncaught exception (exit code 1)
            traceback.print_exc()
            rc = 1
    res = {"rc": rc, "stderr": se.getvalue()[-4000:], "stdout": so.getvalue()}
    try:
        from paimon_conform.table.read import data_files
        from paimon_conform.table.read.reader import logical_rows, read_latest
        schema, table = read_latest(d)
        # the internal values logical_rows converts to JSON (compared without the JSON step)
        df = data_files.DataFile("parquet", [], table)
        cols = [data_files._internal(df, f.name, f.type) for f in schema.fields]
        res["kit_rows"] = sorted(pm.row_text([pm.canon_kit(t, v) for t, v in zip(job["types"], r)])
                                 for r in zip(*cols))
        try:
            logical_rows(schema, table)
        except BaseException as exc:
            res["kit_json_error"] = f"{type(exc).__name__}: {exc}"[:600]
    except BaseException as exc:
        res["kit_error"] = f"{type(exc).__name__}: {exc}"[:1500]
    out[d] = res
json.dump(out, open(sys.argv[3], "w"))
"""


# The Java release the validator judges for (`validate --java-version`): the
# line of the jars that give the evidence. Paimon 1.0-SNAPSHOT here is a 2024-09-04 build, before
# the 1.0.0 reader changes (thin mode, _VALUE_STATS_COLS, bitmap index V2), so 0.9.
JAVA_TARGET = "0.9"
MAX_SINGLE_RUNS = 60  # tables the console script re-checks one by one after the first pass failed on them


def validate_args() -> list[str]:
    """The options after `validate DIR`: the JSON report, judged for JAVA_TARGET."""
    return ["--report", "json", "--java-version", JAVA_TARGET]


def cli_command() -> list[str]:
    """The kit's console script in the venv running the tests."""
    script = Path(sys.executable).with_name("paimon-conform")
    return [str(script)] if script.exists() else [sys.executable, "-m", "paimon_conform.cli"]


def _validate_process(jobs: list[dict], work: Path, tag: str) -> tuple[subprocess.Popen, Path]:
    inp, out = work / f"validate-{tag}.json", work / f"validated-{tag}.json"
    inp.write_text(json.dumps(jobs))
    log = (work / f"validate-{tag}.log").open("w")
    args = [sys.executable, "-c", VALIDATE_MANY, str(inp), str(HERE), str(out), json.dumps(validate_args())]
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, text=True, env=child_env()), out


def child_env() -> dict[str, str]:
    """The environment of a writer or validator child: `support` and the tools importable, as in the suite."""
    paths = [str(HERE), str(ROOT / "tools"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def has_traceback(stderr: str) -> bool:
    return "Traceback (most recent call last)" in stderr


def internal_error(stderr: str) -> str | None:
    m = re.search(r"internal error while checking .*", stderr)
    return m.group(0)[:600] if m else None


def findings_of(stdout: str) -> list[dict]:
    """The findings of a `--report json` document (empty when stdout holds none)."""
    start = stdout.find("{")
    if start < 0:
        return []
    try:
        doc = json.loads(stdout[start:])
    except json.JSONDecodeError:
        return []
    return [f for r in doc.get("files", []) for f in r.get("findings", [])]


def run_cli(dirs: list[str]) -> subprocess.CompletedProcess:
    """`paimon-conform validate DIR... --report json [--java-version V]`, the real console script."""
    return subprocess.run([*cli_command(), "validate", *dirs, *validate_args()], capture_output=True, text=True)


# --------------------------------------------------------------------------- Java

JAVA_VERSIONS = ("1.0-SNAPSHOT", "0.9.0")


def _java_classpath(version: str) -> str:
    import paimon_java as pj

    return pj.tables_classpath(version)


def _java_command(cp: str, main_class: str, *args: str) -> list[str]:
    import paimon_java as pj

    return pj.java_command(cp, main_class, *args)


def java_process(version: str, jobs: list[dict], work: Path, tag: str) -> tuple[subprocess.Popen, Path]:
    """Start TablesReader on many tables in one JVM; returns the process and its output file."""
    cp = _java_classpath(version)
    inp, out = work / f"java-{tag}.json", work / f"java-{tag}-out.json"
    inp.write_text(json.dumps({"tables": jobs}))
    log = (work / f"java-{tag}.log").open("w")
    args = _java_command(cp, "TablesReader", str(inp), str(out))
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, text=True), out


# --------------------------------------------------------------------------- results


@dataclass
class JavaRead:
    """What one Java version did with a table."""

    error: str | None = None
    rows_equal: bool | None = None
    missing: list[str] = field(default_factory=list)  # expected rows Java did not return
    extra: list[str] = field(default_factory=list)  # rows Java returned that were not written
    probe_misses: dict[str, str] = field(default_factory=dict)  # "k = v" -> "0 of 1 row(s)" (filtered reads)
    probe_errors: dict[str, str] = field(default_factory=dict)  # "k = v" -> Java's exception
    java_own: list[str] = field(default_factory=list)  # misses / errors Java shows on its own control table too
    probed: list[str] = field(default_factory=list)  # the filtered reads run ("k = v")
    same_as_own: bool = False  # Java cannot read the table, and fails the same way on its own control table
    wrong_bucket: int = 0
    wrong_bucket_example: str | None = None
    index_entries: int | None = None  # entries of the index manifest Java read (None: no index manifest)
    index_error: str | None = None  # reading the index manifest / HASH files failed
    hash_missing: int = 0
    hash_missing_example: str | None = None

    @property
    def reads(self) -> bool:
        return self.error is None

    def problems(self) -> list[str]:
        """Every piece of Java's evidence of an incompatibility (empty: Java reads the table right)."""
        out = []
        if self.same_as_own:
            return []
        if self.error:
            return [f"cannot read: {self.error}"]
        if not self.rows_equal:
            out.append(f"other rows: missing {self.missing[:3]}, extra {self.extra[:3]}")
        if self.probe_misses:
            shown = [f"{k}: {v}" for k, v in list(self.probe_misses.items())[:4]]
            out.append(f"filtered reads skip matching rows ({len(self.probe_misses)} value(s)): {shown}")
        if self.probe_errors:
            kinds: dict[str, str] = {}
            for k, v in self.probe_errors.items():
                kinds.setdefault(_exception(v), f"{k}: {v}")
            shown = " | ".join(kinds.values())
            out.append(f"filtered reads fail ({len(self.probe_errors)} value(s)), e.g. {shown}")
        if self.wrong_bucket:
            out.append(f"{self.wrong_bucket} row(s) in another bucket than Java's: {self.wrong_bucket_example}")
        if self.index_error:
            out.append(f"cannot read the index manifest: {self.index_error}")
        if self.hash_missing:
            out.append(f"{self.hash_missing} key hash(es) missing from the HASH index: {self.hash_missing_example}")
        return out

    @property
    def problem(self) -> str | None:
        """Java's first piece of evidence, or None."""
        found = self.problems()
        return found[0] if found else None

    @property
    def index_read_ok(self) -> bool:
        """Java read the index manifest (and the HASH index files) without a problem."""
        return self.index_entries is not None and not self.index_error and not self.hash_missing


@dataclass
class CellResult:
    """Everything observed for one cell."""

    cell: Cell
    spec: TableSpec
    dir: str
    written: bool
    write_error: str | None = None
    cli_rc: int | None = None
    cli_stderr: str = ""
    findings: list[dict] = field(default_factory=list)
    java: dict[str, JavaRead] = field(default_factory=dict)
    kit_rows_equal: bool | None = None
    kit_error: str | None = None
    kit_diff: str | None = None
    kit_missing: list[str] = field(default_factory=list)  # written rows the kit's reader did not return
    kit_extra: list[str] = field(default_factory=list)  # rows it returned that were not written
    kit_json_error: str | None = None  # reader.logical_rows (the kit's JSON form of the rows) failed
    real_cli: str | None = None  # how the real console script run for this table ended, when it differs

    @property
    def musts(self) -> list[str]:
        return sorted({f["code"] for f in self.findings if f.get("severity") == "must"})

    @property
    def codes(self) -> list[str]:
        c = Counter(f"{f['code']}[{f['severity']}]" for f in self.findings if f.get("severity") != "warning")
        return sorted(c)

    @property
    def crashed(self) -> str | None:
        """Why the validator's run is not a clean 0/1 exit without a traceback, or None."""
        if not self.written:
            return None
        if has_traceback(self.cli_stderr):
            last = [ln for ln in self.cli_stderr.strip().splitlines() if ln.strip()]
            return f"traceback: {last[-1] if last else ''}"[:500]
        if self.cli_rc not in (0, 1):
            return f"exit {self.cli_rc}: {internal_error(self.cli_stderr) or self.cli_stderr.strip()[-400:]}"
        return None

    @property
    def java_problem(self) -> str | None:
        """Java's evidence (1.0-SNAPSHOT first, then 0.9.0) that the table is incompatible."""
        for v in JAVA_VERSIONS:
            r = self.java.get(v)
            if r is not None and r.problem:
                return f"Java {v}: {r.problem}"
        return None

    @property
    def java_evidence(self) -> str:
        """All of Java's evidence, both versions, one text (what KNOWN entries match)."""
        return "\n".join(f"Java {v}: {p}" for v in JAVA_VERSIONS if v in self.java for p in self.java[v].problems())


def _java_result(spec_: TableSpec, raw: dict | None) -> JavaRead:
    if raw is None:
        return JavaRead(error="TablesReader printed nothing for this table")
    if raw.get("error"):
        return JavaRead(error=raw["error"], index_entries=raw.get("index_entries"), index_error=raw.get("index_error"))
    types = [t for _, t, _ in spec_.columns]
    got = sorted(row_text([canon_java(t, v) for t, v in zip(types, r, strict=True)]) for r in raw["rows"])
    want = spec_.expected
    missing = sorted((Counter(want) - Counter(got)).elements())
    extra = sorted((Counter(got) - Counter(want)).elements())
    misses, errors = {}, {}
    for p in raw.get("probes", []):
        key = f"{p['column']} = {p['value']}"
        if "error" in p:
            errors[key] = p["error"][:400]
        elif p["filtered"] < p["full"]:
            misses[key] = f"{p['filtered']} of {p['full']} row(s)"
    return JavaRead(
        rows_equal=not missing and not extra,
        missing=missing,
        extra=extra,
        probe_misses=misses,
        probe_errors=errors,
        probed=[f"{p['column']} = {p['value']}" for p in raw.get("probes", [])],
        wrong_bucket=raw.get("wrong_bucket", 0) if spec_.cell.bucket_function in (None, "default") else 0,
        wrong_bucket_example=raw.get("wrong_bucket_example"),
        index_entries=raw.get("index_entries"),
        index_error=raw.get("index_error"),
        hash_missing=raw.get("hash_missing", 0),
        hash_missing_example=raw.get("hash_missing_example"),
    )


def _exception(error: str | None) -> str:
    """An exception's class and message, without the stack frames TablesReader appends, the table's
    path, file names and identity hashes (so a peer's and the control's failures compare)."""
    text = (error or "").split(" at ", 1)[0]
    text = re.sub(r"/\S*?/db\.db/[^/]+", "<table>", text)
    text = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<uuid>", text)
    return re.sub(r"@[0-9a-f]+", "@<hash>", text)


def _subtract_java_own(results: list[CellResult]) -> None:
    """Drop from a peer's filtered-read evidence what Java's reader also does with its own control table."""
    controls = {(r.cell.types, r.cell.role): r for r in results if r.cell.peer == CONTROL and r.written}
    for r in results:
        c = controls.get((r.cell.types, r.cell.role))
        if r.cell.peer == CONTROL or c is None:
            continue
        for ver, jr in r.java.items():
            cj = c.java.get(ver)
            if cj is None:
                continue
            if not jr.reads and not cj.reads and _exception(jr.error) == _exception(cj.error):
                jr.java_own.append(f"Java fails the same way on its own table: {jr.error}")
                jr.same_as_own = True
                continue
            if not cj.reads or not jr.reads:
                continue
            if jr.rows_equal is False and cj.rows_equal is False and (jr.missing, jr.extra) == (cj.missing, cj.extra):
                jr.java_own.append(f"Java reads its own table with the same difference: missing {jr.missing[:3]}")
                jr.rows_equal, jr.missing, jr.extra = True, [], []
            for attr in ("probe_misses", "probe_errors"):
                mine = getattr(jr, attr)
                own = {**cj.probe_misses, **cj.probe_errors}
                for key in [k for k in mine if k in own]:
                    jr.java_own.append(f"{key}: {mine.pop(key)}")


def build_matrix(
    base: Path,
    peers: Iterable[str] = (*PEERS, CONTROL),
    cell_filter: Callable[[Cell], bool] | None = None,
    real_cli: bool = True,
    log: Callable[[str], None] | None = None,
) -> list[CellResult]:
    """Write, validate and read every cell's table under `base`; see the module docstring."""
    say = log or (lambda _m: None)
    t0 = time.monotonic()
    work = base / "work"
    work.mkdir(parents=True, exist_ok=True)
    peers = list(peers)
    chosen = [c for c in cells(peers) if cell_filter is None or cell_filter(c)]
    specs = {c: spec(c) for c in chosen}
    # 1. write: one child per peer, both at once
    procs = {}
    for peer in peers:
        mine = [specs[c] for c in chosen if c.peer == peer]
        if mine:
            procs[peer] = _writer_process(peer, base / peer, mine, work)
    written: dict[str, dict] = {}
    for peer, p in procs.items():
        p.wait()
        out = work / f"{peer}-written.json"
        if not out.exists():
            raise RuntimeError(f"{peer} writer died: {(work / f'{peer}-writer.log').read_text()[-3000:]}")
        written[peer] = json.loads(out.read_text())
    say(f"written in {time.monotonic() - t0:.1f}s")
    results = []
    for c in chosen:
        w = written[c.peer].get(c.name, {"ok": False, "error": "not attempted"})
        d = str(base / c.peer / "db.db" / c.name)
        results.append(CellResult(c, specs[c], d, bool(w.get("ok")), w.get("error")))
    ok = [r for r in results if r.written]
    # 2. validate + kit reader (one child per peer) alongside Java 1.0 (probes) and 0.9.0 (rows)
    jobs = [{"dir": r.dir, "types": [t for _, t, _ in r.spec.columns]} for r in ok]
    java10_jobs = [{"dir": r.dir, "probe": r.spec.probe, "max_probes": 24} for r in ok]
    java09_jobs = [{"dir": r.dir} for r in ok]
    running = []
    vals = {}
    for part in range(2):  # two validator children (two cores), interleaved
        if jobs[part::2]:
            p, out = _validate_process(jobs[part::2], work, str(part))
            running.append(p)
            vals[str(part)] = out
    j10, j10_out = java_process("1.0-SNAPSHOT", java10_jobs, work, "10")
    j10.wait()
    say(f"Java 1.0 done at {time.monotonic() - t0:.1f}s")
    j09, j09_out = java_process("0.9.0", java09_jobs, work, "09")
    for p in running:
        p.wait()
        say(f"a validator driver done at {time.monotonic() - t0:.1f}s")
    say(f"validated and read by Java 1.0 in {time.monotonic() - t0:.1f}s")
    validated = {}
    for peer, out in vals.items():
        if not out.exists():
            raise RuntimeError(f"validator driver died: {(work / f'validate-{peer}.log').read_text()[-3000:]}")
        validated.update(json.loads(out.read_text()))
    # 3. the real console script: once over every table the driver saw exit cleanly, and alone
    # for each table it did not (so each crash is seen as a user would see it)
    if real_cli:
        clean = [
            r.dir
            for r in ok
            if validated.get(r.dir, {}).get("rc") in (0, 1) and not has_traceback(validated[r.dir]["stderr"])
        ]
        bad = [r.dir for r in ok if r.dir not in set(clean)][:MAX_SINGLE_RUNS]
        with ThreadPoolExecutor(max_workers=2) as pool:
            batch = pool.submit(run_cli, clean) if clean else None
            singles = dict(zip(bad, pool.map(lambda d: run_cli([d]), bad), strict=True))
            batch_done = batch.result() if batch else None
        say(f"real CLI runs done in {time.monotonic() - t0:.1f}s")
    j09.wait()
    say(f"Java 0.9.0 done at {time.monotonic() - t0:.1f}s")
    java_raw = {
        "1.0-SNAPSHOT": json.loads(j10_out.read_text()) if j10_out.exists() else {},
        "0.9.0": json.loads(j09_out.read_text()) if j09_out.exists() else {},
    }
    for r in ok:
        v = validated.get(r.dir, {"rc": None, "stderr": "validator driver returned nothing", "stdout": ""})
        r.cli_rc, r.cli_stderr = v["rc"], v["stderr"]
        r.findings = findings_of(v["stdout"])
        r.kit_json_error = v.get("kit_json_error")
        if "kit_error" in v:
            r.kit_error = v["kit_error"]
        else:
            r.kit_rows_equal = v["kit_rows"] == r.spec.expected
            r.kit_missing = sorted((Counter(r.spec.expected) - Counter(v["kit_rows"])).elements())
            r.kit_extra = sorted((Counter(v["kit_rows"]) - Counter(r.spec.expected)).elements())
            if not r.kit_rows_equal:
                r.kit_diff = f"missing {r.kit_missing[:3]}, extra {r.kit_extra[:3]}"
        for ver in JAVA_VERSIONS:
            r.java[ver] = _java_result(r.spec, java_raw[ver].get(r.dir))
        if real_cli:
            if r.dir in singles:
                s = singles[r.dir]
                r.cli_rc, r.cli_stderr = s.returncode, s.stderr[-4000:]
                r.findings = findings_of(s.stdout) or r.findings
            elif batch_done is not None and (batch_done.returncode not in (0, 1) or has_traceback(batch_done.stderr)):
                r.real_cli = f"batch run exit {batch_done.returncode}: {batch_done.stderr.strip()[-300:]}"
    _subtract_java_own(results)
    if real_cli and batch_done is not None:
        # the batch's findings, split by table, must be the driver's
        by_dir: dict[str, list] = {}
        for f in findings_of(batch_done.stdout):
            for d in clean:
                if f.get("file", "").startswith(d + "/") or f.get("file") == d:
                    by_dir.setdefault(d, []).append(f["code"])
                    break
        for r in ok:
            if r.dir in set(clean):
                mine = sorted(f["code"] for f in r.findings)
                if sorted(by_dir.get(r.dir, [])) != mine:
                    r.real_cli = f"the console script reported {sorted(by_dir.get(r.dir, []))}, the driver {mine}"
    say(f"matrix done in {time.monotonic() - t0:.1f}s")
    return results


# --------------------------------------------------------------------------- known incompatibilities


@dataclass(frozen=True)
class Known:
    """A peer incompatibility with its evidence.

    `java`: a regular expression that Java's evidence for every covered cell matches (the exception
    Java 0.9.0 / 1.0-SNAPSHOT throws, or what its filtered reads do); None when these jars cannot
    show it (`evidence` then says where it comes from). `codes`: the must-level codes that report
    it (empty: the kit has no code for it yet, any must-finding counts). Every entry is something
    the kit must report at must level for the target release (JAVA_TARGET).
    """

    id: str
    peers: tuple[str, ...]
    matches: Callable[[Cell], bool]
    reason: str
    java: str | None
    codes: tuple[str, ...] = ()
    evidence: str = ""

    def covers(self, cell: Cell) -> bool:
        return cell.peer in self.peers and self.matches(cell)

    def shown(self, r: CellResult) -> bool:
        """Java still shows it for this cell (or cannot: no Java evidence expected)."""
        return self.java is None or re.search(self.java, r.java_evidence) is not None

    def masked(self, r: CellResult) -> bool:
        """Another listed incompatibility shows instead (Java cannot read the table, or a filtered read
        skips the file on other statistics before it reaches the ones this entry is about)."""
        return any(k is not self and k.java and k.shown(r) for k in known_for(r.cell))


def _has(cell: Cell, pred: Callable[[PType], bool]) -> bool:
    return any(pred(ptype(t)) for t in cell.types)


def _ts_nanos(t: PType) -> bool:
    return t.is_timestamp and t.precision > 6


def _compact_decimal(t: PType) -> bool:
    return t.root == "DECIMAL" and t.precision <= 18


def _floating(t: PType) -> bool:
    return t.root in ("FLOAT", "DOUBLE")


def _reads_values(cell: Cell) -> bool:
    """The cell's probes go through value statistics (filtered reads on a data column)."""
    return bool(spec(cell).probe) and cell.role != "partition"


KNOWN: tuple[Known, ...] = (
    Known(
        "rust-thin-mode",
        ("rust",),
        lambda c: c.role in ("pk", "pk_dynamic"),
        "pypaimon-rust writes primary-key data files in the thin-mode layout (no _KEY_* columns) "
        "without data-file.thin-mode = true; Java before 1.0.0 reads the _KEY_* columns",
        r"Required column is missing in data file\. Col: \[_KEY_k",
        ("DATA_FILE_COLUMNS", "DATA_FILE_THIN_MODE"),
    ),
    Known(
        "parquet-timestamp-int64-nanos",
        ("pypaimon", "rust"),
        lambda c: c.role != "partition" and _has(c, _ts_nanos),
        "TIMESTAMP(p > 6) / TIMESTAMP_LTZ(p > 6) written as Parquet INT64 nanoseconds (Arrow's "
        "timestamp[ns]); Java 0.9 / 1.0 write and read them only as INT96",
        r"Unexpected type: INT64",
    ),
    Known(
        "pypaimon-decimal-fixed-len-byte-array",
        ("pypaimon",),
        lambda c: c.role != "partition" and _has(c, _compact_decimal),
        "DECIMAL(p <= 18) written as Parquet FIXED_LEN_BYTE_ARRAY (pyarrow's default); Java writes "
        "INT32 (p <= 9) / INT64 (p <= 18) and its vectorized reader cannot decode the binary dictionary",
        r"PlainValuesDictionary\$PlainBinaryDictionary",
    ),
    Known(
        "pypaimon-empty-value-stats-cols",
        ("pypaimon",),
        # a TINYINT / SMALLINT key has no null and Java's own `k = value` fails on it (ClassCastException in
        # Parquet's statistics filter, on its own tables too), so nothing reaches the value statistics there
        lambda c: (
            _reads_values(c)
            and c.bucket_function in (None, "default")
            and not (c.role == "pk" and c.types[0] in ("TINYINT", "SMALLINT"))
        ),
        "manifest entries with _VALUE_STATS_COLS = [] and zero-field _VALUE_STATS; Java before 1.0.0 "
        "does not know _VALUE_STATS_COLS, takes the stats as one per column and fails every "
        "filtered read that consults them",
        r"ArrayIndexOutOfBoundsException|Zero length BigInteger",
    ),
    Known(
        "rust-bitmap-index-v2",
        ("rust",),
        lambda c: c.role == "index_bitmap",
        "bitmap file index written in version 2; Java before 1.0.0 reads version 1 only",
        r"plugin version is lower than 2",
    ),
    Known(
        "rust-nan-value-stats",
        ("rust",),
        lambda c: _reads_values(c) and c.role not in ("pk", "pk_dynamic") and _floating(ptype(c.types[0])),
        "FLOAT / DOUBLE statistics of a file holding NaN give min -Infinity / max +Infinity (Java keeps "
        "no min / max then); Java orders NaN above +Infinity, so `k = NaN` skips the file",
        r"k = NaN: 0 of",
    ),
    Known(
        "arrow-parquet-nan-statistics",
        ("pypaimon", "rust"),
        lambda c: _reads_values(c) and _floating(ptype(c.types[0])),
        "Parquet row-group statistics of a FLOAT / DOUBLE column holding NaN leave NaN out (pyarrow, "
        "arrow-rs; Java's writer keeps it in); parquet-java filters row groups by them, so `k = NaN` "
        "skips the NaN rows (shown alone in test_parquet_nan_statistics.py)",
        r"k = NaN: 0 of",
        ("DATA_FILE_NAN_STATISTICS",),
    ),
    Known(
        "pypaimon-nan-key-stats",
        ("pypaimon",),
        lambda c: c.role == "pk" and _floating(ptype(c.types[0])),
        "primary-key statistics of a file holding a NaN key leave NaN out of min / max (Java keeps "
        "no min / max then); `k = NaN` skips the file",
        r"k = NaN: 0 of",
    ),
    Known(
        "rust-binary-value-stats",
        ("rust",),
        lambda c: _reads_values(c) and c.role not in ("pk", "pk_dynamic") and ptype(c.types[0]).is_binary,
        "min / max value statistics for BINARY / VARBINARY columns, ordered as unsigned bytes (Java "
        "writes none); Java 0.9 / 1.0 compare byte[] statistics as signed bytes (max ffffffff = -1), "
        "so `k = value` skips files that hold the value",
        r"filtered reads skip matching rows",
    ),
    Known(
        "pypaimon-binary-key-stats",
        ("pypaimon",),
        lambda c: c.role == "pk" and ptype(c.types[0]).is_binary,
        "min / max primary-key statistics for BINARY / VARBINARY keys ordered as unsigned bytes; "
        "Java 0.9 / 1.0 compare them as signed bytes, so `k = value` skips files that hold the key",
        r"filtered reads skip matching rows",
    ),
    Known(
        "pypaimon-nan-partition-path",
        ("pypaimon",),
        lambda c: c.role == "partition" and _has(c, _floating),
        "FLOAT / DOUBLE partition directories named with Python's str (k=nan, k=inf, k=-inf); Java "
        "names them k=NaN, k=Infinity, k=-Infinity and looks the files up there",
        r"FileNotFoundException: File '[^']*/k=NaN/",
        ("MANIFEST_WRONG_LOCATION",),
    ),
    Known(
        "pypaimon-timestamp-nanos-partition-row",
        ("pypaimon",),
        lambda c: c.role == "partition" and _has(c, _ts_nanos),
        "TIMESTAMP(p > 6) partition values stored in the manifest's partition row at microsecond "
        "precision (the directory keeps the nanoseconds); Java returns the row's value",
        r"other rows: missing",
        ("DATA_FILE_WRONG_PARTITION", "MANIFEST_BAD_PARTITION_ROW"),
    ),
    Known(
        "pypaimon-ignores-bucket-function",
        ("pypaimon",),
        lambda c: c.bucket_function in ("mod", "hive"),
        "FixedBucketRowKeyExtractor hashes every fixed-bucket table with the default function, "
        "whatever bucket-function.type says",
        None,
        ("DATA_FILE_WRONG_BUCKET",),
        evidence="pypaimon 2.1.0 write/row_key_extractor.py never reads bucket-function.type; Java "
        "0.9.0 / 1.0-SNAPSHOT predate the option (they hash with the default function too), so no "
        "jar here can show the misplacement",
    ),
)


def known_for(cell: Cell) -> list[Known]:
    return [k for k in KNOWN if k.covers(cell)]


def false_musts(r: CellResult) -> list[dict]:
    """Must-findings Java's evidence contradicts.

    A finding on the index manifest or a HASH index file is false when Java read them (and every
    key hash was where it belongs); any other must-finding is false when Java shows no problem at
    all and no listed incompatibility without Java evidence explains it.
    """
    if not r.written or r.crashed:
        return []
    musts = [f for f in r.findings if f.get("severity") == "must"]
    j = r.java.get("1.0-SNAPSHOT")
    out = []
    for f in musts:
        name = f.get("file", "").rsplit("/", 1)[-1]
        on_index = name.startswith("index-manifest") or "/index/" in f.get("file", "")
        if on_index and j is not None and j.index_read_ok:
            out.append(f)
    if r.cell.peer == CONTROL:
        if j is not None and j.reads and j.rows_equal:
            return musts
        return out
    if not r.java_problem and not any(j.same_as_own for j in r.java.values()):
        unverifiable = {c for k in known_for(r.cell) if k.java is None for c in k.codes}
        out += [f for f in musts if f not in out and f["code"] not in unverifiable and _contradicted(r, f, j)]
    return out


# Must-findings about what filtered reads do (statistics, file indexes): only a filtered read through them can
# contradict one, on the column it names (`k: ...`), or on any data column for a table-wide one.
FILTER_CODES = frozenset(
    {
        "MANIFEST_VALUE_STATS",
        "MANIFEST_KEY_STATS",
        "MANIFEST_VALUE_STATS_COLS",
        "FILE_INDEX_NEEDS_NEWER_JAVA",
        "DATA_FILE_NAN_STATISTICS",
    }
)
# ... of which these name one column: only a filtered read on that column contradicts them.
COLUMN_FILTER_CODES = frozenset({"MANIFEST_VALUE_STATS", "MANIFEST_KEY_STATS", "DATA_FILE_NAN_STATISTICS"})


def _contradicted(r: CellResult, finding: dict, j: JavaRead | None) -> bool:
    """Whether Java's evidence for the cell contradicts a must-finding (Java read right where it applies)."""
    if finding["code"] not in FILTER_CODES:
        return True
    if j is None or not _reads_values(r.cell) or j.java_own:  # no probe, or Java's own limit dropped them
        return False
    if finding["code"] == "DATA_FILE_NAN_STATISTICS":  # path row_groups[g].<column>
        column = finding.get("path", "").split(".", 1)[-1]
    else:
        column = finding.get("message", "").split(":", 1)[0]
    probed = {key.split(" = ", 1)[0] for key in j.probed}
    return column in probed if finding["code"] in COLUMN_FILTER_CODES else bool(probed)


def flags(r: CellResult) -> set[str]:
    """What a cell shows: not-written, crash, false-must, missed, known, unlisted, java-limit (a control
    table Java cannot read right), ok (none of these)."""
    if not r.written:
        return {"not-written"}
    out = set()
    if r.crashed:
        out.add("crash")
    bad = false_musts(r)
    if bad:
        out.add("false-must")
    if r.cell.peer == CONTROL:
        j = r.java.get("1.0-SNAPSHOT")
        if j is not None and (j.error or not j.rows_equal):
            out.add("java-limit")
        return out or {"ok"}
    real = [f for f in r.findings if f.get("severity") == "must" and f not in bad]
    if r.java_problem and not r.crashed:
        if not real:
            out.add("missed")
        out.add("known" if known_for(r.cell) else "unlisted")
    elif real and known_for(r.cell):
        out.add("known")
    return out or {"ok"}


VERDICT_ORDER = ("not-written", "crash", "missed", "false-must", "unlisted", "java-limit", "known", "ok")


def verdict(r: CellResult) -> str:
    """The most important of a cell's flags (VERDICT_ORDER)."""
    f = flags(r)
    return next(v for v in VERDICT_ORDER if v in f)


def _short(text: str | None, n: int) -> str:
    text = (text or "").replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def _cell_line(r: CellResult) -> list[str]:
    j10, j09 = r.java.get("1.0-SNAPSHOT"), r.java.get("0.9.0")
    written = "yes" if r.written else f"no: {_short(r.write_error, 110)}"
    reads = "-" if j10 is None else ("yes" if j10.reads else f"no: {_short(_exception(j10.error), 90)}")
    eq = "-"
    if j10 is not None and j10.reads:
        eq = "yes" if j10.rows_equal else "NO"
        if j10.probe_misses:
            eq += f"; filter skips {len(j10.probe_misses)} value(s)"
        if j10.probe_errors:
            eq += f"; filter fails for {len(j10.probe_errors)} value(s)"
        if j10.wrong_bucket:
            eq += f"; {j10.wrong_bucket} row(s) in a wrong bucket"
        if j10.java_own:
            eq += f" (+{len(j10.java_own)} as on Java's own table)"
    j9 = "-" if j09 is None else ("yes" if j09.reads else f"no: {_short(_exception(j09.error), 60)}")
    kit = r.crashed or ", ".join(r.codes) or ("-" if not r.written else "clean")
    reader = "-"
    if r.written:
        reader = f"error: {_short(r.kit_error, 70)}" if r.kit_error else ("equal" if r.kit_rows_equal else "DIFFER")
        if r.kit_json_error:
            reader += f"; logical_rows: {_short(r.kit_json_error, 60)}"
    known = ", ".join(k.id for k in known_for(r.cell)) or "-"
    return [
        r.cell.peer,
        r.cell.type_label,
        r.cell.role,
        written,
        reads,
        eq,
        j9,
        kit,
        reader,
        " ".join(sorted(flags(r))),
        known,
    ]


def report_markdown(results: list[CellResult], seconds: float | None = None) -> str:
    """The matrix as Markdown: one line per cell, then the cells grouped by cause."""
    lines = ["# Peer writers x types x roles", ""]
    if seconds is not None:
        lines.append(f"{len(results)} cells in {seconds:.0f} s; validator judged for Java {JAVA_TARGET}.\n")
    counts = Counter(verdict(r) for r in results)
    lines.append("Verdicts: " + ", ".join(f"{k} {counts[k]}" for k in VERDICT_ORDER if counts[k]) + "\n")
    head = [
        "peer",
        "type",
        "role",
        "written",
        "Java 1.0 reads",
        "rows equal / filtered reads",
        "Java 0.9 reads",
        "kit findings",
        "kit reader",
        "flags",
        "known",
    ]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in _cell_line(r)) + " |")

    def ids(rs: list[CellResult]) -> str:
        return ", ".join(f"{r.cell.peer}:{r.cell.role}/{r.cell.type_label}" for r in rs)

    lines += ["", "## Known incompatibilities", ""]
    for k in KNOWN:
        rs = [r for r in results if r.written and k.covers(r.cell)]
        if not rs:
            continue
        shown = [r for r in rs if k.shown(r)]
        reported = [
            r
            for r in rs
            if any(f.get("severity") == "must" and (not k.codes or f["code"] in k.codes) for f in r.findings)
            and not r.crashed
        ]
        lines.append(
            f"* **{k.id}** ({', '.join(k.peers)}): {k.reason}. Java evidence: "
            + (f"`{k.java}` shown by {len(shown)}/{len(rs)} cells" if k.java else k.evidence)
            + f"; kit reports it (must{', ' + '/'.join(k.codes) if k.codes else ''}) in "
            f"{len(reported)}/{len(rs)}. Not reported: {ids([r for r in rs if r not in reported]) or '-'}"
        )
    for title, flag in (
        ("False must-findings", "false-must"),
        ("Validator crashes", "crash"),
        ("Java problems the kit misses", "missed"),
        ("Unlisted Java problems", "unlisted"),
    ):
        group: dict[str, list[CellResult]] = {}
        for r in results:
            if flag not in flags(r):
                continue
            if flag == "false-must":
                key = "; ".join(sorted({f"{f['code']}: {_short(f['message'], 120)}" for f in false_musts(r)}))
            elif flag == "crash":
                key = _short(r.crashed, 200)
            else:
                shown = [k.id for k in known_for(r.cell) if k.java and k.shown(r)]
                key = (
                    ", ".join(shown)
                    if shown
                    else re.sub(r"\(\d+ value\(s\)\)|k = [^:]*:", "…", _short(_exception(r.java_problem), 200))
                )
            group.setdefault(key, []).append(r)
        lines += ["", f"## {title}", ""]
        lines += [f"* {key} — {len(rs)} cell(s): {ids(rs)}" for key, rs in group.items()] or ["* none"]
    group = {}
    for r in results:
        if not r.written:
            group.setdefault(f"{r.cell.peer}: {re.sub(r'[0-9]+', 'N', _short(r.write_error, 150))}", []).append(r)
    lines += ["", "## Cells the writers refuse", ""]
    lines += [f"* {key} — {', '.join(f'{r.cell.role}/{r.cell.type_label}' for r in rs)}" for key, rs in group.items()]
    lines += ["", "## The kit's reader", ""]
    odd = [r for r in results if r.written and (r.kit_error or r.kit_rows_equal is False or r.kit_json_error)]
    lines += [
        f"* {r.cell.id}: "
        + "; ".join(x for x in (r.kit_error, r.kit_diff, r.kit_json_error and f"logical_rows: {r.kit_json_error}") if x)
        for r in odd
    ] or ["* equal everywhere"]
    return "\n".join(lines) + "\n"


def summary(results: list[CellResult]) -> dict[str, list[str]]:
    """Cell ids per verdict."""
    out: dict[str, list[str]] = {}
    for r in results:
        out.setdefault(verdict(r), []).append(r.cell.id)
    return out


def matrix_dir() -> Path:
    """Where the test keeps the matrix (PEERS_MATRIX_DIR, else a fresh temporary directory)."""
    given = os.environ.get("PEERS_MATRIX_DIR")
    if given:
        p = Path(given)
        p.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="matrix-", dir=p))
    return Path(tempfile.mkdtemp(prefix="peers-matrix-"))


# --------------------------------------------------------------------------- the build beside the suite

_background: dict = {}  # the build started beside the first tests: its future and folder


def start_background() -> None:
    """Build the matrix (writer, validator and Java child processes, ~2.5 min) in a thread from the start of the
    run: most of the suite keeps one core busy, the matrix's children take the other."""
    from concurrent.futures import ThreadPoolExecutor

    base = Path(tempfile.mkdtemp(prefix="peers-matrix-"))
    _background["base"] = base
    _background["future"] = ThreadPoolExecutor(1, "peers-matrix").submit(_timed, base)


def _timed(base: Path) -> tuple[list[CellResult], float]:
    t0 = time.monotonic()
    return build_matrix(base), time.monotonic() - t0


def background_results() -> tuple[Path, list[CellResult], float, float] | None:
    """The background build's (base, results, seconds it took, seconds waited for it); None when none was
    started."""
    if "future" not in _background:
        return None
    t0 = time.monotonic()
    results, seconds = _background["future"].result()
    return _background["base"], results, seconds, time.monotonic() - t0


def remove_background() -> None:
    """The background build's tables go with a passing run (a failed run keeps them, as pytest keeps tmp_path)."""
    base = _background.get("base")
    if base is not None:
        shutil.rmtree(base, ignore_errors=True)
