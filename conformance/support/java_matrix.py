"""A type x role matrix of small tables written by real Java Paimon, built at test time.

For every column type the kit models and every role a column can play, one table case:

  pk                   the primary key (and so the bucket key): fixed bucket 3, deletion vectors,
                       Parquet; inserts, then upserts and deletes, then a re-insert
  bucket-key           bucket key of a fixed-bucket append table (bucket 3, `bucket-key`), Parquet
  partition            the partition key of a bucket-unaware append table, Parquet
  file-index           bloom-filter and bitmap index (bloom only where the jar refuses the bitmap),
                       in-manifest threshold 1 b: separate `<data file>.index` files, Parquet
  file-index-embedded  the same with the default threshold: the index embedded in the manifest
  value                a plain value column (value statistics, default truncate(16)), Parquet
  value-orc            the same in ORC
  value-avro           the same in Avro

Each table has the typed column `k` and an INT column `v` (a row number). The values of `k`
include nulls (where the role allows), the type's extremes, NaN / -0.0 / +-Infinity for floats,
empty, non-ASCII, 7- and 8-byte strings, negative dates and pre-1970 timestamps with
sub-millisecond parts.

`build(version)` writes all cases in one JVM run per jar (tools/java/tables/TableGoldenWriter.java
with catch_errors: a case Java refuses gets a report with the exception; a refused bitmap index
(or bloom filter) is retried without it, TIMESTAMP(7..9) in Parquet with the values Java's INT96
round trip survives) and caches the output under build/java-matrix/<version>[-<zone>]/<hash>/, the
hash over the case list, the Java source and the jar, so a second test run reuses it. `zone` is the
JVM's default time zone (-Duser.timezone and TZ) for the writes and Java's read-back; UTC by default.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent

import golden_java_tables as gjt  # noqa: E402
import java_releases  # noqa: E402
import paimon_java  # noqa: E402

from paimon_conform.core.errors import EncodeError  # noqa: E402
from paimon_conform.core.types import parse_type, to_internal  # noqa: E402
from support.strategies import MATRIX_TYPES  # noqa: E402

CACHE = ROOT / "build" / "java-matrix"
VERSIONS = (paimon_java.PAIMON_VERSION, paimon_java.PAIMON_10_VERSION, "1.2.0", "2.0.0")
MATRIX_FORMAT = 1

TYPES = list(MATRIX_TYPES)
ROLES = ("pk", "bucket-key", "partition", "file-index", "file-index-embedded", "value", "value-orc", "value-avro")
FORMATS = {"value-orc": "orc", "value-avro": "avro", "pk-orc": "orc"}  # the others write Parquet

_LONG = "x" * 40
_STRINGS = [
    "",
    "a",
    "abcdefg",  # 7 bytes: inline in a BinaryRow
    "abcdefgh",  # 8 bytes: the first in the variable part
    "\u00e9\u00e9\u00e9a",  # 7 bytes, 4 characters
    "\u00e9\u00e9\u00e9\u00e9",  # 8 bytes
    "\u65e5\u672c\u8a9e",  # 9 bytes, 3 characters
    "\U0001d11e",  # 4 bytes, a surrogate pair in Java
    " ",
    "Z",
]
_TIMESTAMPS = {
    # precision -> values (pre-1970 with sub-millisecond parts where the precision has them)
    0: ["1970-01-01T00:00:00", "1969-12-31T23:59:59", "1900-01-01T00:00:00", "2024-02-29T12:34:56",
        "0001-01-01T00:00:00", "9999-12-31T23:59:59", "1500-06-15T12:00:00"],
    3: ["1970-01-01T00:00:00.000", "1969-12-31T23:59:59.999", "1900-01-01T00:00:00.001", "2024-02-29T12:34:56.789",
        "0001-01-01T00:00:00.000", "9999-12-31T23:59:59.999", "1500-06-15T12:00:00.500"],
    6: ["1970-01-01T00:00:00.000000", "1969-12-31T23:59:59.999999", "1969-12-31T23:59:59.000001",
        "1900-01-01T00:00:00.123456", "2024-02-29T12:34:56.789012", "0001-01-01T00:00:00.000001",
        "9999-12-31T23:59:59.999999", "1500-06-15T12:00:00.000500"],
    9: ["1970-01-01T00:00:00.000000000", "1969-12-31T23:59:59.999999999", "1969-12-31T23:59:59.000000001",
        "1900-01-01T00:00:00.123456789", "2024-02-29T12:34:56.789012345", "0001-01-01T00:00:00.000000001",
        "9999-12-31T23:59:59.999999999", "1500-06-15T12:00:00.000000500", "1969-12-31T23:59:59.999000001"],
}  # fmt: skip


def values_for(type_text: str) -> list[Any]:
    """Distinct non-null values of a type, in the logical JSON form."""
    t = parse_type(type_text)
    if t.root == "BOOLEAN":
        return [True, False]
    if t.root in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        bits = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}[t.root]
        lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
        return [lo, hi, 0, -1, 1, lo + 1, hi - 1, 42]
    if t.root == "FLOAT":
        return ["NaN", "Infinity", "-Infinity", -0.0, 0.0, 3.4028234663852886e38, 1.401298464324817e-45, -1.5, 0.1]
    if t.root == "DOUBLE":
        return ["NaN", "Infinity", "-Infinity", -0.0, 0.0, 1.7976931348623157e308, 5e-324, -2.5, 0.1]
    if t.root == "DECIMAL":
        p, s = t.precision, t.scale
        top = "9" * (p - s) + ("." + "9" * s if s else "")
        tiny = "0." + "0" * (s - 1) + "1"
        return [f"-{top}", top, "0." + "0" * s, f"-{tiny}", tiny, "1." + "5".ljust(s, "0"), "-12.34".ljust(4 + s, "0")]
    if t.root == "DATE":
        return ["1970-01-01", "1969-12-31", "1900-02-28", "0001-01-01", "9999-12-31", "2024-02-29", "1500-06-15"]
    if t.root == "TIME":
        return ["00:00:00.000", "23:59:59.000", "12:34:56.000", "00:00:01.000", "23:59:59.999", "12:34:56.789"]
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return list(_TIMESTAMPS[t.timestamp_precision])
    if t.root == "CHAR":
        return [s for s in _STRINGS if len(s) <= t.precision] + ["abcde", "\u00e9\u00e9\u00e9\u00e9\u00e9"]
    if t.root == "VARCHAR":
        extra = [_LONG, "a" * 15 + "\U0001d11e" + "b", "a" * 16 + "\u00e9"] if t.precision is None else ["x" * 20]
        return _STRINGS + extra
    if t.root == "BINARY":
        return ["00000000", "ffffffff", "0102ff80", "80000000", "7fffffff"]
    values = ["", "00", "ff" * 10, "01020304050607", "0102030405060708", "80", "7f00"]
    if t.precision is None:
        values += ["ab" * 40]
    return values


def slug(type_text: str) -> str:
    """A type as a file-name part: DECIMAL(5, 2) -> decimal-5-2."""
    return re.sub(r"[^a-z0-9]+", "-", type_text.lower()).strip("-")


def case_name(role: str, type_text: str) -> str:
    return f"{role}.{slug(type_text)}"


def _rows(values: list[Any], start: int = 0, kind: str = "+I") -> list[list]:
    return [[kind, {"k": v, "v": start + i}] for i, v in enumerate(values)]


def _split(values: list[Any]) -> tuple[list[Any], list[Any]]:
    half = (len(values) + 1) // 2
    return values[:half], values[half:]


def _int96_safe(type_text: str, values: list[Any]) -> list[Any]:
    """The values Java's Parquet INT96 writer (TIMESTAMP(7..9)) can read back: on or after 1970, or at midnight.

    Its writer divides epoch millis by a day with truncation, so any other value before 1970 is
    stored with a negative nano-of-day, and its reader then fails (Timestamp.fromEpochMillis).
    """
    t = parse_type(type_text)
    out = []
    for v in values:
        millis = to_internal(t, v)[0]
        if millis >= 0 or millis % 86_400_000 == 0:
            out.append(v)
    return out


def _steps(role: str, values: list[Any]) -> list[dict]:
    if role in ("pk", "pk-orc"):
        n = len(values)
        upserts = values[: max(1, n // 2)]
        deletes = values[max(1, n // 2) : max(1, n // 2) + max(1, n // 4)]
        return [
            gjt._write(_rows(values)),
            gjt._write(_rows(upserts, 100, "+U") + [["-D", {"k": v, "v": None}] for v in deletes]),
            gjt._write(_rows(deletes[:1], 200) + _rows(upserts[:1], 300, "+U")),
        ]
    first, second = _split([*values, None])
    return [gjt._write(_rows(first)), gjt._write(_rows(second, len(first)))]


def matrix_case(role: str, type_text: str, extra: tuple[Any, ...] = ()) -> dict:
    """One table case in tools/golden_java_tables.py's form, plus `type`, `role` and `variants`.

    variants: the (options, steps) Java tries in order until one is written and read back: the
    full case first; for file indexes also bloom only and bitmap only (each kind refuses some
    types); for TIMESTAMP(7..9) in Parquet also the values its INT96 round trip survives.
    """
    values = values_for(type_text) + list(extra)
    fields = [("k", type_text), ("v", "INT")]
    pks: list[str] = []
    parts: list[str] = []
    fmt = FORMATS.get(role, "parquet")
    options_variants = [({"bucket": "-1", "file.format": fmt}, "")]
    if role in ("pk", "pk-orc"):
        pks = ["k"]
        options_variants = [({"bucket": "3", "file.format": fmt, "deletion-vectors.enabled": "true"}, "")]
        notes = (
            f"primary key k (bucket key), bucket 3, deletion vectors, {fmt}; inserts, upserts and deletes, a re-insert"
        )
    elif role == "bucket-key":
        options_variants = [({"bucket": "3", "bucket-key": "k", "file.format": fmt}, "")]
        notes = "append table, bucket 3, bucket-key k"
    elif role == "partition":
        parts = ["k"]
        notes = "append table partitioned by k"
    elif role.startswith("file-index"):
        base = {"bucket": "-1", "file.format": fmt}
        if role == "file-index":
            base["file-index.in-manifest-threshold"] = "1 b"
        bloom = {"file-index.bloom-filter.columns": "k", "file-index.bloom-filter.k.items": "20"}
        bitmap = {"file-index.bitmap.columns": "k"}
        options_variants = [
            (base | bloom | bitmap, "bloom filter and bitmap"),
            (base | bloom, "bloom filter only"),
            (base | bitmap, "bitmap only"),
        ]
        notes = "append table, file index on k (" + (
            "separate .index files)" if role == "file-index" else "embedded in the manifest)"
        )
    else:
        notes = f"append table, k a plain value column ({fmt}, value statistics)"
    t = parse_type(type_text)
    value_variants = [(values, "")]
    if fmt == "parquet" and t.root in ("TIMESTAMP", "TIMESTAMP_LTZ") and t.timestamp_precision > 6:
        value_variants.append((_int96_safe(type_text, values), "values Java's INT96 round trip survives"))
    variants = [
        {"options": o, "steps": _steps(role, vs), "label": ", ".join(x for x in (ol, vl) if x) or "as written"}
        for vs, vl in value_variants
        for o, ol in options_variants
    ]
    case = gjt._case(
        case_name(role, type_text), fields, pks, parts, variants[0]["options"], variants[0]["steps"], notes
    )
    return case | {"type": type_text, "role": role, "variants": variants}


def matrix_cases(types: list[str] | None = None, roles: tuple[str, ...] | None = None) -> list[dict]:
    """Every (type, role) case, types outer."""
    return [matrix_case(r, t) for t in (types or TYPES) for r in (roles or ROLES)]


ZONE_TYPES = [f"TIMESTAMP({p})" for p in (0, 3, 6, 9)] + [f"TIMESTAMP({p}) WITH LOCAL TIME ZONE" for p in (0, 3, 6, 9)]
# wall clocks a zone skips or repeats: New York's spring gap and autumn overlap of 2024, China's 1988 spring gap
DST_WALL_CLOCKS = ("2024-03-10T02:30:00", "2024-11-03T01:30:00", "1988-04-17T02:30:00")


# (release, JVM default zone): every release in one zone other than UTC, 2.0.0 in all three
ZONE_RUNS = (
    ("0.9.0", "Asia/Shanghai"),
    ("1.0.1", "America/New_York"),
    ("1.1.1", "Asia/Kolkata"),
    ("1.2.0", "Asia/Shanghai"),
    ("1.3.1", "America/New_York"),
    ("1.4.2", "Asia/Kolkata"),
    ("2.0.0", "Asia/Shanghai"),
    ("2.0.0", "America/New_York"),
    ("2.0.0", "Asia/Kolkata"),
)


def zone_cases() -> list[dict]:
    """Every TIMESTAMP and TIMESTAMP_LTZ precision in every role and as an ORC primary key, with wall clocks
    around DST changes too."""
    out = []
    for type_text in ZONE_TYPES:
        p = parse_type(type_text).timestamp_precision
        extra = tuple(w + (".123456789"[: p + 1] if p else "") for w in DST_WALL_CLOCKS)
        out += [matrix_case(role, type_text, extra) for role in (*ROLES, "pk-orc")]
    return out


def _plain(case: dict) -> dict:
    return {k: v for k, v in case.items() if k not in ("type", "role", "variants")}


def java_spec(case: dict) -> dict:
    """A case as TableGoldenWriter reads it, the other variants as its fallbacks."""
    fallbacks = [
        {"options": v["options"], "steps": gjt.java_spec(_plain(case) | {"steps": v["steps"]})["steps"]}
        for v in case["variants"][1:]
    ]
    return gjt.java_spec(_plain(case)) | {"fallbacks": fallbacks}


def logical(t, v: Any) -> Any:
    """A value of Java's report in the logical JSON form; {"internal": v} where that form cannot hold it
    (a timestamp or date outside the years 1..9999)."""
    try:
        return gjt.from_java(t, v)
    except EncodeError:
        return {"internal": v}


@dataclass
class Table:
    """One written case: its directory (None when Java refused it) and Java's report."""

    case: dict
    report: dict
    root: Path | None

    @property
    def variant(self) -> dict:
        """The variant Java wrote (the first unless it refused that one)."""
        return self.case["variants"][self.report.get("attempt", 0)]

    def written_case(self) -> dict:
        """The case as written: the variant's options and steps."""
        return _plain(self.case) | {"options": self.variant["options"], "steps": self.variant["steps"]}

    @property
    def refused(self) -> str | None:
        """Java's exception when it refused the case, as one line."""
        e = self.report.get("error")
        if e is None:
            return None
        return f"{e['stage']}: {e['class']}: {e['message']}"[:500]

    def java_rows(self) -> list[list]:
        """What Java's reader returned, in the logical JSON form, in schema column order."""
        types = [parse_type(f["type"]) for f in self.report["schema"]["fields"]]
        return [[logical(t, v) for t, v in zip(types, r, strict=True)] for r in self.report["rows"]]


