"""The `.row` data file of Paimon 2.0: the encoder, the generated parser, the codec and the case agree on
any rows of any column types; any damaged file gets the same first fault from both readers; the zstd
blocks are the ones Paimon's own ZstdBlockCompressor writes; a file assembled by hand from rowformat.md
is the encoder's."""

from __future__ import annotations

import json
import math
import struct
import subprocess
import sys
from pathlib import Path

import cramjam
import paimon_java
import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.capped import cli_capped
from support.environment import ROOT
from support.strategies import INTERNAL_VALUES

from paimon_conform.core import block_codec, codecs
from paimon_conform.core.errors import EncodeError
from paimon_conform.layouts.registry import detect
from paimon_conform.layouts.row_file import codec, entry
from paimon_conform.layouts.row_file import types as rtypes

EVIDENCE = ("java", "kit", "contract")

GOLDEN = ROOT / "golden" / "row_file"
ATOMIC = {
    name: rtypes.parse(name if name != "TIMESTAMP_LTZ(6)" else "TIMESTAMP(6) WITH LOCAL TIME ZONE")
    for name in INTERNAL_VALUES
}


def _nested_types() -> st.SearchStrategy:
    atomic = st.sampled_from(sorted(ATOMIC))
    return st.recursive(
        atomic.map(lambda n: ("atomic", n)),
        lambda inner: st.one_of(
            inner.map(lambda t: ("ARRAY", t)),
            st.tuples(atomic, inner).map(lambda kt: ("MAP", kt)),
            inner.map(lambda t: ("MULTISET", t)),
            st.lists(inner, min_size=1, max_size=3).map(lambda ts: ("ROW", ts)),
        ),
        max_leaves=4,
    )


def _type(spec) -> rtypes.RowFieldType:
    kind, arg = spec
    if kind == "atomic":
        return ATOMIC[arg]
    if kind in ("ARRAY", "MULTISET"):
        return rtypes.RowFieldType(kind, children=(_type(arg),))
    if kind == "MAP":
        return rtypes.RowFieldType("MAP", children=(ATOMIC[arg[0]], _type(arg[1])))
    return rtypes.RowFieldType(
        "ROW", children=tuple(_type(a) for a in arg), names=tuple(f"n{i}" for i in range(len(arg)))
    )


def _values(spec) -> st.SearchStrategy:
    kind, arg = spec
    if kind == "atomic":
        inner = INTERNAL_VALUES[arg]
    elif kind == "ARRAY":
        inner = st.lists(_values(arg), max_size=4)
    elif kind == "MULTISET":
        inner = st.lists(st.tuples(_values(arg), st.one_of(st.none(), INTERNAL_VALUES["INT"])), max_size=3)
    elif kind == "MAP":
        inner = st.lists(st.tuples(_values(("atomic", arg[0])), _values(arg[1])), max_size=3)
    else:
        inner = st.tuples(*[_values(a) for a in arg]).map(list)
    return st.one_of(st.none(), inner)


@st.composite
def files(draw):
    """Column types, rows of them, and writer options."""
    specs = draw(st.lists(_nested_types(), min_size=1, max_size=5))
    rows = draw(st.lists(st.tuples(*[_values(s) for s in specs]).map(list), max_size=25))
    return [_type(s) for s in specs], rows, draw(st.sampled_from([40, 200, 65536])), draw(st.sampled_from([1, 1, 3]))


def _same(a, b) -> bool:
    """Equal values, NaN equal to NaN (floats round-trip bit for bit)."""
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b) or (math.isnan(a) and math.isnan(b))
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@given(files())
def test_encoder_codec_spec_and_case_agree(f):
    types, rows, block_size, level = f
    data = codec.encode(types, rows, block_size, level)
    assert entry.detect(data)
    assert detect(data).kind == "row-file"
    got = codec.load(data, types)
    assert _same(got.rows, rows)
    assert got.soft == []
    assert entry.validate(data, types) == []  # the spec's parser reads it too (rows of atomic columns)
    named = {f"c{i}": t for i, t in enumerate(types)}
    if _json_writable(rows, types):  # dates and times the case's JSON form can write (years 1..9999)
        case = entry.inspect(data, named)
        assert entry.encode(json.loads(json.dumps(case))) == data
    else:
        with pytest.raises(EncodeError, match="years"):
            entry.inspect(data, named)
    for block in got.blocks[:-1]:  # Java's rule: a block is flushed once its estimate reaches the block size
        sizes = [len(codec.row_bytes(types, r)) for r in block.rows]
        assert sum(sizes) + 4 * len(sizes) + 4 >= block_size
        assert sum(sizes[:-1]) + 4 * (len(sizes) - 1) + 4 < block_size


