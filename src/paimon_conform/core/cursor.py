"""A read position in bytes that never goes past their end: what the format readers step through headers and
runs with. Running out raises the error the reader names (`short`), not an IndexError."""

from __future__ import annotations

from collections.abc import Callable


class Cursor:
    """`buf` read from `pos` on; every read checks the bytes are there first."""

    __slots__ = ("buf", "pos", "short")

    def __init__(self, buf: bytes, pos: int, short: Callable[[], Exception]) -> None:
        self.buf, self.pos, self.short = buf, pos, short

    def byte(self) -> int:
        """The next byte."""
        if self.pos >= len(self.buf):
            raise self.short()
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def take(self, n: int) -> bytes:
        """The next n bytes."""
        if n > len(self.buf) - self.pos:
            raise self.short()
        out = self.buf[self.pos : self.pos + n]
        self.pos += n
        return out

    def skip(self, n: int) -> None:
        """Step over n bytes."""
        if n > len(self.buf) - self.pos:
            raise self.short()
        self.pos += n

    def left(self) -> int:
        """Bytes not read yet."""
        return len(self.buf) - self.pos
