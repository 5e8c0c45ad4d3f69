"""The adversarial suite: every one-change mutation of a table's metadata and files (adversarial.py: JSON
metadata of every kind with huge strings, odd numbers and deep nesting included) is validated, read by the
reader and read by the Spark source's code in a child process, each case under a memory budget; each must
end as a finding, a refusal or rows, never an exception outside the kit's hierarchy, an internal error, an
out-of-memory or a hang; the Spark source gives the reader's verdict and rows; no case's peak memory passes
the budget.
"""

from __future__ import annotations

from support import background, sweep
from support.adversarial import CEILING
from support.jobs import adversarial_job

from paimon_conform.table.read.reader import read_latest

EVIDENCE = ("contract",)


def test_every_mutation_ends_in_a_finding_a_refusal_or_rows(request, tmp_path_factory):
    """The cases run in one worker process, one after another, as a background job (support/adversarial.py)."""
    run = background.result("adversarial", lambda: adversarial_job(tmp_path_factory))
    print(f"adversarial seed {run.seed}")
    dirs, pristine, outcomes = run.dirs, run.pristine, run.outcomes
    assert len(dirs) > 600
    kinds = {name.split(".", 1)[0].split(" ", 1)[0].rsplit("/", 1)[0] for name in dirs.values()}
    assert {"snapshot", "schema", "tag", "consumer", "manifest", "index"} <= kinds, kinds
    done = {o["case"] for o in outcomes}
    stuck = [name for case, name in dirs.items() if case not in done]
    assert not stuck, f"the worker died at {stuck[0]!r}: {run.stderr[-2000:]}"
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
