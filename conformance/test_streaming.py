"""Streaming validation: a data file is checked window by window (`read_windows`: whole Parquet row groups,
each window at most 1/WINDOW_SHARE of the memory budget), and the report, the run's statistics and the key
hashes equal those over the file read whole.

Two ways of cutting files into windows are compared with the whole-file run:
* every file of every golden table, every third-party corpus table and a golden table with each fault of the
  fault catalog injected, cut into slices of a few rows (so every check's gathering across windows is held
  equal on bytes Java and other projects wrote, findings included);
* tables the kit's engine writes with small Parquet row groups (every key type, partitioned, fixed and dynamic
  buckets, file indexes, deletion vectors), read one row group per window by the real reader.
And the point of it: the Arrow memory a check holds follows the largest row group, not the file.
"""

from __future__ import annotations

import itertools
import math
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.environment import PAIMON_CPP_TABLES, ROOT, form, require_corpus
from support.fault_catalog import CATALOG, JAVA

from paimon_conform.core.types import parse_type
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.file_index import against_data
from paimon_conform.table.read import data_files
from paimon_conform.table.read.data_files import Column, DataFile
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.table_layout import Field
from paimon_conform.table.validate import data_file_checks, file_meta
from paimon_conform.table.validate.directories import BucketFile
from paimon_conform.table.validate.file_meta import FileFacts
from paimon_conform.table.validate.table import TableStats, validate_table

EVIDENCE = ("kit", "contract")

GOLDEN_TABLES = sorted(p for p in (ROOT / "golden" / "tables").glob("*/*") if p.is_dir())
WHOLE = data_files.read_windows
WINDOW_SHARE = data_files.WINDOW_SHARE


def in_slices(rows: int):
    """read_windows cutting each file (read whole) into windows of `rows` rows."""

    def read_windows(path: Path):
        for df in WHOLE(path):
            n = df.table.num_rows
            for start in range(0, n, rows) if n else [0]:
                part = df.table.slice(start, rows)
                yield DataFile(df.format, df.columns, part, df.parquet_metadata, df.start + start, df.total_rows)

    return read_windows


def run(root: Path) -> tuple[list[tuple], tuple[int, int, int]]:
    stats = TableStats()
    report = form(validate_table(root, stats=stats))
    return report, (stats.data_files, stats.rows, stats.bucket_rows)


def assert_same_in_slices(root: Path, monkeypatch, sizes=(1, 5)) -> list[tuple]:
    whole = run(root)
    for rows in sizes:
        with monkeypatch.context() as m:
            m.setattr(data_files, "read_windows", in_slices(rows))
            assert run(root) == whole, f"windows of {rows} row(s)"
    return whole[0]


@pytest.mark.parametrize("root", GOLDEN_TABLES, ids=[f"{p.parent.name}/{p.name}" for p in GOLDEN_TABLES])
def test_golden_table_in_slices(root, monkeypatch):
    assert_same_in_slices(root, monkeypatch, (1,))


def test_corpus_tables_in_slices(monkeypatch):
    tables = sorted(p for p in require_corpus().joinpath(*PAIMON_CPP_TABLES).glob("*/*") if p.is_dir())
    assert len(tables) >= 40
    findings = sum(len(r[4]) for root in tables for r in assert_same_in_slices(root, monkeypatch, (3,)))
    assert findings  # tables with findings (pk_09, the global-index tables) are among them


@pytest.mark.parametrize(("fault", "table", "inject", "code"), CATALOG, ids=[c[0] for c in CATALOG])
def test_faulty_table_in_slices(fault, table, inject, code, tmp_path, monkeypatch):
    root = shutil.copytree(JAVA / table, tmp_path / table, symlinks=True)
    inject(root)
    report = assert_same_in_slices(root, monkeypatch, (2,))
    assert any(f[0] == code for r in report for f in r[4]) or any(r[2] for r in report), fault


@contextmanager
def small_parts(rows: int) -> Iterator[None]:
    """The kit's engine writes Parquet row groups and ORC stripes of `rows` rows inside the block. (ORC C++ cuts
    a stripe once its buffers pass the stripe size, a compression block at least: so uncompressed.)"""
    import pyarrow.orc as po
    import pyarrow.parquet as pq

    plain, plain_orc = pq.write_table, po.write_table
    small = {"stripe_size": 1, "batch_size": rows, "compression": "uncompressed"}
    pq.write_table = lambda *a, **k: plain(*a, **k, row_group_size=rows)
    po.write_table = lambda *a, **k: plain_orc(*a, **{**k, **small})
    try:
        yield
    finally:
        pq.write_table, po.write_table = plain, plain_orc


