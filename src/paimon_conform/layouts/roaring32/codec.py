"""RoaringBitmap portable format: Java-exact encoder, fast decoder, library checks.

The encoder reproduces what Paimon's shaded org.roaringbitmap writes for a
bitmap built by adding values and then calling `runOptimize()`:
a container starts as an array (cardinality <= 4096) or a bitmap, and becomes
a run container iff `2 + 4 * runs < size`, where size is `2 * cardinality`
for an array and 8192 for a bitmap (strict `<`).

The fast decoder hands the bytes to pyroaring (CRoaring), which validates
them; the checks here cover what the Kaitai spec cannot say (see
specs/roaring32.ksy) and report each problem with its field path and offset.
"""

from __future__ import annotations

import array
import struct
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from pyroaring import BitMap, BitMap64

from paimon_conform.core import budget
from paimon_conform.core.cases import int_lists
from paimon_conform.core.errors import EncodeError, LayoutError
from paimon_conform.core.findings import Finding

COOKIE_NO_RUN = 12346
COOKIE_RUN = 12347
NO_OFFSET_THRESHOLD = 4
ARRAY_MAX = 4096
BITMAP_BYTES = 8192
MAX_U32 = 0xFFFFFFFF
MAX_U64 = 0xFFFFFFFFFFFFFFFF

ARRAY, BITMAP, RUN = "array", "bitmap", "run"
KINDS = (ARRAY, BITMAP, RUN)


def java_container_kind(cardinality: int, num_runs: int) -> str:
    """Container kind Java's RoaringBitmap picks for a fresh, run-optimized container."""
    size = 2 * cardinality if cardinality <= ARRAY_MAX else BITMAP_BYTES
    if 2 + 4 * num_runs < size:
        return RUN
    return ARRAY if cardinality <= ARRAY_MAX else BITMAP


def larger_than_java_writes(is_run: bool, cardinality: int, num_runs: int) -> bool:
    """Whether a container is serialized larger than Java's RoaringBitmap ever writes its values. An array or
    bitmap container becomes a run in runOptimize() only when the run form is strictly smaller (2 + 4 runs against
    2 per value, or 8192). A run container (one read from an earlier vector and added to, as Paimon's
    deletion-vector maintainer does) stays a run unless toEfficientContainer finds another form strictly smaller,
    and it counts an array as 2 + 2 per value: runs of 2 + 4n bytes stay up to 2 + 2c. Tables Paimon's Spark
    connector 0.9.0 writes hold run containers on the tie."""
    run = 2 + 4 * num_runs
    if is_run:
        return run > min(BITMAP_BYTES, 2 + 2 * cardinality)
    return run < (2 * cardinality if cardinality <= ARRAY_MAX else BITMAP_BYTES)


def as_sorted_unique(values: Iterable[int] | np.ndarray, limit: int) -> np.ndarray:
    """Values as a sorted, duplicate-free uint64 array (the input itself when it already is one: read only);
    EncodeError if out of [0, limit]."""
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise EncodeError(f"positions must be integers, got {values.dtype}")
        if values.size == 0:
            return np.zeros(0, dtype=np.uint64)
        lo, hi = int(values.min()), int(values.max())
    else:
        values = [int(v) for v in values]
        if not values:
            return np.zeros(0, dtype=np.uint64)
        lo, hi = min(values), max(values)
    if lo < 0 or hi > limit:
        raise EncodeError(f"position out of range [0, {limit}]: {lo if lo < 0 else hi}")
    arr = np.asarray(values, dtype=np.uint64)
    if arr.ndim == 1 and bool((arr[1:] > arr[:-1]).all()):
        return arr  # already sorted and duplicate-free (one linear pass instead of a sort)
    return np.unique(arr)


@dataclass(frozen=True)
class Container:
    """One container of a 32-bit bitmap: its key, kind and low 16-bit values."""

    key: int
    kind: str
    lows: np.ndarray  # uint16, sorted

    @property
    def cardinality(self) -> int:
        return int(self.lows.size)


