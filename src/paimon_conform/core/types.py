"""Paimon column types and the logical JSON form of their values.

`parse_type("TIMESTAMP(6)")` gives a DataType; `to_internal(t, json_value)`
turns a value in the kit's logical JSON form into the form Java Paimon keeps
internally (the form its hashes and index keys are computed from):

| type | JSON form | internal |
|---|---|---|
| TINYINT, SMALLINT, INT, BIGINT | number | int (range-checked) |
| FLOAT, DOUBLE | number, "NaN", "Infinity", "-Infinity" | float (FLOAT rounded to 32 bits) |
| BOOLEAN | true / false | bool |
| DATE | "2024-01-01" or a day count | days since 1970-01-01 |
| TIME(p) | "12:34:56.789" or millis | millis of day |
| TIMESTAMP(p), TIMESTAMP_LTZ(p) | "2023-11-14T22:13:20.123456789" | (epoch millis, nano of milli) |
| CHAR, VARCHAR, STRING | string | str |
| BINARY, VARBINARY, BYTES | hex string | bytes |
| DECIMAL(p, s) | "-1.28" | (unscaled int, p, s) |

null is None for every type.
"""

from __future__ import annotations

import datetime as dt
import math
import re
import struct
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation, localcontext
from typing import Any

from paimon_conform.core.errors import EncodeError, InvalidType, UsageError

INTEGER_RANGES = {
    "TINYINT": (-(2**7), 2**7 - 1),
    "SMALLINT": (-(2**15), 2**15 - 1),
    "INT": (-(2**31), 2**31 - 1),
    "BIGINT": (-(2**63), 2**63 - 1),
}
ALIASES = {
    "INTEGER": "INT",
    "BYTES": "VARBINARY",
    "TIMESTAMP_WITH_LOCAL_TIME_ZONE": "TIMESTAMP_LTZ",
    "STRING": "VARCHAR",
}
ROOTS = {
    *INTEGER_RANGES,
    "FLOAT",
    "DOUBLE",
    "BOOLEAN",
    "DATE",
    "TIME",
    "TIMESTAMP",
    "TIMESTAMP_LTZ",
    "CHAR",
    "VARCHAR",
    "BINARY",
    "VARBINARY",
    "DECIMAL",
}
_TYPE_RE = re.compile(r"^\s*([A-Za-z_ ]+?)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*(NOT NULL)?\s*$", re.I)
EPOCH = dt.date(1970, 1, 1)


@dataclass(frozen=True)
class DataType:
    """A Paimon column type: root name plus precision / scale / length where it has them."""

    root: str
    precision: int | None = None
    scale: int | None = None

    def __str__(self) -> str:
        if self.precision is None and self.root in ("VARCHAR", "VARBINARY"):
            return "STRING" if self.root == "VARCHAR" else "BYTES"
        if self.root == "DECIMAL":
            return f"DECIMAL({self.precision}, {self.scale})"
        if self.precision is not None:
            return f"{self.root}({self.precision})"
        return self.root

    @property
    def is_string(self) -> bool:
        return self.root in ("CHAR", "VARCHAR")

    @property
    def is_binary(self) -> bool:
        return self.root in ("BINARY", "VARBINARY")

    @property
    def timestamp_precision(self) -> int:
        """Precision of TIMESTAMP / TIMESTAMP_LTZ (6 when unstated, as in Paimon)."""
        return 6 if self.precision is None else self.precision


def parse_type(text: str) -> DataType:
    """Parse `INT`, `VARCHAR(10)`, `DECIMAL(10, 2)`, `TIMESTAMP(3) WITH LOCAL TIME ZONE`, ...

    InvalidType for a DECIMAL or TIMESTAMP whose parameters Java's parser refuses; UsageError for text the
    kit does not read as a type (which a newer Java may)."""
    raw = text.strip()
    ltz = re.search(r"\s+WITH\s+LOCAL\s+TIME\s+ZONE\s*$", raw, re.I)
    if ltz:
        raw = raw[: ltz.start()]
    m = _TYPE_RE.match(raw)
    if not m:
        raise UsageError(f"cannot read column type {text!r}")
    root = m.group(1).strip().upper().replace(" ", "_")
    root = ALIASES.get(root, root)
    if ltz:
        root = "TIMESTAMP_LTZ"
    if root not in ROOTS:
        raise UsageError(f"unsupported column type {text!r}")
    p = int(m.group(2)) if m.group(2) else None
    s = int(m.group(3)) if m.group(3) else None
    if root == "DECIMAL":
        p, s = (10 if p is None else p), (0 if s is None else s)
        if not (1 <= p <= 38 and 0 <= s <= p):
            raise InvalidType(
                f"bad DECIMAL precision/scale in {text!r}: Java takes a precision of 1..38, a scale of 0..it"
            )
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and p is not None and not 0 <= p <= 9:
        raise InvalidType(f"bad timestamp precision in {text!r}: Java takes 0..9")
    return DataType(root, p, s)


