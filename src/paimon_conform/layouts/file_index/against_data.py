"""A file-index payload against the data file it indexes: no bloom false negative, a bitmap's,
range bitmap's or BSI's rows equal to the column's values, every indexed column in the data file.
Used by `validate INDEX --data DATAFILE` (file_index.entry) and the CLI's lone-payload check."""

from __future__ import annotations

from typing import Any

import numpy as np

from paimon_conform.core import hashing
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.types import DataType, to_json
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
    try:
        if index_type == "bloom-filter":
            present = list(dict.fromkeys(v for v in values if v is not None))  # each distinct value once
            if not present:
                return []
            k, bits = bloom.split(payload)  # probed as Java's loop does: a stored k of any size lists nothing
            missing = np.flatnonzero(~bloom.contains(hashing.fast_hash_many(t, present), k, bits))
            if missing.size:
                v = present[int(missing[0])]
                return [
                    Finding(
                        "BLOOM_FALSE_NEGATIVE",
                        "must",
                        path,
                        base,
                        f"{missing.size} value(s) of the data "
                        f"file are not in the filter, e.g. {to_json(t, v)!r}: readers would skip the file",
                    )
                ]
            return []
        if index_type == "bitmap":
            index = bitmap.read(payload, t)
            if index.num_rows != len(values):
                return [
                    Finding(
                        "BITMAP_WRONG_ROWS",
                        "must",
                        f"{path}.num_rows",
                        base,
                        f"the index has {index.num_rows} rows, the data file {len(values)}",
                    )
                ]
            for row, v in enumerate(values):
                ok = row in index.nulls if v is None else row in index.rows.get(bitmap.map_key(t, v), ())
                if not ok:
                    return [
                        Finding(
                            "BITMAP_WRONG_ROWS",
                            "must",
                            path,
                            base,
                            f"row {row} holds {to_json(t, v)!r} in the data file, not in the index",
                        )
                    ]
            return []
        if index_type in ("range-bitmap", "bsi"):
            return _rows_against_data(index_type, payload, t, values, path, base)
    except LayoutError as err:
        return [Finding.from_error(err)]
    return [
        Finding(
            "INDEX_NOT_CHECKED_AGAINST_DATA",
            "warning",
            path,
            base,
            f"the kit does not check {index_type!r} payloads against data yet",
        )
    ]


def _rows_against_data(index_type: str, payload: bytes, t: DataType, values: list[Any], path: str, base: int):
    """Range-bitmap / BSI: every row's stored key equals the data file's value at that row."""
    code = "RANGE_BITMAP_WRONG_ROWS" if index_type == "range-bitmap" else "BSI_WRONG_ROWS"
    if index_type == "range-bitmap":
        index = range_bitmap.read(payload, t)
        num_rows, to_key = index.num_rows, range_bitmap.to_key
    else:
        index = bsi.read(payload)
        num_rows, to_key = index.num_rows, bsi.to_long
    if num_rows != len(values):
        return [
            Finding(
                code, "must", f"{path}.num_rows", base, f"the index has {num_rows} rows, the data file {len(values)}"
            )
        ]
    if index_type == "range-bitmap":
        stored = [None if c < 0 else index.keys[c] for c in index.row_codes().tolist()]
    else:
        stored = index.values
    for row, (v, got) in enumerate(zip(values, stored, strict=True)):
        if to_key(t, v) != got:
            msg = f"row {row} holds {to_json(t, v)!r} in the data file, something else in the index"
            return [Finding(code, "must", path, base, msg)]
    return []
