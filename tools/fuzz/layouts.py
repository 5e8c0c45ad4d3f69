#!/usr/bin/env python3
"""Coverage-guided fuzzing (atheris / libFuzzer) of every layout's parser and validator.

    .venv/bin/python tools/fuzz/layouts.py --layout roaring32 -runs=20000 -seed=1
    .venv/bin/python tools/fuzz/layouts.py -max_total_time=600          # every layout: byte 0 picks one

An input is [layout byte, only without --layout] [call byte] [types byte] then the file's bytes. The call
byte picks validate, inspect, describe, detect or the raw Kaitai parse (`structure.parse`, as the kit calls
it), its high bit runs the call under the smallest budget (1 MiB: the paths for files too large for the
budget, reached with small inputs); the types byte picks one of the layout's argument forms: none, the
types each golden case states (as the kit's case_types gives them), the CLI's forms (`--type T`,
`--types a=T`, schema-file JSON) and a few typical column lists. The seed corpus is every golden file of
the layout (golden/<name>/**/*.bin) under each call, typed as its JSON sidecar says.

The oracle is the kit's contract (core/errors.py): a call returns (validate: Findings, inspect: a dict,
describe: a str, detect: a bool) or raises a PaimonConformError that is not an InternalError; every
LayoutError and Finding has an offset that is None or in 0..len(data); the run holds a memory budget
(`budget.limited`, --budget-mb), a call's own peak RSS stays within the budget in force + --call-margin-mb
(checked again on a second run, past one-time costs) and the process's within --rss-headroom-mb of its
baseline (also handed to libFuzzer as -rss_limit_mb). Anything else is a crash: libFuzzer writes the input to
<artifact_prefix>crash-<sha1> and the line before the traceback says what was called. Run a crash file
again with `layouts.py --layout KIND FILE`.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import re
import resource
import sys
import traceback
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import atheris

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "golden"
WORK = ROOT / "build" / "fuzz"
CALLS = ("validate", "inspect", "describe", "detect", "parse")
TIGHT = 0x80  # a call byte's high bit: the call runs under the smallest budget
KEEP_GOING_BACKSTOP_MB = 2048  # --keep-going: libFuzzer's -rss_limit_mb this far past our own per-input check
SEEDED_CALLS = ("validate", "inspect", "describe", "parse")  # detect: one untyped seed per file

with atheris.instrument_imports(include=["paimon_conform", "paimon_layouts"]):
    from paimon_conform.core import budget, structure
    from paimon_conform.core.errors import InternalError, LayoutError, OutOfMemory, PaimonConformError, UsageError
    from paimon_conform.core.findings import Finding
    from paimon_conform.core.types import parse_type
    from paimon_conform.layouts import registry
    from paimon_conform.layouts.base import Layout, never_detected, parse_fits, require_type
    from paimon_conform.layouts.binary_row import codec as binary_row_codec
    from paimon_conform.layouts.binary_row import entry as binary_row_entry
    from paimon_conform.layouts.bitmap_index import codec as bitmap_codec
    from paimon_conform.layouts.blob_file import entry as blob_file_entry
    from paimon_conform.layouts.range_bitmap import codec as range_bitmap_codec
    from paimon_conform.layouts.row_file import entry as row_file_entry


class Crash(Exception):
    """A breach of the kit's contract that raised no exception of its own (or raised an InternalError)."""


# ------------------------------------------------------------------------------------------- argument forms