def _json_writable(rows, types) -> bool:
    try:
        [[entry.value_json(t, v) for t, v in zip(types, r, strict=True)] for r in rows]
    except EncodeError:
        return False
    return True


def test_a_file_assembled_by_hand_from_the_spec_page_is_the_encoders():
    """rowformat.md, written out by hand: a row (INT 7, STRING "ab", NULL BIGINT) and a row (INT -1, NULL,
    BIGINT 2^40); one block; the index's three arrays; the 32-byte footer."""
    row0 = bytes([0b100]) + (7).to_bytes(4, "little") + b"\x02ab"
    row1 = bytes([0b010]) + (-1).to_bytes(4, "little", signed=True) + (2**40).to_bytes(8, "little")
    block = row0 + row1 + (0).to_bytes(4, "little") + len(row0).to_bytes(4, "little") + (2).to_bytes(4, "little")
    stored = block_codec.zstd_stream(block)
    zigzag = lambda v: bytes([2 * v]) if 0 <= v < 64 else None  # noqa: E731 - small deltas: one byte each
    index = bytes([1]) + zigzag(len(stored)) + bytes([1]) + zigzag(len(block)) + bytes([1]) + zigzag(0)
    footer = (2).to_bytes(8, "little") + (1).to_bytes(4, "little") + len(stored).to_bytes(8, "little")
    footer += len(index).to_bytes(4, "little") + b"\x01\x00\x00\x00" + b"SWOR"
    types = [rtypes.parse(t) for t in ("INT", "STRING", "BIGINT")]
    assert codec.encode(types, [[7, "ab", None], [-1, None, 2**40]]) == stored + index + footer


def _mutations(data: bytes, types) -> list[bytes]:
    """Damaged forms of a valid file: footer and index fields, block contents, bytes."""
    at = len(data) - codec.FOOTER
    out = [data[:k] for k in (0, 5, 31, len(data) - 1)]
    for pos, fmt, value in [
        (at, "<q", -1),
        (at + 8, "<i", 99),
        (at + 12, "<q", 3),
        (at + 20, "<i", 0),
        (at + 25, "<B", 1),
    ]:
        m = bytearray(data)
        struct.pack_into(fmt, m, pos, value)
        out.append(bytes(m))
    return out


@given(files(), st.data())
def test_both_readers_meet_the_same_first_fault(f, data_st):
    """Structured damage (fields of the footer, the index and the blocks' contents) and flipped bytes: the spec's
    parser and the codec agree on the first fault, or both read the file; the kit never fails otherwise."""
    types, rows, block_size, level = f
    data = codec.encode(types, rows, block_size, level)
    rf = codec.load(data, types)
    candidates = _mutations(data, types)
    if rf.blocks:
        contents = [codecs.zstd_exact(data[b.offset : b.offset + b.compressed], b.uncompressed) for b in rf.blocks]
        i = data_st.draw(st.integers(0, len(contents) - 1))
        c = bytearray(contents[i])
        pos = data_st.draw(st.integers(0, len(c) - 1))
        c[pos] ^= data_st.draw(st.integers(1, 255))
        candidates.append(codec.assemble([*contents[:i], bytes(c), *contents[i + 1 :]], level))
        candidates.append(
            codec.assemble(contents, level, row_starts=[b.row_start + (k == i) for k, b in enumerate(rf.blocks)])
        )
    flip = bytearray(data)
    flip[data_st.draw(st.integers(0, len(data) - 1))] ^= 0xFF
    candidates.append(bytes(flip))
    for bad in candidates:
        found = entry.validate(bad, types)
        assert all(f.code != "ROW_FILE_DECODERS_DISAGREE" for f in found), (
            [(f.code, f.path, f.offset) for f in found],
            bad.hex(),
        )
        outside = [(f.code, f.path, f.offset) for f in found if f.offset is not None and not 0 <= f.offset <= len(bad)]
        assert not outside, f"offsets outside the {len(bad)}-byte input: {outside}"


