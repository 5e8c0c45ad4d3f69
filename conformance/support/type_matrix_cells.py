"""The cells of the type x role x writer matrix (the build and the checks: type_matrix.py): which tables each
writer writes, with which values, and the rows a reader must return.

Each *cell* is one table: a writer, a column type (or several, for a multi-field bucket key) and the role the
column plays (primary key, bucket key under a bucket function, partition key, file-index column, plain value
column), written as a `write-table` request of kind `custom` with values in the protocol's logical JSON.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.types import DataType, parse_type, to_internal, to_json
from paimon_conform.testee.rows import row_key
from support.strategies import MATRIX_TYPES

WRITERS = ("pypaimon", "pypaimon-rust", "kit", "kit-spark")
KIT_WRITERS = ("kit", "kit-spark")
CONTROL = "java-1.0-SNAPSHOT"  # Java writing the same cells: what its own reader does with its own tables
CONTROL_ROLES = ("pk", "pk_dynamic", "bucket_default", "partition", "index_bloom-filter", "index_bitmap", "value")

NS = 1_000_000_000
DAY_NS = 86_400 * NS

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


# --------------------------------------------------------------------------- cells


def slug(text: str) -> str:
    """A type as a short identifier: `DECIMAL(38, 10)` -> `decimal38_10`, `TIMESTAMP(3) WITH LOCAL TIME ZONE` ->
    `ltz3`."""
    name, _, args = text.partition("(")
    base = "ltz" if "LOCAL TIME ZONE" in text.upper() else name.strip().lower()
    return base + "_".join(re.findall(r"\d+", args))


@dataclass(frozen=True)
class Cell:
    """One table of the matrix: writer, key/column type(s), role."""

    writer: str
    types: tuple[str, ...]
    role: str

    @property
    def type_label(self) -> str:
        return " + ".join(self.types)

    @property
    def id(self) -> str:
        return f"{self.writer}:{self.role}:{'+'.join(slug(t) for t in self.types)}"

    @property
    def name(self) -> str:
        """The table's name (its directory under <writer>/db.db/)."""
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


def cells(writers: tuple[str, ...] = (*WRITERS, CONTROL)) -> list[Cell]:
    """Every cell of the matrix, in a stable order (the control cells: only CONTROL_ROLES)."""
    out = []
    for writer in writers:
        keep = [r for r in ROLES if writer != CONTROL or r in CONTROL_ROLES]
        for t in MATRIX_TYPES:
            roles = ["pk", "bucket_default", "bucket_hive", "partition", *(f"index_{k}" for k in INDEX_KINDS), "value"]
            if t in MOD_TYPES:
                roles.insert(2, "bucket_mod")
            if t in DYNAMIC_TYPES:
                roles.insert(1, "pk_dynamic")
            out += [Cell(writer, (t,), r) for r in roles if r in keep]
        out += [Cell(writer, ts, r) for ts in MULTI_KEYS for r in MULTI_ROLES if r in keep]
    return out


# --------------------------------------------------------------------------- values (logical JSON)


def _days(y: int, m: int, d: int) -> int:
    return (dt.date(y, m, d) - dt.date(1970, 1, 1)).days


def _unit_ns(t: DataType) -> int:
    """Nanoseconds per unit of a timestamp's precision."""
    return 10 ** (9 - t.timestamp_precision)


def _timestamp(t: DataType, nanos: int) -> str:
    return to_json(t, divmod(nanos, 1_000_000))


def special_values(text: str) -> list[Any]:
    """The edge values of a type, None included."""
    t = parse_type(text)
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
        return [to_json(t, d) for d in (0, -1, _days(1, 1, 1), _days(9999, 12, 31), _days(2024, 2, 29))] + [None]
    if r == "TIME":
        return [to_json(t, ms) for ms in (0, 86_399_000, 45_296_000)] + [None]
    if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = _unit_ns(t)
        nanos = [
            0,
            -unit,  # one unit before the epoch: 1969-12-31T23:59:59.999... at the precision
            -DAY_NS * 365 * 70 - 123_456_789 // unit * unit,  # 1900: before 1970 with sub-millisecond digits
            1_700_000_000 * NS + 123_456_789 // unit * unit,
        ]
        if unit == 1:
            nanos += [-9_000_000_000_000_000_001, 9_000_000_000_000_000_123]  # near the INT64 nanosecond ends
        else:
            nanos += [_days(1, 1, 1) * DAY_NS, (_days(9999, 12, 31) + 1) * DAY_NS - unit]
        return [_timestamp(t, n) for n in nanos] + [None]
    if r == "CHAR":
        return ["", "abcde", "éüñ", "a/b=", None]
    if r == "VARCHAR":
        out = ["", "abcdefg", "abcdefgh", "日本語テキスト", "a/b=c d%", "😀", None]
        if t.precision is None:  # STRING
            out.insert(5, "long-" + "x" * 95)
        return out
    if r == "BINARY":
        return ["00000000", "ffffffff", "01020304", None]
    n = 100 if t.precision is None else 10  # BYTES, VARBINARY(10)
    return ["", "00", "01" * 7, "ff" * 8, "30" * n, None]