T = parse_type
# Typical argument forms beyond the cases' own: the CLI's (`--types a=INT,b=STRING` gives {name: DataType},
# `--type INT` one DataType, schema-file JSON keeps nested types as JSON) and plain lists.
TYPICAL: dict[str, list[Any]] = {
    "row-file": [
        {"a": T("INT"), "b": T("STRING")},
        [T("BIGINT")],
        [T("INT"), T("BIGINT"), T("DOUBLE"), T("STRING"), T("BOOLEAN")],
        {"d": T("DECIMAL(10,2)"), "w": T("DECIMAL(38,10)"), "t": T("TIMESTAMP(9)"), "l": T("TIMESTAMP_LTZ(3)")},
        {"a": {"type": "ARRAY", "element": "INT"}, "m": {"type": "MAP", "key": "STRING", "value": "BIGINT"}},
        {
            "r": {
                "type": "ROW",
                "fields": [{"id": 0, "name": "x", "type": "INT"}, {"id": 1, "name": "y", "type": "STRING"}],
            }
        },
        {"v": "VARIANT", "b": "BLOB", "bin": T("VARBINARY(8)")},
        T("INT"),
    ],
    "blob-file": [
        "BLOB",
        {"b": {"type": "ARRAY", "element": "BLOB"}},
        {"b": {"type": "MAP", "key": "STRING", "value": "BLOB"}},
        {"b": {"type": "MAP", "key": "SMALLINT", "value": "BLOB"}},
        {"b": {"type": "MAP", "key": "DECIMAL(10,2)", "value": "BLOB"}},
        {"b": {"type": "MAP", "key": "BINARY(3)", "value": "BLOB"}},
    ],
    "binary-row": [{"a": T("INT"), "b": T("STRING")}, [T("BIGINT"), T("DECIMAL(20,2)"), T("TIMESTAMP(9)")], []],
    "file-index": [{"a": T("INT"), "s": T("STRING")}, {"b": T("BIGINT")}],
}
TYPICAL["binary-row-serialized"] = TYPICAL["binary-row"]
for _kind in ("bitmap", "range-bitmap", "bsi", "bloom-filter", "bitmap-global-index", "btree-global-index"):
    TYPICAL[_kind] = [T("INT"), T("STRING"), {"c": T("INT")}]  # the dict: `--types c=INT` for a lone payload


def cli_types(case: dict[str, Any]) -> Any:
    """A case's `fields` as the CLI's schema-file JSON `--types` gives them (atomic types parsed), or None."""
    fields = case.get("fields")
    if not isinstance(fields, list) or not all(isinstance(f, dict) and "name" in f for f in fields):
        return None
    out = {}
    for f in fields:
        try:
            out[f["name"]] = T(f["type"]) if isinstance(f["type"], str) else f["type"]
        except (UsageError, KeyError):
            out[f["name"]] = f.get("type")
    return out


@dataclass
class Seed:
    """A golden file and the argument form its case states (None: untyped)."""

    path: Path
    data: bytes
    types: Any


def golden_seeds(layout: Layout) -> list[Seed]:
    """The layout's golden files with the types their sidecars state."""
    seeds = []
    for path in sorted((GOLDEN / layout.name).rglob("*.bin")):
        sidecar = path.with_suffix(".json")
        types = None
        if sidecar.is_file():
            try:
                types = layout.case_types(json.loads(sidecar.read_text()))
            except (PaimonConformError, KeyError, TypeError, ValueError):
                types = None
        seeds.append(Seed(path, path.read_bytes(), types))
    return seeds


def type_forms(layout: Layout, seeds: list[Seed]) -> list[Any]:
    """Every argument form fuzzed for a layout: None first, then the cases' and the typical ones (deduplicated)."""
    forms: list[Any] = [None]
    extra: list[Any] = []
    for seed in seeds:
        sidecar = seed.path.with_suffix(".json")
        if sidecar.is_file() and layout.kind in ("row-file", "blob-file", "binary-row", "binary-row-serialized"):
            extra.append(cli_types(json.loads(sidecar.read_text())))
    for form in [s.types for s in seeds] + extra + TYPICAL.get(layout.kind, []):
        if all(repr(form) != repr(f) for f in forms):
            forms.append(form)
    return forms[:256]


def form_index(forms: list[Any], types: Any) -> int:
    """The index of an argument form in the list (0, untyped, when absent)."""
    return next((i for i, f in enumerate(forms) if repr(f) == repr(types)), 0)


# ------------------------------------------------------------------------------------------- the calls


def raw_parser(layout: Layout) -> Callable[[bytes, Any], Any]:
    """The generated parser, called as the kit calls it for this layout (its parameters from the types)."""
    name = layout.name
    if layout.kind in ("binary-row", "binary-row-serialized"):
        serialized = layout.kind == "binary-row-serialized"
        return lambda data, types: binary_row_codec.parse(binary_row_entry.field_types(types), data, serialized)
    if layout.kind == "bitmap":
        return lambda data, types: bitmap_codec.parse_structure(data, require_type(types, layout.kind))
    if layout.kind == "range-bitmap":
        return lambda data, types: range_bitmap_codec.parse_structure(data, require_type(types, layout.kind))
    if layout.kind == "row-file":
        return lambda data, types: _fitting(
            data, name, lambda: row_file_entry._spec(data, row_file_entry.field_types(types))
        )
    if layout.kind == "blob-file":
        return lambda data, types: _fitting(
            data, name, lambda: blob_file_entry._spec(data, blob_file_entry.element_type_of(types))
        )
    return lambda data, types: _fitting(data, name, lambda: structure.parse(name, data))


