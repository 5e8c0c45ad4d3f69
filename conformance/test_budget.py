"""The resource budget (budget.py, `--max-memory`): counts, lengths and depths read from input are checked
against the bytes that remain and the budget before anything is built from them.

The memory-bound tests run the CLI in a subprocess under RLIMIT_AS: without the checks each of them
exhausts the limit (a MemoryError, reported as an internal error) instead of ending with a finding or
exit 2 and the reason.
"""

from __future__ import annotations

import io
import json
import resource
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import fastavro
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from support.avro_bytes import zigzag
from support.capped import cli_capped
from support.environment import GOLDEN, require_corpus

from paimon_conform import cli
from paimon_conform.core import budget
from paimon_conform.core.errors import UsageError
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.roaring32 import codec as roaring
from paimon_conform.table.metadata import MetadataProblem, read_avro, read_records

EVIDENCE = ("contract",)

TABLE = GOLDEN / "tables" / "java-0.9.0" / "append-fixed3-avro"
LIMIT = 1200 << 20  # address space for a CLI run: the interpreter with numpy and pyarrow takes about 600 MiB
SYNC = bytes(range(16))


def run_limited(*args: str, limit: int = LIMIT) -> subprocess.CompletedProcess:
    """The CLI in a subprocess whose address space is capped at `limit` bytes."""
    return cli_capped(*args, limit=limit)


def assert_no_crash(done: subprocess.CompletedProcess) -> None:
    """No internal error, MemoryError or traceback: the kit ended on purpose."""
    text = done.stdout + done.stderr
    assert "internal error" not in text, text[-2000:]
    assert "MemoryError" not in text, text[-2000:]
    assert "Traceback" not in text, text[-2000:]


def avro_file(schema: dict, blocks: list[tuple[int, bytes]], codec: str = "null", sync: bytes = SYNC) -> bytes:
    """An Avro container file: fastavro's header, then the given (record count, block bytes) blocks."""
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), [], codec=codec, sync_marker=SYNC)
    return buf.getvalue() + b"".join(zigzag(n) + zigzag(len(body)) + body + sync for n, body in blocks)


def copy_table(tmp_path: Path) -> tuple[Path, dict]:
    """A copy of a Java-written table and its latest snapshot."""
    root = shutil.copytree(TABLE, tmp_path / "t")
    latest = max((root / "snapshot").glob("snapshot-*"), key=lambda p: int(p.name.split("-")[1]))
    return root, json.loads(latest.read_text())


def findings(done: subprocess.CompletedProcess) -> list[dict]:
    """Every finding of a `--report json` run."""
    return [f for r in json.loads(done.stdout)["files"] for f in r["findings"]]


# ------------------------------------------------------------------------------------------- the budget


def test_sizes_and_the_context():
    assert budget.parse_size("512M") == 512 << 20
    assert budget.parse_size("1.5g") == 3 << 29
    assert budget.parse_size("4096") == 4096
    with pytest.raises(UsageError):
        budget.parse_size("lots")
    assert budget.current().max_memory == budget.DEFAULT_MAX_MEMORY == 1 << 30
    with budget.limited(8 << 20):
        assert budget.current().max_memory == 8 << 20
        budget.reserve(8 << 20, "exactly the budget")
        with pytest.raises(budget.BudgetExceeded, match=r"memory budget of 8\.0 MiB"):
            budget.reserve((8 << 20) + 1, "one byte more")
    assert budget.current().max_memory == budget.DEFAULT_MAX_MEMORY
    with pytest.raises(UsageError):
        budget.limited(1024).__enter__()


def test_cli_max_memory_option(tmp_path):
    assert cli.main(["validate", str(TABLE), "--max-memory", "64M"]) == 0
    assert cli.main(["--max-memory", "64M", "validate", str(TABLE)]) == 0
    assert cli.main(["validate", str(TABLE), "--max-memory", "plenty"]) == 2
    assert cli.main(["validate", str(TABLE), "--max-memory", "1k"]) == 2


