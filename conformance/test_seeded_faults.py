"""The seeded-fault script (tools/seeded_faults.py) stays runnable: every fault's text to replace occurs exactly
once in the file it names, and every test it runs exists. (The script itself runs outside the suite, about three
minutes; its last result is in docs/architecture.md.)"""

from __future__ import annotations

import seeded_faults
from support.environment import ROOT

EVIDENCE = ("contract",)


def test_every_fault_still_plants_and_its_tests_exist():
    assert len(seeded_faults.FAULTS) >= 6
    for fault in seeded_faults.FAULTS:
        text = (ROOT / fault.path).read_text(encoding="utf-8")
        for old, new in fault.edits:
            assert text.count(old) == 1, (fault.name, old)
            assert old != new
        for test in fault.tests:
            assert (ROOT / test.split("::")[0]).is_file(), (fault.name, test)
