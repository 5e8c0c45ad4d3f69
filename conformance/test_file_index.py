"""The file-index container (FileIndexFormat): its bytes, Java's golden answers, detection and typed inspection."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.strategies import hx

from paimon_conform.core.types import parse_type, to_internal
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.bloom_filter import codec as bloom
from paimon_conform.layouts.file_index import entry as fi
from paimon_conform.layouts.registry import get

EVIDENCE = ("java", "kit")

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "file_index"
JAVA = sorted((GOLDEN / "java-0.9.0").glob("*.json"))
T = parse_type


def test_container_vector():
    """The Java-written container example of the notes (§5.1), payloads as given."""
    expected = hx("""00054e4ed01a35ae 00000001 0000005f 00000002
        0001 61 00000002 000c 626c6f6f6d2d66696c746572 0000005f 00000003 0006 6269746d6170 00000062 00000002
        0004 62636f6c 00000001 0006 6269746d6170 00000064 00000001 00000000 010203 0405 09""")
    got = fi.write([("a", [("bloom-filter", hx("010203")), ("bitmap", hx("0405"))]), ("bcol", [("bitmap", hx("09"))])])
    assert got == expected


@pytest.mark.parametrize("sidecar", JAVA, ids=[p.stem for p in JAVA])
def test_java_golden_answers_and_logical_encoding(sidecar):
    """Each Java container re-encodes from its values alone, and every probe answers as Java did."""
    case = json.loads(sidecar.read_text())
    data = sidecar.with_suffix(".bin").read_bytes()
    logical = json.loads(json.dumps(case))
    for c in logical["columns"]:
        for i in c["indexes"]:
            if i["index_type"] == "bloom-filter":
                del i["payload"]
    assert fi.encode(logical) == data
    types = fi.column_types(case)
    checked = 0
    for probe in case["java_reader"]["probes"]:
        for result in probe["results"]:
            if result["index_type"] not in ("bloom-filter", "bitmap"):
                continue
            column = next(c for c in case["columns"] if c["name"] == probe["column"])
            entry = next(i for i in column["indexes"] if i["index_type"] == result["index_type"])
            payload = data[entry["offset"] : entry["offset"] + entry["length"]]
            t = types[probe["column"]]
            literals = [to_internal(t, v) for v in probe["values"]]
            if result["index_type"] == "bloom-filter":
                assert bloom.evaluate(payload, t, probe["op"], literals) == result["remain"], probe
            else:
                rows = bitmap.evaluate(bitmap.read(payload, t), t, probe["op"], literals)
                assert list(rows) == result["rows"], probe
            checked += 1
    assert checked == sum(len(p["results"]) for p in case["java_reader"]["probes"]) - sum(
        r["index_type"] == "empty" for p in case["java_reader"]["probes"] for r in p["results"]
    )


def test_container_detected_and_typed_inspection(capsys):
    from paimon_conform import cli

    path = GOLDEN / "java-0.9.0" / "bloom-string-small.bin"
    assert get("file-index").detect(path.read_bytes())
    assert cli.main(["inspect", str(path)]) == 0
    assert "bloom-filter" in capsys.readouterr().out
    assert cli.main(["inspect", "--json", "--types", "s=STRING", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["columns"][0]["type"] == "STRING"
    assert cli.main(["inspect", "--types", "s", str(path)]) == 2