@pytest.mark.parametrize(
    ("override", "code"),
    [
        ({"reserved": b"\x00\x07\x00"}, "ROW_FILE_RESERVED"),
        ({"num_blocks": 5}, "ROW_FILE_BLOCK_COUNT"),
        ({"gap": b"\x00\x00"}, "ROW_FILE_BLOCK_GAP"),
    ],
)
def test_bytes_java_never_reads_are_should_findings(override, code):
    types = [rtypes.parse("INT")]
    block = codec.block_content(codec.row_bytes(types, [5]), [0])
    found = entry.validate(codec.assemble([block], **override), types)
    assert [(f.code, f.severity) for f in found] == [(code, "should")]
    assert "does not use or check it" in found[0].message


def test_a_gap_between_rows_and_bad_utf8_are_should_findings():
    types = [rtypes.parse("STRING")]
    r0, r1 = codec.row_bytes(types, ["a"]), b"\x00\x02\xff\xfe"
    found = entry.validate(codec.assemble([codec.block_content(r0 + b"\x00" + r1, [0, len(r0) + 1])]), types)
    assert [(f.code, f.severity) for f in found] == [("ROW_FILE_BAD_UTF8", "should"), ("ROW_FILE_ROW_GAP", "should")]
    assert codec.load(codec.assemble([codec.block_content(r0 + r1, [0, len(r0)])]), types).rows[1] == ["\ufffd\ufffd"]


def test_without_types_the_structure_is_checked_and_a_warning_says_the_rows_were_not():
    data = (GOLDEN / "java-2.0.0" / "many-blocks.bin").read_bytes()
    assert [(f.code, f.severity) for f in entry.validate(data)] == [("ROW_FILE_ROWS_NOT_CHECKED", "warning")]
    bad = codec.assemble([b"\x01\x02"])
    assert [f.code for f in entry.validate(bad) if f.severity == "must"] == ["ROW_FILE_BAD_BLOCK"]


def test_must_findings_name_the_java_releases_that_read_row_files():
    bad = (GOLDEN / "must-reject" / "total-rows-wrong.bin").read_bytes()
    (f,) = [
        f
        for f in entry.validate(bad, [rtypes.parse(t) for t in ("INT", "STRING", "TIMESTAMP(6)")])
        if f.severity == "must"
    ]
    assert f.java_releases == entry.READERS
    assert "2.0" in entry.READERS
    assert "1.4" not in entry.READERS


def _blocks(path: Path) -> list[tuple[bytes, bytes, int]]:
    """(content, stored block, zstd level) of each block of a golden file."""
    case = json.loads(path.with_suffix(".json").read_text())
    data = path.read_bytes()
    rf = codec.load(data, list(entry.case_types(case).values()))
    out = []
    for b in rf.blocks:
        stored = data[b.offset : b.offset + b.compressed]
        out.append((codecs.zstd_exact(stored, b.uncompressed), stored, case.get("zstd_level", 1)))
    return out


def test_blocks_are_the_ones_paimons_zstd_block_compressor_writes(tmp_path):
    """Paimon's ZstdBlockCompressor (the class RowFormatWriter compresses with; unchanged from 0.9.0 to 2.0.0,
    both on zstd-jni 1.5.5-11) writes every golden block's content as the kit stored it, at the file's zstd
    level, and Paimon's ZstdBlockDecompressor reads the kit's blocks back."""
    blocks = [b for p in sorted((GOLDEN / "java-2.0.0").glob("*.bin")) for b in _blocks(p)]
    big = codec.encode([rtypes.parse("STRING")], [[f"value {i} " * (i % 9)] for i in range(8000)])  # 64 KiB blocks
    blocks += _blocks_of(big, 1)
    assert len(blocks) >= 15
    assert {lvl for *_, lvl in blocks} == {1, 3}
    request = [
        {
            "compression": "zstd",
            "level": lvl,
            "content": c.hex(),
            "stored": (block_codec.var_int(len(c)) + s).hex(),
            "trailer": "zstd",
        }
        for c, s, lvl in blocks
    ]
    (tmp_path / "request.json").write_text(json.dumps({"blocks": request}))
    paimon_java.run_java(
        "BlockCodecCheck", str(tmp_path / "request.json"), str(tmp_path / "report.json"), extra=(paimon_java.lz4_jar(),)
    )
    report = json.loads((tmp_path / "report.json").read_text())["blocks"]
    for (c, s, _), r in zip(blocks, report, strict=True):
        assert r["java_stored"] == (block_codec.var_int(len(c)) + s).hex()
        assert r["decoded"] == c.hex(), r["error"]


