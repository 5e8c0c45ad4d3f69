"""The kit itself as a testee (`python -m paimon_conform.testee.kit`): decode with each layout's inspect,
encode with its encoder, every layout declared; tables read with the kit's reader and written with its
write engine. The reference the protocol's runner is tested with; `serve` is the loop every Python testee
of the repository answers with."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from paimon_conform import __version__
from paimon_conform.core.errors import LayoutError, PaimonConformError, UsageError
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.registry import LAYOUTS, get
from paimon_conform.testee import queries, tables
from paimon_conform.testee.protocol import VERSION
from paimon_conform.testee.rows import to_arrow


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """The reply to one request."""
    rid, op = request.get("id"), request.get("op")
    if op == "hello":
        kinds = sorted(LAYOUTS)
        caps = {"decode": kinds, "encode": kinds, "hash": ["binary-row"], "query": list(queries.KINDS)}
        caps |= TABLE_CAPABILITIES
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
        if op == "query":
            return {"id": rid, **queries.answer(request)}
        if op == "read-table":
            return {"id": rid, "rows": read_table(Path(request["path"]), request["fields"])}
        if op == "write-table":
            write_table(Path(request["path"]), request["table"], request["commits"])
            return {"id": rid, "ok": True}
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


def read_table(path: Path, fields: list[dict[str, Any]]) -> list[list[Any]]:
    """The latest snapshot's rows, by the kit's reader, in the fields' order."""
    from paimon_conform.table.read.reader import logical_rows, read_latest

    schema, rows = read_latest(path)
    names = [f.name for f in schema.fields]
    missing = [f["name"] for f in fields if f["name"] not in names]
    if missing:
        raise UsageError(f"the table has no column(s) {missing}")
    at = [names.index(f["name"]) for f in fields]
    return [[r[i] for i in at] for r in logical_rows(schema, rows)]


def engine_options(table: dict[str, Any]) -> dict[str, str]:
    """A write-table request's table as the write engine's options (keys as options, as Spark passes them)."""
    options = dict(table["options"])
    if table["primary_keys"]:
        options["primary-key"] = ",".join(table["primary_keys"])
    if table["partition_keys"]:
        options["partition"] = ",".join(table["partition_keys"])
    return options


def write_table(path: Path, table: dict[str, Any], commits: list[list[list[Any]]], existing: bool = False) -> None:
    """Create the table (unless `existing`: the engine then writes into the table as it is) and commit each batch
    with the kit's write engine."""
    from paimon_conform.table.write import commit
    from paimon_conform.table.write import tasks as write

    options = engine_options(table)
    for rows in commits:
        data = to_arrow(table["fields"], rows)
        plan = write.prepare(path, data.schema, options, False)
        commit.commit(plan, [write.write_task(plan, data.to_batches(), 0)])


Handler = Callable[[dict[str, Any]], dict[str, Any]]
TABLE_CAPABILITIES = {
    "read-table": ["table"],
    "write-table": sorted([*tables.KINDS, tables.CHAIN_KIND, tables.CUSTOM, tables.EXISTING]),
}


def table_handlers(
    read: Callable[[str, list[dict[str, Any]]], list[list[Any]]],
    write: Callable[[str, dict[str, Any], list[list[list[Any]]], bool], None],
) -> dict[str, Handler]:
    """The read-table and write-table handlers of a testee over its own read and write functions (`write` gets
    the request's `existing`: True when the table is there already, made by another writer)."""

    def write_table_(request: dict[str, Any]) -> dict[str, Any]:
        write(request["path"], request["table"], request["commits"], bool(request.get("existing", False)))
        return {"ok": True}

    return {"read-table": lambda r: {"rows": read(r["path"], r["fields"])}, "write-table": write_table_}


def adapter(
    name: str,
    version: str,
    capabilities: dict[str, list[str]],
    handlers: dict[str, Handler],
    java_release: str | None = None,
) -> Handler:
    """The answer function of a testee over another implementation: hello from its name, version, the Java line
    it claims (None: the newest) and capabilities; each operation by its handler, whatever the handler raises (a
    Rust panic too; not an interrupt or exit) being that implementation's error reply."""

    def answer_(request: dict[str, Any]) -> dict[str, Any]:
        rid, op = request.get("id"), request.get("op")
        if op == "hello":
            return {
                "id": rid,
                "name": name,
                "version": version,
                "protocol": VERSION,
                "java_release": java_release,
                "capabilities": capabilities,
            }
        handler = handlers.get(op)
        if handler is None:
            return {"id": rid, "error": {"message": f"unknown operation {op!r}"}}
        try:
            return {"id": rid, **handler(request)}
        except (KeyboardInterrupt, SystemExit):
            raise
        except MemoryError:
            raise  # never a fault of the input (errors.OutOfMemory)
        except BaseException as exc:  # noqa: BLE001 - what the implementation raises is its answer
            return {"id": rid, "error": {"message": f"{type(exc).__name__}: {exc}"[:2000]}}

    return answer_


def serve(inp: BinaryIO, out: BinaryIO, respond: Callable[[dict[str, Any]], dict[str, Any]] = answer) -> None:
    """Answer JSON lines with `respond` until bye or the end of input."""
    for line in inp:
        request = json.loads(line)
        if request.get("op") == "bye":
            return
        out.write(json.dumps(respond(request)).encode() + b"\n")
        out.flush()


def serve_beside_a_jvm(respond: Callable[[dict[str, Any]], dict[str, Any]], stop: Callable[[], None]) -> None:
    """`serve` on the real stdout while file descriptor 1 goes to stderr (a JVM the testee starts, and its Python
    workers, print there), then `stop` whatever the testee started."""
    protocol = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    try:
        serve(sys.stdin.buffer, protocol, respond)
    finally:
        stop()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
