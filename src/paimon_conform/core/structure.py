"""Run the generated Kaitai parsers and turn every failure into a LayoutError.

`parse(layout, data)` returns the fully read object tree of the normal
build. When parsing fails, the input is parsed again with the debug build,
which records each field's start offset; the deepest field that was started
but not finished names the failure (`vectors[1].blob.bitmap.containers[0]`),
and the substream offsets along the way give its absolute byte offset.
Finding codes and display names come from the spec (`-code`,
`-report-as`), through generated/python/paimon_layouts/_ksy_fields.json.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from typing import Any

import kaitaistruct
from kaitaistruct import KaitaiStream, KaitaiStruct
from paimon_layouts import processors
from paimon_layouts.processors import ProcessError

from paimon_conform.core import budget
from paimon_conform.core.errors import InvariantError, LayoutError, TruncatedError

processors.set_reserve(budget.reserve)  # decompressed sizes count against the kit's memory budget

MAX_DEPTH = 64


@cache
def _field_map() -> dict[str, dict[str, dict[str, str]]]:
    text = resources.files("paimon_layouts").joinpath("_ksy_fields.json").read_text()
    return json.loads(text)


def _class_name(layout: str) -> str:
    return "".join(part.capitalize() for part in layout.split("_"))


def parser_class(layout: str, debug: bool = False) -> type[KaitaiStruct]:
    """The generated top-level class for a layout (normal or debug build)."""
    module = importlib.import_module(f"paimon_layouts.{'debug.' if debug else ''}{layout}")
    return getattr(module, _class_name(layout))


Maker = Callable[[KaitaiStream], KaitaiStruct]


_debug_trees: list[tuple[str, KaitaiStruct]] | None = None


@contextmanager
def debug_trees() -> Iterator[list[tuple[str, KaitaiStruct]]]:
    """While open, each successful parse also reads its input with the debug build and keeps (layout, tree):
    where every field starts and ends, for the documentation's annotated hex dumps."""
    global _debug_trees
    outer, _debug_trees = _debug_trees, []
    try:
        yield _debug_trees
    finally:
        _debug_trees = outer


def debug_tree(layout: str, data: bytes, make_debug: Maker | None = None) -> KaitaiStruct:
    """`data` read with the debug build, every instance evaluated: `_debug` holds each field's start and end."""
    stream = KaitaiStream(kaitaistruct.BytesIO(data))
    tree = make_debug(stream) if make_debug else parser_class(layout, debug=True)(stream)
    tree._read()
    tree._fetch_instances()
    return tree


def parse(layout: str, data: bytes, make: Maker | None = None, make_debug: Maker | None = None) -> Any:
    """Parse `data` as `layout` with every instance evaluated; raise LayoutError.

    `make` / `make_debug` build the (debug) top-level object from a stream, for
    specs with parameters (e.g. the bitmap index's key kind).
    """
    try:
        stream = KaitaiStream(kaitaistruct.BytesIO(data))
        obj = make(stream) if make else parser_class(layout)(stream)
        obj._fetch_instances()
        if _debug_trees is not None:
            _debug_trees.append((layout, debug_tree(layout, data, make_debug)))
        return obj
    except RecursionError as exc:
        raise LayoutError(layout, "MALFORMED", "", None, f"structure nested too deeply: {exc}") from None
    except MemoryError:
        raise  # never a finding: the kit ran out, the input may be fine
    except Exception as exc:  # noqa: BLE001 - every parser failure becomes a LayoutError
        raise locate(layout, data, exc, make_debug) from None


def _module_of(obj: KaitaiStruct) -> str:
    return type(obj).__module__.rsplit(".", 1)[-1]


Chain = tuple[KaitaiStruct, int, str, "str | None", "int | None", "int | None"]


def _open_chain(obj: KaitaiStruct, base: int, path: str, depth: int = 0, frozen: int | None = None) -> Chain:
    """Follow fields that started but did not end; return the innermost one.

    Returns (object, its absolute base offset, its path, open leaf field or
    None, absolute offset of that leaf, the frozen offset or None). When no
    field of `obj` is open, the failure may sit in an instance of a finished
    child (instances are read after the sequence), so finished children are
    searched too. Below a field whose bytes a process changed (a decompressed
    block) positions are not input offsets: every offset there is the start
    of that field in the input (`frozen`).
    """
    found = _find_open(obj, base, path, depth, frozen)
    return found if found is not None else (obj, base, path, None, None, frozen)


def _changed_by_process(obj: KaitaiStruct, name: str, i: int | None) -> bool:
    """Whether the field's bytes went through a process that changed them (not a check such as a CRC)."""
    raw, done = getattr(obj, f"_raw__raw_{name}", None), getattr(obj, f"_raw_{name}", None)
    if raw is None:
        return False
    if i is not None:
        raw = raw[i] if isinstance(raw, list) and i < len(raw) else None
        done = done[i] if isinstance(done, list) and i < len(done) else None
    return raw != done


