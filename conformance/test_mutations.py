"""Mutated valid files: only the kit's errors, bounded memory, no hang."""

from __future__ import annotations

import json
import signal
import struct
import tracemalloc
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.errors import PaimonConformError
from paimon_conform.core.types import parse_type
from paimon_conform.layouts.registry import get

EVIDENCE = ("contract",)

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
LAYOUT_DIRS = {
    "deletion-vectors": "deletion_vectors",
    "roaring32": "roaring32",
    "roaring64": "roaring64",
    "hash-index": "hash_index",
    "file-index": "file_index",
    "bitmap": "bitmap_index",
    "bsi": "bsi",
    "range-bitmap": "range_bitmap",
}
TYPED = ("bitmap", "bsi", "range-bitmap")


def _seed(path: Path, kind: str):
    case = json.loads(path.with_suffix(".json").read_text())
    return str(path), kind, get(kind).case_types(case)


SEEDS = [
    _seed(p, kind)
    for kind, folder in sorted(LAYOUT_DIRS.items())
    for p in sorted((GOLDEN / folder).glob("*/*.bin"))
    if p.parent.name != "must-reject" and p.stat().st_size < 40_000
]
HANG_SECONDS = 120  # a watchdog against unbounded loops (generous on a loaded machine), not a speed target


@contextmanager
def watchdog(seconds: int):
    def fire(signum, frame):
        raise AssertionError(f"parsing did not finish within {seconds}s: unbounded loop?")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@st.composite
def mutated(draw):
    path, kind, types = draw(st.sampled_from(SEEDS))
    data = bytearray(Path(path).read_bytes())
    how = draw(st.sampled_from(["flip", "truncate", "inflate", "splice"]))
    if how == "flip" and data:
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(data) - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
    elif how == "truncate":
        data = data[: draw(st.integers(0, len(data)))]
    elif how == "inflate" and len(data) >= 4:
        # overwrite a 4- or 8-byte field with a huge count/length
        width = draw(st.sampled_from([4, 8]))
        i = draw(st.integers(0, max(0, len(data) - width)))
        big = draw(st.sampled_from([2**31 - 1, 2**32 - 1, 2**63 - 1, 65536, 65537]))
        data[i : i + width] = big.to_bytes(8, draw(st.sampled_from(["big", "little"])))[-width:]
    else:
        i = draw(st.integers(0, len(data)))
        data[i:i] = draw(st.binary(max_size=16))
    return kind, bytes(data), types


def run_all(kind: str, data: bytes, types=None) -> None:
    layout = get(kind)
    findings = layout.validate(data, types)  # never raises: bad input is normal input
    assert all(f.code and f.severity in ("must", "should", "warning") for f in findings)
    errors = []
    for call in (layout.inspect, layout.describe):
        try:
            call(data, types)
        except PaimonConformError as err:
            errors.append(err)
    if kind in ("range-bitmap", "bsi", "file-index") and not any(f.severity == "must" for f in findings):
        errors += _queries(kind, data, types)
    for err in errors:
        if hasattr(err, "code"):
            assert err.code
            assert err.offset is None or 0 <= err.offset <= len(data)


def _queries(kind: str, data: bytes, types) -> list[PaimonConformError]:
    """Query a file that passed validation: answers or kit errors, nothing else."""
    from paimon_conform.layouts.file_index import query

    try:
        if kind == "file-index":
            columns = query.open_container(data, types or {})
        else:
            column = query.Column(types, [])
            column.readers.append(query.open_payload(kind, data, types, column))
            columns = {"c": column}
        for name in columns:
            where = f"`{name}` IS NULL OR `{name}` IS NOT NULL"
            query.evaluate(query.parse_predicate(where), columns)
            query.top_k(query.REMAIN, columns, name, 3, True, "nulls_last")
    except PaimonConformError as err:
        return [err]
    return []


@given(mutated())
def test_mutations_raise_only_kit_errors_within_bounds(case):
    kind, data, types = case
    tracemalloc.start()
    try:
        with watchdog(HANG_SECONDS):
            run_all(kind, data, types)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # memory follows the input, never a length field: 64 MiB + 200 x input at most
    assert peak < 64 * 2**20 + 200 * len(data), f"peak {peak} bytes for a {len(data)}-byte input"


@pytest.mark.parametrize("kind", sorted(LAYOUT_DIRS))
@pytest.mark.parametrize(
    "data",
    [b"", b"\x01", b"\x00" * 3, b"\xff" * 64, struct.pack(">BI", 1, 2**32 - 1), struct.pack("<Q", 2**64 - 1)],
)
def test_garbage_inputs(kind, data):
    types = parse_type("INT") if kind in TYPED else None
    with watchdog(HANG_SECONDS):
        run_all(kind, data, types)