def test_avro_block_of_2_31_zero_byte_records_is_a_finding_not_an_oom(tmp_path):
    """~120 bytes: a writer schema whose records take no byte, one block claiming 2^31 of them."""
    root, snap = copy_table(tmp_path)
    crafted = avro_file({"type": "record", "name": "r", "fields": []}, [(2**31, b"")])
    assert len(crafted) < 150
    (root / "manifest" / snap["deltaManifestList"]).write_bytes(crafted)
    done = run_limited("validate", str(root), "--report", "json", "--max-memory", "256M")
    assert_no_crash(done)
    assert done.returncode == 1, done.stderr
    got = [f for f in findings(done) if f["code"] == "MANIFEST_UNREADABLE"]
    assert got
    assert "zero bytes" in got[0]["message"]


def test_avro_block_count_is_checked_against_its_bytes(tmp_path):
    """Java's schema, a real block, its record count raised to 2^31: refused before decoding."""
    root, snap = copy_table(tmp_path)
    path = root / "manifest" / snap["deltaManifestList"]
    records = list(fastavro.reader(io.BytesIO(path.read_bytes())))
    schema = fastavro.reader(io.BytesIO(path.read_bytes())).writer_schema
    body = io.BytesIO()
    for r in records:
        fastavro.schemaless_writer(body, schema, r)
    path.write_bytes(avro_file(json.loads(json.dumps(schema)), [(2**31, body.getvalue())]))
    with pytest.raises(MetadataProblem, match="claims 2147483648 records in") as err:
        read_records(path)
    assert err.value.code == "MANIFEST_UNREADABLE"
    assert err.value.path == "blocks[0].count"


def test_avro_array_of_zero_byte_items_is_refused():
    schema = {"type": "record", "name": "r", "fields": [{"name": "a", "type": {"type": "array", "items": "null"}}]}
    with pytest.raises(MetadataProblem, match="zero bytes"):
        read_avro(avro_file(schema, [(1, zigzag(2**40) + b"\x00")]))


@pytest.mark.parametrize("codec", ["null", "deflate", "snappy", "zstandard", "bzip2", "xz"])
def test_avro_codecs_read_as_fastavro_reads_them(codec):
    schema = fastavro.parse_schema(
        {
            "type": "record",
            "name": "r",
            "fields": [
                {"name": "_VERSION", "type": "int"},
                {"name": "s", "type": "string"},
                {"name": "n", "type": ["null", {"type": "array", "items": ["null", "long"]}]},
            ],
        }
    )
    records = [{"_VERSION": 2, "s": f"file-{i}" * (i % 7), "n": None if i % 3 else [i, None]} for i in range(3000)]
    buf = io.BytesIO()
    fastavro.writer(buf, schema, records, codec=codec, sync_interval=4000)  # many blocks
    got = read_avro(buf.getvalue())
    assert got.records == records
    assert got.schema == fastavro.reader(io.BytesIO(buf.getvalue())).writer_schema


@pytest.mark.parametrize("codec", ["deflate", "snappy", "zstandard", "bzip2", "xz"])
def test_avro_decompression_is_bounded_by_the_budget(codec):
    """16 MiB of zeros compress to a few KiB; under a 4 MiB budget the block is refused, not decompressed."""
    schema = fastavro.parse_schema({"type": "record", "name": "r", "fields": [{"name": "b", "type": "bytes"}]})
    buf = io.BytesIO()
    fastavro.writer(buf, schema, [{"b": bytes(16 << 20)}], codec=codec)
    data = buf.getvalue()
    assert len(data) < 1 << 20
    with budget.limited(4 << 20), pytest.raises(budget.BudgetExceeded, match="decompressed block"):
        read_avro(data)
    assert len(read_avro(data).records[0]["b"]) == 16 << 20  # within the default budget


def test_avro_blocks_are_consumed_exactly():
    schema = {"type": "record", "name": "r", "fields": [{"name": "v", "type": "int"}]}
    assert read_avro(avro_file(schema, [(2, b"\x02\x04")])).records == [{"v": 1}, {"v": 2}]
    with pytest.raises(MetadataProblem, match="follow its 1 records"):
        read_avro(avro_file(schema, [(1, b"\x02\x04")]))
    with pytest.raises(MetadataProblem, match="sync marker"):
        read_avro(avro_file(schema, [(2, b"\x02\x04")], sync=bytes(16)))
    with pytest.raises(MetadataProblem, match="remain"):
        read_avro(avro_file(schema, [(2, b"\x02\x04")])[:-5])
    with pytest.raises(MetadataProblem, match="negative"):
        read_avro(avro_file(schema, [(-1, b"")]))


