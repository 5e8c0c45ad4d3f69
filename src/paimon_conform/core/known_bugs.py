"""Known bugs of Paimon writers, one list: a finding that matches one names it, the writer, what fixed it and
what the kit's evidence is (`name`, applied where findings are reported: `validate` of a file and of a table).

A match is the finding's code, a pattern its message must hold and, where a bug is about one kind of file, a
pattern of the file's name. A finding may match several bugs (one fault, several writers that made it); each is
named. The numbers are from the upstream trackers (../shared/paimon-upstream-notes.md §2,
ecosystem-bugs.md); "run:" evidence is the kit's own execution of the writer or of Java.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from paimon_conform.core.findings import Finding


@dataclass(frozen=True)
class KnownBug:
    """One writer's bug: its tracker id, the writer, what it wrote, what fixed it, and the kit's evidence."""

    id: str
    writer: str
    what: str
    fixed: str
    evidence: str
    code: str
    message: str = ""  # a regex the finding's message holds
    file: str = ""  # a regex the finding's file holds

    def matches(self, f: Finding) -> bool:
        return (
            f.code == self.code
            and re.search(self.message, f.message) is not None
            and re.search(self.file, f.file or "") is not None
        )

    def text(self) -> str:
        return f"{self.id}: {self.writer} {self.what}; {self.fixed}"


WIDE_DECIMAL = r"DECIMAL\((19|[2-3]\d), \d+\)"
NON_COMPACT_TIMESTAMP = r"TIMESTAMP(_LTZ)?\([4-9]\)|TIMESTAMP\([4-9]\) WITH LOCAL TIME ZONE"

BUGS: tuple[KnownBug, ...] = (
    KnownBug(
        "apache/paimon-rust#741",
        "paimon-rust",
        "wrote manifests with _VERSION last",
        "fixed by apache/paimon-rust#742",
        "ecosystem-bugs #23; run: every Java release 0.9.0-2.0.0 reads such manifests (test_java_verdicts A4)",
        "MANIFEST_SCHEMA",
        r"_VERSION: is field \d+, Java writes it first",
        r"(^|/)manifest-(?!list)[0-9a-f]",
    ),
    KnownBug(
        "apache/paimon-rust#797",
        "paimon-rust",
        "wrote index manifests with _VERSION last",
        "fixed by apache/paimon-rust#797",
        "paimon-upstream-notes M6; run: every Java release reads them (test_java_verdicts A4-index_manifest)",
        "MANIFEST_SCHEMA",
        r"_VERSION: is field \d+, Java writes it first",
        r"(^|/)index-manifest-",
    ),
    KnownBug(
        "apache/paimon-rust#743",
        "paimon-rust",
        "wrote _FILE as a union with null",
        "fixed by apache/paimon-rust#743",
        "ecosystem-bugs #23; run: every Java release reads it (test_java_verdicts A1)",
        "MANIFEST_SCHEMA",
        r"_FILE: written as a union with null",
    ),
    KnownBug(
        "apache/paimon#8952",
        "Java 2.0-SNAPSHOT builds",
        "wrote index manifests with _VERSION 2",
        "reverted by apache/paimon#9004 before 2.0.0",
        "paimon-upstream-notes M1",
        "MANIFEST_VERSION",
        r"_VERSION is 2 .*Java writes 1",
    ),
    KnownBug(
        "apache/paimon#7608",
        "pypaimon",
        "wrote DECIMAL(p > 18) and TIMESTAMP(p > 3) key fields compact, so their rows hash to other buckets",
        "fixed in pypaimon after 2026-05-24; pypaimon 2.1.0 still differs on a -128 unscaled decimal and null "
        "non-compact fields",
        "run: pypaimon 2.1.0's hash (tools/testees/failures/pypaimon.txt, hash:binary_row/*)",
        "DATA_FILE_WRONG_BUCKET",
        rf"{WIDE_DECIMAL}|{NON_COMPACT_TIMESTAMP}",
    ),
    KnownBug(
        "apache/paimon-rust#791",
        "paimon-rust",
        "padded a DECIMAL(p > 18) key's variable part to its minimal multiple of 8 where Java reserves 16 bytes, "
        "so the row hashes to another bucket",
        "fixed by apache/paimon-rust#791 (2026-09-03)",
        "paimon-upstream-notes B1",
        "DATA_FILE_WRONG_BUCKET",
        WIDE_DECIMAL,
    ),
    KnownBug(
        "pyarrow NaN statistics",
        "pypaimon and pypaimon-rust (pyarrow's and arrow-rs's Parquet writers)",
        "leave NaN out of FLOAT / DOUBLE row-group statistics",
        "not fixed; Java's own Parquet writer keeps NaN in",
        "run: every Java release 0.9.0-2.0.0 loses the NaN rows of `= NaN` (test_parquet_nan_statistics)",
        "DATA_FILE_NAN_STATISTICS",
    ),
    KnownBug(
        "Java compaction key range",
        "Java 1.1.1 and 1.2.0",
        "kept the deleted rows' keys in _MIN_KEY / _MAX_KEY of a file compaction wrote without them",
        "not written by 1.3.1-2.0.0 (no tracker issue found); 0.9.0 and 1.0 write the exact range",
        "run: the type x role matrix of 1.1.1 and 1.2.0 (pk.timestamp-0, pk.char-5, pk.varchar-20; "
        "test_type_matrix_java); Java reads the rows back",
        "MANIFEST_KEY_RANGE",
        r"the range holds every key of the file",
    ),
    KnownBug(
        "apache/paimon#5582",
        "pypaimon",
        "writes a compact DECIMAL as Parquet BINARY",
        "Java reads it from 1.2.0 (apache/paimon#5582); pypaimon 2.1.0 still writes it",
        "run: the matrix (read:pypaimon>java-0.9.0, tools/testees/failures/matrix.txt)",
        "DATA_FILE_DECIMAL_ENCODING",
        r"stored as BINARY|stored as FIXED_LEN_BYTE_ARRAY",
    ),
)


def matching(f: Finding) -> list[KnownBug]:
    """The known bugs a finding matches."""
    return [b for b in BUGS if b.matches(f)]


def name(findings: Iterable[Finding]) -> list[Finding]:
    """The findings, each that matches known bugs with them named at the end of its message."""
    out = []
    for f in findings:
        bugs = matching(f)
        if bugs and "[known bug" not in f.message:
            f.message += " [known bug " + "; ".join(b.text() for b in bugs) + "]"
        out.append(f)
    return out