def _blocks_of(data: bytes, level: int) -> list[tuple[bytes, bytes, int]]:
    rf = codec.load(data, None)
    return [
        (
            codecs.zstd_exact(data[b.offset : b.offset + b.compressed], b.uncompressed),
            data[b.offset : b.offset + b.compressed],
            level,
        )
        for b in rf.blocks
    ]


@pytest.mark.parametrize(
    "extra",
    [
        {"primary-key": "dt,id", "bucket": "2"},
        {"primary-key": "dt,id", "bucket": "-1", "file.block-size": "200b"},
        {"bucket": "-1", "row-tracking.enabled": "true"},
    ],
    ids=["pk", "pk-dynamic-small-blocks", "append-row-tracking"],
)
def test_tables_of_row_files_validate_and_their_damage_is_found(tmp_path, extra):
    """The kit's writer with `file.format = row`: every data file is read with its schema's types and passes
    the data-file checks (columns, partition, bucket, stats against the rows); a damaged block is a must."""
    from support.engine_writes import run_writes

    from paimon_conform.table.validate.table import TableStats, validate_table

    root = tmp_path / "t"
    options = {"partition": "dt", "rowkind.field": "op", "file.format": "row"} | extra
    steps = [([(k, "a" if k % 2 else "b", "+I") for k in range(30)], 2), ([(k, "a", "+I") for k in range(5)], 1)]
    run_writes(root, options, steps)
    files = sorted(root.rglob("data-*.row"))
    assert len(files) >= 3
    stats = TableStats()
    found = [f for r in validate_table(root, stats=stats) for f in r.findings]
    assert [f for f in found if f.severity == "must"] == []
    assert stats.data_files == len(files)
    assert stats.rows >= 35
    if extra.get("bucket") == "2":  # the bucket of every row was recomputed from the decoded keys
        assert stats.bucket_rows == stats.rows
    victim = files[0]
    data = bytearray(victim.read_bytes())
    struct.pack_into("<q", data, len(data) - codec.FOOTER, 10**6)  # the footer's total
    victim.write_bytes(bytes(data))
    musts = [(r.file, f.code) for r in validate_table(root) for f in r.findings if f.severity == "must"]
    assert musts == [(str(victim), "ROW_FILE_BAD_ROW_COUNT")]


def test_data_files_of_formats_the_kit_does_not_read_are_one_warning_not_a_must(tmp_path):
    """A table with a `.mosaic` data file (Paimon 2.0; not a format the kit reads): named in one
    FEATURE_NOT_CHECKED warning, never DATA_FILE_UNREADABLE or a bad name."""
    from support.engine_writes import run_writes

    from paimon_conform.table.validate.table import validate_table

    root = tmp_path / "t"
    run_writes(
        root, {"partition": "dt", "rowkind.field": "op", "file.format": "row", "bucket": "-1"}, [([(1, "a", "+I")], 1)]
    )
    (victim,) = root.rglob("data-*.row")
    victim.rename(victim.with_suffix(".mosaic"))  # the entry now names a file that is gone: one must, no other
    found = [f for r in validate_table(root) for f in r.findings]
    assert [f.code for f in found if f.severity == "must"] == ["DATA_FILE_MISSING"]
    warnings = [f for f in found if f.code == "FEATURE_NOT_CHECKED" and "mosaic" in f.message]
    assert len(warnings) == 1


