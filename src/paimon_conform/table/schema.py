"""Read a table's schema file (schema/schema-N, JSON written by SchemaManager)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paimon_conform.core import json_text
from paimon_conform.core.errors import InvalidType, UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, parse_type
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.table import table_layout
from paimon_conform.table.paths import OutsideRoot, contained, is_dir, list_names
from paimon_conform.table.table_layout import Field, LayoutOptions, bool_option

if TYPE_CHECKING:  # types only: metadata imports this module's neighbours
    from paimon_conform.table.metadata import ManifestEntry

MAX_SCHEMA_BYTES = 16 << 20


@dataclass
class TableSchema:
    """The parts of a schema file the validator uses."""

    id: int
    fields: list[Field]
    partition_keys: list[str]
    primary_keys: list[str]
    options: dict[str, str]
    unreadable_types: dict[str, Any] = field(default_factory=dict)  # nested types the kit does not model
    folder: str = ""  # where its schema/ folder is under the table root ('' or 'branch/branch-<name>/')

    @property
    def file(self) -> str:
        """The schema file, relative to the table root (where schema-level findings are reported)."""
        return f"{self.folder}schema/schema-{self.id}"

    def field(self, name: str) -> Field:
        """A table field by name."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    @property
    def deletion_vectors(self) -> bool:
        """A primary-key table with `deletion-vectors.enabled` (its batch reads skip level 0)."""
        return bool(self.primary_keys) and bool_option(self.options.get("deletion-vectors.enabled", False))

    @property
    def bucket(self) -> int:
        """The `bucket` option (Java's default -1)."""
        try:
            return int(str(self.options.get("bucket", "-1")).strip())
        except ValueError:
            raise UsageError(
                f"schema {self.id}: bucket option {self.options.get('bucket')!r} is not an integer"
            ) from None


def field_type(raw: Any) -> tuple[DataType | None, bool]:
    """(type, nullable) of a schema field's `type`; None for nested types (JSON objects) and text the kit does
    not read as a type; InvalidType for a type Java's parser refuses."""
    if not isinstance(raw, str):
        nullable = not (isinstance(raw, dict) and raw.get("type", "").upper().endswith("NOT NULL"))
        return None, nullable
    nullable = not re.search(r"\bNOT\s+NULL\s*$", raw, re.I)
    text = re.sub(r"\s+NOT\s+NULL\s*$", "", raw, flags=re.I)
    try:
        return parse_type(text), nullable
    except InvalidType:
        raise
    except UsageError:
        return None, nullable