def test_avro_header_counts_are_bounded():
    head = b"Obj\x01" + zigzag(2**40)  # a metadata map claiming 2^40 entries
    with pytest.raises(MetadataProblem, match="metadata entries"):
        read_avro(head + bytes(64))
    deep = b"Obj\x01" + zigzag(1) + zigzag(11) + b"avro.schema" + zigzag(200_000) + b"[" * 200_000 + zigzag(0) + SYNC
    with pytest.raises(MetadataProblem, match="nested 200000 levels"):
        read_avro(deep)


def test_columnar_metadata_rows_are_checked_before_reading(tmp_path):
    path = tmp_path / "manifest-x"
    pq.write_table(pa.table({"_VERSION": pa.array(np.full(200_000, 2, dtype=np.int32))}), path)
    with budget.limited(4 << 20), pytest.raises(budget.BudgetExceeded, match="memory budget"):
        read_records(path)  # the kit cannot check it within the budget: not a finding against the file
    assert len(read_records(path).records) == 200_000


# ------------------------------------------------------------------------------------------- layouts


def full_roaring32() -> bytes:
    """Every 32-bit value: 65536 run containers of one full run each, about 900 KB."""
    n = 1 << 16
    head = struct.pack("<HH", 12347, n - 1) + b"\xff" * (n // 8)
    head += b"".join(struct.pack("<HH", k, 0xFFFF) for k in range(n))
    start = len(head) + 4 * n
    head += b"".join(struct.pack("<I", start + 6 * k) for k in range(n))
    return head + struct.pack("<HHH", 1, 0, 0xFFFF) * n


def test_full_32_bit_bitmap_inspects_and_validates_without_listing_its_values(tmp_path):
    path = tmp_path / "full.bin"
    path.write_bytes(full_roaring32())
    done = run_limited("inspect", str(path), "--json")
    assert_no_crash(done)
    case = json.loads(done.stdout)
    assert (case["cardinality"], case["ranges"]) == (1 << 32, [[0, (1 << 32) - 1]])
    done = run_limited("validate", str(path))
    assert_no_crash(done)
    assert done.returncode == 0


def test_roaring64_high_keys_inspect_compactly():
    """CRoaring's 64maphighvals.bin: 121 values under high keys near 2^32."""
    path = require_corpus() / "files" / "croaring" / "tests" / "testdata" / "64maphighvals.bin"
    done = run_limited("inspect", str(path), "--kind", "roaring64", "--json")
    assert_no_crash(done)
    case = json.loads(done.stdout)
    assert case["cardinality"] == 121
    want = [(h << 32) + low for h in range(2**32 - 11, 2**32) for low in range(2**32 - 11, 2**32)]
    assert roaring.from_ranges(case["ranges"]).tolist() == want


def test_encoding_a_64_bit_vector_near_2_63_is_refused_not_an_oom(tmp_path):
    """Paimon writes a bucket for every high key up to the highest: 2^31 buckets, far past any budget."""
    case = tmp_path / "dv.json"
    top = (0x7FFFFFFE << 32) | 0x80000000
    vectors = [{"bitmap": "bitmap64", "ranges": [[top - 10, top]]}]
    case.write_text(json.dumps({"case_format": 1, "kind": "deletion-vectors", "version": 1, "vectors": vectors}))
    done = run_limited("encode", str(case), "-o", str(tmp_path / "dv.bin"))
    assert_no_crash(done)
    assert done.returncode == 2
    assert "memory budget" in done.stderr
    assert "buckets" in done.stderr
    assert not (tmp_path / "dv.bin").exists()


def test_encoding_huge_ranges_is_refused(tmp_path):
    case = tmp_path / "r.json"
    case.write_text(json.dumps({"case_format": 1, "kind": "roaring64", "ranges": [[0, 2**40]]}))
    done = run_limited("encode", str(case), "-o", str(tmp_path / "r.bin"))
    assert_no_crash(done)
    assert done.returncode == 2
    assert "memory budget" in done.stderr


def bloom_payload(k: int, bits: bytes) -> str:
    return "hex:" + (struct.pack(">i", k) + bits).hex()


@pytest.mark.parametrize(
    ("k", "bits", "answer"),
    [
        (2**31 - 1, b"\xff" * 64, "remain"),  # every bit set: Java's 2^31 - 1 probes all find theirs
        (2**31 - 1, b"\x00" * 64, "skip"),  # Java's first probe finds a clear bit
        (-5, b"\x00" * 64, "remain"),  # Java's loop `for i in 1..k` never runs
        (0, b"\x00", "remain"),
    ],
)
def test_bloom_hash_count_of_any_size(k, bits, answer):
    done = run_limited(
        "query",
        bloom_payload(k, bits),
        "--kind",
        "bloom-filter",
        "--type",
        "INT",
        "--column",
        "c",
        "--where",
        "c = 7",
        "--json",
    )
    assert_no_crash(done)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"result": answer}


