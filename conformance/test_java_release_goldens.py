"""Goldens written by the Java releases that write each layout: lone file-index payloads
(tools/golden_java_payloads.py) and what the testees' encode writes, deletion vectors and 32-bit bitmaps
(tools/golden_java_encoded.py). They regenerate byte for byte; every probe Java answered is answered alike by
the kit (or pinned in that release's failure list, both ways); Java reads back what it wrote as the sidecar
says; and the bytes the must-reject files are patched from are Java's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import golden_java_payloads
import pytest
from support.environment import GOLDEN, ROOT

from golden import (
    bitmap_global_index,
    bitmap_index,
    blob_descriptor,
    blob_file,
    bloom_filter,
    bsi,
    btree_global_index,
    deletion_vectors,
    range_bitmap,
    roaring32,
    roaring64,
    row_file,
)
from paimon_conform.core import cases
from paimon_conform.testee import failures, queries

EVIDENCE = ("java",)

SIDECARS = sorted(
    p
    for layout, (_, versions) in golden_java_payloads.RELEASES.items()
    for version in versions
    for p in (GOLDEN / layout / f"java-{version}").glob("*.json")
)
# The cases a release is asked to write and refuses (its writer raises): pinned, and checked by regenerating.
NOT_WRITTEN = {
    ("0.9.0", "bitmap_index/v1-boolean"),  # BitmapFileIndex 0.9 has no BOOLEAN keys (ClassCastException)
    ("1.1.1", "bitmap_index/v2-all-null"),  # BitmapFileIndex 1.1 V2 writer: NullPointerException with no key
}


def _committed() -> dict[str, bytes]:
    return {
        p.relative_to(GOLDEN).as_posix(): p.read_bytes()
        for p in (*SIDECARS, *(s.with_suffix(".bin") for s in SIDECARS))
    }


def _regenerate(tool: str, out: Path) -> tuple[dict[str, bytes], set[tuple[str, str]]]:
    """Run a generator of tools/ into `out`: the files it wrote, and the (release, case) it reports unwritten."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / tool), "--out", str(out)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [line.split() for line in done.stdout.splitlines() if " does not write " in line]
    made = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    return made, {(words[2], words[6].rstrip(":")) for words in lines}


def test_payload_goldens_regenerate_byte_for_byte(tmp_path):
    """Every release writes the committed payloads and answers the probes as recorded; the cases it refuses are
    exactly the pinned ones."""
    made, refused = _regenerate("golden_java_payloads.py", tmp_path)
    assert refused == NOT_WRITTEN
    committed = _committed()
    assert len(committed) >= 2 * 40
    assert sorted(made) == sorted(committed)
    assert [name for name in committed if made[name] != committed[name]] == []


def _listed(version: str) -> frozenset[str]:
    return frozenset(failures.load(ROOT / "tools" / "testees" / "failures" / f"java-{version}.txt"))


@pytest.mark.parametrize("sidecar", SIDECARS, ids=[p.relative_to(GOLDEN).with_suffix("").as_posix() for p in SIDECARS])
def test_kit_answers_every_probe_as_the_writing_release(sidecar):
    """The kit's query answer equals the writing release's reader's, except where that release's failure list
    pins a difference (a listed probe that now agrees fails too)."""
    case = json.loads(sidecar.read_text())
    version = case["provenance"]["paimon_version"]
    name = sidecar.relative_to(GOLDEN).with_suffix("").as_posix()
    data = sidecar.with_suffix(".bin").read_bytes()
    types = {col: t for col, (t, _) in queries.columns_of(case).items()}
    columns = queries.open_columns(case["kind"], data, types)
    probes = case["java_reader"]["probes"]
    assert [p["predicate"] for p in probes] == queries.predicates(name, case)
    listed = _listed(version)
    for n, probe in enumerate(probes, 1):
        kit = queries.evaluate(probe["predicate"], columns)
        java = probe["reply"]
        agree = "error" not in java and queries.outcome(kit) == queries.outcome(java)  # as the testee runner judges
        assert agree != (f"query:{name}/{n:02d}" in listed), (n, probe["predicate"], kit, java)


def test_must_reject_bases_are_the_bytes_java_writes():
    """The valid payloads the must-reject files are patched from (the notes' examples) are what Java writes."""
    assert (GOLDEN / "bitmap_index" / "java-1.1.1" / "v2-int-with-nulls.bin").read_bytes() == bitmap_index.BITMAP_V2_INT
    assert (GOLDEN / "bitmap_index" / "java-2.0.0" / "v2-int-with-nulls.bin").read_bytes() == bitmap_index.BITMAP_V2_INT
    assert (GOLDEN / "bsi" / "java-1.0.1" / "int-positive-and-negative.bin").read_bytes() == bsi.BSI_INT
    assert (GOLDEN / "bsi" / "java-2.0.0" / "int-positive-and-negative.bin").read_bytes() == bsi.BSI_INT
    for version in ("0.9.0", "2.0.0"):
        for stem, _type, _values, data in bloom_filter.JAVA_PAYLOADS:
            assert (GOLDEN / "bloom_filter" / f"java-{version}" / f"{stem}.bin").read_bytes() == data
    example = range_bitmap.range_bitmap_int_example()
    assert (GOLDEN / "range_bitmap" / "java-1.3.1" / "int-example.bin").read_bytes() == example
    assert (GOLDEN / "range_bitmap" / "java-2.0.0" / "int-example.bin").read_bytes() == example