def parse_schema(text: str, where: str) -> TableSchema:
    """A TableSchema from schema-file JSON; UsageError naming the field when it is not one.

    The JSON's size and nesting are bounded before it is parsed (json_text.loads_json), and every
    part the kit uses is checked for its shape: `id`, `fields` (each with an integer `id`, a string
    `name` and a `type`), `partitionKeys` / `primaryKeys` (lists of column names that exist) and
    `options` (an object of scalar values).
    """

    def bad(path: str, message: str) -> UsageError:
        return UsageError(f"{where}: not a Paimon schema file: {path}: {message}")

    try:
        doc = json_text.loads_json(text, where)
    except json_text.JsonLimitError as exc:
        raise UsageError(f"{where}: not a Paimon schema file: {exc}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise UsageError(f"{where}: not a Paimon schema file (not JSON: {exc})") from None
    if not isinstance(doc, dict):
        raise bad("<root>", f"a JSON {type(doc).__name__}, not an object")
    raw_fields = doc.get("fields")
    if not isinstance(raw_fields, list):
        raise bad("fields", "missing, or not a list")
    fields, raw_types = [], {}
    for i, f in enumerate(raw_fields):
        if not isinstance(f, dict):
            raise bad(f"fields[{i}]", "not an object")
        name = f.get("name")
        if not isinstance(name, str):
            raise bad(f"fields[{i}].name", f"{name!r} is not a string")
        raw = f.get("type")
        if not isinstance(raw, str) and not (isinstance(raw, dict) and isinstance(raw.get("type"), str)):
            raise bad(f"fields[{i}].type", f"{raw!r} is neither a type name nor an object with a string 'type'")
        try:
            t, nullable = field_type(raw)
        except InvalidType as exc:
            raise bad(f"fields[{i}].type", f"{exc}; Java cannot read the schema") from None
        if t is None:
            raw_types[name] = raw
            t = DataType("UNSUPPORTED")
        fields.append(Field(_whole(f.get("id"), f"fields[{i}].id", bad), name, t, nullable))
    for label, values in (("id", [f.id for f in fields]), ("name", [f.name for f in fields])):
        first: dict = {}
        for i, v in enumerate(values):
            if v in first:
                msg = f"{v!r} is also fields[{first[v]}]'s; Java maps data-file columns to the schema by id and name"
                raise bad(f"fields[{i}].{label}", msg)
            first[v] = i
    names = {f.name for f in fields}
    keys = {}
    for key in ("partitionKeys", "primaryKeys"):
        value = doc.get(key, [])
        if not isinstance(value, list):
            raise bad(key, f"a JSON {type(value).__name__}, not a list of column names")
        for i, k in enumerate(value):
            if not isinstance(k, str) or k not in names:
                raise bad(f"{key}[{i}]", f"{k!r} is not a column of the schema")
        keys[key] = list(value)
    options = doc.get("options", {})
    if not isinstance(options, dict):
        raise bad("options", f"a JSON {type(options).__name__}, not an object")
    for k, v in options.items():
        if isinstance(v, dict | list):
            raise bad(f"options.{k}", f"a JSON {type(v).__name__}, not a value")
    return TableSchema(
        id=_whole(doc.get("id"), "id", bad),
        fields=fields,
        partition_keys=keys["partitionKeys"],
        primary_keys=keys["primaryKeys"],
        options={str(k): str(v) for k, v in options.items()},
        unreadable_types=raw_types,
    )


def _whole(value: Any, path: str, bad: Any) -> int:
    """An integer field of the schema file: an integral JSON number, or a string of digits (Jackson coerces it)."""
    if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d{1,19}\s*", value):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad(path, f"{value!r} is not an integer")
    return int(value)


def schema_ids(root: Path, meta: str = "") -> list[int]:
    """The ids of the schema files present, ascending (UsageError when schema/ leads outside the root).

    `meta`: where snapshot/ and schema/ are under the root ('' for the table, 'branch/branch-<name>/').
    """
    ids = []
    for name in list_names(root, f"{meta}schema"):
        m = re.fullmatch(r"schema-(0|[1-9][0-9]{0,9})", name)
        if m and contained(root, f"{meta}schema/{name}").is_file():
            ids.append(int(m.group(1)))
    return sorted(ids)


def read_schema(root: Path, schema_id: int | None = None, meta: str = "") -> TableSchema:
    """Schema `schema_id` (default: the newest) of the table at `root` (of its branch at `meta`)."""
    ids = schema_ids(root, meta)
    if not ids:
        raise UsageError(f"{root}: no {meta}schema/schema-N file; is this a Paimon table directory?")
    sid = ids[-1] if schema_id is None else schema_id
    if sid not in ids:
        raise UsageError(f"{root}: schema {sid} does not exist")
    path = contained(root, f"{meta}schema/schema-{sid}")
    if path.stat().st_size > MAX_SCHEMA_BYTES:
        raise UsageError(f"{path}: larger than {MAX_SCHEMA_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read ({exc})") from None
    schema = parse_schema(text, str(path))
    schema.folder = meta
    return schema


class Schemas:
    """Every schema version of a table, read on first use; a data file is checked against the one it names.

    Java reads a data file through the schema of its manifest entry's `_SCHEMA_ID`
    (columns, statistics, keys and file indexes are those of that version) and maps
    it to the newest schema by field id.
    """

    def __init__(self, root: Path, newest: TableSchema, meta: str = "") -> None:
        self.root, self.meta = root, meta
        self.newest = newest
        self.ids = schema_ids(root, meta)
        self.loaded: dict[int, TableSchema | None] = {newest.id: newest}
        self.findings: list[Finding] = []
        self.branches: list[TableSchema] | None = None

    def get(self, schema_id: int, owner: str = "", where: str = "") -> TableSchema | None:
        """Schema `schema_id`, or None (with one finding per id) when it is missing or unreadable."""
        if schema_id in self.loaded:
            return self.loaded[schema_id]
        schema = None
        if schema_id not in self.ids:
            msg = f"_SCHEMA_ID {schema_id} has no schema file (known: {self.ids}); Java cannot read the file"
            self.findings.append(Finding("DATA_FILE_SCHEMA_UNKNOWN", "must", where, None, msg, owner))
        else:
            try:
                schema = read_schema(self.root, schema_id, self.meta)
            except UsageError as exc:
                self.findings.append(
                    Finding("SCHEMA_UNREADABLE", "must", "", None, str(exc), f"{self.meta}schema/schema-{schema_id}")
                )
        self.loaded[schema_id] = schema
        return schema

    def of_file(self, entry: ManifestEntry | None, columns: list[str]) -> TableSchema | None:
        """The schema a data file was written with: the `_SCHEMA_ID` of the manifest entry that added it; for
        a file no kept snapshot adds, the newest schema whose data-file columns are the file's (else the newest)."""
        if entry is not None:
            return self.get(entry.file.schema_id, entry.manifest, f"entries[{entry.index}]._FILE._SCHEMA_ID")
        for sid in reversed(self.ids):
            schema = self.loaded.get(sid) if sid in self.loaded else self._quiet(sid)
            if schema is not None and [f.name for f in data_file_fields(schema)] == columns:
                return schema
        for schema in self._branch_schemas():  # branches share the table's data directories
            if [f.name for f in data_file_fields(schema)] == columns:
                return schema
        return self.newest

    def _quiet(self, schema_id: int) -> TableSchema | None:
        try:
            schema: TableSchema | None = read_schema(self.root, schema_id, self.meta)
        except UsageError:
            schema = None
        self.loaded[schema_id] = schema
        return schema

    def _branch_schemas(self) -> list[TableSchema]:
        """Every readable schema of every branch (branch/branch-<name>/schema/schema-N), newest first."""
        if self.branches is None:
            self.branches = []
            for meta in branch_folders(self.root):
                try:
                    for sid in reversed(schema_ids(self.root, meta)):
                        self.branches.append(read_schema(self.root, sid, meta))
                except UsageError:
                    continue
        return self.branches


def branch_folders(root: Path) -> list[str]:
    """The metadata folder ('branch/<name>/') of every directory under branch/ ([] when branch/ is missing or
    leads outside the root: the walk reports that)."""
    try:
        names = list_names(root, "branch")
    except OutsideRoot:
        return []
    return [f"branch/{n}/" for n in names if is_dir(root, f"branch/{n}")]


def data_file_fields(schema: TableSchema) -> list[Field]:
    """The data-file columns Java writes under this schema."""
    options = LayoutOptions.of(schema.options)
    return table_layout.data_file_fields(schema.fields, schema.primary_keys, schema.partition_keys, options)


def bucket_rule(schema: TableSchema) -> tuple[list[str], int, str] | None:
    """(bucket key, bucket count, function) when rows are placed by hash; None otherwise."""
    n = schema.bucket
    if n <= 0:
        return None
    keys = bucketing.bucket_key_fields(
        schema.primary_keys, schema.partition_keys, schema.options, [f.name for f in schema.fields]
    )
    if not keys:
        return None
    function = str(schema.options.get("bucket-function.type", "default")).strip().lower()
    return keys, n, function
