"""The kit's error hierarchy.

Every parser, encoder and the validator raise only these (never a bare
IndexError, struct.error, EOFError or UnicodeDecodeError):

    PaimonConformError
    ├── UsageError          bad arguments, unknown kind, unreadable input
    │   ├── BudgetExceeded  input that would need more memory than the budget (budget.py, --max-memory)
    │   ├── JsonLimitError  JSON nested deeper than the kit reads
    │   ├── OutOfMemory     the process got less memory than the budget promised (a MemoryError, never a finding)
    │   ├── InvalidType     a column type Java's type parser refuses (DECIMAL(39, 2), TIMESTAMP(10))
    │   └── OutsideRoot     a name from a table that leads outside its root (table/paths.py; never opened)
    ├── CaseError           a JSON case that does not match its schema
    ├── EncodeError         logical content that the layout cannot hold
    ├── InternalError       a fault in the kit itself (a bug), with the file and field it was checking
    └── LayoutError         bytes that violate a layout; carries code, path, offset
        ├── TruncatedError  the bytes end inside a field
        └── InvariantError  a field holds a value the layout forbids

`checking(file, field)` turns any other exception raised inside it into an
InternalError naming that file and field (a MemoryError into OutOfMemory); the CLI
exits 2 with it, never with a traceback. No code catches a MemoryError to report a
finding: every broad `except Exception` lets it through.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class PaimonConformError(Exception):
    """Base class of every error the kit raises on purpose."""

    def __reduce__(self) -> tuple:
        # pickled as its message and attributes, not by calling __init__ again (whose arguments differ from
        # `args`): an error raised in a Spark task reaches the driver as the same error
        return _rebuild, (type(self), self.args, dict(self.__dict__))


def _rebuild(cls: type, args: tuple, attributes: dict) -> PaimonConformError:
    """An error of class `cls` with `args` and `attributes`, without running its __init__ (for pickle)."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(attributes)
    return error


class UsageError(PaimonConformError):
    """The caller asked for something the kit cannot do with that input."""


class OutOfMemory(UsageError):
    """The process ran out of memory checking `file`: the machine or its limits give less than the budget.

    Never a finding: nothing is said about the input, which Java may read well.
    """

    def __init__(self, file: str, field: str) -> None:
        self.file, self.field = file, field
        where = f"{file}" + (f" (field {field})" if field else "")
        super().__init__(
            f"out of memory while checking {where}: this process cannot get the memory budget it was given; "
            "lower --max-memory or give the process more memory (nothing is reported about the input)"
        )


class InvalidType(UsageError):
    """A column type text of a known type whose parameters Java's type parser refuses (a DECIMAL's precision
    outside 1..38 or its scale outside 0..precision, a TIMESTAMP's precision outside 0..9)."""


class CaseError(PaimonConformError):
    """A JSON case (sidecar, inspect output, encode input) is not well formed."""


class EncodeError(PaimonConformError):
    """Logical content cannot be written in the requested layout."""


class LayoutError(PaimonConformError):
    """Bytes that violate a layout.

    Attributes:
        layout: layout name (`deletion_vectors`, `roaring32`, ...).
        code: stable finding code, e.g. `DV_CRC_MISMATCH`.
        path: field path inside the layout, e.g. `vectors[2].crc`.
        offset: absolute byte offset of that field in the input, or None.
        detail: human-readable explanation.
    """

    def __init__(self, layout: str, code: str, path: str, offset: int | None, detail: str) -> None:
        self.layout = layout
        self.code = code
        self.path = path
        self.offset = offset
        self.detail = detail
        where = f" @ byte {offset}" if offset is not None else ""
        super().__init__(f"{layout}: {path or '<root>'}{where}: [{code}] {detail}")


class TruncatedError(LayoutError):
    """The input ends before a field is complete."""


class InvariantError(LayoutError):
    """A field's value breaks a rule of the layout."""


class InternalError(PaimonConformError):
    """An exception outside this hierarchy, raised while the kit checked `file` (at `field`): a bug in the kit."""

    def __init__(self, file: str, field: str, cause: BaseException) -> None:
        self.file = file
        self.field = field
        self.cause = cause
        where = f"{file}" + (f" (field {field})" if field else "")
        super().__init__(
            f"internal error while checking {where}: {type(cause).__name__}: {cause}; "
            "this is a bug in paimon-conform, not a finding about the input"
        )

    def __reduce__(self) -> tuple:
        # the cause may not pickle (it holds what the failing code held): it travels as its name and message
        cause = RuntimeError(f"{type(self.cause).__name__}: {self.cause}")
        return _rebuild, (type(self), self.args, {**self.__dict__, "cause": cause})


@contextmanager
def checking(file: str, field: str = "") -> Iterator[None]:
    """Run a check of `file`; an exception outside the kit's hierarchy becomes an InternalError naming it."""
    try:
        yield
    except PaimonConformError:
        raise
    except (KeyboardInterrupt, SystemExit, GeneratorExit, BrokenPipeError):
        raise
    except MemoryError:
        raise OutOfMemory(file, field) from None
    except Exception as exc:  # the one boundary: any other exception is a kit bug
        raise InternalError(file, field, exc) from exc