def engine_commit(root: Path, data: pa.Table, options: dict[str, str]) -> None:
    """One commit of `data` by the kit's write engine."""
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    plan = write.prepare(root, data.schema, options, False)
    commit.commit(plan, [write.write_task(plan, data.to_batches(), 0)])


def _engine_tables(base: Path, part_rows: int, fmt: str = "parquet") -> list[Path]:
    """The peer matrix's tables (every type in every role the engine writes) written by the kit's engine in
    `fmt`, with Parquet row groups or ORC stripes of `part_rows` rows; the roots of those written."""
    from support import type_matrix_cells as tmc

    from paimon_conform.testee import kit

    roots = []
    for cell in tmc.cells(("kit",)):
        s = tmc.spec(cell)
        root = base / "db.db" / cell.name
        table = {**s.table(), "options": {**s.options, "file.format": fmt}}
        try:
            with small_parts(part_rows):
                kit.write_table(root, table, s.commits)
        except Exception:  # noqa: BLE001, S112 - a cell the engine refuses (the matrix records why): not this test's
            continue
        roots.append(root)
    return roots


@pytest.mark.parametrize("fmt", ["parquet", "orc"])
def test_row_group_windows(fmt, tmp_path, monkeypatch):
    """Tables with several row groups (stripes) per file, read one row group (stripe) per window by the real
    reader: the same report as reading each file whole (findings included: the matrix's tables have some for
    Java 0.9). ORC windows are read by the ORC worker stripe by stripe, timestamps as exact decimals."""
    roots = _engine_tables(tmp_path, 3, fmt)
    assert all(f.name.endswith((f".{fmt}", f".{fmt}.index")) for r in roots for f in r.glob("**/data-*"))
    written = {"parquet": 150, "orc": 120}[fmt]  # ORC: no timestamp before 1970 with a fraction (Java throws)
    assert len(roots) > written
    # ORC C++ counts no integer buffered for run-length encoding toward the stripe size: tables of integer
    # columns alone stay one stripe (test_orc_stripe_windows_hold_javas_timestamps cuts timestamps)
    cuts = {"parquet": 150, "orc": 60}[fmt]
    windows = []

    def counting(path):
        out = list(WHOLE(path))
        windows.append(len(out))
        return iter(out)

    cut = 0
    for root in roots:
        whole = run(root)
        with monkeypatch.context() as m:
            m.setattr(data_files, "WINDOW_SHARE", 1 << 40)  # every window one row group
            m.setattr(data_files, "read_windows", counting)
            assert run(root) == whole, root.name
        cut += max(windows, default=0) > 1
        windows.clear()
    assert cut > cuts