def test_bloom_probe_is_javas_loop():
    """`contains` (chunked, stops early) answers as the k listed positions of `positions` do."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        size = int(rng.integers(1, 40))
        bits = (rng.integers(0, 256, size, dtype=np.uint8) | rng.integers(0, 256, size, dtype=np.uint8)).tobytes()
        k = int(rng.integers(1, 20))
        hashes = rng.integers(-(2**63), 2**63 - 1, 64, dtype=np.int64)
        hashes[:8] = (hashes[:8] & 0xFFFFFFFF) | (1 << 40)  # h2 a power of two: a short period
        arr = np.unpackbits(np.frombuffer(bits, np.uint8), bitorder="little")
        want = arr[bloom.positions(hashes, k, 8 * len(bits)).reshape(k, -1)].all(axis=0).astype(bool)
        assert (bloom.contains(hashes, k, bits) == want).all()


def test_query_rows_are_written_a_chunk_at_a_time(tmp_path):
    """A 6-byte BSI payload of 20 million rows, none non-null: `IS NULL` selects them all. Listing them as
    Python ints and one string took past 1.2 GiB; streamed, the answer is written in bounded memory."""
    payload = "hex:" + (b"\x01" + struct.pack(">i", 20_000_000) + b"\x00\x00").hex()
    out = tmp_path / "rows.txt"

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))

    args = ["query", payload, "--kind", "bsi", "--type", "BIGINT", "--column", "c", "--where", "c IS NULL"]
    with out.open("w") as sink:
        done = subprocess.run(
            [sys.executable, "-m", "paimon_conform.cli", *args],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=cap,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr
    with out.open("rb") as f:
        assert f.read(32) == b"20000000 row(s): 0 1 2 3 4 5 6 7"
        f.seek(-18, 2)
        assert f.read() == b"19999998 19999999\n"


def test_streamed_rows_are_what_json_dumps_writes(capsys):
    from pyroaring import BitMap

    from paimon_conform.layouts.file_index import query

    for rows in (BitMap(), BitMap([7]), BitMap(range(3, 200_000, 3))):
        cli.write_rows(rows, True)
        assert capsys.readouterr().out == json.dumps(query.describe(rows)) + "\n"
        cli.write_rows(rows, False)
        text = capsys.readouterr().out
        want = f"{len(rows)} row(s): {' '.join(map(str, rows))}\n" if rows else "0 rows: readers skip this file\n"
        assert text == want


def test_inputs_are_checked_against_the_budget_before_they_are_parsed(tmp_path):
    """The generated parsers build up to ~66 bytes of Python objects per input byte (run-heavy bitmaps)."""
    from paimon_conform.layouts.deletion_vectors import entry as dv

    data, _ = dv.encode_file([("bitmap32", range(0, 400_000, 2))])  # array containers: 200 KB
    path = tmp_path / "dv.bin"
    path.write_bytes(data)
    assert cli.main(["validate", str(path)]) == 0
    assert cli.main(["validate", str(path), "--max-memory", "4M"]) == 2  # 200 KB would need about 16 MiB
    assert dv.validate(data) == []
    damaged = bytearray(data)
    damaged[-1] ^= 1  # the CRC of the last vector
    with budget.limited(4 << 20):  # the table validator's path: too large to parse, checked by the fast path
        assert dv.validate(data) == []
        small = [(f.code, f.severity) for f in dv.validate(bytes(damaged))]
    assert small == [("DV_CRC_MISMATCH", "must")]
    assert ("DV_CRC_MISMATCH", "must") in [(f.code, f.severity) for f in dv.validate(bytes(damaged))]


def test_a_hash_file_too_large_to_parse_is_checked_by_the_fast_path():
    """A bucket with millions of keys is valid in Java: past the parse budget it is checked, not refused."""
    from paimon_conform.layouts.hash_index import entry as hash_index

    data = hash_index.encode_hashes(np.array([*range(100_000), 7], dtype=np.int64))
    with budget.limited(4 << 20):  # 400 KB would need about 32 MiB as a parse tree
        small = [(f.code, f.path) for f in hash_index.validate(data)]
        assert [f.code for f in hash_index.validate(data[:-1])] == ["HASH_SIZE_NOT_MULTIPLE_OF_4"]
    assert small == [(f.code, f.path) for f in hash_index.validate(data)] == [("HASH_DUPLICATE", "hashes[100000]")]


def test_an_avro_data_file_claiming_2_31_records_is_refused_before_decoding(tmp_path):
    """Avro data files (file.format = avro) go through the same bounded reader as the metadata."""
    from paimon_conform.table.read import data_files

    schema = {"type": "record", "name": "r", "fields": [{"name": "v", "type": "long"}]}
    path = tmp_path / "data-0.avro"
    path.write_bytes(avro_file(schema, [(2**31, b"\x02\x04")]))
    with pytest.raises(UsageError, match="claims 2147483648 records"):
        data_files.read_data_file(path)
    path.write_bytes(avro_file(schema, [(2, b"\x02\x04")]))
    assert data_files.read_data_file(path).table.column("v").to_pylist() == [1, 2]


@pytest.mark.parametrize("k", [0, -5, 2**31 - 1])
def test_a_bloom_payload_checked_against_data_with_any_hash_count(k):
    """`validate --data` probes a stored filter as Java's loop does: no reshape of k positions, no crash."""
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts.bloom_filter import codec as bloom
    from paimon_conform.layouts.file_index.against_data import check_payload

    t = parse_type("INT")
    payload = bloom.build(t, [1, 2, 3])
    stored = struct.pack(">i", k) + payload[4:]
    found = [f.code for f in check_payload("bloom-filter", stored, t, [1, 2, 3, 99], "payload")]
    # k <= 0: Java's loop never runs, every value "might be there"; 2^31 - 1 probes of a sparse filter meet a
    # clear bit for the indexed values too, so Java would skip the file
    assert found == ([] if k <= 0 else ["BLOOM_FALSE_NEGATIVE"])


