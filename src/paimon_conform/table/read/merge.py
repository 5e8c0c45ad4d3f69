"""How a primary-key table's rows of one key become the row a batch read returns: the table's merge engine
(`merge-engine`), as Java's merge functions do it, or a refusal (UsageError) for what the kit does not implement.
A reader that merged a partial-update or aggregation table as deduplicate would return wrong rows without a word.

- deduplicate (the default): the row with the highest sequence number; a retraction (-U, -D) removes the key.
- first-row: the row with the lowest sequence number (and batch reads skip level 0, as with deletion vectors).
- partial-update: per column the last non-null value in sequence order.
- aggregation: per column its `fields.<name>.aggregate-function` (default last_non_null_value) over the rows in
  sequence order: sum, max, min, last_value, last_non_null_value, first_value, first_non_null_value, bool_and,
  bool_or.
With `ignore-delete` (or one of its fallback keys first-row. / deduplicate. / partial-update.ignore-delete, read
for every engine) retractions are dropped before merging. Refused: a user
`sequence.field`, sequence groups, retractions in a first-row, partial-update or aggregation table, other
aggregate functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from paimon_conform.core.errors import UsageError
from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import TableSchema

ENGINES = ("deduplicate", "first-row", "partial-update", "aggregation")
IGNORE_DELETE_FALLBACKS = ("first-row.ignore-delete", "deduplicate.ignore-delete", "partial-update.ignore-delete")
# aggregate function -> (pyarrow hash aggregation, skip nulls)
FUNCTIONS: dict[str, tuple[str, bool]] = {
    "sum": ("sum", True),
    "max": ("max", True),
    "min": ("min", True),
    "last_value": ("last", False),
    "last_non_null_value": ("last", True),
    "first_value": ("first", False),
    "first_non_null_value": ("first", True),
    "bool_and": ("all", True),
    "bool_or": ("any", True),
}


@dataclass(frozen=True)
class MergeEngine:
    """A table's merge engine as the reader applies it."""

    name: str
    ignore_delete: bool
    functions: dict[str, str]  # aggregation: column -> aggregate function

    @property
    def returns_a_written_row(self) -> bool:
        """Whether the merged row is one of the rows written (deduplicate, first-row), so file indexes and
        statistics that rule out every file of a bucket rule out its merged rows too."""
        return self.name in ("deduplicate", "first-row")

    @property
    def skips_level0(self) -> bool:
        """Whether a batch read skips level-0 files (Java's first-row scan does, as deletion vectors do)."""
        return self.name == "first-row"


def engine(schema: TableSchema) -> MergeEngine:
    """The merge engine of a primary-key table; UsageError for an engine or option the kit does not read."""
    o = schema.options
    name = o.get("merge-engine", "deduplicate").strip().lower()
    if name not in ENGINES:
        raise UsageError(f"{schema.file}: merge-engine {name!r} is not one the kit reads ({', '.join(ENGINES)})")
    if o.get("sequence.field"):
        raise UsageError(f"{schema.file}: sequence.field orders rows by a user column; the kit does not read it")
    if any(k.startswith("fields.") and k.endswith(".sequence-group") for k in o):
        raise UsageError(f"{schema.file}: sequence groups (fields.*.sequence-group); the kit does not read them")
    ignore_keys = ("ignore-delete", *IGNORE_DELETE_FALLBACKS)  # Java's option and its fallbacks, for every engine
    ignore = tl.bool_option(next((o[k] for k in ignore_keys if k in o), False))
    if name in ("partial-update", "aggregation"):
        nested = [f.name for f in schema.fields if f.name in schema.unreadable_types or f.type.root in NESTED]
        if nested:
            raise UsageError(
                f"{schema.file}: {name} of nested columns ({', '.join(nested)}); the kit does not merge them"
            )
    functions: dict[str, str] = {}
    if name == "aggregation":
        default = o.get("fields.default-aggregate-function", "last_non_null_value")
        for f in (f for f in schema.fields if f.name not in schema.primary_keys):
            fn = o.get(f"fields.{f.name}.aggregate-function", default).strip().lower()
            if fn not in FUNCTIONS:
                raise UsageError(f"{schema.file}: aggregate function {fn!r} of {f.name}; the kit does not read it")
            why = _unmerged(fn, f.type)
            if why:
                raise UsageError(f"{schema.file}: {fn} of {f.name} ({f.type}): {why}")
            functions[f.name] = fn
    elif any(k.startswith("fields.") and k.endswith(".aggregate-function") for k in o):
        raise UsageError(f"{schema.file}: aggregate functions in a {name} table; the kit does not read them")
    return MergeEngine(name, ignore, functions)


