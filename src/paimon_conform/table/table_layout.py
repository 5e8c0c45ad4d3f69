"""The table layout spec (specs/table_layout.yaml) as functions.

Partition paths, bucket directories, file names and the columns of data
files, all read from the compiled spec (paimon_layouts/table_layout.json)
rather than from constants here. The table validator uses these functions;
the Java-written tables under golden/tables/ are checked against them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import struct
import unicodedata
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from paimon_conform.core.errors import UsageError
from paimon_conform.core.types import EPOCH, DataType, parse_type

LAYOUT = "table_layout"


@cache
def spec() -> dict:
    """The compiled layout spec."""
    return json.loads(resources.files("paimon_layouts").joinpath("table_layout.json").read_text())


def option_default(name: str) -> Any:
    """Java's default for a layout option."""
    return spec()["options"][name]["default"]


def bool_option(value: Any) -> bool:
    """A boolean table option as Java reads it (`true`, any case; anything else is false)."""
    return value if isinstance(value, bool) else str(value).strip().lower() == "true"


@dataclass(frozen=True)
class LayoutOptions:
    """The table options that change names and paths, with Java's defaults."""

    default_partition_name: str
    legacy_partition_name: bool
    data_prefix: str
    changelog_prefix: str
    thin_mode: bool
    path_directory: str | None
    index_in_data_dir: bool = False

    @classmethod
    def of(cls, options: dict[str, Any] | None = None) -> LayoutOptions:
        """Options from a table's option map (schema file), defaults where unset."""
        o = options or {}

        def get(name: str) -> Any:
            return o.get(name, option_default(name))

        return cls(
            default_partition_name=str(get("partition.default-name")),
            legacy_partition_name=bool_option(get("partition.legacy-name")),
            data_prefix=str(get("data-file.prefix")),
            changelog_prefix=str(get("changelog-file.prefix")),
            thin_mode=bool_option(get("data-file.thin-mode")),
            path_directory=get("data-file.path-directory"),
            index_in_data_dir=bool_option(get("index-file-in-data-file-dir")),
        )

    def allows(self, kind: str) -> bool:
        """Whether a file kind that needs a table option (`option` in its rule) is allowed by these options."""
        option = spec()["file_names"]["kinds"][kind].get("option")
        return option is None or (option == "index-file-in-data-file-dir" and self.index_in_data_dir)


# ---------------------------------------------------------------- escaping


@cache
def _escaped() -> frozenset[str]:
    rule = spec()["partition_path"]["escape"]
    chars = set(rule["characters"])
    for lo, hi in rule["code_point_ranges"]:
        chars.update(chr(c) for c in range(lo, hi + 1))
    return frozenset(chars)


def escape_path_name(text: str) -> str:
    """A partition key or value as Java writes it into a path (PartitionPathUtils.escapePathName)."""
    fmt = spec()["partition_path"]["escape"]["format"]
    escaped = _escaped()
    return "".join(fmt.format(ord(c)) if c in escaped else c for c in text)


def unescape_path_name(text: str) -> str:
    """The inverse Java applies when reading a partition from a path."""
    pattern = spec()["partition_path"]["unescape"]["pattern"]
    return re.sub(pattern, lambda m: chr(int(m.group(1), 16)), text)


def is_java_whitespace_only(text: str | None) -> bool:
    """StringUtils.isNullOrWhitespaceOnly: null, empty, or Character.isWhitespace throughout."""
    if text is None or text == "":
        return True
    rule = spec()["partition_path"]["java_whitespace"]
    extra, cats = set(rule["extra_code_points"]), set(rule["unicode_categories"])
    excluded = set(rule["excluded_code_points"])
    for c in text:
        cp = ord(c)
        if cp in excluded:
            return False
        if cp not in extra and unicodedata.category(c) not in cats:
            return False
    return True


# ---------------------------------------------------------------- value rendering