def _fitting(data: bytes, name: str, parse: Callable[[], Any]) -> Any:
    """A parse after the budget check the kit makes before it (parse_fits)."""
    parse_fits(data, name)
    return parse()


def call(layout: Layout, name: str, data: bytes, types: Any) -> Any:
    """One of the layout's calls."""
    if name == "detect":
        return layout.detect(data)
    if name == "parse":
        return raw_parser(layout)(data, types)
    return getattr(layout, name)(data, types)


# ------------------------------------------------------------------------------------------- the oracle


def check_offset(offset: Any, size: int, what: str) -> None:
    """An offset must be None or a byte position of the input (0..len(data))."""
    if offset is not None and (not isinstance(offset, int) or isinstance(offset, bool) or not 0 <= offset <= size):
        raise Crash(f"{what} has offset {offset!r}, outside 0..{size}")


def check_result(name: str, result: Any, size: int) -> None:
    """What each call returns, and the offsets of the Findings validate returns."""
    expected = {"validate": list, "inspect": dict, "describe": str, "detect": bool}.get(name, object)
    if not isinstance(result, expected):
        raise Crash(f"{name} returned {type(result).__name__}, not {expected.__name__}")
    if name == "validate":
        for f in result:
            if not isinstance(f, Finding):
                raise Crash(f"validate returned a {type(f).__name__} among its findings")
            check_offset(f.offset, size, f"finding {f.code} at {f.path!r}")


@dataclass(frozen=True)
class Input:
    """What one fuzz input asks for: a call, its argument form, the file's bytes, and whether the call runs
    under the smallest budget (1 MiB: the paths for files too large for the budget, on small inputs)."""

    call: str
    types: Any
    data: bytes
    tight: bool = False


def oracle(layout: Layout, given: Input) -> None:
    """Run one call; raise (a crash) when it breaks the kit's contract."""
    data = given.data
    try:
        with budget.limited(budget.MIN_MAX_MEMORY) if given.tight else nullcontext():
            result = call(layout, given.call, data, given.types)
    except InternalError as err:
        raise Crash(f"InternalError: {err}") from err.cause
    except OutOfMemory as err:
        raise Crash(f"OutOfMemory: {err}") from err
    except LayoutError as err:
        check_offset(err.offset, len(data), f"{type(err).__name__} {err.code} at {err.path!r}")
        return
    except PaimonConformError:
        return
    check_result(given.call, result, len(data))


# ------------------------------------------------------------------------------------------- the target


@dataclass
class Target:
    """One layout's fuzzing state: its argument forms and seeds."""

    layout: Layout
    forms: list[Any]
    seeds: list[Seed]

    @classmethod
    def of(cls, layout: Layout) -> Target:
        """The target for a layout, seeded from its golden files."""
        seeds = golden_seeds(layout)
        return cls(layout, type_forms(layout, seeds), seeds)

    def decode(self, data: bytes) -> Input:
        """An input's call (its high bit: under the smallest budget), argument form and file bytes."""
        call_byte, types_byte = (data + b"\0\0")[:2]
        types = self.forms[types_byte % len(self.forms)]
        return Input(CALLS[(call_byte & ~TIGHT) % len(CALLS)], types, data[2:], call_byte >= TIGHT)

    def encoded_seeds(self) -> Iterator[bytes]:
        """Each golden file under each call, typed as its case states (and untyped once)."""
        for seed in self.seeds:
            typed = form_index(self.forms, seed.types)
            header = {bytes([CALLS.index(c), typed]) for c in SEEDED_CALLS}
            header.add(bytes([CALLS.index("validate"), 0]))
            header.add(bytes([TIGHT | CALLS.index("validate"), typed]))
            if self.layout.detect is not never_detected:
                header.add(bytes([CALLS.index("detect"), 0]))
            for h in sorted(header):
                yield h + seed.data


