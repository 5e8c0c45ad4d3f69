"""JSON text from untrusted tables (snapshots, schemas, hints, Avro writer schemas, cases): its nesting is
scanned in linear time with constant extra memory however long its strings are, parsing it is charged to
the budget at what it really costs (measured here), and JSON past the budget is exit 2 with the reason,
never a finding against a file Java may read well.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.avro_bytes import read_long, zigzag
from support.capped import cli_capped
from support.capped import run_capped as python_capped
from support.environment import GOLDEN

from paimon_conform.core import budget, json_text

EVIDENCE = ("contract",)

TABLE = GOLDEN / "tables" / "java-0.9.0" / "append-fixed3-avro"
HUGE = 15 << 20  # one string of 15 MiB: under the 20,000,000 characters newer Jacksons allow in a string
BUDGET = 512 << 20  # --max-memory of the runs below: 32 bytes per byte of HUGE fit it
INTERPRETER = 640 << 20  # address space of the CLI before it reads anything (numpy, pyarrow mapped): ~460 MiB


def reference_scan(data: bytes) -> tuple[int, int, int]:
    """json_text.scan, byte by byte: (depth, bytes within strings with their quotes, blank bytes outside).

    Inside a string a backslash takes the next byte with it. The depth stops at a backslash outside a
    string (no JSON parser reads past it); past it a quote after an odd run of backslashes opens nothing.
    """
    depth = deepest = strings = blanks = run = 0
    inside, stopped, i = False, False, 0
    while i < len(data):
        c = data[i : i + 1]
        if inside:
            step = 2 if c == b"\\" else 1
            strings += min(step, len(data) - i)
            inside = c != b'"'
            i += step
            continue
        if c == b'"' and run % 2 == 0:
            inside, strings = True, strings + 1
        elif c in b" \t\n\r":
            blanks += 1
        elif c == b"\\":
            stopped = True
        elif not stopped and c in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif not stopped and c in (b"]", b"}"):
            depth -= 1
        run = run + 1 if c == b"\\" else 0
        i += 1
    return deepest, strings, blanks


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}é😀\n'),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='k"\\[{', max_size=3), inner),
    max_leaves=20,
)
TEXT_BYTES = st.lists(st.sampled_from([b"[", b"]", b"{", b"}", b'"', b"\\", b"a", b","]), max_size=60).map(b"".join)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, json_text.SCAN_CHUNK])
@given(value=JSON_VALUES, ensure_ascii=st.booleans(), junk=TEXT_BYTES)
def test_scan_is_the_byte_by_byte_reference_at_every_chunk_size(chunk, value, ensure_ascii, junk):
    text = json.dumps(value, ensure_ascii=ensure_ascii, indent=1).encode()
    for data in (text, junk, junk + text):  # any bytes, JSON or not
        got = json_text.scan(data, chunk)
        assert (got.depth, got.string_bytes, got.blank_bytes) == reference_scan(data)


def test_depth_examples():
    assert json_text.json_depth(b'{"a": [1, {"b": "[[[[{{{{"}]}') == 3
    assert json_text.json_depth(b'"\\"[[["') == 0
    assert json_text.json_depth(b'["\\\\", [[]]]') == 3  # an escaped backslash does not escape the quote after it
    assert json_text.json_depth(b'[\\"[[[[') == 1  # stops at the backslash outside a string
    assert json_text.json_depth(b"[" * 1000) == 1000
    with pytest.raises(json_text.JsonLimitError, match="nested 100000 levels"):
        json_text.loads_json("[" * 100_000 + "]" * 100_000, "x")
    assert json_text.loads_json(b'{"a": [[1]]}', "x") == {"a": [[1]]}


@pytest.mark.parametrize(
    "body",
    [b"a" * (8 << 20), b"\\\\" * (4 << 20), b'\\"' * (4 << 20), "é😀".encode() * (1 << 20)],
    ids=["plain", "backslashes", "escaped quotes", "non-ASCII"],
)
def test_scanning_a_long_string_takes_constant_extra_memory(body):
    text = b'{"s": "' + body + b'"}'
    tracemalloc.start()
    try:
        assert json_text.json_depth(text) == 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < json_text.SCAN_FACTOR * json_text.SCAN_CHUNK, f"{peak} bytes to scan {len(text)} bytes"


SHAPES = {  # what parsing builds per byte of text: the objects and the decoded text
    "one ASCII string": b'"' + b"a" * 400_000 + b'"',
    "one string with an astral character": b'"' + b"a" * 400_000 + "😀".encode() + b'"',
    "empty objects": b"[" + b"{}," * 130_000 + b"{}]",
    "objects of one key": b"[" + b'{"a":1},' * 50_000 + b"{}]",
    "empty arrays": b"[" + b"[]," * 130_000 + b"[]]",
    "nested arrays": b"[" * 100 + b"[]," * 130_000 + b"[]" + b"]" * 100,
    "small integers": b"[" + b"1," * 200_000 + b"1]",
    "long integers": b"[" + b"123456789012," * 30_000 + b"1]",
    "floats": b"[" + b"1.5," * 100_000 + b"1]",
    "two-letter strings": b"[" + b'"ab",' * 80_000 + b'"ab"]',
    "distinct keys": b"{" + b",".join(b'"%d":0' % i for i in range(40_000)) + b"}",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_parsing_costs_at_most_what_the_budget_charges(shape):
    text = SHAPES[shape]
    tracemalloc.start()
    try:
        doc = json_text.loads_json(text, shape)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert doc is not None
    cost = json_text.scan(text).parse_cost
    assert peak <= cost, f"{peak / len(text):.1f} bytes per byte of JSON, {cost / len(text):.1f} charged"


def test_json_past_the_budget_is_refused_before_it_is_parsed():
    with budget.limited(1 << 20), pytest.raises(budget.BudgetExceeded, match="memory budget"):
        json_text.loads_json(b'"' + b"a" * (64 << 10) + b'"', "a snapshot")


# ------------------------------------------------------------------------------------------- tables


READ = """
import sys
from paimon_conform.core import budget, json_text
from paimon_conform.table.read.reader import read_latest
with budget.limited(int(sys.argv[2])):
    print(read_latest(sys.argv[1])[1].num_rows)
