"""What Java 2.0.0's .row reader does with each must-reject row file, and with two files the kit calls should, when a
read selects rows by position (as deletion vectors and row ranges hand a selection to the reader) as well as on a
full read: tools/java/testee/since/2.0/RowFileSelections.java, one JVM for all files.

A file is misread when some read fails, or returns other rows than the full read's rows at the selected positions
(a position past the full read's rows, up to the footer's total, must give no row). The kit's verdict must be Java's:
a must-reject file is misread by some read; the should files (row starts past the block count, a 6-byte varint a
row's reader takes) are read right by every read, and the kit has only its should for them."""

from __future__ import annotations

import json
import struct
import subprocess

import java_releases
import paimon_java
import pytest
from support.environment import ROOT

from paimon_conform.layouts.row_file import codec, entry
from paimon_conform.layouts.row_file import types as rtypes

pytestmark = pytest.mark.java

EVIDENCE = ("java",)

RELEASE = "2.0.0"  # the first (and only) release with .row files
MUST_REJECT = ROOT / "golden" / "row_file" / "must-reject"
FIELDS = [{"name": "f0", "type": "INT"}, {"name": "f1", "type": "STRING"}, {"name": "f2", "type": "TIMESTAMP(6)"}]


def _should_files() -> dict[str, tuple[bytes, str]]:
    """Files Java reads right that the kit reports at should: (bytes, the kit's code)."""
    types = [rtypes.parse(f["type"]) for f in FIELDS]
    r0 = codec.row_bytes(types, [1, "ab", (5, 6)])
    r1 = codec.row_bytes(types, [2, None, (7, 8)])
    good = codec.block_content(r0 + r1, [0, len(r0)])
    overlong = codec.block_content(r0[:5] + b"\x82\x80\x80\x80\x80\x00" + r0[6:] + r1, [0, len(r0) + 5])
    return {
        "row-starts-past-the-blocks": (codec.assemble([good], row_starts=[0, 0]), "ROW_FILE_INDEX_EXTRA"),
        "length-in-six-varint-bytes": (codec.assemble([overlong]), "ROW_FILE_VARINT_OVERLONG"),
    }


@pytest.fixture(scope="module")
def reads(tmp_path_factory) -> dict[str, list[dict]]:
    """Per file: Java's reads (the full read first)."""
    work = tmp_path_factory.mktemp("row-file-selections")
    files = {p.stem: p.with_suffix(".bin").read_bytes() for p in sorted(MUST_REJECT.glob("*.json"))}
    files |= {name: data for name, (data, _) in _should_files().items()}
    listed = []
    for name, data in files.items():
        path = work / f"{name}.row"
        path.write_bytes(data)
        total = struct.unpack_from("<q", data, len(data) - codec.FOOTER)[0] if len(data) >= codec.FOOTER else 0
        listed.append({"path": str(path), "fields": FIELDS, "rows": max(0, min(total, 8)) or 4, "name": name})
    (work / "in.json").write_text(json.dumps({"files": listed}))
    command = paimon_java.java_command(
        java_releases.testee_classpath(RELEASE),
        "RowFileSelections",
        str(work / "in.json"),
        str(work / "out.json"),
        short=True,
    )
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads((work / "out.json").read_text())
    return {f["name"]: r["reads"] for f, r in zip(listed, out, strict=True)}


# The rows a must-reject file was written to hold, where a fault leaves them readable: a read returning others
# misreads it (tools/golden/row_file.py: the last row's 2-byte nanosecond varint lost its last byte).
WRITTEN = {
    "row-runs-past-rows": [[1, "ab", "1970-01-01T00:00:00.005000"], [2, None, "1970-01-01T00:00:00.007008"]],
}


def misread(reads: list[dict], written: list | None = None) -> str:
    """The first read that fails or returns other rows than the full read has at its positions, or a full read
    other than the rows written ('' if none)."""
    full = reads[0]
    if full["error"]:
        return f"the full read fails: {full['error'][:120]}"
    rows = full["rows"]
    if written is not None and rows != written:
        return f"the full read gives {rows}, the file was written with {written}"
    for r in reads[1:]:
        want = [rows[p] for p in r["selection"] if p < len(rows)]
        if r["error"]:
            return f"selecting {r['selection']} fails: {r['error'][:120]}"
        if r["rows"] != want:
            return f"selecting {r['selection']} gives {r['rows']}, the full read has {want}"
    return ""


def test_java_misreads_every_must_reject_row_file(reads):
    names = [p.stem for p in sorted(MUST_REJECT.glob("*.json"))]
    assert len(names) >= 20
    read_right = [name for name in names if not misread(reads[name], WRITTEN.get(name))]
    assert read_right == []


@pytest.mark.parametrize("name", sorted(_should_files()))
def test_java_reads_the_should_files_right_and_the_kit_has_no_must(reads, name):
    data, code = _should_files()[name]
    assert misread(reads[name]) == ""
    assert len(reads[name][0]["rows"]) == 2  # both rows, as written
    types = [rtypes.parse(f["type"]) for f in FIELDS]
    assert [(f.code, f.severity) for f in entry.validate(data, types)] == [(code, "should")]


def test_a_selection_is_what_catches_row_starts_and_totals(reads):
    """The full read returns the rows as written; only a read by position shows the fault."""
    for name in ("row-start-wrong", "total-rows-wrong"):
        assert reads[name][0]["error"] is None
        assert misread(reads[name]).startswith("selecting"), name
