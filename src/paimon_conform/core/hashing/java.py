"""Java's hashCode for index keys (BinaryString's is Murmur: murmur.py), and java.util.HashMap iteration order.

Paimon's bitmap index fills a `HashMap` with `computeIfAbsent` once per
non-null row, and writes entries in the map's iteration order, so the bytes
depend on it. This module reproduces that order: lazy resize at the start of
each call, head insertion into a bin, order-preserving splits on resize,
bins iterated in ascending index. A bin that Java would turn into a tree
(8 keys in one bin of a table of 64 or more) is reported, not guessed.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from paimon_conform.core.errors import EncodeError

M32 = 0xFFFFFFFF


def int32(x: int) -> int:
    """Wrap to a signed 32-bit int."""
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def long_hash(v: int) -> int:
    """Long.hashCode."""
    u = v & 0xFFFFFFFFFFFFFFFF
    return int32(u ^ (u >> 32))


class JavaHashMap:
    """A java.util.HashMap that iterates in Java's order: computeIfAbsent, compute, put, remove.

    Lazy resize at the start of compute / computeIfAbsent and after a put;
    compute and computeIfAbsent link a new key at its bin's head, put at the
    tail; a resize splits each bin keeping order. A bin that Java would turn
    into a tree (tables of 64 bins or more) is reported, not reproduced.
    """

    TREEIFY_THRESHOLD = 8
    MIN_TREEIFY_CAPACITY = 64

    def __init__(self) -> None:
        self.table: list[list[tuple[int, Hashable, Any]]] | None = None
        self.threshold = 0
        self.size = 0
        self.index: dict[Hashable, Any] = {}

    def _resize(self) -> None:
        old = self.table
        if old is None:
            cap, self.threshold = 16, 12
            self.table = [[] for _ in range(cap)]
            return
        old_cap = len(old)
        cap = old_cap * 2
        self.threshold *= 2
        table: list[list[tuple[int, Hashable, Any]]] = [[] for _ in range(cap)]
        for j, bin_ in enumerate(old):
            for node in bin_:  # lo / hi split keeps relative order
                table[j + old_cap if node[0] & old_cap else j].append(node)
        self.table = table

    def _bin(self, hash_code: int) -> tuple[int, list[tuple[int, Hashable, Any]]]:
        h = hash_code & M32
        h ^= h >> 16
        return h, self.table[(len(self.table) - 1) & h]

    def _add(self, key: Hashable, hash_code: int, value: Any, head: bool) -> None:
        """A new node: at the bin's head (compute, computeIfAbsent) or tail (put), then Java's treeify check."""
        h, bin_ = self._bin(hash_code)
        existing = len(bin_)
        bin_.insert(0, (h, key, value)) if head else bin_.append((h, key, value))
        self.index[key] = value
        self.size += 1
        # compute / computeIfAbsent count every node already in the bin, putVal all but the first
        if existing >= (self.TREEIFY_THRESHOLD - 1 if head else self.TREEIFY_THRESHOLD):
            if len(self.table) < self.MIN_TREEIFY_CAPACITY:
                self._resize()
            else:
                raise EncodeError("Java's HashMap would turn a bin into a tree here; its order is not reproduced")

    def _replace(self, key: Hashable, hash_code: int, value: Any) -> None:
        _, bin_ = self._bin(hash_code)
        at = next(i for i, node in enumerate(bin_) if node[1] == key)
        bin_[at] = (bin_[at][0], key, value)
        self.index[key] = value

    def compute_if_absent(self, key: Hashable, hash_code: int, make) -> Any:
        """HashMap.computeIfAbsent(key, k -> make()) with `hash_code` = key.hashCode()."""
        self.touch()
        if key in self.index:
            return self.index[key]
        value = make()
        self._add(key, hash_code, value, head=True)
        return value

    def compute(self, key: Hashable, hash_code: int, remap: Callable[[Any], Any]) -> Any:
        """HashMap.compute(key, (k, old) -> remap(old)) for a non-null result: lazy resize, new keys at the head."""
        self.touch()
        value = remap(self.index.get(key))
        if key in self.index:
            self._replace(key, hash_code, value)
        else:
            self._add(key, hash_code, value, head=True)
        return value

    def put(self, key: Hashable, hash_code: int, value: Any) -> None:
        """HashMap.put: a new key at its bin's tail, then a resize when over the threshold."""
        if self.table is None:
            self._resize()
        if key in self.index:
            self._replace(key, hash_code, value)
            return
        self._add(key, hash_code, value, head=False)
        if self.size > self.threshold:
            self._resize()

    def remove(self, key: Hashable, hash_code: int) -> None:
        """HashMap.remove (an iterator's remove too): unlink the node; the table never shrinks."""
        _, bin_ = self._bin(hash_code)
        bin_[:] = [node for node in bin_ if node[1] != key]
        del self.index[key]
        self.size -= 1

    def get(self, key: Hashable) -> Any:
        """The value of a key, or None."""
        return self.index.get(key)

    def touch(self) -> None:
        """A computeIfAbsent call for a key already present: only the lazy resize can happen."""
        if self.table is None or self.size > self.threshold:
            self._resize()

    def items(self) -> Iterator[tuple[Hashable, Any]]:
        """(key, value) in iteration order."""
        for bin_ in self.table or []:
            for _, key, value in bin_:
                yield key, value
