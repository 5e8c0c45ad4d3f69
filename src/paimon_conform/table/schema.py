"""Read a table's schema file (schema/schema-N, JSON written by SchemaManager)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..table_layout import Field, bool_option
from ..types import DataType, parse_type

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
    """(type, nullable) of a schema field's `type`; None for nested types (JSON objects)."""
    if not isinstance(raw, str):
        nullable = not (isinstance(raw, dict) and raw.get("type", "").upper().endswith("NOT NULL"))
        return None, nullable
    nullable = not re.search(r"\bNOT\s+NULL\s*$", raw, re.I)
    text = re.sub(r"\s+NOT\s+NULL\s*$", "", raw, flags=re.I)
    try:
        return parse_type(text), nullable
    except UsageError:
        return None, nullable


def parse_schema(text: str, where: str) -> TableSchema:
    """A TableSchema from schema-file JSON; UsageError when it is not one."""
    try:
        doc = json.loads(text)
        fields, raw_types = [], {}
        for f in doc["fields"]:
            t, nullable = field_type(f["type"])
            if t is None:
                raw_types[f["name"]] = f["type"]
                t = DataType("UNSUPPORTED")
            fields.append(Field(int(f["id"]), str(f["name"]), t, nullable))
        return TableSchema(
            id=int(doc["id"]),
            fields=fields,
            partition_keys=[str(k) for k in doc.get("partitionKeys", [])],
            primary_keys=[str(k) for k in doc.get("primaryKeys", [])],
            options={str(k): str(v) for k, v in doc.get("options", {}).items()},
            unreadable_types=raw_types,
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{where}: not a Paimon schema file ({exc.__class__.__name__}: {exc})") from None


def schema_ids(root: Path) -> list[int]:
    """The ids of the schema files present, ascending."""
    folder = root / "schema"
    if not folder.is_dir():
        return []
    ids = []
    for p in folder.iterdir():
        m = re.fullmatch(r"schema-(0|[1-9][0-9]{0,9})", p.name)
        if m and p.is_file():
            ids.append(int(m.group(1)))
    return sorted(ids)


def read_schema(root: Path, schema_id: int | None = None) -> TableSchema:
    """Schema `schema_id` (default: the newest) of the table at `root`."""
    ids = schema_ids(root)
    if not ids:
        raise UsageError(f"{root}: no schema/schema-N file; is this a Paimon table directory?")
    sid = ids[-1] if schema_id is None else schema_id
    if sid not in ids:
        raise UsageError(f"{root}: schema {sid} does not exist")
    path = root / "schema" / f"schema-{sid}"
    if path.stat().st_size > MAX_SCHEMA_BYTES:
        raise UsageError(f"{path}: larger than {MAX_SCHEMA_BYTES} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read ({exc})") from None
    return parse_schema(text, str(path))