class Fuzzer:
    """The libFuzzer callback: one layout (--layout) or all of them (the first byte picks one)."""

    def __init__(
        self,
        targets: list[Target],
        all_layouts: bool,
        rss_limit_mb: int,
        headroom_mb: int,
        keep_going: KeepGoing | None,
    ) -> None:
        self.targets = targets
        self.all_layouts = all_layouts
        self.rss_limit_kb = (rss_limit_mb if rss_limit_mb > 0 else 1 << 40) << 10
        self.headroom_mb = headroom_mb
        self.keep_going = keep_going
        self.memory = Memory()
        self.call_margin_kb = 64 << 10

    def split(self, data: bytes) -> tuple[Target, bytes]:
        """The target an input is for, and the rest of the input."""
        if not self.all_layouts:
            return self.targets[0], data
        if not data:
            return self.targets[0], b""
        return self.targets[data[0] % len(self.targets)], data[1:]

    def seeds(self) -> Iterator[bytes]:
        """The seed corpus, with the layout byte when fuzzing every layout."""
        for i, target in enumerate(self.targets):
            prefix = bytes([i]) if self.all_layouts else b""
            for seed in target.encoded_seeds():
                yield prefix + seed

    def __call__(self, raw: bytes) -> None:
        target, rest = self.split(raw)
        given = target.decode(rest)
        try:
            self.run(target, given)
        except Exception as exc:
            # the traceback on stderr too (atheris prints it on stdout), right after what was called
            report = f"\n== paimon-conform fuzz crash: {describe(target, given)}\n{traceback.format_exc()}"
            print(report, file=sys.stderr, flush=True)
            if self.keep_going is None:
                raise
            sig = signature(target.layout.kind, given.call, exc)
            header = 3 if self.all_layouts else 2
            self.keep_going.record(exc, sig, raw, header, partial(self.signature_of, like=exc))

    def run(self, target: Target, given: Input) -> None:
        """The oracle, then the memory checks: the call's own peak, and the process's."""
        limit = (budget.MIN_MAX_MEMORY if given.tight else budget.current().max_memory) // 1024 + self.call_margin_kb
        grown = self.memory.call_peak(lambda: oracle(target.layout, given))
        if grown > limit:  # a one-time cost (a kernel compiled, a cache filled) does not come back: run it again
            grown = self.memory.call_peak(lambda: oracle(target.layout, given))
            if grown > limit:
                raise MemoryCrash(f"the call's peak resident memory grew {grown >> 10} MB, past budget + margin")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if peak > self.rss_limit_kb:
            message = f"peak RSS {peak >> 10} MB passed the limit of {self.rss_limit_kb >> 10} MB"
            if self.keep_going is not None:  # report it once, then judge the inputs after it from here
                self.rss_limit_kb = peak + (self.headroom_mb << 10)
            raise MemoryCrash(message)

    def signature_of(self, raw: bytes, like: Exception) -> str | None:
        """The signature of the crash `raw` makes (None: no crash), for minimizing an input like `like`."""
        if isinstance(like, MemoryCrash):
            return None
        target, rest = self.split(raw)
        given = target.decode(rest)
        try:
            oracle(target.layout, given)
        except Exception as exc:  # noqa: BLE001 - any exception is the crash being minimized
            return signature(target.layout.kind, given.call, exc)
        return None


def describe(target: Target, given: Input) -> str:
    """One line saying what crashed: layout, call, argument form, budget, the bytes in hex."""
    data = given.data
    shown = data.hex() if len(data) <= 4096 else f"{data[:4096].hex()}... ({len(data)} bytes)"
    tight = " budget=1MiB" if given.tight else ""
    return (
        f"layout={target.layout.kind} call={given.call} types={show_types(given.types)}{tight} "
        f"data({len(data)})={shown}"
    )


def show_types(types: Any) -> str:
    """An argument form in the CLI's spelling (JSON for nested types)."""
    if isinstance(types, dict):
        return "{" + ", ".join(f"{k}: {show_types(v)}" for k, v in types.items()) + "}"
    if isinstance(types, list | tuple):
        return "[" + ", ".join(show_types(v) for v in types) + "]"
    if types is None or isinstance(types, str):
        return repr(types)
    return str(types) if not isinstance(types, int | float | bool) else repr(types)


