"""The model of one write, shared by its plan (write.py), its tasks (files.py, dynamic.py) and its
commit (commit.py): the plan the driver builds, the files a task wrote and what it hands to the
commit. Kept apart so that none of those modules imports another in a cycle.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import numpy as np

from paimon_conform.table import table_layout as tl
from paimon_conform.table.schema import TableSchema

RETRACT = (tl.row_kind_byte("-U"), tl.row_kind_byte("-D"))  # _VALUE_KIND bytes of retractions


@dataclass
class WritePlan:
    """What every task of one write needs; built once on the driver, pickled to the tasks."""

    root: str
    schema: TableSchema
    schema_json: dict | None  # set when the commit must create schema-0
    base_snapshot: int | None
    next_sequence: int
    overwrite: bool
    release: str
    hash_files: dict[tuple[bytes, int], str] = field(default_factory=dict)  # live HASH files (partition, bucket)
    commit_user: str = field(default_factory=lambda: str(uuid.uuid4()))  # names this write's snapshots

    @property
    def dv(self) -> bool:
        return self.schema.deletion_vectors

    @property
    def rowkind_field(self) -> str | None:
        return self.schema.options.get("rowkind.field") or None


@dataclass
class NewFile:
    """A data file a task wrote, with its manifest `_FILE` record (level set at commit)."""

    partition: bytes  # serialized BinaryRow (manifest form)
    partition_values: tuple
    bucket: int
    relative: str  # path under the table root
    record: dict
    index_file: str | None  # separate .index file written beside it


@dataclass
class TaskResult:
    """What one task hands to the commit."""

    files: list[NewFile] = field(default_factory=list)
    # dynamic buckets: new key hashes per (partition, bucket)
    new_hashes: dict[tuple[bytes, int], np.ndarray] = field(default_factory=dict)