def _int(t: DataType, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise EncodeError(f"{t}: expected an integer, got {v!r}")
    lo, hi = INTEGER_RANGES[t.root]
    if not lo <= v <= hi:
        raise EncodeError(f"{t}: {v} is out of range [{lo}, {hi}]")
    return v


def _float(t: DataType, v: Any) -> float:
    if isinstance(v, str):
        special = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
        if v not in special:
            raise EncodeError(f"{t}: expected a number, 'NaN', 'Infinity' or '-Infinity', got {v!r}")
        v = special[v]
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise EncodeError(f"{t}: expected a number, got {v!r}")
    f = float(v)
    if t.root == "FLOAT":
        try:
            f = struct.unpack(">f", struct.pack(">f", f))[0]
        except OverflowError:
            raise EncodeError(f"{t}: {v} does not fit a 32-bit float") from None
    return f


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date, any year (year 0 = 1 BC)."""
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468


def civil_from_days(days: int) -> tuple[int, int, int]:
    """(year, month, day) of a day count since 1970-01-01, proleptic Gregorian, any year."""
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + (3 if mp < 10 else -9)
    return yoe + era * 400 + (month <= 2), month, day


def _iso_days(t: DataType, text: str) -> int:
    """`YYYY-MM-DD` (years 0000-9999, as Java's readers can return year 0) as days since the epoch."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if not m:
        raise EncodeError(f"{t}: expected 'YYYY-MM-DD', got {text!r}")
    year, month, day = (int(g) for g in m.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    last = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1 <= month <= 12 and 1 <= day <= last[month - 1]):
        raise EncodeError(f"{t}: bad date {text!r}")
    return days_from_civil(year, month, day)


def _iso_date(days: int) -> str:
    year, month, day = civil_from_days(days)
    if not 0 <= year <= 9999:
        raise ValueError(f"year {year} outside 0000-9999")
    return f"{year:04d}-{month:02d}-{day:02d}"


def _date(t: DataType, v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if not isinstance(v, str):
        raise EncodeError(f"{t}: expected 'YYYY-MM-DD' or a day count, got {v!r}")
    return _iso_days(t, v)


def _time(t: DataType, v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        if not 0 <= v < 86_400_000:
            raise EncodeError(f"{t}: {v} ms is not a time of day")
        return v
    try:
        x = dt.time.fromisoformat(v)
    except (TypeError, ValueError):
        raise EncodeError(f"{t}: expected 'HH:MM:SS[.fff]' or millis of day, got {v!r}") from None
    return ((x.hour * 60 + x.minute) * 60 + x.second) * 1000 + x.microsecond // 1000


def _timestamp(t: DataType, v: Any) -> tuple[int, int]:
    if not isinstance(v, str):
        raise EncodeError(f"{t}: expected 'YYYY-MM-DDTHH:MM:SS[.fffffffff]', got {v!r}")
    m = re.match(r"^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$", v)
    if not m:
        raise EncodeError(f"{t}: expected 'YYYY-MM-DDTHH:MM:SS[.fffffffff]', got {v!r}")
    days = _iso_days(t, m.group(1))
    h, mi, s = int(m.group(2)), int(m.group(3)), int(m.group(4) or 0)
    if h > 23 or mi > 59 or s > 59:
        raise EncodeError(f"{t}: bad time in {v!r}")
    frac = (m.group(5) or "").ljust(9, "0")
    nanos = int(frac)
    millis = ((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + nanos // 1_000_000
    return millis, nanos % 1_000_000


def _decimal(t: DataType, v: Any) -> tuple[int, int, int]:
    try:
        d = Decimal(v) if isinstance(v, str) else Decimal(str(v))
    except (InvalidOperation, TypeError):
        raise EncodeError(f"{t}: expected a decimal string, got {v!r}") from None
    with localcontext(Context(prec=100)):  # the default 28 digits would round DECIMAL(38, s)
        unscaled = d.scaleb(t.scale)
    if unscaled != unscaled.to_integral_value():
        raise EncodeError(f"{t}: {v} has more than {t.scale} fraction digits")
    n = int(unscaled)
    if len(str(abs(n))) > t.precision:
        raise EncodeError(f"{t}: {v} needs more than {t.precision} digits")
    return n, t.precision, t.scale


def unscaled_bytes(unscaled: int) -> bytes:
    """BigInteger.toByteArray(): the minimal big-endian two's complement (the bytes of a wide DECIMAL)."""
    bits = unscaled.bit_length() if unscaled >= 0 else (-unscaled - 1).bit_length()
    return unscaled.to_bytes(bits // 8 + 1, "big", signed=True)


def to_internal(t: DataType, v: Any) -> Any:
    """A logical JSON value as Java Paimon holds it internally (None stays None)."""
    if v is None:
        return None
    if t.root in INTEGER_RANGES:
        return _int(t, v)
    if t.root in ("FLOAT", "DOUBLE"):
        return _float(t, v)
    if t.root == "BOOLEAN":
        if not isinstance(v, bool):
            raise EncodeError(f"{t}: expected true or false, got {v!r}")
        return v
    if t.root == "DATE":
        return _date(t, v)
    if t.root == "TIME":
        return _time(t, v)
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        return _timestamp(t, v)
    if t.is_string:
        if not isinstance(v, str):
            raise EncodeError(f"{t}: expected a string, got {v!r}")
        return v
    if t.is_binary:
        try:
            return bytes.fromhex(v)
        except (TypeError, ValueError):
            raise EncodeError(f"{t}: expected a hex string, got {v!r}") from None
    return _decimal(t, v)


def to_json(t: DataType, v: Any) -> Any:
    """The logical JSON form of an internal value (inverse of to_internal).

    EncodeError for dates and times beyond what the JSON form can write (years 1..9999).
    """
    try:
        return _to_json(t, v)
    except (OverflowError, ValueError):
        raise EncodeError(f"{t}: {v!r} is outside the years 0000..9999 the JSON form can write") from None


def _to_json(t: DataType, v: Any) -> Any:
    if v is None or t.root in INTEGER_RANGES or t.root == "BOOLEAN" or t.is_string:
        return v
    if t.root in ("FLOAT", "DOUBLE"):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if t.root == "DATE":
        return _iso_date(v)
    if t.root == "TIME":
        return (dt.datetime(1970, 1, 1) + dt.timedelta(milliseconds=v)).time().isoformat(timespec="milliseconds")
    if t.root in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        millis, nano = v
        days, ms = divmod(millis, 86_400_000)
        hours, rest = divmod(ms, 3_600_000)
        minutes, rest = divmod(rest, 60_000)
        seconds, milli = divmod(rest, 1000)
        digits = t.timestamp_precision
        frac = f"{milli:03d}{nano:06d}"[:digits]
        text = f"{_iso_date(days)}T{hours:02d}:{minutes:02d}:{seconds:02d}"
        return text + ("." + frac if digits else "")
    if t.is_binary:
        return v.hex()
    unscaled, _, scale = v
    with localcontext(Context(prec=100)):
        return str(Decimal(unscaled).scaleb(-scale))


def java_equals(t: DataType, a: Any, b: Any) -> bool:
    """Equality as Java's Float.compare / Double.compare see it: every NaN equals NaN, -0.0 differs from 0.0."""
    if t.root in ("FLOAT", "DOUBLE") and isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def java_order(t: DataType) -> Any:
    """A sort key giving Java's Comparable order of internal values (Float/Double.compareTo: -0.0 < 0.0,
    NaN after every number; what FullSimpleColStatsCollector keeps and CompareUtils compares by)."""
    if t.root in ("FLOAT", "DOUBLE"):
        return lambda v: (1, 0.0, 0) if math.isnan(v) else (0, v, 1 if v == 0 and math.copysign(1.0, v) > 0 else 0)
    return lambda v: v