@dataclass
class Matrix:
    """All tables of one jar's run."""

    version: str
    folder: Path
    tables: dict[str, Table]
    seconds: float
    reused: bool


def _java_command(version: str, zone: str) -> list[str]:
    """java ... TableGoldenWriter in a JVM of default time zone `zone`, with the class path tools/paimon_java.py
    uses for tables."""
    return paimon_java.java_command(paimon_java.tables_classpath(version), "TableGoldenWriter", zone=zone, short=True)


def cache_key(version: str, specs: list[dict], zone: str = "UTC") -> str:
    """Hash of what decides the output: the cases, TableGoldenWriter.java and the jars."""
    h = hashlib.sha256()
    key = {"format": MATRIX_FORMAT, "version": version, "cases": specs} | ({} if zone == "UTC" else {"zone": zone})
    h.update(json.dumps(key, sort_keys=True).encode())
    api = "0.9" if version == paimon_java.PAIMON_10_VERSION else java_releases.release(version).api
    for source in java_releases.testee_sources(api, None):  # TableGoldenWriter and the ReleaseApi it calls
        h.update(source.read_bytes())
    jar = (
        paimon_java.JAR_10_SHA256
        if version == paimon_java.PAIMON_10_VERSION
        else java_releases.release(version).jar.sha256
    )
    h.update(jar.encode())
    return h.hexdigest()[:16]


