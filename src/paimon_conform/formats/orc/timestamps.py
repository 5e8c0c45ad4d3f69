"""Java Paimon's values for the TIMESTAMP and TIMESTAMP_LTZ columns of an ORC file.

pyarrow's ORC reader (ORC C++) returns other values than Java Paimon's reader (ORC Java 1.9
under Paimon's OrcFileFormat) for Java-written timestamps:

* Java Paimon writes TIMESTAMP(p) as ORC `timestamp` and TIMESTAMP_LTZ(p) as ORC `timestamp
  with local time zone`, both from `Timestamp.toSQLTimestamp()` (the value as a wall clock in
  the writer JVM's default zone). The ORC writer stores seconds (`java.sql.Timestamp.getTime()
  / 1000`, truncated toward zero) minus 2015-01-01 00:00:00 in the writer zone (in UTC for the
  instant type) and the nanos with their trailing-zero code, and records the writer zone's ID
  in every stripe footer.
* ORC Java reads millis = secs * 1000 + nanos / 10^6, takes a second off when millis < 0 and
  nanos > 999,999 (undoing the truncation), moves `timestamp` values from the writer zone to
  the reader JVM's zone, and Paimon adds the reader JVM zone's offset (DateTimeUtils.toInternal)
  for both types. ORC C++ (pyarrow) reads in GMT, takes the second off only after moving the
  value to GMT (one second off near the epoch for writer zones east or west of UTC), never adds
  the zone offset to the instant type (TIMESTAMP_LTZ comes back shifted by the writer zone),
  overflows int64 nanoseconds outside 1677..2262 silently, and cannot open a file whose writer
  zone is a Java-only ID (`GMT+08:00`, `CTT`, `PST`).
* Arrow's own ORC writer stores a value before 1970 with a fractional second as truncated
  seconds and negative nanos; Java Paimon's reader throws on those (unless whole milliseconds).

This module decodes the seconds and nanos streams itself (the file's structure: tail.py; the
PRESENT / DATA / SECONDARY streams' run-length encodings: rle.py) and computes what Java returns,
as Paimon's internal value: epoch millis plus nano-of-millisecond (for TIMESTAMP the wall clock
as if in UTC, for TIMESTAMP_LTZ the instant). By default the reader zone is each stripe's writer
zone: what the writer meant, and what a Java reader in that zone returns (Java's time zones:
java_zones.py).

Entry points: `read_timestamps` (the values of every top-level timestamp column),
`fix_table` (a pyarrow-read table with those columns replaced); tzdir.prepare_pyarrow lets
pyarrow open files whose writer zone it cannot load.
Checked against Java Paimon 0.9.0 and 1.0-SNAPSHOT (ORC 1.9.2) by conformance/test_orc_timestamps.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.formats.orc.errors import OrcError
from paimon_conform.formats.orc.java_zones import JavaZone, convert_between, java_zone, orc_epoch
from paimon_conform.formats.orc.protobuf import int_field, message, text
from paimon_conform.formats.orc.rle import booleans, ints_v1, ints_v2
from paimon_conform.formats.orc.tail import (
    CALENDAR_PROLEPTIC,
    SWITCHOVER_MS,
    FileBytes,
    Stripe,
    Tail,
    decompress_stream,
    opened,
    read_tail,
    stream_places,
    stripe_footer,
    timestamp_columns,
)


def _decode_nanos(encoded: np.ndarray) -> np.ndarray:
    """The SECONDARY stream's values: nanos << 3 | code, code z > 0 meaning z + 1 trailing zeros.

    In ORC Java's int arithmetic (TimestampTreeReader.parseNanos): the shifted value and the
    product wrap at 32 bits. Valid files hold 0..999,999,999; ORC C++ as pyarrow drives it
    writes negative nanos for values before 1970 with a fractional second, which this keeps.
    """
    u = encoded.view(np.uint64)
    zeros = (u & np.uint64(7)).astype(np.int64)
    value = (u >> np.uint64(3)).astype(np.uint32).view(np.int32).astype(np.int64)
    scale = np.where(zeros == 0, 1, 10 ** (zeros + 1))
    return ((value * scale) & 0xFFFFFFFF).astype(np.uint32).view(np.int32).astype(np.int64)


def _java_div(a: np.ndarray, b: int) -> np.ndarray:
    """Java's integer division (truncating toward zero)."""
    q = np.abs(a) // b
    return np.where(a < 0, -q, q)