def test_a_row_tracking_file_is_read_with_or_without_the_row_tracking_columns(tmp_path):
    """A row-tracking append file may carry `_ROW_ID` / `_SEQUENCE_NUMBER` at the end or not: either is read
    whole with no finding (the shorter layout would leave bytes between the rows: a false should)."""
    from support.engine_writes import run_writes

    from paimon_conform.table.schema import read_schema
    from paimon_conform.table.validate.row_files import read_row_file

    root = tmp_path / "t"
    options = {"partition": "dt", "rowkind.field": "op", "file.format": "row", "row-tracking.enabled": "true"}
    run_writes(root, options | {"bucket": "-1"}, [([(1, "a", "+I"), (2, "a", "+I")], 1)])
    schema = read_schema(root, 0)
    f = next(root.rglob("data-*.row"))
    base = [rtypes.atomic(fld.type) for fld in schema.fields]
    plain = codec.load(f.read_bytes(), base)
    df, found = read_row_file(f, "plain.row", schema, None)
    assert found == []
    assert df.table.num_rows == plain.num_rows == 2
    tailed = tmp_path / "tailed.row"
    bigint = rtypes.parse("BIGINT")
    tailed.write_bytes(codec.encode([*base, bigint, bigint], [[*r, 100 + i, 7] for i, r in enumerate(plain.rows)]))
    df2, found2 = read_row_file(tailed, "tailed.row", schema, None)
    assert found2 == []
    assert df2.table.column_names == [*df.table.column_names, "_ROW_ID", "_SEQUENCE_NUMBER"]
    assert df2.table.column("_ROW_ID").to_pylist() == [100, 101]


# ---------------------------------------------------------------------------------------------- hardening

INTERPRETER = 640 << 20  # address space of the CLI before it reads anything (numpy, pyarrow mapped)


def test_a_block_of_no_rows_is_read_with_the_types():
    types = [rtypes.parse("INT")]
    data = codec.assemble([codec.block_content(b"", [])])
    assert entry.validate(data, types) == []
    assert codec.load(data, types).rows == []
    gap = codec.assemble([codec.block_content(b"\x00\x07", [])])
    assert [(f.code, f.severity, f.offset) for f in entry.validate(gap, types)] == [("ROW_FILE_ROW_GAP", "should", 0)]


def test_a_fault_inside_a_block_is_at_the_blocks_offset_in_the_input():
    types = [rtypes.parse("TIMESTAMP(9)")]
    first = codec.block_content(codec.row_bytes(types, [(1, 5)]), [0])
    bad = codec.block_content(codec.row_bytes(types, [(1, 5)])[:-1] + b"\xff\xff\xff\xff\x0f", [0])
    data = codec.assemble([first, bad])
    second = codec.load(codec.assemble([first, first]), types).blocks[1].offset
    (f,) = [f for f in entry.validate(data, types) if f.severity == "must"]
    assert (f.code, f.path, f.offset) == (
        "ROW_FILE_BAD_NANOS",
        "blocks[1].content.rows[0].row.fields[0].value.nano_of_milli",
        second,
    )
    assert "block byte 9" in f.message
    assert f.offset < len(data)


LEVEL_PROBE = """
import sys, cramjam
level = int(sys.argv[1])
def hwm():
    return next(int(l.split()[1]) << 10 for l in open("/proc/self/status") if l.startswith("VmHWM"))
before = hwm()
stream = cramjam.zstd.Compressor(level=level)
stream.compress(bytes(range(256)) * 4)
frame = bytes(stream.finish())
print(frame[5] >> 3, frame[5] & 7, frame[4], hwm() - before)
"""


@pytest.mark.parametrize("level", range(1, entry.MAX_ZSTD_LEVEL + 1))
def test_zstd_level_table(level):
    """The window log a streamed frame states at each level, and the memory its compressor takes (measured in a
    fresh process), are within what entry's tables say."""
    done = subprocess.run([sys.executable, "-c", LEVEL_PROBE, str(level)], capture_output=True, text=True, timeout=120)
    exponent, mantissa, descriptor, grown = map(int, done.stdout.split())
    assert (10 + exponent, mantissa, descriptor) == (entry.ZSTD_WINDOW_LOG[level], 0, 0)
    assert grown <= entry.ZSTD_LEVEL_MIB[level] << 20


