"""A testee in Python that forwards to the kit except where a plan tells it to misbehave: the suite's check that
the testee runner catches each way a testee can go wrong."""

from __future__ import annotations

import json
import sys
from pathlib import Path

# A testee in Python that forwards to the kit, except where the environment tells it to misbehave:
# per request a behaviour (crash, hang, garbage, wrong-id, flip, wrong-value, accept, hash-off, remain, drop-row,
# empty-rows, bad-reply), and which kinds
# it declares.
ROGUE = r"""
import json, os, sys, time
from paimon_conform.testee import kit
plan = json.loads(open(os.environ["ROGUE_PLAN"]).read())
for line in sys.stdin.buffer:
    req = json.loads(line)
    if req["op"] == "bye":
        break
    reply = kit.answer(req)
    if req["op"] == "hello":
        reply["capabilities"] = plan["capabilities"]
    else:
        what = plan["by_request"].get(json.dumps({k: v for k, v in req.items() if k != "id"}, sort_keys=True), "")
        if what == "crash":
            sys.exit(3)
        if what == "hang":
            time.sleep(60)
        if what == "garbage":
            sys.stdout.buffer.write(b"this is not json\n"); sys.stdout.flush(); continue
        if what == "wrong-id":
            reply["id"] += 100
        if what == "flip" and "data" in reply:
            reply["data"] = ("00" if reply["data"][:2] != "00" else "01") + reply["data"][2:]
        if what == "wrong-value":  # the same keys, one number off
            case = reply["case"]
            key = next(k for k, v in case.items() if type(v) is int and k != "case_format")
            case[key] += 1
        if what == "accept":
            reply = {"id": req["id"], "case": {"case_format": 1, "kind": req["kind"]}}
        if what == "hash-off":
            reply["hash"] += 1
        if what == "remain":
            reply = {"id": req["id"], "result": "remain"}
        if what == "drop-row":
            reply["rows"] = reply["rows"][1:]
        if what == "empty-rows":
            reply = {"id": req["id"], "result": "rows", "rows": []}
        if what == "bad-reply":
            reply = {"id": req["id"], "case": {}, "error": {"message": "both"}}
    sys.stdout.buffer.write(json.dumps(reply).encode() + b"\n"); sys.stdout.flush()
"""


def rogue_command(tmp_path: Path, monkeypatch, caps: dict, by_case: dict[str, str], cases: list) -> list[str]:
    """The rogue testee's command, told to misbehave on the given case ids (found by their requests)."""
    by_request = {json.dumps(c.request, sort_keys=True): by_case[c.id] for c in cases if c.id in by_case}
    script = tmp_path / "rogue.py"
    script.write_text(ROGUE)
    plan = tmp_path / "rogue-plan.json"  # a file: requests with their bytes outgrow an environment variable
    plan.write_text(json.dumps({"capabilities": caps, "by_request": by_request}))
    monkeypatch.setenv("ROGUE_PLAN", str(plan))
    return [sys.executable, str(script)]