def _java_fp(digits: str, exp: int, negative: bool) -> str:
    """Java Float/Double.toString layout for shortest digits d1d2... x 10^exp (exp of d1)."""
    sign = "-" if negative else ""
    if -3 <= exp < 7:
        if exp >= 0:
            whole = digits[: exp + 1].ljust(exp + 1, "0")
            frac = digits[exp + 1 :] or "0"
        else:
            whole, frac = "0", "0" * (-exp - 1) + digits
        return f"{sign}{whole}.{frac}"
    return f"{sign}{digits[0]}.{digits[1:] or '0'}E{exp}"


def java_floating_string(value: float, single: bool) -> str:
    """Java's Float.toString / Double.toString (JDK 19+: the shortest digits that read back,
    at least two, the closest of those).

    JDK 17 and older sometimes print more digits than needed; such a path
    still parses back to the same value, which is what validation compares.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    negative = math.copysign(1.0, value) < 0
    if value == 0:
        return "-0.0" if negative else "0.0"
    shortest = (
        np.format_float_scientific(np.float32(abs(value)), unique=True, trim="-")
        if single
        else np.format_float_scientific(abs(value), unique=True, trim="-")
    )
    mantissa, exp = shortest.split("e")
    digits, e = mantissa.replace(".", ""), int(exp)
    if len(digits) == 1:
        # Java prints at least two digits and then picks the 2-digit decimal closest to
        # the exact binary value (Double.MIN_VALUE is 4.9E-324, not 5.0E-324).
        exact = Decimal(float(np.float32(abs(value)))) if single else Decimal(abs(value))
        with localcontext(Context(prec=2)):
            two = +exact
        _, ds, two_exp = two.as_tuple()
        digits = "".join(map(str, ds)).ljust(2, "0").rstrip("0") or "0"
        e = two_exp + len(ds) - 1
    return _java_fp(digits, e, negative)


def _local_date_time(millis: int, nano_of_milli: int) -> str:
    """java.time.LocalDateTime.toString of a Paimon Timestamp (UTC fields)."""
    days, ms = divmod(millis, 86_400_000)
    date = EPOCH + dt.timedelta(days=days)
    secs, ms = divmod(ms, 1000)
    h, rest = divmod(secs, 3600)
    mi, s = divmod(rest, 60)
    nanos = ms * 1_000_000 + nano_of_milli
    y = date.year
    year = f"{y:04d}" if y <= 9999 else f"+{y}"
    text = f"{year}-{date.month:02d}-{date.day:02d}T{h:02d}:{mi:02d}"
    if s or nanos:
        text += f":{s:02d}"
    if nanos:
        if nanos % 1_000_000 == 0:
            text += f".{nanos // 1_000_000:03d}"
        elif nanos % 1000 == 0:
            text += f".{nanos // 1000:06d}"
        else:
            text += f".{nanos:09d}"
    return text


def _sql_timestamp(millis: int, nano_of_milli: int, precision: int) -> str:
    """DateTimeUtils.formatTimestamp: 'yyyy-MM-dd HH:mm:ss', then the 9-digit fraction cut of
    trailing zeros only down to `precision` digits (so precision 3 keeps '.000')."""
    base = _local_date_time(millis - millis % 1000, 0)
    date_part, time_part = base.split("T")
    time_part = time_part if len(time_part) == 8 else time_part + ":00"
    frac = f"{(millis % 1000) * 1_000_000 + nano_of_milli:09d}"
    while len(frac) > precision and frac.endswith("0"):
        frac = frac[:-1]
    return f"{date_part} {time_part}" + (f".{frac}" if frac else "")


def _plain_decimal(value: tuple[int, int, int]) -> str:
    unscaled, _, scale = value
    with localcontext(Context(prec=100)):
        return f"{Decimal(unscaled).scaleb(-scale):f}"


def _time_text(millis: int, precision: int) -> str:
    """DateTimeUtils.formatTimestampMillis: HH:mm:ss, then up to `precision` millisecond digits,
    stopping after the first digit that leaves no remainder (so '.0' for a whole second)."""
    millis %= 86_400_000
    h, rest = divmod(millis, 3_600_000)
    mi, rest = divmod(rest, 60_000)
    s, ms = divmod(rest, 1000)
    text = f"{h:02d}:{mi:02d}:{s:02d}"
    if precision > 0:
        text += "."
        while precision > 0:
            text += str(ms // 100)
            ms = (ms % 100) * 10
            if ms == 0:
                break
            precision -= 1
    return text


RENDERERS: dict[str, Any] = {
    "java_boolean": lambda t, v: "true" if v else "false",
    "decimal_integer": lambda t, v: str(int(v)),
    "java_float_to_string": lambda t, v: java_floating_string(v, single=True),
    "java_double_to_string": lambda t, v: java_floating_string(v, single=False),
    "plain_decimal": lambda t, v: _plain_decimal(v),
    "string": lambda t, v: v,
    "epoch_day_count": lambda t, v: str(v),
    "millis_of_day": lambda t, v: str(v),
    "java_local_date_time": lambda t, v: _local_date_time(*v),
    "iso_date": lambda t, v: (EPOCH + dt.timedelta(days=v)).isoformat(),
    "iso_time_with_precision": lambda t, v: _time_text(v, t.precision or 0),
    "sql_timestamp_with_precision": lambda t, v: _sql_timestamp(*v, t.timestamp_precision),
}


def render_value(dtype: DataType, value: Any, legacy: bool = True) -> str | None:
    """The string Java makes of a partition value (internal form), before the default-name rule."""
    if value is None:
        return None
    table = spec()["partition_path"]["legacy_rendering" if legacy else "cast_rendering"]
    rule = table.get(dtype.root, "unsupported")
    if rule == "unsupported":
        raise UsageError(f"{dtype} partition values have no stable path form in Java Paimon")
    return RENDERERS[rule](dtype, value)


def partition_values(fields: list[tuple[str, DataType]], values: list[Any], options: LayoutOptions) -> list[str]:
    """Each partition value's path string (default name applied), unescaped."""
    out = []
    for (_, t), v in zip(fields, values, strict=True):
        text = render_value(t, v, options.legacy_partition_name)
        out.append(options.default_partition_name if is_java_whitespace_only(text) else text)
    return out