class MemoryCrash(Crash):
    """The peak RSS passed the limit."""


class Memory:
    """A call's peak resident memory above the resident size before it (Linux: VmHWM, reset through
    /proc/self/clear_refs; 0 elsewhere)."""

    def __init__(self) -> None:
        try:
            self.status = os.open("/proc/self/status", os.O_RDONLY)
            self.clear = os.open("/proc/self/clear_refs", os.O_WRONLY)
        except OSError:
            self.status = self.clear = -1

    def _field(self, name: bytes) -> int:
        os.lseek(self.status, 0, os.SEEK_SET)
        text = os.read(self.status, 8192)
        at = text.index(name) + len(name)
        return int(text[at : text.index(b"kB", at)])

    def call_peak(self, run: Callable[[], None]) -> int:
        """Run `run`; how far (KiB) the peak resident size went above the resident size before it."""
        if self.status < 0:
            run()
            return 0
        os.write(self.clear, b"5")  # the peak resident size starts again here
        before = self._field(b"VmRSS:")
        run()
        return self._field(b"VmHWM:") - before


def signature(kind: str, name: str, exc: BaseException) -> str:
    """What tells two crashes apart: layout, call, exception type and the innermost frame of the kit."""
    cause = exc.__cause__ if isinstance(exc, Crash) and exc.__cause__ is not None else exc
    frames = [f for f in traceback.extract_tb(cause.__traceback__) if "/tools/fuzz/" not in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].name}:{frames[-1].lineno}" if frames else "-"
    if isinstance(exc, MemoryCrash):
        return f"{kind} {name} MemoryCrash"
    what = re.sub(r"\d+", "N", str(exc))[:60] if type(exc) is Crash else type(cause).__name__
    return f"{kind} {name} {what} @ {where}"


class KeepGoing:
    """-- keep-going: record each distinct crash (minimized input, traceback) and fuzz on."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.seen: dict[str, bytes] = {}

    def record(
        self, exc: Exception, sig: str, raw: bytes, header: int, signature_of: Callable[[bytes], str | None]
    ) -> None:
        """Write a new crash's input (minimized) and traceback under the artifact prefix."""
        if sig in self.seen:
            return
        small = minimize(raw, lambda r: signature_of(r) == sig, header)
        self.seen[sig] = small
        base = f"{self.prefix}distinct-{len(self.seen):03d}"
        Path(base).write_bytes(small)
        text = "".join(traceback.format_exception(exc))
        Path(base + ".txt").write_text(f"{sig}\ninput: {small.hex()}\n\n{text}")
        print(
            f"== NEW DISTINCT CRASH {len(self.seen)}: {sig}\n== minimized: {small.hex()}", file=sys.stderr, flush=True
        )


