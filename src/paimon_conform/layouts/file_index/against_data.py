"""A file-index payload against the data file it indexes: no bloom false negative, a bitmap's,
range bitmap's or BSI's rows equal to the column's values, every indexed column in the data file.
Used by `validate INDEX --data DATAFILE` (file_index.entry) and the CLI's lone-payload check."""

from __future__ import annotations

from typing import Any

import numpy as np

from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.hashing import fasthash
from paimon_conform.core.types import DataType, java_order, to_json
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.bsi import codec as bsi
from paimon_conform.layouts.range_bitmap import codec as range_bitmap


def missing_column(path: str, column: str, data_file: str) -> Finding:
    """The finding for an indexed column the data file does not have."""
    return Finding(
        "FILE_INDEX_COLUMN_NOT_IN_DATA",
        "must",
        path,
        None,
        f"the index covers column {column!r}, which {data_file} does not have",
    )


def check_payload(
    index_type: str, payload: bytes, t: DataType, values: list[Any], path: str, base: int = 0
) -> list[Finding]:
    """Findings of one index payload against the column values it indexes."""
    check = PayloadCheck(index_type, payload, t, path, base, len(values))
    check.add(values, 0)
    return check.findings()


WRONG_ROWS = {"bitmap": "BITMAP_WRONG_ROWS", "range-bitmap": "RANGE_BITMAP_WRONG_ROWS", "bsi": "BSI_WRONG_ROWS"}


class PayloadCheck:
    """One index payload against the column values it indexes, given window by window (`add(values, start)`,
    rows numbered from `start`): no bloom false negative; a bitmap's, range bitmap's or BSI's row count equal to
    the file's `num_rows` and each row's key equal to the value at that row. The payload is decoded once."""

    def __init__(self, index_type: str, payload: bytes, t: DataType, path: str, base: int, num_rows: int) -> None:
        self.kind, self.t, self.path, self.base = index_type, t, path, base
        self.found: list[Finding] = []
        self.missing: dict[Any, Any] = {}  # bloom: values not in the filter by identity, first occurrence order
        try:
            self._open(payload, num_rows)
        except LayoutError as err:
            self.found = [Finding.from_error(err)]

    def _open(self, payload: bytes, num_rows: int) -> None:
        if self.kind == "bloom-filter":
            self.bloom = bloom.split(payload)  # probed as Java's loop does: a stored k of any size lists nothing
            return
        if self.kind == "bitmap":
            self.index = bitmap.read(payload, self.t)
            stored_rows = self.index.num_rows
        elif self.kind == "range-bitmap":
            self.index = range_bitmap.read(payload, self.t)
            stored_rows, self.to_key, self.codes = self.index.num_rows, range_bitmap.to_key, None
        elif self.kind == "bsi":
            index = bsi.read(payload)
            stored_rows, self.to_key, self.values = index.num_rows, bsi.to_long, index.values
        else:
            msg = f"the kit does not check {self.kind!r} payloads against data yet"
            self.found = [Finding("INDEX_NOT_CHECKED_AGAINST_DATA", "warning", self.path, self.base, msg)]
            return
        if stored_rows != num_rows:
            msg = f"the index has {stored_rows} rows, the data file {num_rows}"
            self.found = [Finding(WRONG_ROWS[self.kind], "must", f"{self.path}.num_rows", self.base, msg)]

    def add(self, values: list[Any], start: int) -> None:
        """The values of rows start, start + 1, ... (bloom: any values, in row order)."""
        if self.found:
            return
        try:
            if self.kind == "bloom-filter":
                self._bloom(values)
            elif self.kind == "bitmap":
                self._bitmap(values, start)
            else:
                self._stored(values, start)
        except LayoutError as err:
            self.found = [Finding.from_error(err)]

    def _bloom(self, values: list[Any]) -> None:
        identity = java_order(self.t)  # Java's equality: -0.0 is not 0.0, every NaN is one (as the hashes see them)
        distinct: dict[Any, Any] = {}  # each distinct value of the window once
        for v in values:
            if v is not None:
                distinct.setdefault(identity(v), v)
        if not distinct:
            return
        present = list(distinct.values())
        k, bits = self.bloom
        for i in np.flatnonzero(~bloom.contains(fasthash.fast_hash_many(self.t, present), k, bits)).tolist():
            self.missing.setdefault(identity(present[i]), present[i])

    def _bitmap(self, values: list[Any], start: int) -> None:
        t, index = self.t, self.index
        for row, v in enumerate(values, start):
            ok = row in index.nulls if v is None else row in index.rows.get(bitmap.map_key(t, v), ())
            if not ok:
                msg = f"row {row} holds {to_json(t, v)!r} in the data file, not in the index"
                self.found = [Finding("BITMAP_WRONG_ROWS", "must", self.path, self.base, msg)]
                return

    def _stored(self, values: list[Any], start: int) -> None:
        """Range-bitmap / BSI: every row's stored key equals the data file's value at that row."""
        end = start + len(values)
        if self.kind == "range-bitmap":
            if self.codes is None:
                self.codes = self.index.row_codes()  # every row's key code, once
            keys = self.index.keys
            stored = [None if c < 0 else keys[c] for c in self.codes[start:end].tolist()]
        else:
            stored = self.values[start:end]
        for row, (v, got) in enumerate(zip(values, stored, strict=True), start):
            if self.to_key(self.t, v) != got:
                msg = f"row {row} holds {to_json(self.t, v)!r} in the data file, something else in the index"
                self.found = [Finding(WRONG_ROWS[self.kind], "must", self.path, self.base, msg)]
                return

    def findings(self) -> list[Finding]:
        if self.found or not self.missing:
            return self.found
        v = next(iter(self.missing.values()))
        msg = (
            f"{len(self.missing)} value(s) of the data file are not in the filter, e.g. {to_json(self.t, v)!r}: "
            "readers would skip the file"
        )
        return [Finding("BLOOM_FALSE_NEGATIVE", "must", self.path, self.base, msg)]
