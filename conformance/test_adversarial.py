"""The adversarial suite: every one-change mutation of a table's metadata and files (adversarial.py) is
validated and read in a child process with a memory limit; each must end as a finding, a refusal or
rows, never an exception outside the kit's hierarchy, an internal error, an out-of-memory or a hang.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from adversarial import cases, env, worker_command

from paimon_conform.table.write.reference_table import write_table

SEED = 20261124
MEMORY_LIMIT = 3 << 30  # virtual memory of the child: far below what an unchecked count would take
TIMEOUT = 600  # seconds for all cases together: a safety net against a hang, not a speed target


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A DV primary-key table with file indexes, two partitions, two buckets and two snapshots."""
    root = tmp_path_factory.mktemp("pristine") / "t"
    write_table(root, rows=40, buckets=2, release="1.0.0")
    return root


def test_every_mutation_ends_in_a_finding_a_refusal_or_rows(pristine, tmp_path):
    print(f"adversarial seed {SEED}")
    dirs = {}
    for i, (name, mutate) in enumerate(cases(pristine, SEED)):
        root = tmp_path / f"case{i}"
        shutil.copytree(pristine, root, symlinks=True)
        mutate(root)
        dirs[str(root)] = name
    assert len(dirs) > 200
    proc = subprocess.run(
        worker_command(MEMORY_LIMIT),
        input="\n".join(dirs) + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env(),
    )
    outcomes = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    done = {o["case"] for o in outcomes}
    stuck = [dirs[c] for c in dirs if c not in done]
    assert not stuck, f"the worker died at {stuck[0]!r}: {proc.stderr[-2000:]}"
    bad = [
        f"{dirs[o['case']]}: validate {o['validate']}; read {o['read']}"
        for o in outcomes
        if o["validate"] != "ok" or o["read"] not in ("rows", "refused")
    ]
    assert not bad, f"{len(bad)} of {len(outcomes)} cases:\n" + "\n".join(bad[:40])
    refused = sum(o["read"] == "refused" for o in outcomes)
    assert refused > len(outcomes) // 2, "most damage must make the reader refuse"