def test_orc_stripe_windows_hold_javas_timestamps(tmp_path, monkeypatch):
    """An ORC table of timestamps of every precision, both kinds, inside and beyond int64 nanoseconds (years
    1677-2262), written in stripes of 3 rows: read stripe by stripe by the ORC worker, each window's timestamps
    are exact decimals whatever its values, and the file's values, its report and statistics equal the
    whole-file read's (where each column is a timestamp of the finest unit holding it)."""
    import pyarrow.orc as po

    from paimon_conform.formats.paimon_columns import internal_values

    n = 40
    ns = [1_700_000_000_123_456_789 + i * 86_400 * 10**9 + i for i in range(n)]
    wide = [v if i % 7 else 17_000_000_000 * 10**9 * (1 if i % 2 else -1) for i, v in enumerate(ns)]
    data = pa.table(
        {
            "k": pa.array([f"key-{i:03}" for i in range(n)]),
            "ts9": pa.array([None if i % 5 == 4 else v for i, v in enumerate(ns)], pa.timestamp("ns")),
            "ltz6": pa.array([v // 1000 for v in ns], pa.timestamp("us", tz="UTC")),
            "ts3": pa.array([v // 10**6 for v in ns], pa.timestamp("ms")),
            "wide": pa.array([w // 10**9 for w in wide], pa.timestamp("s")),  # years 1431 and 2508 (whole seconds)
        }
    )
    root = tmp_path / "t"
    options = {"bucket": "1", "file.format": "orc", "primary-key": "k", "deletion-vectors.enabled": "true"}
    with small_parts(3):
        engine_commit(root, data, options)
    (path,) = root.glob("bucket-0/data-*.orc")
    assert po.ORCFile(str(path)).nstripes > 10

    whole = run(root)
    (full,) = WHOLE(path)
    monkeypatch.setattr(data_files, "WINDOW_SHARE", 1 << 40)
    windows = list(WHOLE(path))
    assert len(windows) == po.ORCFile(str(path)).nstripes
    assert [w.start for w in windows] == list(itertools.accumulate([0] + [w.table.num_rows for w in windows[:-1]]))
    assert {w.total_rows for w in windows} == {n}
    for name, t in [
        ("ts9", "TIMESTAMP(9)"),
        ("ltz6", "TIMESTAMP_LTZ(6)"),
        ("ts3", "TIMESTAMP(3)"),
        ("wide", "TIMESTAMP(0)"),
    ]:
        assert all(pa.types.is_decimal(w.table.schema.field(name).type) for w in windows), name
        assert all(c.family == "timestamp" for w in windows for c in w.columns if c.name == name)
        typ = parse_type(t)
        cut = [v for w in windows for v in internal_values(w.table.column(name), typ)]
        assert cut == internal_values(full.table.column(name), typ), name
    # read whole, each column the finest unit holding its values (beyond int64 nanoseconds: microseconds)
    assert [full.table.schema.field(c).type.unit for c in ("ts9", "ltz6", "ts3", "wide")] == ["ns", "ns", "ns", "us"]
    assert run(root) == whole


@pytest.fixture(scope="module")
def orc_in_stripes(tmp_path_factory):
    """A primary-key table whose one ORC data file holds 200 rows in 40 stripes, and that file's bytes."""
    import pyarrow.orc as po

    n = 200
    data = pa.table(
        {
            "k": pa.array([f"key-{i:04}" for i in range(n)]),
            "ts": pa.array(range(0, n * 10**9, 10**9), pa.timestamp("us")),
            "v": pa.array([float(i) for i in range(n)]),
        }
    )
    root = tmp_path_factory.mktemp("orc") / "t"
    with small_parts(5):
        engine_commit(root, data, {"bucket": "1", "file.format": "orc", "primary-key": "k"})
    (path,) = root.glob("bucket-0/*.orc")
    assert po.ORCFile(str(path)).nstripes == 40
    return root, path, path.read_bytes()


def assert_damage_read_alike(root: Path, path: Path, original: bytes, data: st.DataObject) -> None:
    """The table's data file at `path` with a few bytes changed anywhere: validating it one row group, stripe
    or block per window and with the file read whole ends in no internal error and finds the same."""
    damaged = bytearray(original)
    for at, value in data.draw(
        st.lists(st.tuples(st.integers(0, len(original) - 1), st.integers(0, 255)), min_size=1, max_size=4)
    ):
        damaged[at] = value
    path.write_bytes(bytes(damaged))
    try:
        reports = []
        for share in (1 << 40, 1):  # one part per window; the file whole
            data_files.WINDOW_SHARE = share
            reports.append(sorted((f.code, f.severity, f.path) for r in validate_table(root) for f in r.findings))
    finally:
        data_files.WINDOW_SHARE = WINDOW_SHARE
        path.write_bytes(original)
    assert reports[0] == reports[1]


# each example damages and validates a multi-stripe ORC file through the ORC worker (~0.2 s): 60 keep it near
# 10 s of the CI budget
@settings(max_examples=60)
@given(st.data())
def test_damaged_orc_stripes(orc_in_stripes, data):
    """A multi-stripe ORC file with a few bytes changed anywhere (tail, stripe footers, streams): the run read
    stripe by stripe never ends in an internal error, and finds what the run reading the file whole finds."""
    assert_damage_read_alike(*orc_in_stripes, data)


AVRO_ROWS = 20_000  # 12 blocks of about 64 KB (Java's Avro writer)


@pytest.fixture(scope="module")
def java_avro(paimon_java, tmp_path_factory):
    """An append table Java Paimon 1.0 writes (AvroTableWriter: BIGINT, DOUBLE, STRING, DECIMAL(10, 2),
    TIMESTAMP(3), DATE and an INT column null in the first half of the rows; bloom filters on the STRING and
    TIMESTAMP columns, a bitmap on the DATE) whose one Avro data file holds AVRO_ROWS rows in many
    blocks; the table's root, the file and its bytes."""
    root = tmp_path_factory.mktemp("avro") / "t"
    paimon_java.run_java_tables(paimon_java.PAIMON_10_VERSION, "AvroTableWriter", str(root), str(AVRO_ROWS), "1")
    (path,) = root.glob("bucket-0/data-*.avro")
    return root, path, path.read_bytes()


def _blocks(path: Path) -> int:
    import fastavro

    with path.open("rb") as f:
        return sum(1 for _ in fastavro.block_reader(f))


def test_avro_block_windows(java_avro, tmp_path, monkeypatch):
    """A Java-written Avro data file of many blocks, read one block per window: the windows number their rows
    in the file, give each column one Arrow type (the DECIMAL the schema's precision, the INT column typed
    where a window holds only its nulls), hold the whole read's values, and the report and statistics equal
    the whole-file run's (no finding: Java wrote it); the same with a fault only the last block shows (an id
    below the entry's minimum), and with the file's bloom filters emptied (every value a false negative,
    found as the file index is checked against each window's rows)."""
    import fastavro
    from support.fault_catalog import bloom_missing_value

    root, path, _ = java_avro
    blocks = _blocks(path)
    assert blocks > 10
    whole = run(root)
    assert whole[1][1] == AVRO_ROWS
    assert [r[4] for r in whole[0]] == [[]] * len(whole[0])
    assert list(root.glob("bucket-0/data-*.avro.index"))  # the bloom and bitmap indexes, checked against the rows
    (full,) = WHOLE(path)
    with monkeypatch.context() as m:
        m.setattr(data_files, "WINDOW_SHARE", 1 << 40)
        windows = list(WHOLE(path))
        assert len(windows) == blocks
        assert [w.start for w in windows] == list(itertools.accumulate([0] + [w.table.num_rows for w in windows[:-1]]))
        assert {w.total_rows for w in windows} == {AVRO_ROWS}
        assert {w.table.schema for w in windows} == {full.table.schema}
        assert full.table.schema.field("d").type == pa.decimal128(10, 2)
        assert windows[0].table.column("n").null_count == windows[0].table.num_rows
        assert pa.concat_tables(w.table for w in windows).equals(full.table)
        assert run(root) == whole

    faulty = tmp_path / "t"
    shutil.copytree(root, faulty)
    (copy,) = faulty.glob("bucket-0/data-*.avro")
    with path.open("rb") as f:
        reader = fastavro.reader(f)
        schema, codec, records = reader.writer_schema, reader.codec, list(reader)
    records[-1]["id"] = -1
    with copy.open("wb") as f:
        fastavro.writer(f, schema, records, codec=codec, sync_interval=16_000)
    assert _blocks(copy) > 10
    broken = run(faulty)
    assert broken != whole
    assert any(f[0] == "MANIFEST_VALUE_STATS" for r in broken[0] for f in r[4]), broken[0]
    with monkeypatch.context() as m:
        m.setattr(data_files, "WINDOW_SHARE", 1 << 40)
        assert run(faulty) == broken

    no_bloom = tmp_path / "b"
    shutil.copytree(root, no_bloom)
    bloom_missing_value(no_bloom)
    report = run(no_bloom)
    negatives = [f for r in report[0] for f in r[4] if f[0] == "BLOOM_FALSE_NEGATIVE"]
    assert len(negatives) == 2, report[0]  # s and ts
    with monkeypatch.context() as m:
        m.setattr(data_files, "WINDOW_SHARE", 1 << 40)
        assert run(no_bloom) == report


# each example damages and validates an Avro data file (~0.1 s): 60 keep it a few seconds
@settings(max_examples=60)
@given(st.data())
def test_damaged_avro_blocks(java_avro, data):
    """The Avro file with a few bytes changed anywhere (header, block frames, compressed records, sync
    markers): the run read block by block never ends in an internal error, and finds what the run reading
    the file whole finds."""
    assert_damage_read_alike(*java_avro, data)


def test_memory_follows_the_row_group(tmp_path, monkeypatch):
    """One large file in many row groups: the Arrow memory in use while it is checked, sampled as each window
    is read and once it is checked, stays a fraction of what reading the file whole takes."""
    import pyarrow.parquet as pq

    from paimon_conform.table.write.reference_table import write_table

    root = tmp_path / "t"
    with small_parts(5_000):
        write_table(root, rows=200_000, buckets=1, seed=3)
    files = list(root.glob("dt=*/bucket-0/data-*.parquet"))
    assert max(pq.ParquetFile(f).metadata.num_row_groups for f in files) >= 10

    def peak(windowed: bool) -> tuple[int, list[tuple]]:
        samples = [0]

        def sampled(path):
            for df in WHOLE(path):
                samples.append(pa.total_allocated_bytes())
                yield df
                samples.append(pa.total_allocated_bytes())

        with monkeypatch.context() as m:
            if windowed:
                m.setattr(data_files, "WINDOW_SHARE", 1 << 40)
            m.setattr(data_files, "read_windows", sampled)
            report = run(root)
        return max(samples), report

    whole, report = peak(False)
    windowed, same = peak(True)
    assert same == report
    print(windowed, whole)
    assert windowed * 4 < whole, (windowed, whole)


# ---------------------------------------------------------------- each gathering, against the whole file

WINDOWED_TYPES = ["BIGINT", "DOUBLE", "STRING", "BYTES"]


@st.composite
def windowed_files(draw):
    """A file's rows (a key column of one type, a DOUBLE with NaN / -0.0, value kinds some of which are no row
    kind, sequence numbers) and the row numbers where windows start."""
    kind = draw(st.sampled_from(WINDOWED_TYPES))
    n = draw(st.integers(1, 40))
    values = {
        "BIGINT": st.integers(-(2**63), 2**63 - 1),
        "DOUBLE": st.sampled_from([math.nan, -0.0, 0.0, 1.5, -2.5, math.inf, -math.inf]),
        "STRING": st.text(max_size=4),
        "BYTES": st.binary(max_size=3),
    }[kind]
    keys = draw(st.lists(st.one_of(st.none(), values), min_size=n, max_size=n))
    floats = draw(st.lists(st.sampled_from([None, math.nan, -0.0, 0.0, 1.0, -1.0]), min_size=n, max_size=n))
    kinds = draw(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 7, -1]), min_size=n, max_size=n))
    seqs = draw(st.lists(st.integers(0, 1000), min_size=n, max_size=n))
    cuts = sorted(set(draw(st.lists(st.integers(1, max(n - 1, 1)), max_size=6))) - {n})
    return kind, keys, floats, kinds, seqs, cuts


def _arrow(kind: str, values: list) -> pa.Array:
    return pa.array(
        values, {"BIGINT": pa.int64(), "DOUBLE": pa.float64(), "STRING": pa.string(), "BYTES": pa.binary()}[kind]
    )


def _windows(table: pa.Table, cuts: list[int]) -> list[DataFile]:
    cols = [Column(f.name, None, None) for f in table.schema]
    edges = [0, *cuts, table.num_rows]
    return [
        DataFile("parquet", cols, table.slice(a, b - a), None, a, table.num_rows) for a, b in itertools.pairwise(edges)
    ]


# each example validates a file whole and in random windows; 150 keep it under 20 s of the CI budget
@settings(max_examples=150)
@given(windowed_files(), st.data())
def test_gatherings_equal_the_whole_file(case, data):
    """Value kinds, buckets (the first row elsewhere, numbered in the file), the sequence range, -U/-D rows, the
    first and last key, null counts, every statistics bound in Java's order, bloom / bitmap payloads built from
    other values: the same over any cut into windows as over the file whole."""
    kind, keys, floats, kinds, seqs, cuts = case
    t = parse_type(kind)
    table = pa.table(
        {
            "_KEY_k": _arrow(kind, keys),
            "k": _arrow(kind, keys),
            "f": pa.array(floats, pa.float64()),
            "_SEQUENCE_NUMBER": pa.array(seqs, pa.int64()),
            "_VALUE_KIND": pa.array(kinds, pa.int8()),
        }
    )
    whole = _windows(table, [])
    parts = _windows(table, cuts)
    fields = [Field(0, "k", t, True), Field(1, "f", parse_type("DOUBLE"), True)]
    schema = TableSchema(0, fields, [], ["k"], {"bucket": "3"})
    ref = BucketFile("bucket-1/data-0.parquet", "data", (), 1)

    stated = data.draw(st.sampled_from([v for v in keys if v is not None] or [None]))

    def gathered(windows: list[DataFile]):
        vk, facts = data_file_checks.ValueKinds(), FileFacts(windows[0], schema)
        buckets = data_file_checks.Buckets(ref, schema, ref.relative, table.column_names)
        for w in windows:
            vk.add(w)
            facts.add(w)
            buckets.add(w)
        bounds = {
            (c, side, repr(s)): file_meta._beyond(facts, c, ct, s, side)
            for c, ct, values in (("k", t, [stated]), ("f", parse_type("DOUBLE"), [0.0, -0.0, 1.0, math.nan]))
            for s in values
            if s is not None
            for side in ("min", "max")
        }
        keys_seen = (facts.first_key, facts.last_key, facts.sequence, facts.deletes, dict(facts.nulls))
        return vk.findings("f"), buckets.findings(), keys_seen, bounds

    a = gathered(whole)
    b = gathered(parts)
    assert repr(b[:3]) == repr(a[:3])
    assert repr(sorted(b[3].items())) == repr(sorted(a[3].items()))
    # index payloads built from other values than the file's: the findings (false negatives, wrong rows) too
    present = [v for v in keys if v is not None] or [None]
    other = data.draw(st.lists(st.sampled_from([None, *present]), min_size=len(keys), max_size=len(keys)))
    payloads = {"bloom-filter": bloom.build(t, [v for v in other if v is not None] or [keys[0]])}
    if kind in ("BIGINT", "STRING"):  # (Java has no bitmap index of DOUBLE or BYTES)
        payloads["bitmap"] = bitmap.build(t, other)
    internal = keys
    for index_type, payload in payloads.items():
        whole_check = against_data.check_payload(index_type, payload, t, internal, "p")
        check = against_data.PayloadCheck(index_type, payload, t, "p", 0, len(internal))
        for w in parts:
            check.add(internal[w.start : w.start + w.table.num_rows], w.start)
        assert [vars(f) for f in check.findings()] == [vars(f) for f in whole_check]


def test_bloom_tells_zero_from_negative_zero_and_counts_nan_once():
    """Found by the property above: values are told apart as Java hashes them (doubleToLongBits), so a filter
    holding -0.0 but not 0.0 misses the file's 0.0 (a read of `= 0.0` would skip it), and NaNs are one value."""
    t = parse_type("DOUBLE")
    payload = bloom.build(t, [-0.0])
    [f] = against_data.check_payload("bloom-filter", payload, t, [-0.0, 0.0], "p")
    assert f.code == "BLOOM_FALSE_NEGATIVE"
    assert f.message.startswith("1 value(s)")
    assert "0.0" in f.message
    [g] = against_data.check_payload("bloom-filter", payload, t, [float("nan"), -0.0, float("nan")], "p")
    assert g.message.startswith("1 value(s)")
    assert "NaN" in g.message


def test_cli_budget_sets_the_windows(tmp_path, monkeypatch):
    """As a user runs it: `validate TABLE --max-memory 16M` reads a file of many row groups in several windows
    (1/16 of the budget each), and reports exactly what the default budget's single window does."""
    import json

    import numpy as np

    from paimon_conform import cli

    root = tmp_path / "t"
    ids = np.arange(200_000, dtype=np.int64)
    batch = pa.table({"id": ids, "v": ids / 8, "s": pa.array([f"s{i % 997}" for i in range(len(ids))])})
    with small_parts(5_000):
        engine_commit(root, batch, {"bucket": "-1", "file.format": "parquet"})
    windows: list[int] = []

    def counting(path):
        n = 0
        for df in WHOLE(path):
            n += 1
            yield df
        windows.append(n)

    monkeypatch.setattr(data_files, "read_windows", counting)
    reports = []
    for extra in ([], ["--max-memory", "16M"]):
        out = tmp_path / f"report{len(reports)}.json"
        assert cli.main(["validate", str(root), "--report", "json", "-o", str(out), *extra]) == 0
        reports.append([{k: v for k, v in f.items() if k != "seconds"} for f in json.loads(out.read_text())["files"]])
        reports.append(max(windows))
        windows.clear()
    assert reports[0] == reports[2]
    assert reports[1] == 1  # the default budget: each file one window
    assert reports[3] > 2  # 16M: 1 MiB windows
