"""The matrix's chains: a table one writer made, continued by another. Every producer that declares the chain
kind (tables.CHAIN: a primary-key table with deletion vectors, so a commit that drops the index manifest, leaves
rows where readers skip them, or rewrites keys without their vectors shows) writes its table once; the kit
validates it for the writer's Java line and reads it against the model (the base). Every other producer that
declares `existing` then writes one more commit into a copy (tables.chain_commit: half upserts, half new keys);
the kit validates the copy for the second writer's Java line, and the first writer and the kit read it back.
Check ids:

    chain-base:<first>:<kind>                           the first writer's table, alone: written, valid, read
    chain-write:<first>+<second>:<kind>                 the second writer wrote its commit into the first's table
    chain-validate-<java>:<first>+<second>:<kind>       no must-finding for the second writer's Java line
    chain-read:<first>+<second>><reader>:<kind>         the reader (the first writer, the kit) reads the model

A failing check names the writer whose commit broke the table: the first when its table already failed its
base check or, alone, fails the kit's validation for the second writer's line; else the second."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paimon_conform.testee import tables
from paimon_conform.testee.checks import Check
from paimon_conform.testee.judge_table import java_target, read_against, table_musts
from paimon_conform.testee.process import Session

SEPARATOR = "+"  # between the writers of a chain (not allowed in a testee's name)
KIT = "kit"  # the reader every chain is read by too, when the list has it


def chain_dir(work: Path, first: str, second: str | None = None) -> Path:
    """Where a chain's table goes (the first writer's own table when `second` is None)."""
    owner = first if second is None else f"{first}{SEPARATOR}{second}"
    return tables.table_dir(work / "chain", owner, tables.CHAIN_KIND)


def build(
    testees: dict[str, dict[str, Any]],
    producers: list[str],
    consumers: list[str],
    sessions: dict[str, Session],
    work: Path,
    say: Callable[[str], None],
) -> list[Check]:
    """Every chain's checks: each first writer's base, then each second writer's commit into it (`testees`: each
    testee's handshake by name; `producers` / `consumers`: the names that write / read tables)."""
    kind = tables.CHAIN
    extra = tables.chain_commit(kind)
    written = tables.commits(kind)
    base_model, model = tables.model(kind, written), tables.model(kind, [*written, extra])

    def declares(name: str, what: str) -> bool:
        return what in testees[name]["capabilities"].get("write-table", [])

    out: list[Check] = []
    shutil.rmtree(work / "chain", ignore_errors=True)  # a kept folder of an earlier run (--keep-tables)
    firsts: dict[str, bool] = {}  # first writer -> whether its base passed
    for first in (p for p in producers if declares(p, kind.name)):
        say(f"{first}: writing the chains' {kind.name} table")
        base = _base(testees[first], sessions, work, first, written, base_model)
        out.append(base)
        firsts[first] = base.ok
    alone: dict[tuple[str, str], list[str]] = {}  # (first, Java line) -> must-findings of its table alone
    for second in (p for p in producers if declares(p, tables.EXISTING)):
        say(f"{second}: continuing {len([f for f in firsts if f != second])} {kind.name} table(s)")
        line = java_target(testees[second])
        for first, base_ok in firsts.items():
            if first == second or not (work / "chain" / first).is_dir():
                continue
            if (first, line) not in alone:
                alone[first, line] = table_musts(chain_dir(work, first), line)
            blame = second
            if not base_ok:
                blame = f"{first} (its table fails alone: chain-base:{first})"
            elif alone[first, line]:
                blame = f"{first} (its table alone fails for Java {line}: {'; '.join(alone[first, line][:3])})"
            out += _continue(testees[second], consumers, sessions, work, first, second, extra, model, blame)
    return out


def _base(
    hello: dict[str, Any], sessions: dict[str, Session], work: Path, first: str, written: list, model: list
) -> Check:
    """The first writer's chain table: written, valid for its own line, read by the kit as the model."""
    kind = tables.CHAIN
    path = chain_dir(work, first)
    path.parent.mkdir(parents=True, exist_ok=True)
    request = {"op": "write-table", "kind": kind.name, "path": str(path), "table": kind.table(), "commits": written}
    reply, why = sessions[first].exchange(request, "write_table_reply")
    line = java_target(hello)
    if reply is None:
        shutil.rmtree(work / "chain" / first, ignore_errors=True)
        why = f"broken by {first}: it could not write the table: {why}"
    else:
        musts = table_musts(path, line)
        why = f"broken by {first}: for Java {line}: " + "; ".join(musts[:20]) if musts else ""
        if not why and KIT in sessions:
            why = _read_detail(sessions[KIT], path, model, f"broken by {first}: the kit reads its table alone:")
    return Check(f"chain-base:{first}:{kind.name}", "chain-base", first, None, kind.name, not why, why)


def _continue(
    hello: dict[str, Any],
    consumers: list[str],
    sessions: dict[str, Session],
    work: Path,
    first: str,
    second: str,
    extra: list,
    model: list,
    blame: str,
) -> list[Check]:
    """One chain: the second writer's commit into a copy of the first's table, validated and read."""
    kind = tables.CHAIN
    chain = f"{first}{SEPARATOR}{second}"
    path = chain_dir(work, first, second)
    shutil.copytree(chain_dir(work, first), path, symlinks=True)
    request = {
        "op": "write-table",
        "kind": kind.name,
        "path": str(path),
        "table": kind.table(),
        "commits": [extra],
        "existing": True,
    }
    reply, why = sessions[second].exchange(request, "write_table_reply")
    if reply is None:
        why = f"broken by {blame}: {second} could not write into {first}'s table: {why}"
    out = [Check(f"chain-write:{chain}:{kind.name}", "chain-write", chain, second, kind.name, not why, why)]
    if reply is None:
        return out
    line = java_target(hello)
    musts = table_musts(path, line)
    detail = f"for Java {line}: " + (f"broken by {blame}: " + "; ".join(musts[:20]) if musts else "no must-finding")
    out.append(
        Check(
            f"chain-validate-{line}:{chain}:{kind.name}",
            "chain-validate",
            chain,
            f"Java {line}",
            kind.name,
            not musts,
            detail,
        )
    )
    for reader in dict.fromkeys((first, KIT)):
        if reader in consumers and reader in sessions:
            why = _read_detail(sessions[reader], path, model, f"broken by {blame}:")
            out.append(
                Check(f"chain-read:{chain}>{reader}:{kind.name}", "chain-read", chain, reader, kind.name, not why, why)
            )
    return out


def _read_detail(session: Session, path: Path, model: list, prefix: str) -> str:
    """'' when the reader returns the model's rows; else what went wrong, after `prefix`."""
    why = read_against(session, path, tables.FIELDS, model)
    return f"{prefix} {why}" if why else ""
