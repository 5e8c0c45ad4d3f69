"""JSON text from untrusted files (snapshots, schemas, Avro writer schemas, cases), parsed within the budget.

Before json.loads builds anything, one scan in linear time and constant extra memory (however long a
string is) measures the text: its nesting depth and how many of its bytes are strings, blanks and the
rest. Parsing is charged to the budget at what it builds for each kind of byte (measured:
test_json_limits.test_parsing_costs_at_most_what_the_budget_charges); text past the budget is refused
with BudgetExceeded (exit 2: unusable within the budget, never a finding), text nested deeper than the
kit reads with JsonLimitError.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from paimon_conform.core.budget import fits, reserve
from paimon_conform.core.errors import UsageError

MAX_JSON_DEPTH = 128  # Paimon's deepest JSON (a schema of nested ROW / ARRAY / MAP types) is far shallower
SCAN_CHUNK = 1 << 18  # bytes scanned at once
SCAN_FACTOR = 48  # what the scan holds per byte of a chunk, at most (test_json_limits)
# What parsing builds, in bytes per byte of text (measured in test_json_limits):
TEXT_FACTOR = 4  # the decoded text: up to 4 bytes a character (one astral character makes all of them 4)
STRING_FACTOR = 4  # a string's str object beside it, up to 4 bytes a character
STRUCTURE_FACTOR = 32  # objects, arrays, numbers, keys ("[{},{},...]": 25 bytes per byte measured)
_OPEN, _CLOSE, _QUOTE, _BACKSLASH = (ord("["), ord("{")), (ord("]"), ord("}")), ord('"'), ord("\\")
_BLANKS = (ord(" "), ord("\t"), ord("\n"), ord("\r"))
_ZERO = np.zeros(1, np.int64)


class JsonLimitError(UsageError):
    """JSON text nested deeper than the kit reads."""


@dataclass(frozen=True)
class Scan:
    """What one pass over JSON text measured: nesting depth, bytes within strings, blank bytes outside them."""

    size: int
    depth: int
    string_bytes: int
    blank_bytes: int

    @property
    def parse_cost(self) -> int:
        """An upper bound of the bytes the scan and json.loads build from the text."""
        structure = self.size - self.string_bytes - self.blank_bytes
        parsed = TEXT_FACTOR * self.size + STRING_FACTOR * self.string_bytes + STRUCTURE_FACTOR * structure
        return SCAN_FACTOR * min(self.size, SCAN_CHUNK) + parsed


def _outside(positions: np.ndarray, real: np.ndarray, inside: int) -> np.ndarray:
    """The positions that lie outside strings, given the chunk's real quotes and whether it starts in one."""
    return positions[(np.searchsorted(real, positions) + inside) % 2 == 0]


def scan(data: bytes | bytearray | memoryview, chunk: int = SCAN_CHUNK) -> Scan:
    """Measure JSON text in one pass, `chunk` bytes at a time: linear time, constant extra memory.

    A quote is escaped when an odd run of backslashes stands before it. The depth stops at the first
    backslash outside a string, where every JSON parser stops, so it is exact for any text, valid or not.
    """
    view = memoryview(data).cast("B")
    depth = deepest = strings = blanks = 0
    inside = 0  # 1 when the chunk starts within a string
    run = 0  # backslashes that end the text before the chunk
    stopped = False
    for start in range(0, len(view), chunk):
        a = np.frombuffer(view[start : start + chunk], dtype=np.uint8)
        backslash = a == _BACKSLASH
        plain = np.flatnonzero(~backslash)  # the bytes that are not a backslash
        quotes = np.flatnonzero(a == _QUOTE)
        last = np.searchsorted(plain, quotes) - 1  # the last plain byte before each quote (-1: none in this chunk)
        runs = np.where(last >= 0, quotes - 1 - plain[np.maximum(last, 0)], quotes + run) if len(quotes) else quotes
        real = quotes[runs % 2 == 0]  # the quotes that open or close a string
        bounds = np.concatenate(
            (_ZERO[:inside], real, np.array([len(a) - 1] if (inside + len(real)) % 2 else [], np.int64))
        )
        strings += int((bounds[1::2] - bounds[0::2]).sum()) + len(bounds) // 2  # each string's bytes, quotes too
        blanks += len(_outside(np.flatnonzero(np.isin(a, _BLANKS)), real, inside))
        if not stopped:
            stray = _outside(np.flatnonzero(backslash), real, inside)  # backslashes outside strings
            end = int(stray[0]) if len(stray) else len(a)
            opening = (a[:end] == _OPEN[0]) | (a[:end] == _OPEN[1])
            brackets = _outside(np.flatnonzero(opening | (a[:end] == _CLOSE[0]) | (a[:end] == _CLOSE[1])), real, inside)
            if len(brackets):
                levels = depth + np.cumsum(np.where(opening[brackets], 1, -1))
                deepest = max(deepest, int(levels.max()))
                depth = int(levels[-1])
            stopped = end < len(a)  # JSON has no backslash outside a string: no parser reads past it
        inside = (inside + len(real)) % 2
        run = len(a) - 1 - int(plain[-1]) if len(plain) else run + len(a)
    return Scan(len(view), deepest, strings, blanks)


def json_depth(data: bytes | bytearray | memoryview, chunk: int = SCAN_CHUNK) -> int:
    """The deepest nesting of arrays and objects in JSON text (brackets inside strings not counted)."""
    return scan(data, chunk).depth


WORST_FACTOR = SCAN_FACTOR + TEXT_FACTOR + max(STRING_FACTOR, STRUCTURE_FACTOR)  # Scan.parse_cost per byte, at most
UNSCANNED = 1 << 16  # texts up to this size may skip the scan (the bound below is counted in two passes of C)


def _within_bounds_unscanned(raw: bytes | bytearray | memoryview, max_depth: int) -> bool:
    """Whether a short text passes scan's checks without scanning it: its brackets (inside strings too) cannot
    nest deeper than max_depth, and its worst-case parse cost (every byte charged at the dearest rate) fits the
    budget. Then scan's exact figures pass too, so loads_json's outcome is the same (only faster: a snapshot or
    schema is a few KB, and the vectorized scan costs about 0.5 ms whatever the size)."""
    if len(raw) > UNSCANNED or not fits(WORST_FACTOR * len(raw)):
        return False
    text = bytes(raw)
    return text.count(b"[") + text.count(b"{") <= max_depth


def load_file(path: Path, what: str) -> Any:
    """A JSON file's value: its size reserved first (the bytes read), then loads_json (what parsing builds).
    Raises as loads_json does, and OSError when the file cannot be read."""
    reserve(path.stat().st_size, f"reading {path.name}")
    return loads_json(path.read_bytes(), what)


def loads_json(data: str | bytes, what: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """json.loads after bounding the text's nesting depth and what parsing it builds.

    Raises BudgetExceeded for text whose parse would pass the budget, JsonLimitError for text nested
    deeper than `max_depth`, and ValueError (json.JSONDecodeError, UnicodeDecodeError) for text that is
    not JSON, as json.loads does.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    if _within_bounds_unscanned(raw, max_depth):
        return json.loads(data if isinstance(data, str) else bytes(raw).decode("utf-8"))
    measured = scan(raw)
    reserve(measured.parse_cost, f"{what} ({len(raw)} bytes of JSON)")
    if measured.depth > max_depth:
        raise JsonLimitError(
            f"{what}: JSON nested {measured.depth} levels deep, more than the {max_depth} the kit reads"
        )
    return json.loads(data if isinstance(data, str) else bytes(raw).decode("utf-8"))