@dataclass(frozen=True)
class TimestampColumn:
    """One top-level timestamp column as Java Paimon reads it."""

    name: str
    instant: bool  # ORC `timestamp with local time zone` (Paimon TIMESTAMP_LTZ)
    millis: np.ndarray  # int64: Paimon Timestamp.getMillisecond() (0 where null)
    nanos: np.ndarray  # int64: getNanoOfMillisecond(), 0..999999
    valid: np.ndarray  # bool: False where the value is null
    # bool: Java Paimon's reader throws on the value (negative nanos, as Arrow's ORC writer stores
    # values before 1970 with a fractional second); millis / nanos hold the value the writer meant
    unreadable: np.ndarray

    def check_readable(self) -> None:
        """OrcError when Java Paimon cannot read the column (so not the file)."""
        bad = np.flatnonzero(self.unreadable)
        if bad.size:
            raise OrcError(
                f"column {self.name!r}: {bad.size} value(s) hold negative nanoseconds (first at row "
                f"{int(bad[0])}); Java Paimon's reader throws on them (Timestamp.fromEpochMillis: "
                "IllegalArgumentException)"
            )

    def internal_values(self, unreadable: str = "raise") -> list[tuple[int, int] | None]:
        """The kit's internal form: (millis, nano-of-milli), None for null. `unreadable`: "raise"
        (OrcError, as check_readable) or "keep" (the values the writer meant)."""
        if unreadable == "raise":
            self.check_readable()
        return [
            (int(m), int(n)) if v else None
            for m, n, v in zip(self.millis.tolist(), self.nanos.tolist(), self.valid.tolist(), strict=True)
        ]


@dataclass(frozen=True)
class _Raw:
    seconds: np.ndarray  # DATA: seconds relative to ORC's 2015 base
    nanos: np.ndarray  # decoded nanos
    valid: np.ndarray


def _read_column(data: bytes | FileBytes, tail: Tail, footer: dict, stripe: Stripe, column: int) -> _Raw:
    streams = stream_places(footer, stripe)
    if (0, 0) in streams:
        raise OrcError("the file has null rows (a PRESENT stream on its root struct)")
    encodings = [message(raw) for raw in footer.get(2, [])]
    kind = int_field(encodings[column], 1) if column < len(encodings) else 0
    if kind not in (0, 2):
        raise OrcError(f"timestamp column {column} has encoding kind {kind}")

    def stream(k: int) -> bytes | None:
        where = streams.get((column, k))
        if where is None:
            return None
        raw = data[where[0] : where[0] + where[1]]
        if len(raw) != where[1]:
            raise OrcError("a stream lies past the end of the file")
        return decompress_stream(tail.compression, tail.block_size, raw)

    present = stream(0)
    valid = booleans(present, stripe.rows) if present is not None else np.ones(stripe.rows, dtype=bool)
    count = int(valid.sum())
    ints = ints_v2 if kind == 2 else ints_v1
    seconds = ints(stream(1) or b"", count, True) if count else np.zeros(0, dtype=np.int64)
    nanos = ints(stream(5) or b"", count, False) if count else np.zeros(0, dtype=np.int64)
    if len(seconds) != count or len(nanos) != count:
        raise OrcError("a timestamp stream holds fewer values than the column")
    return _Raw(seconds, _decode_nanos(nanos), valid)


