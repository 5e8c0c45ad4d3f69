"""The evidence of each incompatibility the peer writers show in the type x role matrix. Which cells show it is
pinned in tools/testees/failures/type-matrix.txt (`incompatible:<cell>  # <ids>`): a cell is listed with every
entry whose Java evidence its Java reads match (or, for an entry no jar here can show, every cell of its writers
and roles), and the list fails both ways."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    """An incompatibility: the writers that have it, why Java disagrees, and the evidence.

    `java`: a regular expression Java's evidence matches for each cell that shows it (the exception Java 0.9.0 /
    1.0-SNAPSHOT throws, or what its filtered reads do). None when these jars cannot show it: then every cell of
    its writers, roles and types has it, `evidence` says where that comes from, and the kit's must-finding with
    one of `codes` is what shows it still happens. `codes`: the must-level codes that report it (empty: any
    must-finding). `roles` (empty: any) and `types` (a pattern of the cell's types, empty: any) scope it."""

    id: str
    writers: tuple[str, ...]
    reason: str
    java: str | None
    codes: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    types: str = ""
    evidence: str = ""

    def scopes(self, writer: str, role: str, types: str) -> bool:
        """The entry can apply to a cell of this writer, role and type label."""
        return (
            writer in self.writers
            and (not self.roles or role in self.roles)
            and (not self.types or re.search(self.types, types) is not None)
        )

    def applies(self, writer: str, role: str, types: str, java_evidence: str) -> bool:
        """The cell shows it: Java's evidence matches, or no jar can show it and the cell is in its scope."""
        if not self.scopes(writer, role, types):
            return False
        return self.java is None or re.search(self.java, java_evidence) is not None


KNOWN: dict[str, Known] = {
    k.id: k
    for k in (
        Known(
            "rust-thin-mode",
            ("pypaimon-rust",),
            "pypaimon-rust writes primary-key data files in the thin-mode layout (no _KEY_* columns) without "
            "data-file.thin-mode = true; Java before 1.0.0 reads the _KEY_* columns",
            r"Required column is missing in data file\. Col: \[_KEY_k",
            ("DATA_FILE_COLUMNS", "DATA_FILE_THIN_MODE"),
            roles=("pk", "pk_dynamic"),
        ),
        Known(
            "parquet-timestamp-int64-nanos",
            ("pypaimon", "pypaimon-rust"),
            "TIMESTAMP(p > 6) / TIMESTAMP_LTZ(p > 6) written as Parquet INT64 nanoseconds (Arrow's timestamp[ns]); "
            "Java 0.9 / 1.0 write and read them only as INT96",
            r"Unexpected type: INT64",
            types=r"TIMESTAMP\([789]\)",
        ),
        Known(
            "pypaimon-decimal-fixed-len-byte-array",
            ("pypaimon",),
            "DECIMAL(p <= 18) written as Parquet FIXED_LEN_BYTE_ARRAY (pyarrow's default); Java writes INT32 "
            "(p <= 9) / INT64 (p <= 18) and its vectorized reader cannot decode the binary dictionary",
            r"PlainValuesDictionary\$PlainBinaryDictionary",
            types=r"DECIMAL\((\d|1[0-8]),",
        ),
        Known(
            "pypaimon-empty-value-stats-cols",
            ("pypaimon",),
            "manifest entries with _VALUE_STATS_COLS = [] and zero-field _VALUE_STATS; Java before 1.0.0 does not "
            "know _VALUE_STATS_COLS, takes the stats as one per column and fails every filtered read that "
            "consults them",
            r"ArrayIndexOutOfBoundsException|Zero length BigInteger",
        ),
        Known(
            "rust-bitmap-index-v2",
            ("pypaimon-rust",),
            "bitmap file index written in version 2; Java before 1.0.0 reads version 1 only",
            r"plugin version is lower than 2",
            roles=("index_bitmap",),
        ),
        Known(
            "nan-value-stats",
            ("pypaimon", "pypaimon-rust"),
            "FLOAT / DOUBLE statistics of a file holding NaN: pypaimon-rust gives min -Infinity / max +Infinity, "
            "Parquet row-group statistics from pyarrow and arrow-rs leave NaN out (Java keeps no min / max then, "
            "and its Parquet writer keeps NaN in); Java orders NaN above +Infinity, so `k = NaN` skips the rows "
            "(the Parquet part shown alone in test_parquet_nan_statistics.py)",
            r"k = NaN: 0 of",
            ("DATA_FILE_NAN_STATISTICS", "MANIFEST_VALUE_STATS", "MANIFEST_KEY_STATS"),
            types=r"FLOAT|DOUBLE",
        ),
        Known(
            "binary-min-max-stats",
            ("pypaimon", "pypaimon-rust"),
            "min / max statistics for BINARY / VARBINARY columns (pypaimon-rust: value statistics; pypaimon: "
            "primary-key statistics) ordered as unsigned bytes; Java 0.9 / 1.0 compare byte[] statistics as signed "
            "bytes (max ffffffff = -1), so `k = value` skips files that hold the value",
            r"filtered reads skip matching rows",
            types=r"BINARY|BYTES",
        ),
        Known(
            "pypaimon-nan-partition-path",
            ("pypaimon",),
            "FLOAT / DOUBLE partition directories named with Python's str (k=nan, k=inf, k=-inf); Java names them "
            "k=NaN, k=Infinity, k=-Infinity and looks the files up there",
            r"FileNotFoundException: File '[^']*/k=NaN/",
            ("MANIFEST_WRONG_LOCATION",),
            roles=("partition",),
        ),
        Known(
            "pypaimon-timestamp-nanos-partition-row",
            ("pypaimon",),
            "TIMESTAMP(p > 6) partition values stored in the manifest's partition row at microsecond precision "
            "(the directory keeps the nanoseconds); Java returns the row's value",
            r"other rows: missing",
            ("DATA_FILE_WRONG_PARTITION", "MANIFEST_BAD_PARTITION_ROW"),
            roles=("partition",),
            types=r"TIMESTAMP\([789]\)",
        ),
        Known(
            "pypaimon-ignores-bucket-function",
            ("pypaimon",),
            "FixedBucketRowKeyExtractor hashes every fixed-bucket table with the default function, whatever "
            "bucket-function.type says",
            None,
            ("DATA_FILE_WRONG_BUCKET",),
            roles=("bucket_mod", "bucket_hive"),
            evidence="pypaimon 2.1.0 write/row_key_extractor.py never reads bucket-function.type; Java 0.9.0 / "
            "1.0-SNAPSHOT predate the option (they hash with the default function too), so no jar here can show "
            "the misplacement",
        ),
    )
}


def shown(writer: str, role: str, types: str, java_evidence: str) -> list[str]:
    """The ids of the entries a cell shows."""
    return [k.id for k in KNOWN.values() if k.applies(writer, role, types, java_evidence)]
