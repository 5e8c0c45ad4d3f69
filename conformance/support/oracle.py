"""The brute-force answer to a value predicate, written independently of the kit."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pyroaring import BitMap


def brute_force(
    values: Sequence[Any], op: str, lits: Sequence[Any], order: Callable[[Any], Any] = lambda v: v
) -> BitMap:
    """Rows whose value satisfies `op` on `lits`, comparing `order(value)` (SQL: null never matches a value)."""
    if op == "is_null":
        return BitMap(i for i, v in enumerate(values) if v is None)
    keys = [order(x) for x in lits]
    tests = {
        "is_not_null": lambda o: True,
        "eq": lambda o: o == keys[0],
        "not_eq": lambda o: o != keys[0],
        "lt": lambda o: o < keys[0],
        "lte": lambda o: o <= keys[0],
        "gt": lambda o: o > keys[0],
        "gte": lambda o: o >= keys[0],
        "in": lambda o: o in keys,
        "not_in": lambda o: o not in keys,
        "between": lambda o: keys[0] <= o <= keys[1],
    }
    return BitMap(i for i, v in enumerate(values) if v is not None and tests[op](order(v)))