"""


def run_capped(*args: str, limit: int = INTERPRETER + BUDGET) -> subprocess.CompletedProcess:
    """The CLI (or, for `read`, the kit's reader) with its address space capped a little above the budget."""

    if args[0] == "read":
        return python_capped(["-c", READ, args[1], str(BUDGET)], limit)
    return cli_capped(*args, "--max-memory", str(BUDGET), limit=limit)


def with_writer_schema(data: bytes, change) -> bytes:
    """An Avro container file whose header's writer schema is changed by `change` (blocks untouched)."""
    assert data[:4] == b"Obj\x01"
    at, meta = 4, []
    while True:
        n, at = read_long(data, at)
        if n == 0:
            break
        if n < 0:
            n, (_, at) = -n, read_long(data, at)
        for _ in range(n):
            klen, at = read_long(data, at)
            key, at = data[at : at + klen], at + klen
            vlen, at = read_long(data, at)
            value, at = data[at : at + vlen], at + vlen
            meta.append((key, json.dumps(change(json.loads(value))).encode() if key == b"avro.schema" else value))
    header = b"".join(zigzag(len(k)) + k + zigzag(len(v)) + v for k, v in meta)
    return b"Obj\x01" + zigzag(len(meta)) + header + zigzag(0) + data[at:]


def huge_tables(tmp_path: Path) -> dict[str, Path]:
    """Java's table with one huge JSON string in each kind of metadata JSON, and padded past 16 MiB."""
    out = {}
    root = Path(shutil.copytree(TABLE, tmp_path / "snapshot-string"))
    snap = root / "snapshot" / "snapshot-2"
    doc = json.loads(snap.read_text())
    snap.write_text(json.dumps({**doc, "commitUser": "u" * HUGE}))
    out["a snapshot's commitUser"] = root
    root = Path(shutil.copytree(TABLE, tmp_path / "snapshot-padded"))
    snap = root / "snapshot" / "snapshot-2"
    snap.write_text(snap.read_text() + " " * (17 << 20))
    out["a snapshot padded to 17 MiB"] = root
    root = Path(shutil.copytree(TABLE, tmp_path / "schema-string"))
    schema = root / "schema" / "schema-0"
    sdoc = json.loads(schema.read_text())
    sdoc["comment"] = "c" * HUGE
    schema.write_text(json.dumps(sdoc))
    out["a schema's comment"] = root
    root = Path(shutil.copytree(TABLE, tmp_path / "avro-doc"))
    for path in (root / "manifest").glob("manifest-list-*"):  # (a manifest's size is in its list)
        path.write_bytes(with_writer_schema(path.read_bytes(), lambda s: {**s, "doc": "d" * HUGE}))
    out["each manifest list's Avro writer schema doc"] = root
    return out


def report(done: subprocess.CompletedProcess) -> dict:
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert "MemoryError" not in done.stdout + done.stderr, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_huge_json_strings_validate_as_the_table_does_within_the_budget(tmp_path):
    pristine = report(run_capped("validate", str(TABLE), "--report", "json"))
    codes = sorted(f["code"] for r in pristine["files"] for f in r["findings"])
    rows = int(run_capped("read", str(TABLE)).stdout)
    for what, root in huge_tables(tmp_path).items():
        done = run_capped("validate", str(root), "--report", "json")
        assert done.returncode == 0, f"{what}: rc {done.returncode}: {done.stdout[-1500:]} {done.stderr[-1500:]}"
        got = sorted(f["code"] for r in report(done)["files"] for f in r["findings"])
        assert got == codes, what
        read = run_capped("read", str(root))
        assert read.returncode == 0, f"{what}: read rc {read.returncode}: {read.stderr[-1500:]}"
        assert read.stdout.split() == [str(rows)], what


def test_json_past_the_budget_is_exit_2_with_the_reason_not_a_finding(tmp_path):
    root = huge_tables(tmp_path)["a snapshot's commitUser"]
    done = subprocess.run(
        [sys.executable, "-m", "paimon_conform.cli", "validate", str(root), "--max-memory", "64M"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 2, done.stdout[-2000:]
    assert "memory budget" in done.stdout + done.stderr
    assert "SNAPSHOT_MALFORMED" not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def _scanned_outcome(raw: bytes, max_depth: int) -> object:
    """What loads_json gives when every text is scanned (its checks spelled out here): the value, or the class
    of what it raises."""
    try:
        measured = json_text.scan(raw)
        budget.reserve(measured.parse_cost, "text")
        if measured.depth > max_depth:
            raise json_text.JsonLimitError("deep")
        return json.loads(raw.decode("utf-8"))
    except (budget.BudgetExceeded, json_text.JsonLimitError, ValueError) as exc:
        return type(exc)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=40,
)


@example(b"[" + b",".join([b'"x"'] * 8000) + b"]", 12, 1 << 20)  # past the budget by the exact figures
@example(b"[" + b",".join([b'"x"'] * 3000) + b"]", 12, 1 << 20)  # within it
@example(b"[[[[1]]]]", 3, 1 << 28)  # too deep
@given(
    JSON_VALUES.map(lambda v: json.dumps(v).encode())
    | st.binary(max_size=64)
    | st.integers(0, 12000).map(lambda n: b"[" + b",".join([b'"x"'] * n) + b"]"),  # near the 1 MiB budget
    st.integers(1, 12),
    st.sampled_from([1 << 20, (1 << 20) + 4096, 3 << 20, 1 << 28]),
)
def test_short_texts_skip_the_scan_with_the_same_outcome(raw: bytes, max_depth: int, limit: int) -> None:
    """loads_json's unscanned path for short texts ends as the scanned one would: the same value, or the same
    refusal (budget, depth, not JSON), for any text, nesting limit and budget."""
    with budget.limited(limit):
        expected = _scanned_outcome(raw, max_depth)
        try:
            got: object = json_text.loads_json(raw, "text", max_depth)
        except (budget.BudgetExceeded, json_text.JsonLimitError, ValueError) as exc:
            got = type(exc)
    assert got == expected