def minimize(raw: bytes, same: Callable[[bytes], bool], header: int = 3, tries: int = 2000) -> bytes:
    """A shorter input that still makes the same crash: chunks removed, halving (the header bytes kept)."""
    if not same(raw):
        return raw
    head, body = raw[:header], raw[header:]
    chunk = max(1, len(body) // 2)
    while chunk >= 1 and tries > 0:
        i, removed = 0, False
        while i < len(body) and tries > 0:
            tries -= 1
            candidate = body[:i] + body[i + chunk :]
            if same(head + candidate):
                body, removed = candidate, True
            else:
                i += chunk
        if not removed:
            chunk //= 2
    return head + body


# ------------------------------------------------------------------------------------------- setup


def write_seeds(corpus: Path, seeds: Iterator[bytes]) -> int:
    """Write the seed corpus into `corpus` (named by content, as libFuzzer names its own); how many."""
    corpus.mkdir(parents=True, exist_ok=True)
    names = set()
    for data in seeds:
        name = hashlib.sha1(data).hexdigest()  # noqa: S324 - a file name, as libFuzzer's
        names.add(name)
        path = corpus / name
        if not path.exists():
            path.write_bytes(data)
    return len(names)


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """Our options; the rest goes to libFuzzer (its -flags and corpus folders or crash files)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    p.add_argument("--layout", help="the layout kind or name to fuzz (default: every layout, byte 0 picks it)")
    p.add_argument("--corpus", type=Path, help="the corpus folder (seeded from golden/; default build/fuzz/<kind>)")
    p.add_argument("--budget-mb", type=int, default=64, help="the kit's memory budget (budget.limited), MiB")
    p.add_argument("--rss-headroom-mb", type=int, default=256, help="peak RSS allowed above the baseline, MiB")
    p.add_argument(
        "--call-margin-mb", type=int, default=64, help="a call's own peak RSS allowed past the budget in force, MiB"
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="record each distinct crash (minimized, as <artifact_prefix>distinct-NNN and .txt) and fuzz on",
    )
    return p.parse_known_args(argv)


def rss_mb() -> int:
    """The process's peak resident set so far, MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10


def libfuzzer_argv(args: argparse.Namespace, rest: list[str], kind: str, seeds: Iterator[bytes]) -> list[str]:
    """libFuzzer's argv: the seeded corpus first (unless crash files are given), an artifact prefix and
    -rss_limit_mb (baseline + headroom) when not given."""
    flags = [a for a in rest if a.startswith("-")]
    paths = [a for a in rest if not a.startswith("-")]
    if not any(Path(p).is_file() for p in paths):
        corpus = args.corpus or WORK / kind
        count = write_seeds(corpus, seeds)
        print(f"paimon-conform fuzz: {kind}: {count} seed(s) in {corpus}", file=sys.stderr)
        paths = [str(corpus), *paths]
    if not any(f.startswith("-artifact_prefix=") for f in flags):
        (WORK / "artifacts").mkdir(parents=True, exist_ok=True)
        flags.append(f"-artifact_prefix={WORK / 'artifacts'}/{kind}-")
    if not any(f.startswith("-rss_limit_mb=") for f in flags):
        backstop = KEEP_GOING_BACKSTOP_MB if args.keep_going else 0  # past our own check, which fuzzes on
        flags.append(f"-rss_limit_mb={rss_mb() + args.rss_headroom_mb + backstop}")
    return [sys.argv[0], *flags, *paths]


def flag_value(argv: list[str], flag: str) -> Any:
    """The value of a libFuzzer flag (an int when it is one), None when not given."""
    value = next((a.split("=", 1)[1] for a in argv if a.startswith(flag + "=")), None)
    return int(value) if value is not None and value.lstrip("-").isdigit() else value


def import_generated(layouts: list[Layout]) -> None:
    """The layouts' generated parsers (normal and debug build, and what they import), instrumented: the kit
    imports them lazily, outside the instrumented imports above. Only these: instrumenting takes seconds."""
    with atheris.instrument_imports(include=["paimon_layouts"]):
        for layout in layouts:
            importlib.import_module(f"paimon_layouts.{layout.name}")
            importlib.import_module(f"paimon_layouts.debug.{layout.name}")


def main(argv: list[str]) -> None:
    """Set up the targets, the budget and libFuzzer, and fuzz (libFuzzer exits the process)."""
    args, rest = parse_args(argv[1:])
    layouts = [registry.get(args.layout)] if args.layout else list(registry.LAYOUTS.values())
    import_generated(layouts)
    targets = [Target.of(layout) for layout in layouts]
    empty = [t.layout.kind for t in targets if not t.seeds]
    if empty:
        sys.exit(f"paimon-conform fuzz: no golden seeds for {', '.join(empty)} (golden/<name>/**/*.bin)")
    kind = layouts[0].kind if args.layout else "all"
    fuzzer = Fuzzer(targets, not args.layout, 0, args.rss_headroom_mb, None)
    fuzz_argv = libfuzzer_argv(args, rest, kind, fuzzer.seeds())
    explicit = any(a.startswith("-rss_limit_mb=") for a in rest)
    backstop = KEEP_GOING_BACKSTOP_MB if args.keep_going and not explicit else 0
    fuzzer.call_margin_kb = args.call_margin_mb << 10
    fuzzer.rss_limit_kb = ((flag_value(fuzz_argv, "-rss_limit_mb") - backstop) or 1 << 30) << 10
    if args.keep_going:
        fuzzer.keep_going = KeepGoing(str(flag_value(fuzz_argv, "-artifact_prefix")))
    atheris.Setup(fuzz_argv, fuzzer)
    with budget.limited(args.budget_mb << 20):
        atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
