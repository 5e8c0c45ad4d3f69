"""The adversarial suite: every one-change mutation of a table's metadata and files (adversarial.py: JSON
metadata of every kind with huge strings, odd numbers and deep nesting included) is validated, read by the
reader and read by the Spark source's code in a child process, each case under a memory budget; each must
end as a finding, a refusal or rows, never an exception outside the kit's hierarchy, an internal error, an
out-of-memory or a hang; the Spark source gives the reader's verdict and rows; no case's peak memory passes
the budget.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support import sweep
from support.adversarial import cases, enrich, env, worker_command

from paimon_conform.table.read.reader import read_latest
from paimon_conform.table.write.reference_table import write_table

EVIDENCE = ("contract",)

SEED = 20261124
MEMORY_LIMIT = 3 << 30  # virtual memory of the child: far below what an unchecked count would take
BUDGET = 256 << 20  # the kit's memory budget in the child (--max-memory)
CEILING = BUDGET + (64 << 20)  # what one case may add to the child's resident memory at its peak
WORKERS = 2  # the machine's cores: each worker takes every other case
TIMEOUT = 600  # seconds for all cases together: a safety net against a hang, not a speed target


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    """A DV primary-key table with file indexes, two partitions, two buckets and two snapshots."""
    root = tmp_path_factory.mktemp("pristine") / "t"
    write_table(root, rows=40, buckets=2, release="1.0.0")
    enrich(root)
    return root


def run_share(cases: list[str]) -> subprocess.CompletedProcess:
    """One worker process over some of the cases."""
    return subprocess.run(
        worker_command(MEMORY_LIMIT, BUDGET),
        input="\n".join(cases) + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env(),
    )


def test_every_mutation_ends_in_a_finding_a_refusal_or_rows(pristine, tmp_path, request):
    print(f"adversarial seed {SEED}")
    dirs = {}
    for i, (name, mutate) in enumerate(cases(pristine, SEED)):
        root = tmp_path / f"case{i}"
        shutil.copytree(pristine, root, symlinks=True)
        mutate(root)
        dirs[str(root)] = name
    assert len(dirs) > 600
    kinds = {name.split(".", 1)[0].split(" ", 1)[0].rsplit("/", 1)[0] for name in dirs.values()}
    assert {"snapshot", "schema", "tag", "consumer", "manifest", "index"} <= kinds, kinds
    pristine_case = str(tmp_path / "pristine")
    shutil.copytree(pristine, pristine_case, symlinks=True)
    dirs[pristine_case] = "the undamaged table"
    shares = [list(dirs)[k::WORKERS] for k in range(WORKERS)]
    with ThreadPoolExecutor(WORKERS) as pool:
        procs = list(pool.map(run_share, shares))
    outcomes = [json.loads(line) for proc in procs for line in proc.stdout.splitlines() if line.startswith("{")]
    done = {o["case"] for o in outcomes}
    for share, proc in zip(shares, procs, strict=True):
        stuck = [dirs[c] for c in share if c not in done]
        assert not stuck, f"the worker died at {stuck[0]!r}: {proc.stderr[-2000:]}"
    by_case = {dirs[o["case"]]: o for o in outcomes}
    assert by_case["the undamaged table"]["read"] == "rows"
    assert by_case["the undamaged table"]["rows"] == read_latest(pristine)[1].num_rows > 0
    bad = [
        f"{dirs[o['case']]}: validate {o['validate']}; read {o['read']}; Spark source {o['source']}"
        for o in outcomes
        if o["validate"] != "ok" or o["read"] not in ("rows", "refused") or o["source"] != o["read"]
    ]
    assert not bad, f"{len(bad)} of {len(outcomes)} cases:\n" + "\n".join(bad[:40])
    sweep.checked(request.node.nodeid, list(dirs))  # each validated above, an internal error a failure
    differ = [dirs[o["case"]] for o in outcomes if o.get("same_rows") is False]
    assert not differ, f"the Spark source and the reader return other rows: {differ[:20]}"
    heavy = [f"{dirs[o['case']]}: {o['peak'] >> 20} MiB" for o in outcomes if o["peak"] > CEILING]
    assert not heavy, f"cases past the {CEILING >> 20} MiB ceiling:\n" + "\n".join(heavy[:20])
    refused = sum(o["read"] == "refused" for o in outcomes)
    assert refused > len(outcomes) // 3, "most damage must make the reader refuse"
    print(f"{len(outcomes)} cases; peak {max(o['peak'] for o in outcomes) >> 20} MiB; {refused} refused")
