"""A MemoryError is never caught as a finding: every handler in the kit that would catch one (a bare
`except Exception`, `BaseException`, pyarrow's ArrowException, whose ArrowMemoryError is a MemoryError)
lets it through, so that running out of memory ends in exit 2 with the reason (errors.OutOfMemory),
never in a false must-finding against a file Java may read well.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from paimon_conform.core import errors

EVIDENCE = ("contract",)

SRC = Path(__file__).resolve().parent.parent / "src" / "paimon_conform"
BROAD = {"Exception", "BaseException", "ArrowException", "MemoryError", "ArrowMemoryError"}


def _names(node: ast.expr | None) -> set[str]:
    """The exception class names a handler's type names (the last part of a dotted name)."""
    if node is None:
        return {"BaseException"}
    if isinstance(node, ast.Tuple):
        return set().union(*(_names(e) for e in node.elts))
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.Name):
        return {node.id}
    return set()


def _reraises(handler: ast.ExceptHandler) -> bool:
    """Whether the handler ends by raising the exception it caught again (a bare `raise`)."""
    last = handler.body[-1]
    return isinstance(last, ast.Raise) and last.exc is None


def swallowing_handlers(tree: ast.AST) -> list[int]:
    """Lines of handlers that would catch a MemoryError and carry on (no earlier MemoryError handler in the
    same try, no bare `raise` at their end)."""
    bad = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try | ast.TryStar):
            continue
        memory_handled = False
        for handler in node.handlers:
            names = _names(handler.type)
            if "MemoryError" in names or "ArrowMemoryError" in names:
                memory_handled = True  # handled on purpose (passed on as OutOfMemory, or to a parent process)
                continue
            if names & BROAD and not memory_handled and not _reraises(handler):
                bad.append(handler.lineno)
    return bad


def test_the_rule_catches_what_it_should():
    swallowing = "try:\n    f()\nexcept Exception:\n    pass\n"
    arrow = "try:\n    f()\nexcept (pa.ArrowException, ValueError):\n    g()\n"
    guarded = "try:\n    f()\nexcept MemoryError:\n    raise\nexcept Exception:\n    pass\n"
    reraising = "try:\n    f()\nexcept BaseException:\n    cleanup()\n    raise\n"
    bare = "try:\n    f()\nexcept:\n    pass\n"
    assert swallowing_handlers(ast.parse(swallowing)) == [3]
    assert swallowing_handlers(ast.parse(arrow)) == [3]
    assert swallowing_handlers(ast.parse(bare)) == [3]
    assert swallowing_handlers(ast.parse(guarded)) == []
    assert swallowing_handlers(ast.parse(reraising)) == []


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_no_handler_swallows_a_memory_error(path):
    bad = swallowing_handlers(ast.parse(path.read_text(), str(path)))
    assert not bad, f"{path.relative_to(SRC)}: lines {bad} catch a MemoryError as if it were a fault of the input"


def test_checking_turns_a_memory_error_into_exit_2_with_the_reason():
    with (
        pytest.raises(errors.OutOfMemory, match=r"out of memory while checking f\.json") as err,
        errors.checking("f.json"),
    ):
        raise MemoryError
    assert isinstance(err.value, errors.UsageError)
    assert not isinstance(err.value, errors.InternalError)