def test_a_deletion_vector_of_2_31_positions_in_a_table_is_refused_not_listed(tmp_path):
    """A vector of full runs (under 1 MB) claims 2^31 deleted positions: the table is unusable within the
    budget (exit 2 with the reason), never listed into 16 GiB of positions."""
    from pyroaring import BitMap

    from paimon_conform.layouts.deletion_vectors import entry as dv
    from paimon_conform.table.metadata import DeletionVectorRange, IndexManifestEntry
    from paimon_conform.table.read.index_files import load_index_files

    every = BitMap()
    every.add_range(0, 2**31)
    every.run_optimize()
    blob = dv.MAGIC32_BYTES + every.serialize()
    data = bytes([dv.VERSION]) + dv.frame(blob)
    (tmp_path / "index").mkdir()
    (tmp_path / "index" / "index-0").write_bytes(data)
    ranges = (DeletionVectorRange("data-0.parquet", 1, dv.manifest_length("bitmap32", len(blob)), None),)
    entry = IndexManifestEntry(0, b"", 0, "DELETION_VECTORS", "index-0", len(data), 1, ranges, None, 0)
    assert len(data) < 1 << 20  # 32768 full run containers: under 1 MB for 16 GiB of positions
    with pytest.raises(budget.BudgetExceeded, match="positions of the deletion vector"):
        load_index_files(tmp_path, [entry], "index-manifest")