def ordinary_values(text: str, n: int) -> list[Any]:
    """`n` plain, distinct, non-null values that spread over buckets."""
    t = parse_type(text)
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
        return [to_json(t, 19_000 + i * 37) for i in range(n)]
    if r == "TIME":
        return [to_json(t, (i * 3_607 % 86_400) * 1000) for i in range(n)]
    if r in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = _unit_ns(t)
        return [_timestamp(t, (1_600_000_000 + i * 86_461) * NS + (i * 1_234_567) // unit * unit) for i in range(n)]
    if r == "CHAR":
        return [f"c{i}" for i in range(n)]
    if r == "VARCHAR":
        return [f"value-{i}" for i in range(n)]
    if r == "BINARY":
        return [f"{i * 2654435761 & 0xFFFFFFFF:08x}" for i in range(n)]
    return [bytes([i, i * 3 & 0xFF, 7]).hex() for i in range(n)]


def canonical(types: list[DataType], row: Any) -> str:
    """One row as text in one spelling per value (whatever spelling a reader chose), for reports and pinned
    lines."""
    if not isinstance(row, list) or len(row) != len(types):
        return f"not a row of {len(types)}: {row!r}"[:300]
    out = []
    for t, v in zip(types, row, strict=True):
        try:
            out.append(to_json(t, to_internal(t, v)))
        except PaimonConformError:
            out.append(f"unreadable {v!r}")
    return json.dumps(out, ensure_ascii=False)


# --------------------------------------------------------------------------- the tables


@dataclass
class TableSpec:
    """What a cell writes (a write-table request's table and commits), the rows a reader must return (`model`)
    and the columns Java's filtered reads probe."""

    cell: Cell
    fields: list[dict[str, Any]]
    primary: list[str]
    partition: list[str]
    options: dict[str, str]
    commits: list[list[list[Any]]]
    model: list[list[Any]]
    probe: list[str]

    def table(self) -> dict[str, Any]:
        """The request's `table` object."""
        return {
            "fields": self.fields,
            "primary_keys": self.primary,
            "partition_keys": self.partition,
            "options": self.options,
        }

    @property
    def types(self) -> list[DataType]:
        return [parse_type(f["type"]) for f in self.fields]

    @property
    def reads_values(self) -> bool:
        """The probes go through value statistics (filtered reads on a data column)."""
        return bool(self.probe) and self.cell.role != "partition"


def _distinct(text: str, values: list[Any]) -> list[Any]:
    """The non-null values, each once by Java's equality."""
    t, seen, out = parse_type(text), set(), []
    for v in values:
        key = row_key([t], [v])
        if v is not None and key not in seen:
            seen.add(key)
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
    n = min(len(c) for c in cols) if keyed else max(len(c) for c in cols)
    cols = [(c * (n // len(c) + 1))[:n] for c in cols]
    rows = [[*(c[i] for c in cols), i] for i in range(n)]
    names = cell.columns
    fields = [{"name": names[i], "type": t, "nullable": not keyed} for i, t in enumerate(cell.types)]
    fields.append({"name": "v", "type": "INT", "nullable": True})
    keys = [f["name"] for f in fields[: len(cell.types)]]
    options: dict[str, str] = {}
    primary: list[str] = []
    partition: list[str] = []
    commits, model = [rows], rows
    if keyed:
        primary = keys
        options["bucket"] = "3" if role == "pk" else "-1"
        if role == "pk_dynamic":
            options["dynamic-bucket.target-row-num"] = "5"
        upserts = [[*r[:-1], 1000 + r[-1]] for r in rows[::2]]
        commits = [rows, upserts]
        types = [parse_type(t) for t in cell.types]
        last = {row_key(types, r[:-1]): r for r in rows} | {row_key(types, r[:-1]): r for r in upserts}
        model = list(last.values())
    probe = ["k"]
    fn = cell.bucket_function
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
    return TableSpec(cell, fields, primary, partition, options, commits, model, probe)