def build(version: str, cases: list[dict] | None = None, zone: str = "UTC") -> Matrix:
    """Write (or reuse) every case with one JVM run of Paimon `version` whose default time zone is `zone`."""
    cases = cases if cases is not None else matrix_cases()
    specs = [java_spec(c) for c in cases]
    key = cache_key(version, specs, zone)
    base = CACHE / (version if zone == "UTC" else f"{version}-{zone.replace('/', '_')}")
    base.mkdir(parents=True, exist_ok=True)
    folder = base / key
    done = folder / "complete.json"
    with (base / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        reused = done.is_file()
        if not reused:
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            (folder / "cases.json").write_text(json.dumps({"catch_errors": True, "cases": specs}))
            env = dict(os.environ, TZ=zone)
            t0 = time.perf_counter()
            cmd = [*_java_command(version, zone), str(folder / "cases.json"), str(folder / "out")]
            run = subprocess.run(cmd, capture_output=True, text=True, env=env)
            seconds = time.perf_counter() - t0
            if run.returncode != 0:
                raise RuntimeError(f"Java {version} matrix run failed ({run.returncode}):\n{run.stderr[-4000:]}")
            done.write_text(json.dumps({"seconds": round(seconds, 1), "cases": len(specs)}))
            for old in base.iterdir():  # keep only the newest case list's output
                if old.is_dir() and old != folder:
                    shutil.rmtree(old, ignore_errors=True)
        seconds = json.loads(done.read_text())["seconds"]
    tables = {}
    for c in cases:
        report = json.loads((folder / "out" / f"{c['name']}.report.json").read_text())
        root = None if "error" in report else folder / "out" / c["name"]
        tables[c["name"]] = Table(c, report, root)
    return Matrix(version, folder, tables, seconds, reused)


def summary(matrix: Matrix) -> dict:
    """Per case: written, refused (with the message) and refused attempts (e.g. the bitmap index)."""
    out = {}
    for name, t in matrix.tables.items():
        out[name] = {
            "refused": t.refused,
            "refusals": [f"{e['stage']}: {e['message']}"[:300] for e in t.report.get("refusals", [])],
            "written": None if t.refused else t.variant["label"],
        }
    return out


if __name__ == "__main__":
    for v in sys.argv[1:] or VERSIONS:
        m = build(v)
        refused = {n: s for n, s in summary(m).items() if s["refused"] or s["refusals"]}
        print(f"{v}: {len(m.tables)} cases, {m.seconds} s, reused={m.reused}, {len(refused)} with refusals")
        print(json.dumps(refused, indent=1, ensure_ascii=False))
