"""The third-party corpus (../shared/external-corpus): files and tables other projects wrote.

Every MANIFEST.tsv row is run through the CLI as a user would run it. A valid row validates
with no finding at its level and decodes to exactly what its source states; a must-reject row
gets at least one must finding; nothing ends in a traceback (an internal error is exit 2 and
fails here). Where the kit and a file disagree, the verdict is recorded below with its
evidence, and the test keeps checking that evidence. The files are read in place, never
copied into this repository; in CI a missing corpus fails.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import testees
from support.environment import CORPUS, missing

from paimon_conform import cli

EVIDENCE = ("third-party",)

PAIMON_CPP = "files/paimon-cpp/test/test_data/parquet"


@dataclass(frozen=True)
class Row:
    """One MANIFEST.tsv row."""

    path: str
    layout: str
    source_says: str
    expected: str
    args: tuple[str, ...]
    level: str
    check: dict

    @property
    def name(self) -> str:
        return self.path.removeprefix("files/")


def rows() -> list[Row]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        return [
            Row(
                r["local_path"],
                r["layout"],
                r["source_says"],
                r["expected"],
                tuple(json.loads(r["kit_args"] or "[]")),
                r["level"],
                json.loads(r["check"] or "{}"),
            )
            for r in reader
        ]


ROWS = rows()


@pytest.fixture(scope="module")
def corpus() -> Path:
    if not ROWS:
        missing(f"the third-party corpus is missing: {CORPUS}/MANIFEST.tsv (set PAIMON_CONFORM_CORPUS)")
    return CORPUS


# Per-file verdicts where a row does not simply validate clean at its level. Each: what the kit reports,
# which side is right, and the evidence (Java's source, Java itself where the jars here can read it).
VERDICTS: dict[str, dict] = {
    f"{PAIMON_CPP}/pk_09.db/pk_09": {
        "allowed": {("MANIFEST_SCHEMA", "should")},
        "verdict": (
            "kit right: the manifests, manifest lists and index manifests use Java 0.8's nullable Avro form "
            "(top-level [null, record], _FILE / _KEY_STATS / _VALUE_STATS as unions with null); Java writes "
            "plain records since 0.9.0 (apache/paimon#3962), so the bytes are not Java's (should), and every "
            "release 0.9-2.0 reads them (AvroRowDatumReader decodes a union as null or branch 1)"
        ),
        "java_reads": True,  # checked in test_java_reads_the_corpus_tables
    },
    f"{PAIMON_CPP}/append_with_bitmap_no_embedding.db/external-path/bucket-0/"
    "data-783929b2-49d4-4006-a898-194a62e3278d-0.parquet.index": {
        "data": f"{PAIMON_CPP}/append_with_bitmap_no_embedding.db/append_with_bitmap_no_embedding/bucket-0/"
        "data-783929b2-49d4-4006-a898-194a62e3278d-0.parquet",
        "verdict": (
            "corpus gap, not a kit finding: the row's --data file (under external-path/) is not in the corpus; "
            "this .index file is byte for byte the table's own bucket-0 index, so it is checked against the "
            "table's data file instead"
        ),
    },
}


VERDICTS[f"{PAIMON_CPP}/append_with_global_index.db/append_with_global_index"] = {
    "allowed": {("GLOBAL_INDEX_LAYOUT", "must")},
    "verdict": (
        "kit right, for Java 2.0 readers only (clean with --java-version 1.4): the bitmap global indexes are in "
        "Java 1.4.1's layout, a bitmap file-index V2 payload (the kit's encoder rebuilds them byte for byte, "
        "test_global_index); run (test_global_index_java): Java 2.0.0's filtered scans of the indexed columns throw "
        "(a NullPointerException in SortedIndexFileMeta.deserialize: no _INDEX_META), Java 1.4.2 reads every value"
    ),
}
VERDICTS[f"{PAIMON_CPP}/append_with_global_index_with_partition.db/append_with_global_index_with_partition"] = {
    "allowed": {("GLOBAL_INDEX_VALUES", "must"), ("ROW_ID_OVERLAP", "should")},
    "verdict": (
        "kit right (judged for Java 1.4, the release the row names): both partitions' files start at row id 0 "
        "(Java 1.4.2 and 2.0.0 assign row ids table-wide: the second partition's file gets 5..7), so the f1=10 "
        "index's rows 0..2 also stand for f1=20's rows; run (test_global_index_java): Java 1.4.2's filtered scans "
        "of f0 lose Alice, Lucy and Tony of f1=20, Java 2.0.0's throw (the 1.4 layout)"
    ),
}


for _dv in ("e3507e10-ed85-4a01-b263-9ee6616389d4", "e9114df7-24ec-4d58-a2ce-f1aa47c09bc5"):
    VERDICTS[f"files/delta-rs/crates/test/tests/data/cdf-table-with-cdc-and-dvs/deletion_vector_{_dv}.bin"] = {
        "unnamed_vectors": 1,
        "verdict": (
            "kit right: the 85-byte file holds two 64-bit vectors (1 + 42 + 42 bytes, each CRC-checked); the "
            "_delta_log descriptor the manifest quotes names only the first, at offset 1 (sizeInBytes 34 = magic + "
            "bitmap); the second is another table version's"
        ),
    }


def _args(row: Row) -> list[str]:
    args = list(row.args)
    verdict = VERDICTS.get(row.path, {})
    if "data" in verdict and "--data" in args:
        args[args.index("--data") + 1] = verdict["data"]
    return args


def _validate(row: Row, tmp_path: Path, monkeypatch) -> tuple[int, list[dict]]:
    monkeypatch.chdir(CORPUS)  # kit_args paths are relative to the corpus folder
    out = tmp_path / "report.json"
    code = cli.main(["validate", row.path, *_args(row), "--level", row.level, "--report", "json", "-o", str(out)])
    findings = [f for r in json.loads(out.read_text())["files"] for f in r["findings"]] if out.exists() else []
    return code, findings


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_corpus_row(corpus, row, tmp_path, monkeypatch, capsys):
    code, findings = _validate(row, tmp_path, monkeypatch)
    err = capsys.readouterr().err
    assert "internal error" not in err, err
    assert "Traceback" not in err
    assert code in (0, 1), err  # exit 2 would be an unusable input (or a kit bug): neither is a verdict
    failing = {(f["code"], f["severity"]) for f in findings if f["severity"] != "warning"}
    if row.expected == "must-reject":
        assert any(sev == "must" for _, sev in failing), f"{row.path}: {row.source_says}"
        return
    verdict = VERDICTS.get(row.path, {})
    allowed = verdict.get("allowed", set())
    if row.level == "must":
        failing = {(c, s) for c, s in failing if s == "must"}
    assert failing <= allowed, (row.path, failing - allowed)
    assert code == (1 if failing else 0)


def _expand(ranges: list[list[int]]) -> list[int]:
    return [v for lo, hi in ranges for v in range(lo, hi + 1)]


DECODED = [r for r in ROWS if r.expected == "valid" and r.check and r.layout != "table"]


@pytest.mark.parametrize("row", DECODED, ids=[r.name for r in DECODED])
def test_corpus_row_decodes_to_what_its_source_states(corpus, row, monkeypatch, capsys):
    """The kit's case of the file (inspect --json) against the source's statement of its content."""
    monkeypatch.chdir(CORPUS)
    assert cli.main(["inspect", "--json", row.path, *_args(row)]) == 0
    case = json.loads(capsys.readouterr().out)
    check = row.check
    if "cardinality" in check and "vectors" not in check:
        assert case["cardinality"] == check["cardinality"]
    if "values_expr" in check:
        # the manifest's own expression (data from the steering folder, not user input): ranges, lists, shifts
        names = {"__builtins__": {}, "range": range, "list": list}
        stated = eval(check["values_expr"], names)  # noqa: S307
        assert _expand(case["ranges"]) == sorted(stated)
    if "vectors" in check:
        exact = check.get("exact_offsets", True)
        got = [((v["offset"],) if exact else ()) + (v["length"], v["cardinality"]) for v in case["vectors"]]
        for w in check["vectors"]:
            key = ((w["offset"],) if exact else ()) + (w["length"],)
            match = [g for g in got if g[:-1] == key and w.get("cardinality") in (None, g[-1])]
            assert match, (row.path, w, got)
            got.remove(match[0])
        assert len(got) == VERDICTS.get(row.path, {}).get("unnamed_vectors", 0), (row.path, got)


TABLES = [r for r in ROWS if r.layout == "table"]


def test_every_corpus_table_is_clean_or_has_a_verdict(corpus):
    """The Done-when of the corpus: no paimon-cpp table without a clean run or a recorded verdict."""
    assert TABLES, "MANIFEST.tsv lists no tables"
    unknown = [p for p in VERDICTS if p not in {r.path for r in ROWS}]
    assert unknown == []  # a verdict for a row that no longer exists is stale


JAVA_READ = [path for path, v in VERDICTS.items() if v.get("java_reads")]


@pytest.mark.java
@pytest.mark.parametrize("version", ["0.9.0", "1.0-SNAPSHOT"])
@pytest.mark.parametrize("path", JAVA_READ, ids=[p.rsplit("/", 1)[-1] for p in JAVA_READ])
def test_java_reads_the_corpus_tables(corpus, paimon_java, version, path, tmp_path):
    """The evidence behind `java_reads`: Java's own reader returns the table's rows (a copy: read-only corpus)."""
    import shutil

    table = shutil.copytree(CORPUS / path, tmp_path / "db.db" / "t")
    assert testees.read_rows(f"java-{version}", table)


def test_verdicts_by_java_release_on_corpus_bytes(corpus, tmp_path, monkeypatch):
    """Java-written (paimon-cpp corpus) BSI and bitmap V2 indexes: clean for Java >= 1.1, must for the releases that
    cannot read them (BSI before 1.0, bitmap V2 before 1.1)."""
    row = next(r for r in TABLES if r.path.endswith("append_with_bsi_bitmap_bloomfilter"))
    monkeypatch.chdir(CORPUS)
    seen = {}
    for version in ("0.9", "1.0", "1.1", "2.0"):
        out = tmp_path / f"{version}.json"
        cli.main(["validate", row.path, "--java-version", version, "--report", "json", "-o", str(out)])
        findings = [f for r in json.loads(out.read_text())["files"] for f in r["findings"]]
        seen[version] = sorted(
            {f["message"].split(":")[0] for f in findings if f["code"] == "FILE_INDEX_NEEDS_NEWER_JAVA"}
        )
    assert seen["0.9"] == ["a bitmap version 2 index", "a bsi index"]
    assert seen["1.0"] == ["a bitmap version 2 index"]
    assert seen["1.1"] == seen["2.0"] == []