def partition_path(fields: list[tuple[str, DataType]], values: list[Any], options: LayoutOptions) -> str:
    """FileStorePathFactory.getPartitionString: escaped `k=v` segments joined, trailing separator."""
    rule = spec()["partition_path"]
    if not fields:
        return ""
    texts = partition_values(fields, values, options)
    segments = [
        rule["segment"].format(key=escape_path_name(name), value=escape_path_name(text))
        for (name, _), text in zip(fields, texts, strict=True)
    ]
    sep = rule["separator"]
    return sep.join(segments) + (sep if rule["trailing_separator"] else "")


def split_partition_path(path: str, keys: list[str]) -> list[str] | None:
    """The unescaped values of a relative partition path for these keys, or None if it does not fit."""
    parts = [p for p in path.split(spec()["partition_path"]["separator"]) if p]
    if len(parts) != len(keys):
        return None
    values = []
    for part, key in zip(parts, keys, strict=True):
        name, eq, value = part.partition("=")
        if not eq or unescape_path_name(name) != key or not value:
            return None
        values.append(unescape_path_name(value))
    return values


def same_partition_value(dtype: DataType, text: str, value: Any, options: LayoutOptions) -> bool:
    """Whether a path's (unescaped) value names this internal value.

    Exact string equality, except FLOAT / DOUBLE, where JVMs before 19 may print
    extra digits: there the text must parse back to the same number.
    """
    expected = partition_values([("", dtype)], [value], options)[0]
    if text == expected or dtype.root not in ("FLOAT", "DOUBLE") or value is None:
        return text == expected
    try:
        parsed = float(text)
    except ValueError:
        return False
    if dtype.root == "FLOAT":
        parsed = struct.unpack("<f", struct.pack("<f", parsed))[0]
    return parsed == value or (math.isnan(parsed) and math.isnan(value))


# ---------------------------------------------------------------- buckets and file names


def bucket_dir(bucket: int) -> str:
    """The bucket directory name (bucket-N, or bucket-postpone for -2)."""
    rule = spec()["bucket_dir"]
    names = {v: k for k, v in rule["special"].items()}
    return rule["prefix"] + names.get(bucket, str(bucket))