def _java_values(
    raw: _Raw, instant: bool, writer: JavaZone, reader: JavaZone, proleptic: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(millis, nano-of-milli, unreadable) of the non-null values of one stripe: what Java Paimon
    returns; where Java throws (negative nanos: `unreadable`), the value the writer meant."""
    base = 1420070400 if instant else orc_epoch(writer)
    nanos = raw.nanos
    unreadable = (nanos - _java_div(nanos, 1_000_000) * 1_000_000) < 0  # Java's % is negative there
    # Java's int division; where Java throws, floor division gives secs * 10^9 + nanos as meant
    whole = np.where(unreadable, np.floor_divide(nanos, 1_000_000), _java_div(nanos, 1_000_000))
    millis = (raw.seconds + base) * 1000 + whole
    millis = np.where((millis < 0) & (nanos > 999_999), millis - 1000, millis)  # TimestampTreeReader
    if not instant:
        millis = millis + convert_between(writer, reader, millis)
    if proleptic and (millis < SWITCHOVER_MS).any():
        # ORC Java would move these to the Julian calendar (TimestampColumnVector.changeCalendar)
        raise OrcError("values before 1582-10-15 in a file written with the proleptic Gregorian calendar")
    millis = millis + reader.offset_ms(millis)  # DateTimeUtils.toInternal
    return millis, nanos - whole * 1_000_000, unreadable


def writer_zones(path: str | Path) -> list[str]:
    """The writer time zone every stripe footer records ('' when absent)."""
    with opened(path) as data:
        tail = read_tail(data)
        out = []
        for stripe in tail.stripes:
            zone = stripe_footer(data, tail, stripe).get(3)
            out.append(text(zone[-1]).decode("utf-8", "replace") if zone else "")
    return out


def read_timestamps(
    path: str | Path, columns: set[str] | None = None, reader_zone: str | None = None, stripes: range | None = None
) -> dict[str, TimestampColumn]:
    """Java Paimon's values of the file's top-level timestamp columns, by name.

    `reader_zone` is the zone Java's reader JVM runs in; None (the default) reads every stripe
    in the zone its writer ran in. `stripes`: those stripes only (their rows, in order), else every
    stripe; only their streams are read. OrcError when the file cannot be decoded; values
    Java's reader throws on are marked `unreadable` (see TimestampColumn.check_readable).
    """
    try:
        with opened(path) as data:
            tail = read_tail(data)
            wanted = [c for c in timestamp_columns(tail) if columns is None or c[0] in columns]
            if not wanted:
                return {}
            if tail.encrypted:
                raise OrcError("encrypted ORC files are not supported")
            chosen = tail.stripes if stripes is None else [tail.stripes[i] for i in stripes]
            parts: dict[str, list] = {name: [] for name, _, _ in wanted}
            for stripe in chosen:
                footer = stripe_footer(data, tail, stripe)
                zone = text(footer[3][-1]).decode("utf-8", "replace") if footer.get(3) else ""
                # ORC Java: no writer zone recorded -> the reader JVM's zone
                writer = java_zone(zone or reader_zone or "UTC")
                reader = java_zone(reader_zone) if reader_zone is not None else writer
                for name, column, instant in wanted:
                    raw = _read_column(data, tail, footer, stripe, column)
                    values = _java_values(raw, instant, writer, reader, tail.calendar == CALENDAR_PROLEPTIC)
                    parts[name].append((*values, raw.valid))
    except OrcError:
        raise
    except (IndexError, KeyError, OverflowError, UnicodeError, ValueError) as exc:
        raise OrcError(f"damaged ORC structure: {exc.__class__.__name__}: {exc}") from None
    out = {}
    for name, _, instant in wanted:
        chunks = parts[name]
        valid = np.concatenate([c[3] for c in chunks]) if chunks else np.zeros(0, dtype=bool)
        millis = np.zeros(valid.shape, dtype=np.int64)
        nanos = np.zeros(valid.shape, dtype=np.int64)
        unreadable = np.zeros(valid.shape, dtype=bool)
        if chunks:
            millis[valid] = np.concatenate([c[0] for c in chunks])
            nanos[valid] = np.concatenate([c[1] for c in chunks])
            unreadable[valid] = np.concatenate([c[2] for c in chunks])
        out[name] = TimestampColumn(name, instant, millis, nanos, valid, unreadable)
    return out


def arrow_array(col: TimestampColumn, arrow_type: pa.TimestampType | None = None, exact: bool = False) -> pa.Array:
    """The column as an Arrow timestamp array (tz UTC for the instant type unless `arrow_type` says).

    The unit is `arrow_type`'s (pyarrow reads ORC as ns) when it holds every value exactly;
    else the finest unit that holds them all exactly; else (int64 nanoseconds span only
    1677..2262, Java's values 0001..9999, and some have sub-microsecond digits) exact
    decimal128(38, 0) nanoseconds since the epoch, as paimon_columns.read_parquet gives for INT96.
    `exact`: that decimal form whatever the values (the windows of one file then agree on the type).
    """
    tz = arrow_type.tz if arrow_type is not None else ("UTC" if col.instant else None)
    m, n = col.millis[col.valid], col.nanos[col.valid]
    units = ([arrow_type.unit] if arrow_type is not None else []) + ["ns", "us", "ms", "s"]
    chosen = None if exact else next((u for u in units if _holds(u, m, n)), None)
    if chosen is None:  # millis * 10^6 + nanos in decimal arithmetic (at most 28 digits)
        millis = pa.array(col.millis).cast(pa.decimal128(19, 0))
        scaled = pc.multiply(millis, pa.scalar(Decimal(1_000_000), pa.decimal128(7, 0)))
        total = pc.add(scaled, pa.array(col.nanos).cast(pa.decimal128(19, 0))).cast(pa.decimal128(38, 0))
        return pc.if_else(pa.array(col.valid), total, pa.scalar(None, pa.decimal128(38, 0)))
    values = np.zeros(col.valid.shape, dtype=np.int64)
    if chosen == "ns":
        values[col.valid] = m * 1_000_000 + n
    elif chosen == "us":
        values[col.valid] = m * 1000 + n // 1000
    elif chosen == "ms":
        values[col.valid] = m
    else:
        values[col.valid] = m // 1000
    return pa.array(values, type=pa.timestamp(chosen, tz=tz), mask=~col.valid)


def _holds(unit: str, m: np.ndarray, n: np.ndarray) -> bool:
    """Whether int64 `unit`s hold every (millis, nano-of-milli) exactly."""
    if not m.size:
        return True
    if unit == "ns":  # (m, n) sort as m * 10^6 + n does: the extremes decide
        lo = int(m.min()) * 1_000_000 + int(n[m == m.min()].min())
        hi = int(m.max()) * 1_000_000 + int(n[m == m.max()].max())
        return lo >= -(2**63) and hi < 2**63
    if unit == "us":
        return bool((n % 1000 == 0).all())
    if unit == "ms":
        return bool((n == 0).all())
    return bool(((n == 0) & (m % 1000 == 0)).all())


def fix_table(
    path: str | Path,
    table: pa.Table,
    reader_zone: str | None = None,
    unreadable: str = "raise",
    stripes: range | None = None,
    exact: bool = False,
) -> pa.Table:
    """`table` (the file's rows as pyarrow read them; `stripes`: those stripes' rows) with every top-level
    timestamp column replaced by Java Paimon's values (see arrow_array for the unit; `exact`: always exact
    decimal nanoseconds). OrcError when the file cannot be decoded, or (`unreadable="raise"`) when
    Java's reader throws on a value (TimestampColumn.check_readable); `unreadable="keep"` keeps the values
    the writer meant there (report them from read_timestamps(...)[name].unreadable)."""
    names = {f.name for f in table.schema if pa.types.is_timestamp(f.type)}
    if not names:
        return table
    values = read_timestamps(path, names, reader_zone, stripes)
    for name, col in values.items():
        i = table.schema.get_field_index(name)
        if i < 0:
            continue
        if unreadable == "raise":
            col.check_readable()
        if len(col.valid) != table.num_rows:
            raise OrcError(f"column {name!r}: {len(col.valid)} values for {table.num_rows} rows")
        field = table.schema.field(i)
        array = arrow_array(col, field.type, exact)
        if pa.types.is_decimal(array.type):  # beyond int64 nanoseconds: exact decimal nanoseconds, marked
            from paimon_conform.formats.exact_ns import exact_ns_field

            table = table.set_column(i, exact_ns_field(name), array)
        else:
            table = table.set_column(i, field.with_type(array.type), array)
    return table
