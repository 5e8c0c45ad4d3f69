"""Every golden file against its sidecar, through the library and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paimon_conform import cli
from paimon_conform.core import cases
from paimon_conform.core.errors import LayoutError
from paimon_conform.core.java_releases import judge
from paimon_conform.golden import check_one, sidecars
from paimon_conform.layouts.registry import get

EVIDENCE = ("java", "third-party", "kit")

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
ALL = sidecars(GOLDEN)
VALID = [p for p in ALL if "must_reject" not in json.loads(p.read_text())]
REJECT = [p for p in ALL if "must_reject" in json.loads(p.read_text())]


def type_options(case: dict) -> list[str]:
    """The --types / --type options that give the CLI the column types a sidecar states."""
    if "fields" in case and all(isinstance(f["type"], str) for f in case["fields"]):  # a BinaryRow, a row file
        return ["--types", ",".join(f"f{i}={f['type']}" for i, f in enumerate(case["fields"]))]
    if "fields" in case:  # nested types: the schema-file JSON form
        return ["--types", json.dumps([{"name": f"f{i}", "type": f["type"]} for i, f in enumerate(case["fields"])])]
    columns = {c["name"]: c["type"] for c in case.get("columns", []) if "type" in c} | case.get("types", {})
    typed = ["--types", ",".join(f"{c}={t}" for c, t in columns.items())] if columns else []
    return typed + (["--type", case["type"]] if "type" in case else [])


def ids(paths):
    return [str(p.relative_to(GOLDEN).with_suffix("")) for p in paths]


def test_corpus_is_complete():
    """The corpus covers every producer the issue names."""
    producers = {p.parent.name for p in ALL}
    assert {"java-0.9.0", "java-2.0.0", "encoder", "must-reject"} <= producers
    java_dv = [p for p in VALID if p.parent.name == "java-0.9.0" and p.parent.parent.name == "deletion_vectors"]
    assert len(java_dv) >= 14
    assert any(
        json.loads(p.read_text())["vectors"] and json.loads(p.read_text())["vectors"][0]["bitmap"] == "bitmap64"
        for p in VALID
        if p.parent.parent.name == "deletion_vectors"
    )
    assert len(REJECT) >= 20


# Java reads a global index through predicates (GlobalIndexReader), never back into its values: the Java-written
# global indexes carry no java_reader (their query by Java is not run yet: the stop note of issue 38).
NOT_READ_BACK = frozenset({"btree-global-index", "bitmap-global-index"})


@pytest.mark.parametrize("sidecar", VALID, ids=ids(VALID))
def test_valid_golden(sidecar):
    case = cases.check(json.loads(sidecar.read_text()))
    data = sidecar.with_suffix(".bin").read_bytes()
    layout = get(case["kind"])
    types = layout.case_types(case)
    assert cases.content(layout.inspect(data, types)) == cases.content(case)
    assert layout.encode(case) == data
    assert judge(layout.validate(data, types)) == []  # valid for the newest release (older ones may not read it)
    assert check_one(sidecar, GOLDEN).findings == []
    if case.get("provenance", {}).get("producer") == "java-paimon":
        if case["kind"] in NOT_READ_BACK:
            assert "java_reader" not in case
        else:
            assert case["java_reader"]  # Java's own reader read this file back


@pytest.mark.parametrize("sidecar", REJECT, ids=ids(REJECT))
def test_must_reject_golden(sidecar):
    case = cases.check(json.loads(sidecar.read_text()))
    data = sidecar.with_suffix(".bin").read_bytes()
    layout = get(case["kind"])
    musts = [f for f in layout.validate(data, layout.case_types(case)) if f.severity == "must"]
    expected = case["must_reject"]
    assert musts, "accepted a file that must be rejected"
    assert (musts[0].code, musts[0].path, musts[0].offset) == (expected["code"], expected["path"], expected["offset"])
    with pytest.raises(LayoutError) as err:  # inspect refuses it with the kit's error, naming the field
        layout.inspect(data, layout.case_types(case))
    assert err.value.code == expected["code"]


@pytest.mark.parametrize("sidecar", REJECT, ids=ids(REJECT))
def test_cli_validate_rejects(sidecar, capsys):
    case = json.loads(sidecar.read_text())
    code = cli.main(["validate", "--kind", case["kind"], *type_options(case), str(sidecar.with_suffix(".bin"))])
    out = capsys.readouterr().out
    assert code == 1
    lines = out.splitlines()
    assert case["must_reject"]["code"] in lines[0]
    where = lines[1] if lines[0].endswith(" times:") else lines[0]  # a repeated code: its first place below it
    assert (case["must_reject"]["path"] or "<root>") in where


@pytest.mark.parametrize("sidecar", VALID, ids=ids(VALID))
def test_cli_inspect_and_encode_round_trip(sidecar, tmp_path, capsys):
    case = json.loads(sidecar.read_text())
    binary = sidecar.with_suffix(".bin")
    assert cli.main(["inspect", "--json", "--kind", case["kind"], *type_options(case), str(binary)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == cases.content(case)
    out = tmp_path / "out.bin"
    assert cli.main(["encode", str(sidecar), "-o", str(out)]) == 0
    assert out.read_bytes() == binary.read_bytes()
    # and encode(inspect(file)) reproduces the file too
    (tmp_path / "inspected.json").write_text(json.dumps(printed))
    assert cli.main(["encode", str(tmp_path / "inspected.json"), "-o", str(out)]) == 0
    assert out.read_bytes() == binary.read_bytes()


@pytest.mark.parametrize("sidecar", VALID, ids=ids(VALID))
def test_a_golden_file_is_never_detected_as_another_layout(sidecar):
    """`validate FILE` without --kind takes the layout the bytes announce: a valid file is taken for its own
    layout, or for none (then the CLI asks for --kind), never for another one, which would judge it wrongly."""
    from paimon_conform.layouts.registry import detect

    case = json.loads(sidecar.read_text())
    found = detect(sidecar.with_suffix(".bin").read_bytes())
    assert found is None or found.kind == case["kind"]


def test_a_wrong_rejection_names_both_places_in_words(tmp_path):
    """A must-reject golden whose sidecar expects another field: the finding names where the kit refused it and
    where the sidecar expected it, a missing offset in words (never `byte None`)."""
    source = next(p for p in REJECT if json.loads(p.read_text())["must_reject"].get("offset") is not None)
    root = tmp_path / "golden"
    side = root / source.relative_to(GOLDEN)
    side.parent.mkdir(parents=True)
    side.with_suffix(".bin").write_bytes(source.with_suffix(".bin").read_bytes())
    case = json.loads(source.read_text())
    stated = dict(case["must_reject"])
    case["must_reject"] = {"code": stated["code"], "path": "somewhere.else"}
    side.write_text(json.dumps(case))
    (finding,) = check_one(side, root).findings
    assert finding.code == "GOLDEN_WRONG_REJECTION"
    assert f"at {stated['path']} (byte {stated['offset']})" in finding.message
    assert finding.message.endswith("expected " + stated["code"] + " at somewhere.else (no byte offset)")