def parse_bucket_dir(name: str) -> int | None:
    """The bucket a directory name stands for, or None when it is not a bucket directory."""
    rule = spec()["bucket_dir"]
    m = re.match(rule["pattern"], name)
    if not m:
        return None
    text = m.group("bucket")
    return rule["special"][text] if text in rule["special"] else int(text)


@cache
def _name_patterns(data_prefix: str, changelog_prefix: str) -> dict[str, re.Pattern]:
    names = spec()["file_names"]
    fill = {
        "uuid": names["uuid"],
        "formats": "|".join(map(re.escape, names["formats"])),
        "compressions": "|".join(map(re.escape, names["compressions"])),
        "data_prefix": re.escape(data_prefix),
        "changelog_prefix": re.escape(changelog_prefix),
    }
    out = {}
    for kind, rule in names["kinds"].items():
        text = rule["pattern"]
        for key, value in fill.items():
            text = text.replace("{" + key + "}", value)
        out[kind] = re.compile(text)
    return out


def match_file_name(kind: str, name: str, options: LayoutOptions) -> dict[str, str] | None:
    """The named parts of `name` if it is a well-formed file name of `kind`, else None."""
    m = _name_patterns(options.data_prefix, options.changelog_prefix)[kind].match(name)
    return None if m is None else {k: v for k, v in m.groupdict().items() if v is not None}


def kinds_in_dir(directory: str) -> list[str]:
    """The file kinds a directory holds: a root directory name, or `bucket`."""
    if directory == "bucket":
        return [k for k, r in spec()["file_names"]["kinds"].items() if r["dir"] == "bucket"]
    return spec()["file_names"]["root_dirs"].get(directory, [])


def classify_file_name(name: str, directory: str, options: LayoutOptions) -> str | None:
    """Which kind of file `name` is, judged by the directory it is in; None if no rule fits."""
    for kind in kinds_in_dir(directory):
        known = kind in spec()["file_names"]["kinds"]
        if known and options.allows(kind) and match_file_name(kind, name, options) is not None:
            return kind
    return None


# ---------------------------------------------------------------- data-file columns


@dataclass(frozen=True)
class Field:
    """One column of a table or data file: field id, name, type, nullability."""

    id: int
    name: str
    type: DataType
    nullable: bool = True


def _system_field(key: str) -> Field:
    rule = spec()["system_fields"][key]
    text = rule["type"]
    nullable = not text.upper().endswith("NOT NULL")
    return Field(rule["id"], rule["name"], parse_type(text.upper().removesuffix("NOT NULL")), nullable)


def row_kind_byte(kind: str) -> int:
    """The _VALUE_KIND byte of a row kind (+I, -U, +U, -D)."""
    return spec()["row_kinds"][kind]


def row_kind_bytes() -> dict[int, str]:
    """Valid _VALUE_KIND bytes and their row kinds."""
    return {v: k for k, v in spec()["row_kinds"].items() if k != "doc-ref"}


def trimmed_primary_keys(primary_keys: list[str], partition_keys: list[str]) -> list[str]:
    """The primary key minus partition fields, in primary-key order."""
    return [k for k in primary_keys if k not in partition_keys]


def data_file_fields(
    fields: list[Field], primary_keys: list[str], partition_keys: list[str], options: LayoutOptions
) -> list[Field]:
    """The columns of a data file in Java's order (KeyValue.createKeyValueFields for primary-key tables)."""
    rules = spec()["data_file_columns"]
    system = spec()["system_fields"]
    by_name = {f.name: f for f in fields}
    if not primary_keys:
        order = rules["append"]
    else:
        order = rules["primary_key_thin"] if options.thin_mode else rules["primary_key"]
    out: list[Field] = []
    for item in order:
        if item == "trimmed_keys":
            for k in trimmed_primary_keys(primary_keys, partition_keys):
                f = by_name[k]
                out.append(Field(f.id + system["key_field_id_offset"], system["key_prefix"] + k, f.type, f.nullable))
        elif item in ("sequence_number", "value_kind"):
            out.append(_system_field(item))
        else:
            out.extend(fields)
    return out
