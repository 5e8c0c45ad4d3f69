"""DATA_FILE_NAN_STATISTICS, isolated: the same table with and without NaN-free Parquet row-group statistics.

pyarrow (and arrow-rs) leave NaN out of a FLOAT / DOUBLE column's row-group min / max; Java's own
Parquet writer keeps it in. The kit's write engine writes one table each way (the manifest's
statistics are the same in both: none, as Java keeps no min / max for a column holding NaN), and
Java 0.9.0 and 1.0-SNAPSHOT run `k = NaN` and `k = 1.5` on each. The kit's verdict for Java 0.9
must be must exactly where Java loses the NaN rows.
"""

from __future__ import annotations

import math
from pathlib import Path

import java_releases
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support import testees
from support import type_matrix as tm

from paimon_conform.core.types import parse_type
from paimon_conform.table.validate.table import validate_table
from paimon_conform.table.write import commit
from paimon_conform.table.write import tasks as write
from paimon_conform.testee.rows import arrow_type

EVIDENCE = ("java", "third-party")

pytestmark = pytest.mark.java

VALUES = [math.nan, 1.5, 2.5, -3.0, None, 7.25]


def _write(root, type_text: str, nan_free_statistics: bool, monkeypatch) -> None:
    """One table of VALUES in column k; with pyarrow's default statistics when `nan_free_statistics`."""
    if nan_free_statistics:
        real = pq.write_table

        def with_statistics(table, where, **kwargs):
            kwargs["write_statistics"] = True
            return real(table, where, **kwargs)

        monkeypatch.setattr(pq, "write_table", with_statistics)
    schema = pa.schema([pa.field("id", pa.int32(), False), pa.field("k", arrow_type(parse_type(type_text)))])
    data = pa.Table.from_arrays(
        [pa.array(range(len(VALUES)), pa.int32()), pa.array(VALUES, arrow_type(parse_type(type_text)))], schema=schema
    )
    plan = write.prepare(root, schema, {"bucket": "1", "bucket-key": "id"}, False)
    commit.commit(plan, [write.write_task(plan, data.to_batches(), 0)])
    monkeypatch.undo()


def _nan_rows_lost(raw: dict) -> bool:
    """Whether Java's `k = NaN` returned fewer rows than it holds (1.5 must come back, as a control)."""
    probes = {p["value"]: p for p in raw["probes"]}
    assert probes["1.5"].get("filtered") == probes["1.5"]["full"] == 1, probes["1.5"]
    nan = probes["NaN"]
    assert nan["full"] == 1, nan
    return nan.get("filtered") != 1


READERS = (*tm.JAVA_READERS, *(f"java-{v}" for v in java_releases.releases() if v != "0.9.0"))


def test_java_loses_nan_rows_exactly_where_the_kit_says_must(paimon_java, tmp_path, monkeypatch):
    tables = {}
    for type_text in ("FLOAT", "DOUBLE"):
        for nan_free in (True, False):
            root = tmp_path / "db.db" / f"{type_text.lower()}_{'nanfree' if nan_free else 'nostats'}"
            _write(root, type_text, nan_free, monkeypatch)
            stats = [pq.ParquetFile(f).metadata.row_group(0).column(1).statistics for f in root.rglob("*.parquet")]
            assert len(stats) == 1
            assert (stats[0] is not None and stats[0].has_min_max) == nan_free  # the one difference
            tables[str(root)] = nan_free
    lost: dict[str, dict[str, bool]] = {}
    for reader in READERS:  # the Java testees' read-table with probes
        with testees.opened(reader) as session:
            for d in tables:
                request = testees.read_request(d, testees.table_fields(Path(d), ["id", "k"]), probe=["k"])
                reply, why = session.exchange(request, "read_table_reply")
                assert reply is not None, why
                lost.setdefault(d, {})[reader] = _nan_rows_lost(reply)
    for d, nan_free in tables.items():
        assert lost[d] == dict.fromkeys(READERS, nan_free), d  # Java's evidence: stats alone decide
        for target in sorted({java_releases.release(v).line for v in java_releases.releases()}):
            severity = "must"  # every release loses the NaN rows (the assertion above)
            judged = [f for report in validate_table(d, java_version=target) for f in report.findings]
            expected = [("DATA_FILE_NAN_STATISTICS", severity)] if nan_free else []
            assert [(f.code, f.severity) for f in judged if f.severity in ("must", "should")] == expected, (d, target)