def _capped_inspect(path: Path, types: str, budget: str) -> subprocess.CompletedProcess:
    args = ("inspect", str(path), "--types", types, "--json", "--max-memory", budget)
    return cli_capped(*args, limit=INTERPRETER + (256 << 20))


def test_inspect_tries_only_the_levels_the_frames_state_within_the_budget(tmp_path):
    types = [rtypes.parse("INT"), rtypes.parse("STRING")]
    rows = [[i, f"r{i}"] for i in range(40)]
    content = codec.block_content(b"".join(codec.row_bytes(types, r) for r in rows), _offsets(types, rows))
    one_shot = tmp_path / "one-shot.row"  # a frame with its content size: no zstd stream writes it
    one_shot.write_bytes(codec.assemble([content], stored=[bytes(cramjam.zstd.compress(content))]))
    done = _capped_inspect(one_shot, "a=INT,b=STRING", "256M")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "frame header is not the one Java's writer" in done.stdout + done.stderr
    assert "internal error" not in done.stdout + done.stderr
    high = tmp_path / "level-22.row"
    high.write_bytes(codec.encode(types, rows, zstd_level=22))
    done = _capped_inspect(high, "a=INT,b=STRING", "256M")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "zstd level 22" in done.stdout + done.stderr
    assert "memory budget" in done.stdout + done.stderr
    assert json.loads(cli_inspect(high))["zstd_level"] == 22  # the default budget holds level 22's compressor


def _offsets(types, rows) -> list[int]:
    out, at = [], 0
    for r in rows:
        out.append(at)
        at += len(codec.row_bytes(types, r))
    return out


def cli_inspect(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "paimon_conform.cli", "inspect", str(path), "--types", "a=INT,b=STRING", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


FUZZED = [  # inputs the fuzzer (tools/fuzz) found crashing the previous code: (column types, file)
    (
        "f0=INT,f1=STRING,f2=TIMESTAMP(6)",  # a zip() ValueError reading a block of no rows
        "28b52ffd0048d9000000010000000261620500000000000000c0843d06000000000000000148013601000100000000000000010000"
        "002400000000000000060000000100000053574f52",
    ),
    (
        "f0=BYTES",  # a fault inside a zstd block reported at an offset past the input's end
        "28b52ffd00489d000060009003ab000000000100000001008c2a200228b52ffd0048d50000983a01cd00ac02ef00000000000300"
        "00000002000100282a300202380e04b606b9010200020300000000000000020000003f000000000000000b0000000100000053574f52",
    ),
    (
        "f0=INT,f1=STRING,f2=TIMESTAMP(6)",  # inspect re-encoded at every zstd level: 800 MB
        "28b52ffd0048d9000000010000000261620500000000000000c0263d00000000010000000148013601000100000000000000010000"
        "002400000000000000060000000100000053574f52",
    ),
]


@pytest.mark.parametrize(("types", "hex_data"), FUZZED)
def test_inputs_the_fuzzer_found_end_in_the_kits_answers(tmp_path, types, hex_data):
    path = tmp_path / "f.row"
    path.write_bytes(bytes.fromhex(hex_data))
    for command in (["validate", "--report", "json"], ["inspect", "--json"]):
        done = _capped_cli(path, types, command)
        assert done.returncode in (0, 1, 2), done.stderr[-2000:]
        assert "internal error" not in done.stdout + done.stderr
        assert "Traceback" not in done.stderr
    report = json.loads(_capped_cli(path, types, ["validate", "--report", "json"]).stdout)
    offsets = [f["offset"] for r in report["files"] for f in r["findings"] if f["offset"] is not None]
    assert all(0 <= o <= path.stat().st_size for o in offsets), offsets


def _capped_cli(path: Path, types: str, command: list[str]) -> subprocess.CompletedProcess:
    args = (command[0], str(path), "--types", types, *command[1:], "--max-memory", "256M")
    return cli_capped(*args, limit=INTERPRETER + (256 << 20))