ENCODED_LAYOUTS = (
    "deletion_vectors",
    "roaring32",
    "roaring64",
    "blob_descriptor",
    "blob_file",
    "row_file",
    "btree_global_index",
    "bitmap_global_index",
)
# placeholder rows and ARRAY / MAP columns arrived in 2.0: 1.4.2's writer refuses them (run)
ENCODED_NOT_WRITTEN = {
    ("1.4.2", f"blob_file/{stem}")
    for stem in ("nulls-and-placeholders", "array-rows", "map-int-keys", "map-string-keys", "map-bigint-keys")
}
ENCODED = sorted(p for layout in ENCODED_LAYOUTS for p in (GOLDEN / layout).glob("java-[12]*/*.json"))


def test_encoded_goldens_regenerate_byte_for_byte(tmp_path):
    """The testees of the releases that write each layout write exactly the committed files, and refuse exactly
    the pinned cases."""
    made, refused = _regenerate("golden_java_encoded.py", tmp_path)
    assert refused == ENCODED_NOT_WRITTEN
    committed = {p.relative_to(GOLDEN).as_posix(): p.read_bytes() for s in ENCODED for p in (s, s.with_suffix(".bin"))}
    files = 2 * len(deletion_vectors.java_cases()) + len(roaring32.java_cases()) + 2 * len(blob_descriptor.java_cases())
    files += 2 * len(blob_file.java_cases()) - len(ENCODED_NOT_WRITTEN) + len(row_file.java_cases())
    files += 2 * len(btree_global_index.java_cases()) + len(bitmap_global_index.java_cases())
    files += 2 * len(roaring64.java_cases())
    assert len(committed) == 2 * files
    assert sorted(made) == sorted(committed)
    assert [name for name in committed if made[name] != committed[name]] == []


@pytest.mark.parametrize("sidecar", ENCODED, ids=[p.relative_to(GOLDEN).with_suffix("").as_posix() for p in ENCODED])
def test_java_reads_back_what_it_wrote_as_the_sidecar_says(sidecar):
    """Java's decode equals the sidecar; a row file's reader gives its fields' rows, not its block layout, and a
    map's entries in its own order (a map has none: the bytes keep the written order, test_golden). A global
    index is read through predicates only: no Java reads one back whole."""
    case = json.loads(sidecar.read_text())
    if case["kind"].endswith("-global-index"):
        assert "java_reader" not in case
        return
    expected, got = cases.content(case), case["java_reader"]["case"]
    if case["kind"] == "row-file":
        expected = {k: v for k, v in expected.items() if k in ("case_format", "kind", "fields", "rows")}
        assert len(expected) == 4
        expected, got = _maps_sorted(expected), _maps_sorted(got)
    assert got == expected


def _maps_sorted(case: dict) -> dict:
    """A row-file case with the entries of each top-level MAP / MULTISET value in one order."""
    maps = [
        i
        for i, f in enumerate(case["fields"])
        if isinstance(f["type"], dict) and f["type"]["type"] in ("MAP", "MULTISET")
    ]
    rows = [
        [sorted(v, key=json.dumps) if i in maps and v is not None else v for i, v in enumerate(row)]
        for row in case["rows"]
    ]
    return case | {"rows": rows}


def test_reject_bases_of_the_encoded_layouts_are_java_bytes():
    """dvindex-32 (Paimon's compatibility file, the base of the DV must-reject files), dvindex-64 and the 32-bit
    bitmaps the roaring32 rejects start from are what Java 1.2.0 and 2.0.0 write."""
    for version in ("1.2.0", "2.0.0"):
        dv = GOLDEN / "deletion_vectors" / f"java-{version}"
        assert (dv / "dvindex-32.bin").read_bytes() == deletion_vectors.DVINDEX_32
        assert (dv / "dvindex-64.bin").read_bytes() == deletion_vectors.DVINDEX_64
        assert (dv / "bitmap64-empty.bin").read_bytes() == b"\x01" + deletion_vectors.DV64_EMPTY_VECTOR
    r32 = GOLDEN / "roaring32" / "java-2.0.0"
    assert (r32 / "run-and-array.bin").read_bytes() == roaring32.ROARING_RUN_AND_ARRAY
    assert (r32 / "empty.bin").read_bytes() == roaring32.ROARING_EMPTY
