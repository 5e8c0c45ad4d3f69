"""The generators of the golden files that no Paimon jar writes (tools/golden/, one module per layout,
run by tools/golden_derived.py) regenerate the committed java-notes/, encoder/ and must-reject/
folders byte for byte: the corpus is what its generators say, and a change to either shows here."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from support.environment import GOLDEN, ROOT

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
    assert len(seen) >= 5


def test_the_generators_write_into_the_repository_golden_folder_by_default():
    """Run with no --out, the generators rewrite golden/ of the checkout (not a folder beside them)."""
    from golden import common

    assert common.ROOT / "golden" == GOLDEN
