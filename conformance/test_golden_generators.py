"""The generators of the golden files that no Paimon jar writes (tools/golden/, one module per layout,
run by tools/golden_derived.py) regenerate the committed java-notes/, encoder/ and must-reject/
folders byte for byte: the corpus is what its generators say, and a change to either shows here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from collections import Counter

from support.environment import GOLDEN, ROOT

EVIDENCE = ("kit",)

DERIVED = ("java-notes", "encoder", "must-reject")


def _files(root) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for sub in DERIVED
        for p in root.glob(f"*/{sub}/*")
        if p.is_file()
    }


def test_derived_goldens_regenerate_byte_for_byte(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "golden_derived.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    made, committed = _files(tmp_path), _files(GOLDEN)
    assert len(committed) > 200
    assert sorted(made) == sorted(committed)
    assert [name for name in committed if made[name] != committed[name]] == []


def test_encoder_provenance_names_a_function_of_the_package():
    """A reference-encoder golden's provenance says which function wrote it, by its module path in the
    package (`layouts.<layout>.codec.build`): each must name a function that exists, so a module moved
    or renamed is followed in the sidecars, and the layout's folder is the layout the function is in."""
    seen = set()
    for side in GOLDEN.glob("*/*/*.json"):
        prov = json.loads(side.read_text(encoding="utf-8")).get("provenance", {})
        if prov.get("producer") != "reference-encoder" or not prov.get("how", "").startswith("layouts."):
            continue
        module, name = f"paimon_conform.{prov['how']}".rsplit(".", 1)
        assert callable(getattr(importlib.import_module(module), name, None)), (side, prov["how"])
        assert prov["how"].split(".")[1] == side.parent.parent.name, (side, prov["how"])
        seen.add(prov["how"])
    # the files no Java release writes: a DV file mixing 32- and 64-bit vectors, a version 1 blob descriptor
    assert seen == {"layouts.deletion_vectors.entry.encode_file", "layouts.blob_descriptor.codec.encode"}


def test_the_generators_write_into_the_repository_golden_folder_by_default():
    """Run with no --out, the generators rewrite golden/ of the checkout (not a folder beside them)."""
    from golden import common

    assert common.ROOT / "golden" == GOLDEN


def test_every_golden_states_what_it_rests_on():
    """Each sidecar's provenance names its evidence: java-written exactly for what a Java jar wrote (its release),
    java-read only where a Java testee's failure list leaves the decode (or refusal) standing, and the rest as
    the generators derive it (so a failure list that changes makes the claim stale and this test fail)."""
    from golden.evidence import JAVA_DECODED, JAVA_TESTEES, decodes, evidence_of

    from paimon_conform.golden import EVIDENCE_KINDS
    from paimon_conform.testee import failures

    lists = {v: failures.load(ROOT / "tools" / "testees" / "failures" / f"java-{v}.txt") for v in JAVA_TESTEES}
    kinds = Counter()
    for side in sorted(GOLDEN.glob("**/*.json")):
        prov = json.loads(side.read_text(encoding="utf-8"))["provenance"]
        evidence = prov["evidence"]
        kinds[evidence["kind"]] += 1
        assert (evidence["kind"] == "java-written") == (prov["producer"] == "java-paimon"), side
        if evidence["kind"] == "java-written":
            assert evidence["by"] == f"Java Paimon {prov['paimon_version']}", side
            continue
        if side.parts[-3] == "tables":
            continue
        case = f"{side.parent.parent.name}/{side.parent.name}/{side.stem}"
        if evidence["kind"] == "java-read":
            assert side.parent.parent.name in JAVA_DECODED, side
            layout = side.parent.parent.name
            assert any(decodes(v, layout) and f"decode:{case}" not in lists[v] for v in JAVA_TESTEES), side
        assert evidence == evidence_of(side.parent, side.stem, prov), side
    assert set(kinds) <= set(EVIDENCE_KINDS)
    assert kinds["java-written"] > 100
    assert kinds["java-read"] > 0
