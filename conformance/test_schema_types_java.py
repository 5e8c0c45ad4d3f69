"""Which column type texts a schema file may hold, as Java Paimon's own schema reader decides: each text is
read as a one-column TableSchema by tools/java/tables/TypeProbe.java under each jar, and the kit's verdict
(core.types.parse_type: the type, or InvalidType, which makes the schema file unreadable for the
validator, the reader and the Spark source alike) must be Java's.
"""

from __future__ import annotations

import subprocess

import pytest

from paimon_conform.core.errors import InvalidType
from paimon_conform.core.types import parse_type

EVIDENCE = ("java",)

TEXTS = [
    "INT",
    "STRING",
    "DECIMAL",
    "DECIMAL(10)",
    "DECIMAL(1, 0)",
    "DECIMAL(38, 2)",
    "DECIMAL(38, 38)",
    "DECIMAL(39, 2)",
    "DECIMAL(100000, 2)",
    "DECIMAL(5, 6)",
    "DECIMAL(0, 0)",
    "TIMESTAMP",
    "TIMESTAMP(0)",
    "TIMESTAMP(9)",
    "TIMESTAMP(10)",
    "TIMESTAMP(3) WITH LOCAL TIME ZONE",
    "TIMESTAMP(10) WITH LOCAL TIME ZONE",
]


def kit_verdict(text: str) -> str:
    try:
        parse_type(text)
    except InvalidType:
        return "refused"
    return "ok"


@pytest.mark.java
@pytest.mark.parametrize("version", ["0.9.0", "1.0-SNAPSHOT"])
def test_the_kit_refuses_the_column_types_java_refuses(paimon_java, version):
    cp = paimon_java.tables_classpath(version)
    done = subprocess.run(
        paimon_java.java_command(cp, "TypeProbe", *TEXTS), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    java = [line.split("\t", 1) for line in done.stdout.splitlines()]
    assert len(java) == len(TEXTS), done.stdout
    differ = [(t, j, kit_verdict(t)) for t, (j, _) in zip(TEXTS, java, strict=True) if j != kit_verdict(t)]
    assert not differ, f"Java {version} and the kit disagree: {differ}"
    assert {j for j, _ in java} == {"ok", "refused"}