NESTED = ("ARRAY", "MAP", "ROW", "MULTISET", "VARIANT")
NUMERIC = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL")
ORDERED = (*NUMERIC, "CHAR", "VARCHAR", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ")


def _unmerged(fn: str, t) -> str | None:
    """Why the kit does not apply aggregate function `fn` to a column of type `t` (not nested: refused before) as
    Java does, or None."""
    root = t.root
    if fn == "sum":
        if root in ("FLOAT", "DOUBLE"):
            return "Java adds floating-point values one by one; the kit does not reproduce that rounding"
        if root == "DECIMAL" and t.precision > 18:
            return "Java's sum is null past the precision; the kit does not reproduce it"
        return None if root in NUMERIC else "not a number"
    if fn in ("max", "min"):
        return None if root in ORDERED else "the kit does not order this type as Java does (NaN, bytes)"
    if fn in ("bool_and", "bool_or"):
        return None if root == "BOOLEAN" else "not a BOOLEAN"
    return None


def merge(rows: pa.Table, keys: list[str], seq: str, kind: str, how: MergeEngine) -> pa.Table:
    """The rows a batch read returns for rows of one bucket (system columns `seq` and `kind` included)."""
    retract = pa.array([tl.row_kind_byte("-U"), tl.row_kind_byte("-D")], rows.schema.field(kind).type)
    retracted = pc.is_in(rows.column(kind), value_set=retract)
    if how.ignore_delete:
        rows = rows.filter(pc.invert(retracted))
    elif how.name != "deduplicate" and pc.any(retracted).as_py():
        raise UsageError(f"retractions (-U / -D rows) in a {how.name} table; the kit does not merge them")
    if how.name in ("deduplicate", "first-row"):
        pick = "max" if how.name == "deduplicate" else "min"
        chosen = rows.group_by(keys).aggregate([(seq, pick)]).rename_columns([*keys, seq])
        winners = rows.join(chosen, keys=[*keys, seq], join_type="inner")
        return winners.filter(pc.invert(pc.is_in(winners.column(kind), value_set=retract)))
    ordered = rows.sort_by([(seq, "ascending")])
    ordered = ordered.append_column(ORDER, pa.array(range(ordered.num_rows), pa.int64()))
    merged = ordered.group_by(keys).aggregate([(seq, "max")]).rename_columns([*keys, seq])
    for n in rows.column_names:
        if n in keys or n in (seq, kind):
            continue
        fn = how.functions[n] if how.name == "aggregation" else "last_non_null_value"
        merged = merged.join(_aggregate(ordered, keys, n, fn), keys=keys, join_type="left outer")
    columns = {}
    for n in rows.column_names:
        if n == kind:
            columns[n] = pa.array([tl.row_kind_byte("+I")] * merged.num_rows, rows.schema.field(kind).type)
        else:
            columns[n] = merged.column(n).cast(rows.schema.field(n).type, safe=False)
    return pa.table(columns)


ORDER = "__paimon_conform_order"  # a row's place in sequence order


def _aggregate(ordered: pa.Table, keys: list[str], column: str, fn: str) -> pa.Table:
    """(keys, column) with one row per key: the column's rows of that key (in sequence order) aggregated by `fn`.
    first / last pick a row by its place (any type); the others are Arrow's hash aggregations (nulls skipped)."""
    name, skip = FUNCTIONS[fn]
    if name in ("first", "last"):
        source = ordered.filter(pc.is_valid(ordered.column(column))) if skip else ordered
        picked = source.group_by(keys).aggregate([(ORDER, "min" if name == "first" else "max")])
        at = picked.column(picked.num_columns - 1)
        return picked.select(keys).append_column(column, ordered.column(column).take(at))
    opts = pc.ScalarAggregateOptions(skip_nulls=True, min_count=1)
    out = ordered.group_by(keys).aggregate([(column, name, opts)])
    return out.rename_columns([*keys, column])
