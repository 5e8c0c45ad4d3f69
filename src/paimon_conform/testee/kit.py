"""The kit itself as a testee (`python -m paimon_conform.testee.kit`): decode with each layout's inspect,
encode with its encoder, every layout declared. The reference the protocol's runner is tested with."""

from __future__ import annotations

import json
import sys
from typing import Any, BinaryIO

from paimon_conform import __version__
from paimon_conform.core.errors import LayoutError, PaimonConformError, UsageError
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.registry import LAYOUTS, get
from paimon_conform.testee.protocol import VERSION


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request."""
    rid, op = request.get("id"), request.get("op")
    if op == "hello":
        kinds = sorted(LAYOUTS)
        caps = {"decode": kinds, "encode": kinds, "hash": ["binary-row"]}
        return {
            "id": rid,
            "name": "paimon-conform",
            "version": __version__,
            "protocol": VERSION,
            "java_release": None,
            "capabilities": caps,
        }
    try:
        if op == "decode":
            layout = get(request["kind"])
            types = layout.case_types(request.get("types") or {})
            return {"id": rid, "case": layout.inspect(bytes.fromhex(request["data"]), types)}
        if op == "encode":
            case = request["case"]
            return {"id": rid, "data": get(case["kind"]).encode(case).hex()}
        if op == "hash":
            return {"id": rid, **hash_key(request)}
    except LayoutError as err:
        return {"id": rid, "error": {"code": err.code, "message": str(err)}}
    except (PaimonConformError, KeyError, ValueError, TypeError) as exc:
        return {"id": rid, "error": {"message": f"{type(exc).__name__}: {exc}"}}
    return {"id": rid, "error": {"message": f"unknown operation {op!r}"}}


def hash_key(request: dict[str, Any]) -> dict[str, Any]:
    """A key's BinaryRow bytes, hashCode and bucket per count, as Java's fixed-bucket assignment gives them."""
    types = [parse_type(t) for t in request["types"]]
    if len(request["values"]) != len(types):
        raise UsageError(f"{len(request['values'])} value(s) for {len(types)} type(s)")
    row, h, buckets = bucketing.key_buckets(types, request["values"], request["buckets"], request["bucket_function"])
    return {"row": row.hex(), "hash": h, "buckets": buckets}


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    """Answer JSON lines until bye or the end of input."""
    for line in inp:
        request = json.loads(line)
        if request.get("op") == "bye":
            return
        out.write(json.dumps(answer(request)).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