def _child(obj: KaitaiStruct, child: KaitaiStruct, base: int, start: int, frozen: int | None, changed: bool) -> tuple:
    """(base, frozen) of a child field that starts at `start` in `obj`'s stream."""
    if frozen is not None:
        return base, frozen
    if changed:
        return base, base + start
    return (base if child._io is obj._io else base + start), None


def _find_open(obj: KaitaiStruct, base: int, path: str, depth: int, frozen: int | None = None) -> Chain | None:
    if depth >= MAX_DEPTH:
        return None
    debug = getattr(obj, "_debug", {})
    finished: list[tuple[KaitaiStruct, int, str, int | None]] = []

    def at(offset: int) -> int:
        return frozen if frozen is not None else offset

    for name, info in list(debug.items()):
        if "start" not in info:
            continue
        shown = name[3:] if name.startswith("_m_") else name
        value = getattr(obj, name, None)
        if "arr" in info:  # (label, value, debug entry, index) of each element, else of the field itself
            items = [
                (f"{shown}[{i}]", value[i] if isinstance(value, list) and i < len(value) else None, elem, i)
                for i, elem in enumerate(info["arr"])
            ]
        else:
            items = [(shown, value, info, None)]
        for label, item, entry, i in items:
            if isinstance(item, KaitaiStruct):
                changed = _changed_by_process(obj, name, i)
                child_base, child_frozen = _child(obj, item, base, entry["start"], frozen, changed)
                if "end" in entry:
                    finished.append((item, child_base, f"{path}.{label}", child_frozen))
                    continue
                return _open_chain(item, child_base, f"{path}.{label}", depth + 1, child_frozen)
            if "end" not in entry:
                return obj, base, path, label, at(base + entry["start"]), frozen
    for child, child_base, child_path, child_frozen in finished:
        found = _find_open(child, child_base, child_path, depth + 1, child_frozen)
        if found is not None:
            return found
    return None


def _join(path: str, field: str) -> str:
    return f"{path}.{field}".lstrip(".")


def locate(layout: str, data: bytes, exc: Exception, make_debug: Maker | None = None) -> LayoutError:
    """Build the LayoutError for a failure `exc` of the normal parse of `data`."""
    if isinstance(exc, LayoutError):
        return exc
    stream = KaitaiStream(kaitaistruct.BytesIO(data))
    root = make_debug(stream) if make_debug else parser_class(layout, debug=True)(stream)
    try:
        root._read()
        root._fetch_instances()
    except MemoryError:
        raise
    except Exception:  # noqa: BLE001,S110 - the same failure again; the partial tree is what we need
        pass
    obj, base, path, leaf, leaf_offset, frozen = _open_chain(root, 0, "")
    if isinstance(exc, kaitaistruct.EndOfStreamError):
        where = _join(path, leaf) if leaf else path
        return TruncatedError(
            layout,
            "TRUNCATED",
            where,
            leaf_offset,
            f"input ends inside this field: {exc.bytes_needed} byte(s) needed, {exc.bytes_available} available",
        )
    if isinstance(exc, kaitaistruct.ValidationFailedError) and exc.src_path:
        module = _module_of(obj)
        entry = _field_map().get(module, {}).get(exc.src_path, {"id": exc.src_path})
        field = entry.get("report_as", entry["id"])
        debug = getattr(obj, "_debug", {})
        start = next(
            (
                debug[k]["start"]
                for k in (field, f"_m_{field}", entry["id"], f"_m_{entry['id']}")
                if "start" in debug.get(k, {})
            ),
            None,
        )
        code = entry.get("code", f"{module.upper()}_{entry['id'].upper()}_INVALID")
        offset = frozen if frozen is not None else None if start is None else base + start
        return InvariantError(layout, code, _join(path, field), offset, _describe(exc))
    if isinstance(exc, ProcessError):
        where = _join(path, leaf) if leaf else path
        return InvariantError(layout, exc.code, where, leaf_offset, str(exc))
    where = _join(path, leaf) if leaf else path
    return LayoutError(layout, "MALFORMED", where, leaf_offset, f"{type(exc).__name__}: {exc}")


def _describe(exc: kaitaistruct.ValidationFailedError) -> str:
    actual = getattr(exc, "actual", None)
    if isinstance(exc, kaitaistruct.ValidationNotEqualError):
        return f"value {actual!r} is not the required {exc.expected!r}"
    if isinstance(exc, kaitaistruct.ValidationLessThanError):
        return f"value {actual!r} is below the minimum {exc.min!r}"
    if isinstance(exc, kaitaistruct.ValidationGreaterThanError):
        return f"value {actual!r} is above the maximum {exc.max!r}"
    if isinstance(exc, kaitaistruct.ValidationNotInEnumError):
        shown = f"0x{actual:x} ({actual})" if isinstance(actual, int) else repr(actual)
        return f"value {shown} is not one the layout defines"
    if isinstance(exc, kaitaistruct.ValidationNotAnyOfError):
        return f"value {actual!r} is not one of the allowed values"
    return "the layout's rule for this field does not hold"
