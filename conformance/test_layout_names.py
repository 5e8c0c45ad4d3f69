"""One name per layout, end to end: every spec `specs/<name>.ksy` has its generated parser
`paimon_layouts.<name>`, its package `paimon_conform.layouts.<name>` whose entry is the registry's
`<name>`, its golden folder `golden/<name>/` with its generator `tools/golden/<name>.py` or Java
fixtures, and its test file `conformance/test_<name>.py`; and nothing under those names exists
without a spec. So following one layout means following one name."""

from __future__ import annotations

import importlib

import pytest
from support.environment import GOLDEN, ROOT

from paimon_conform.layouts.registry import BY_NAME

EVIDENCE = ("contract",)

SPECS = sorted(p.stem for p in (ROOT / "specs").glob("*.ksy"))
PACKAGES = sorted(p.parent.name for p in (ROOT / "src" / "paimon_conform" / "layouts").glob("*/entry.py"))
# golden/ folders that are not a binary layout: whole tables (specs/table_layout.yaml) and Java's
# dynamic-bucket assignment sequences (layouts/hash_index/dynamic_bucket.py, test_dynamic_bucket.py)
NOT_LAYOUTS = {"tables", "dynamic_bucket"}


def test_the_specs_are_the_layouts():
    assert len(SPECS) >= 11
    assert PACKAGES == SPECS
    assert sorted(BY_NAME) == SPECS
    assert sorted(p.name for p in GOLDEN.iterdir() if p.is_dir()) == sorted([*SPECS, *NOT_LAYOUTS])


@pytest.mark.parametrize("name", SPECS)
def test_one_name_from_spec_to_test(name):
    assert (ROOT / "generated" / "python" / "paimon_layouts" / f"{name}.py").is_file()
    entry = importlib.import_module(f"paimon_conform.layouts.{name}.entry")
    assert entry.LAYOUT is BY_NAME[name]
    assert entry.LAYOUT.name == name
    folders = [p.name for p in (GOLDEN / name).iterdir() if p.is_dir()]
    assert any(list((GOLDEN / name / f).glob("*.bin")) for f in folders)
    derived = {"java-notes", "encoder", "must-reject"} & set(folders)
    assert not derived or (ROOT / "tools" / "golden" / f"{name}.py").is_file()
    assert (ROOT / "conformance" / f"test_{name}.py").is_file()