def _run_bounds(lows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and inclusive ends of the runs of consecutive values."""
    lows32 = lows.astype(np.int64)
    breaks = np.flatnonzero(np.diff(lows32) != 1) + 1
    starts = np.concatenate(([0], breaks))
    ends = np.concatenate((breaks - 1, [lows.size - 1]))
    return lows32[starts], lows32[ends]


def plan_containers(values32: np.ndarray, kinds: Sequence[str] | None = None) -> list[Container]:
    """Split sorted 32-bit values into containers with Java's (or the given) kinds."""
    if values32.size == 0:
        if kinds:
            raise EncodeError("container kinds given for an empty bitmap")
        return []
    highs = (values32 >> np.uint64(16)).astype(np.int64)
    lows = (values32 & np.uint64(0xFFFF)).astype(np.uint16)
    cuts = np.flatnonzero(np.diff(highs)) + 1
    bounds = np.concatenate(([0], cuts, [values32.size]))
    if kinds is not None and len(kinds) != bounds.size - 1:
        raise EncodeError(f"{len(kinds)} container kinds given for {bounds.size - 1} containers")
    out = []
    for i in range(bounds.size - 1):
        part = lows[bounds[i] : bounds[i + 1]]
        if kinds is None:
            starts, _ = _run_bounds(part)
            kind = java_container_kind(part.size, starts.size)
        else:
            kind = kinds[i]
            if kind not in KINDS:
                raise EncodeError(f"unknown container kind {kind!r}")
            if kind == ARRAY and part.size > ARRAY_MAX:
                raise EncodeError(f"an array container holds at most {ARRAY_MAX} values, not {part.size}")
            if kind == BITMAP and part.size <= ARRAY_MAX:
                raise EncodeError(f"a bitmap container needs more than {ARRAY_MAX} values, not {part.size}")
        out.append(Container(int(highs[bounds[i]]), kind, part))
    return out


def _payload(c: Container) -> bytes:
    if c.kind == ARRAY:
        return c.lows.astype("<u2").tobytes()
    if c.kind == BITMAP:
        bits = np.zeros(65536, dtype=np.uint8)
        bits[c.lows.astype(np.int64)] = 1
        return np.packbits(bits, bitorder="little").tobytes()
    starts, ends = _run_bounds(c.lows)
    pairs = np.empty(starts.size * 2, dtype="<u2")
    pairs[0::2] = starts
    pairs[1::2] = ends - starts
    return struct.pack("<H", starts.size) + pairs.tobytes()


def serialize_containers(containers: Sequence[Container], run_cookie: bool | None = None) -> bytes:
    """Portable serialization of the given containers."""
    n = len(containers)
    has_run = any(c.kind == RUN for c in containers) if run_cookie is None else run_cookie
    if has_run and n == 0:
        raise EncodeError("the run-container cookie needs at least one container")
    head = bytearray()
    if has_run:
        head += struct.pack("<HH", COOKIE_RUN, n - 1)
        flags = bytearray((n + 7) // 8)
        for i, c in enumerate(containers):
            if c.kind == RUN:
                flags[i // 8] |= 1 << (i % 8)
        head += flags
    else:
        head += struct.pack("<II", COOKIE_NO_RUN, n)
    for c in containers:
        head += struct.pack("<HH", c.key, c.cardinality - 1)
    payloads = [_payload(c) for c in containers]
    if not has_run or n >= NO_OFFSET_THRESHOLD:
        pos = len(head) + 4 * n
        for p in payloads:
            head += struct.pack("<I", pos)
            pos += len(p)
    return bytes(head) + b"".join(payloads)


def encode_roaring32(
    values: Iterable[int] | np.ndarray, kinds: Sequence[str] | None = None, run_cookie: bool | None = None
) -> bytes:
    """Bytes Java's RoaringBitmap32.serialize() writes for these values.

    `kinds` (one per container) and `run_cookie` reproduce a non-canonical
    file exactly; leave them None for what Java writes.
    """
    arr = as_sorted_unique(values, MAX_U32)
    if kinds is None and run_cookie is None:  # CRoaring's bytes where they are shown to be Java's
        bm = bitmap_of(arr)
        bm.run_optimize()
        data = bm.serialize()
        if is_java_canonical(bm, data):
            return data
    return serialize_containers(plan_containers(arr, kinds), run_cookie)


RANGE_BYTES = 160  # one [first, last] pair as Python objects (a list and two ints) in a case
VALUE_BYTES = 24  # one value as a uint64 while a bitmap's values are listed (the array, a copy, a comparison)


def to_ranges(values: np.ndarray) -> list[list[int]]:
    """Sorted unique values as inclusive [first, last] runs."""
    if values.size == 0:
        return []
    v = values.astype(np.uint64)
    breaks = np.flatnonzero(np.diff(v) != 1) + 1
    firsts = v[np.concatenate(([0], breaks))]
    lasts = v[np.concatenate((breaks - 1, [v.size - 1]))]
    return pairs(firsts, lasts)


def pairs(firsts: np.ndarray, lasts: np.ndarray) -> list[list[int]]:
    """Run bounds as a case's [[first, last], ...] (refused when the list would pass the memory budget)."""
    budget.reserve(RANGE_BYTES * int(firsts.size), f"a list of {firsts.size} ranges")
    return np.stack([np.asarray(firsts, np.uint64), np.asarray(lasts, np.uint64)], axis=1).tolist()


def check_ranges(ranges: Sequence[Sequence[int]], limit: int = MAX_U64) -> int:
    """The number of values inclusive [first, last] runs hold; EncodeError unless ascending, disjoint, in [0, limit]."""
    bounds = range_bounds(ranges, limit)
    return _check_ranges_scalar(ranges, limit) if bounds is None else bounds[2]


def _check_ranges_scalar(ranges: Sequence[Sequence[int]], limit: int) -> int:
    """check_ranges one pair at a time: the reference, and the path that names the first bad pair."""
    total = 0
    prev = -1
    for pair in ranges:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise EncodeError(f"a range is [first, last], got {pair!r:.80}")
        first, last = int(pair[0]), int(pair[1])
        if first < 0 or last > limit or first > last:
            raise EncodeError(f"bad range [{first}, {last}] (limit {limit})")
        if first <= prev:
            raise EncodeError(f"ranges must be ascending and disjoint: [{first}, {last}] after {prev}")
        total += last - first + 1
        prev = last
    return total


def range_bounds(ranges: Sequence[Sequence[int]], limit: int) -> tuple[np.ndarray, np.ndarray, int] | None:
    """Valid runs as (firsts, lasts, total) in uint64, checked column-wise; None when they are not plain
    [int, int] pairs in [0, limit], ascending and disjoint (then `_check_ranges_scalar` says which pair)."""
    if not int_lists(ranges):
        return None
    try:
        pairs_ = np.array(ranges, dtype=np.uint64)  # a negative or a too large int raises OverflowError
    except (OverflowError, ValueError):
        return None
    if pairs_.ndim != 2 or pairs_.shape[1] != 2:
        return None
    firsts, lasts = pairs_[:, 0], pairs_[:, 1]
    if int(lasts.max()) > limit or bool((firsts > lasts).any()) or bool((firsts[1:] <= lasts[:-1]).any()):
        return None
    # disjoint runs in [0, 2^64) hold at most 2^64 values: the uint64 sum wraps only for exactly 2^64
    total = int((lasts - firsts + np.uint64(1)).sum(dtype=np.uint64)) or 1 << 64
    return np.ascontiguousarray(firsts), np.ascontiguousarray(lasts), total


def from_ranges(ranges: Sequence[Sequence[int]], limit: int = MAX_U64) -> np.ndarray:
    """Inclusive [first, last] runs back to a sorted uint64 array (refused past the memory budget)."""
    bounds = range_bounds(ranges, limit)
    if bounds is None:
        total = _check_ranges_scalar(ranges, limit)
        budget.reserve(VALUE_BYTES * total, f"{total} values listed from ranges")
        parts = [np.arange(int(a), int(b) + 1, dtype=np.uint64) for a, b in ranges]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
    firsts, lasts, total = bounds
    budget.reserve(VALUE_BYTES * total, f"{total} values listed from ranges")
    lengths = lasts - firsts + np.uint64(1)
    starts = np.cumsum(lengths, dtype=np.uint64) - lengths  # each run's place in the output
    # value = run's first + (place - run's start); uint64 wraps modulo 2^64, which keeps the sum exact
    return np.arange(total, dtype=np.uint64) + np.repeat(firsts - starts, lengths.astype(np.int64))


def bitmap_values(bm: BitMap | BitMap64) -> np.ndarray:
    """All values of a pyroaring bitmap as a sorted uint64 array."""
    if isinstance(bm, BitMap64):
        return np.fromiter(bm, dtype=np.uint64, count=len(bm))
    return np.frombuffer(bm.to_array(), dtype=np.uint32).astype(np.uint64)


def load_roaring32(data: bytes, layout: str = "roaring32", path: str = "", offset: int = 0) -> BitMap:
    """Fast path: deserialize with CRoaring (which validates); LayoutError if it refuses."""
    if len(data) == 0:  # pyroaring indexes the buffer's first byte: an IndexError, not a refusal
        raise LayoutError(layout, "TRUNCATED", path, offset, "an empty bitmap: not even a cookie")
    try:
        return BitMap.deserialize(data)
    except ValueError as exc:
        raise LayoutError(layout, "ROARING_REJECTED", path, offset, f"CRoaring rejects the bitmap: {exc}") from None


def is_java_canonical(bm: BitMap, data: bytes, start: int = 0, end: int | None = None) -> bool:
    """Whether the bitmap bytes data[start:end], which CRoaring read as `bm`, are byte for byte what Java writes
    for bm's values (the portable format, runOptimize()'s containers): then neither the spec nor
    `check_roaring32` has a finding. False means only "not shown": the caller runs the spec parser and the
    checks to find out. `bm` is run-optimized in place (pass one you own).

    Shown by: CRoaring read it (it refuses unsorted keys and arrays, overlapping or adjacent runs, wrong
    bitmap cardinalities), and after its run_optimize() (CRoaring's array / bitmap -> run choice is Java's)
    writes the same bytes (format, offsets, cardinalities, container kinds); each run container is the
    container Java's rule picks for its values (checked here: on a tie such as {0, 1, 2}, CRoaring keeps the
    run container where Java writes an array)."""
    end = len(data) if end is None else end
    bm.run_optimize()
    again = bm.serialize()
    if len(again) != end - start or not data.startswith(again, start):  # compared in place, no copy
        return False
    cookie, second = struct.unpack_from("<HH", data, start)
    if cookie != COOKIE_RUN:  # no run container
        return True
    n = second + 1
    head = start + 4 + (n + 7) // 8
    at = head + 4 * n + (4 * n if n >= NO_OFFSET_THRESHOLD else 0)
    for i in range(n):  # sizes in order (plain struct reads: a vector has few containers)
        card = struct.unpack_from("<H", data, head + 4 * i + 2)[0] + 1  # the values held: CRoaring wrote it
        if not data[start + 4 + (i >> 3)] >> (i & 7) & 1:
            at += 2 * card if card <= ARRAY_MAX else 8192
            continue
        (num_runs,) = struct.unpack_from("<H", data, at)
        if java_container_kind(card, num_runs) != RUN:
            return False
        at += 2 + 4 * num_runs
    return True


def cross_check(
    ours: BitMap | BitMap64, read: Callable[[], BitMap | BitMap64], path: str, offset: int
) -> list[Finding]:
    """Compare the spec parser's bitmap (`structure_bitmap`) with CRoaring's reading (`read()`) of the same bytes."""
    try:
        other = read()
    except LayoutError as err:
        return [Finding.from_error(err)]
    if other != ours:
        msg = "the spec parser and CRoaring read different values from these bytes"
        return [Finding("ROARING_DECODERS_DISAGREE", "must", path, offset, msg)]
    return []


def trailing_bytes(end: int, size: int) -> list[Finding]:
    """A must finding when a standalone bitmap ends before its input does."""
    if end == size:
        return []
    return [Finding("ROARING_TRAILING_BYTES", "must", "", end, f"{size - end} byte(s) after the bitmap")]


# ---------------------------------------------------------------------------
# Checks over a parsed (generated) roaring32 object


def _container_sizes(obj) -> list[int]:
    sizes = []
    for c in obj.containers:
        body = c.body
        if c.is_run:
            sizes.append(2 + 4 * body.num_runs)
        elif c.cardinality <= ARRAY_MAX:
            sizes.append(2 * c.cardinality)
        else:
            sizes.append(BITMAP_BYTES)
    return sizes


def header_size(obj) -> int:
    """Bytes from the cookie to the first container."""
    n = obj.num_containers
    size = 4 + (0 if obj.has_run else 4) + (len(obj.run_flags) if obj.has_run else 0) + 4 * n
    return size + (4 * n if obj.has_offsets else 0)


def container_cardinality(c) -> int:
    """The values one parsed container holds, counted without listing them."""
    body = c.body
    if c.is_run:
        return sum(r.last - r.start + 1 for r in body.runs)
    if c.cardinality <= ARRAY_MAX:
        return len(body.values)
    return int.from_bytes(body.words, "little").bit_count()


def structure_cardinality(obj) -> int:
    """The values a parsed roaring32 object holds, counted without listing them."""
    return sum(container_cardinality(c) for c in obj.containers)


def container_runs(c) -> tuple[np.ndarray, np.ndarray]:
    """Starts and inclusive ends (uint64, low 16 bits) of one parsed container's runs of consecutive values,
    never listing a run's values."""
    body = c.body
    if c.is_run:
        starts = np.fromiter((r.start for r in body.runs), dtype=np.uint64, count=len(body.runs))
        return starts, starts + np.fromiter((r.len_minus_one for r in body.runs), np.uint64, len(body.runs))
    if c.cardinality <= ARRAY_MAX:
        values = np.asarray(body.values, dtype=np.uint16)
        if values.size == 0:
            return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64)
        firsts, lasts = _run_bounds(values)
        return firsts.astype(np.uint64), lasts.astype(np.uint64)
    bits = np.unpackbits(np.frombuffer(body.words, dtype=np.uint8), bitorder="little").astype(np.int8)
    edges = np.diff(np.concatenate(([0], bits, [0])))
    return np.flatnonzero(edges == 1).astype(np.uint64), (np.flatnonzero(edges == -1) - 1).astype(np.uint64)


def structure_runs(obj, high: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Starts and inclusive ends of the runs of a parsed roaring32 object (plus `high`), merged across
    containers, never listing a run's values."""
    firsts, lasts = [], []
    for c in obj.containers:
        base = np.uint64(high + (c.key << 16))
        a, b = container_runs(c)
        firsts.append(a + base)
        lasts.append(b + base)
    return merge_runs(firsts, lasts)


def merge_runs(firsts: list[np.ndarray], lasts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Ascending runs (per container, containers in order) with touching neighbours joined."""
    if not firsts:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.uint64)
    a, b = np.concatenate(firsts), np.concatenate(lasts)
    if a.size < 2:
        return a, b
    keep = np.concatenate(([True], a[1:] != b[:-1] + np.uint64(1)))
    starts = np.flatnonzero(keep)
    ends = np.concatenate((starts[1:] - 1, [a.size - 1]))
    return a[starts], b[ends]


def bitmap_of(rows: np.ndarray) -> BitMap:
    """A BitMap of non-negative 32-bit numbers from a numpy array, through pyroaring's array.array fast path
    (an ndarray it reads element by element, several times slower)."""
    values = array.array("I")
    values.frombytes(np.ascontiguousarray(rows, dtype=np.uint32).tobytes())
    return BitMap(values)


def structure_bitmap(obj) -> BitMap:
    """A parsed roaring32 object as a pyroaring BitMap (a run container added run by run, never listed)."""
    bm = BitMap()
    for c in obj.containers:
        base = c.key << 16
        if c.is_run:
            for r in c.body.runs:
                bm.add_range(base + r.start, base + r.last + 1)
        else:
            bm |= bitmap_of(container_values(c) + np.uint64(base))
    return bm


def container_values(c) -> np.ndarray:
    """Low 16-bit values of one parsed container (uint64, as stored)."""
    body = c.body
    if c.is_run:
        parts = [np.arange(r.start, r.last + 1, dtype=np.uint64) for r in body.runs]
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
    if c.cardinality <= ARRAY_MAX:
        return np.asarray(body.values, dtype=np.uint64)
    bits = np.unpackbits(np.frombuffer(body.words, dtype=np.uint8), bitorder="little")
    return np.flatnonzero(bits).astype(np.uint64)


def structure_values(obj) -> np.ndarray:
    """All values of a parsed roaring32 object, in stored order (refused past the memory budget)."""
    total = structure_cardinality(obj)
    budget.reserve(VALUE_BYTES * total, f"the {total} values of a bitmap")
    parts = [container_values(c) + (np.uint64(c.key) << np.uint64(16)) for c in obj.containers]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def check_roaring32(obj, path: str, base: int) -> list[Finding]:
    """Findings the spec cannot express, for a parsed roaring32 at offset `base`."""
    findings: list[Finding] = []
    pos = base + header_size(obj)
    for i, (c, size) in enumerate(zip(obj.containers, _container_sizes(obj), strict=True)):
        cpath = f"{path}.containers[{i}]".lstrip(".")
        if c.is_run:  # counted run by run: a run container's values are never listed
            runs = c.body.runs
            held = container_cardinality(c)
            if held != c.cardinality:
                findings.append(
                    Finding(
                        "ROARING_CARDINALITY_MISMATCH",
                        "must",
                        f"{cpath}.body.runs",
                        pos + 2,
                        f"runs hold {held} values, the header says {c.cardinality}",
                    )
                )
            for j in range(1, len(runs)):
                if runs[j].start == runs[j - 1].last + 1:
                    findings.append(
                        Finding(
                            "ROARING_RUNS_ADJACENT",
                            "should",
                            f"{cpath}.body.runs[{j}]",
                            pos + 2 + 4 * j,
                            "run touches the previous one; Java never writes adjacent runs",
                        )
                    )
                    break
            num_runs = len(runs)
        elif c.cardinality <= ARRAY_MAX:
            vals = container_values(c)
            held = int(vals.size)
            bad = np.flatnonzero(np.diff(vals.astype(np.int64)) <= 0)
            if bad.size:
                j = int(bad[0]) + 1
                findings.append(
                    Finding(
                        "ROARING_ARRAY_NOT_ASCENDING",
                        "must",
                        f"{cpath}.body.values[{j}]",
                        pos + 2 * j,
                        f"value {int(vals[j])} does not exceed the previous {int(vals[j - 1])}",
                    )
                )
            num_runs = int(np.count_nonzero(np.diff(vals.astype(np.int64)) != 1)) + 1 if vals.size else 0
        else:
            vals = container_values(c)
            held = int(vals.size)
            if vals.size == 0:
                findings.append(
                    Finding(
                        "ROARING_EMPTY_CONTAINER",
                        "must",
                        f"{cpath}.body.words",
                        pos,
                        "bitmap container with no bit set",
                    )
                )
            elif vals.size != c.cardinality:
                findings.append(
                    Finding(
                        "ROARING_CARDINALITY_MISMATCH",
                        "must",
                        f"{cpath}.body.words",
                        pos,
                        f"{vals.size} bits set, the header says {c.cardinality}",
                    )
                )
            num_runs = int(np.count_nonzero(np.diff(vals.astype(np.int64)) != 1)) + 1 if vals.size else 0
        if not any(f.severity == "must" for f in findings):
            want = java_container_kind(held, num_runs) if held else None
            kind = RUN if c.is_run else (ARRAY if c.cardinality <= ARRAY_MAX else BITMAP)
            if want is not None and larger_than_java_writes(c.is_run, held, num_runs):
                findings.append(
                    Finding(
                        "ROARING_NOT_RUN_OPTIMIZED",
                        "should",
                        cpath,
                        pos,
                        f"{kind} container where Java's runOptimize() writes a {want} container",
                    )
                )
        pos += size
    return findings


def end_offset(obj, base: int) -> int:
    """Offset just past the last container of a parsed roaring32 at `base`."""
    return base + header_size(obj) + sum(_container_sizes(obj))


def container_kinds(obj) -> list[str]:
    """Kinds of the containers of a parsed roaring32 object."""
    return [RUN if c.is_run else (ARRAY if c.cardinality <= ARRAY_MAX else BITMAP) for c in obj.containers]


def java_kinds(obj) -> list[str]:
    """Kinds Java would choose for the same values."""
    out = []
    for c in obj.containers:
        starts, ends = container_runs(c)
        firsts, lasts = merge_runs([starts], [ends])
        held = int((lasts - firsts).sum() + firsts.size) if firsts.size else 0
        out.append(java_container_kind(held, int(firsts.size)))
    return out
