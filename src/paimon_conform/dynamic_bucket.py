"""Dynamic buckets (`bucket = -1` with a primary key): which bucket a new key takes, as Java decides it.

* routing (`assigner_of`): a record goes to assigner
  (|partitionHash % channels| + |keyHash % assigners|) % channels, and an
  assigner owns bucket b iff b % assigners == assignId % assigners;
* `HashBucketAssigner` (the normal write path, PartitionIndex): a known key
  hash keeps its bucket; otherwise the first non-full bucket in Java HashMap
  order takes it; otherwise the smallest owned bucket id not yet used;
* `SimpleHashBucketAssigner` (INSERT OVERWRITE): fills one bucket at a time.

Key hashes are BinaryRow hashCodes of the trimmed primary key; "target row
number" counts distinct key hashes, not rows. With `dynamic-bucket.max-buckets`
reached, Java picks a random existing bucket: pass `rng` to choose it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial

from .errors import EncodeError, UsageError

SHORT_MAX = 32767
DEFAULT_TARGET_ROW_NUM = 2_000_000


def _abs_rem(a: int, b: int) -> int:
    """Math.abs(a % b) with Java's truncating %."""
    return abs(a) % b


def num_assigners(num_channels: int, initial_buckets: int | None = None) -> int:
    """DynamicBucketSink: min(dynamic-bucket.initial-buckets, channels), or channels when unset."""
    if num_channels <= 0:
        raise UsageError(f"the assigner parallelism must be positive, not {num_channels}")
    return num_channels if initial_buckets is None else min(initial_buckets, num_channels)


def assigner_of(partition_hash: int, key_hash: int, num_channels: int, num_assigners_: int) -> int:
    """BucketAssigner.computeAssigner: the assigner (channel) a record is routed to."""
    return (_abs_rem(partition_hash, num_channels) + _abs_rem(key_hash, num_assigners_)) % num_channels


def is_my_bucket(bucket: int, num_assigners_: int, assign_id: int) -> bool:
    """BucketAssigner.isMyBucket: bucket % assigners == assignId % assigners."""
    return bucket % num_assigners_ == assign_id % num_assigners_


class JavaIntMap:
    """A java.util.HashMap<Integer, Long> keeping Java's iteration order.

    Bins are ascending by (h ^ h >>> 16) & (capacity - 1); `put` of a new key
    appends to its bin and resizes after the insert, `compute` resizes
    before and prepends a new key (Java 8+ HashMap), and resizing splits each
    bin keeping order. A bin of 9 grows a table below 64 bins; in a larger
    table it would become a tree, which is reported, not emulated.
    """

    def __init__(self) -> None:
        self.bins: list[list[list[int]]] = []
        self.threshold = 0
        self.size = 0

    @staticmethod
    def _spread(key: int) -> int:
        h = key & 0xFFFFFFFF
        return h ^ (h >> 16)

    def _resize(self) -> None:
        old = self.bins
        cap = 16 if not old else 2 * len(old)
        self.bins = [[] for _ in range(cap)]
        for b in old:
            for entry in b:
                self.bins[self._spread(entry[0]) & (cap - 1)].append(entry)
        self.threshold = cap * 3 // 4

    def _find(self, key: int) -> list[int] | None:
        if not self.bins:
            return None
        for entry in self.bins[self._spread(key) & (len(self.bins) - 1)]:
            if entry[0] == key:
                return entry
        return None

    def get(self, key: int) -> int | None:
        """The value of a key, or None."""
        entry = self._find(key)
        return None if entry is None else entry[1]

    def __contains__(self, key: int) -> bool:
        return self._find(key) is not None

    def _insert(self, key: int, value: int, head: bool) -> None:
        b = self.bins[self._spread(key) & (len(self.bins) - 1)]
        b.insert(0, [key, value]) if head else b.append([key, value])
        self.size += 1
        if len(b) > 8:  # treeifyBin: a table below 64 bins grows instead
            if len(self.bins) >= 64:
                raise EncodeError("a Java HashMap bin would turn into a tree here; its order is not emulated")
            self._resize()

    def put(self, key: int, value: int) -> None:
        """HashMap.put: a new key goes to its bin's tail; resize after the insert when over the threshold."""
        entry = self._find(key)
        if entry is not None:
            entry[1] = value
            return
        if not self.bins:
            self._resize()
        self._insert(key, value, head=False)
        if self.size > self.threshold:
            self._resize()

    def compute_count(self, key: int) -> None:
        """HashMap.compute(key, (k, n) -> n == null ? 1 : n + 1): resize first, a new key at the bin's head."""
        if not self.bins or self.size > self.threshold:
            self._resize()
        entry = self._find(key)
        if entry is not None:
            entry[1] += 1
        else:
            self._insert(key, 1, head=True)

    def remove(self, key: int) -> None:
        """Remove a key (no resize, as in Java)."""
        b = self.bins[self._spread(key) & (len(self.bins) - 1)]
        b[:] = [e for e in b if e[0] != key]
        self.size -= 1

    def items(self) -> Iterator[tuple[int, int]]:
        """(key, value) in Java's iteration order (a snapshot)."""
        return iter([(e[0], e[1]) for b in self.bins for e in b])


@dataclass
class PartitionIndex:
    """One partition's index inside a HashBucketAssigner (Java's PartitionIndex)."""

    target_row_num: int
    hash_to_bucket: dict[int, int] = field(default_factory=dict)
    non_full: JavaIntMap = field(default_factory=JavaIntMap)
    buckets: set[int] = field(default_factory=set)
    bucket_list: list[int] = field(default_factory=list)
    upper_bound_reached: bool = False

    @classmethod
    def load(
        cls,
        files: Iterable[tuple[int, Sequence[int]]],
        target_row_num: int,
        load_filter: Callable[[int], bool],
        bucket_filter: Callable[[int], bool],
    ) -> PartitionIndex:
        """PartitionIndex.loadIndex over the partition's HASH files, as (bucket, hashes) in manifest order."""
        index = cls(target_row_num)
        for bucket, hashes in files:
            for h in hashes:
                if load_filter(h):
                    index.hash_to_bucket[int(h)] = bucket
                if bucket_filter(bucket):
                    index.non_full.compute_count(bucket)
        for bucket, _ in index.non_full.items():
            index.buckets.add(bucket)
            index.bucket_list.append(bucket)
        return index

    def assign(
        self,
        key_hash: int,
        bucket_filter: Callable[[int], bool],
        max_buckets: int = -1,
        rng: random.Random | None = None,
    ) -> int:
        """PartitionIndex.assign: the bucket of a key hash, updating the counts."""
        if key_hash in self.hash_to_bucket:
            return self.hash_to_bucket[key_hash]
        for bucket, count in self.non_full.items():
            if count < self.target_row_num:
                self.non_full.put(bucket, count + 1)
                self.hash_to_bucket[key_hash] = bucket
                return bucket
            self.non_full.remove(bucket)
        top = (SHORT_MAX if max_buckets == -1 else max_buckets) - 1
        if not self.upper_bound_reached:
            for i in range(top + 1):
                if bucket_filter(i) and i not in self.buckets:
                    self.non_full.put(i, 1)
                    self.buckets.add(i)
                    self.bucket_list.append(i)
                    self.hash_to_bucket[key_hash] = i
                    return i
            if max_buckets == -1:
                raise EncodeError(f"Too more bucket {top}: Java fails here; increase the target bucket row number")
            self.upper_bound_reached = True
        bucket = (rng or random).choice(self.bucket_list)
        self.hash_to_bucket[key_hash] = bucket
        return bucket


class HashBucketAssigner:
    """Java's HashBucketAssigner: one assigner (channel) of a dynamic-bucket write.

    `index_files(partition)` returns the partition's existing HASH files as
    (bucket, hashes) pairs in index-manifest order (empty for a new table).
    """

    def __init__(
        self,
        num_channels: int,
        num_assigners_: int,
        assign_id: int,
        target_row_num: int = DEFAULT_TARGET_ROW_NUM,
        max_buckets: int = -1,
        index_files: Callable[[Hashable], Iterable[tuple[int, Sequence[int]]]] = lambda partition: (),
        rng: random.Random | None = None,
    ) -> None:
        self.num_channels, self.num_assigners, self.assign_id = num_channels, num_assigners_, assign_id
        self.target_row_num, self.max_buckets = target_row_num, max_buckets
        self.index_files, self.rng = index_files, rng
        self.partitions: dict[Hashable, PartitionIndex] = {}

    def _mine(self, bucket: int) -> bool:
        return is_my_bucket(bucket, self.num_assigners, self.assign_id)

    def assign(self, partition: Hashable, partition_hash: int, key_hash: int) -> int:
        """The bucket of a key; the record must be routed to this assigner."""
        routed = assigner_of(partition_hash, key_hash, self.num_channels, self.num_assigners)
        if routed != self.assign_id:
            raise UsageError(f"key hash {key_hash} is routed to assigner {routed}, not {self.assign_id}")
        index = self.partitions.get(partition)
        if index is None:

            def load_filter(h: int) -> bool:
                return assigner_of(partition_hash, h, self.num_channels, self.num_assigners) == self.assign_id

            files = self.index_files(partition)
            index = PartitionIndex.load(files, self.target_row_num, load_filter, self._mine)
            self.partitions[partition] = index
        return index.assign(key_hash, self._mine, self.max_buckets, self.rng)


@dataclass
class _SimplePartition:
    current: int
    counts: dict[int, int] = field(default_factory=dict)
    bucket_list: list[int] = field(default_factory=list)
    hash_to_bucket: dict[int, int] = field(default_factory=dict)
    upper_bound_reached: bool = False


class SimpleHashBucketAssigner:
    """Java's SimpleHashBucketAssigner (INSERT OVERWRITE): no index is loaded; buckets fill one by one."""

    def __init__(
        self,
        num_assigners_: int,
        assign_id: int,
        target_row_num: int = DEFAULT_TARGET_ROW_NUM,
        max_buckets: int = -1,
        rng: random.Random | None = None,
    ) -> None:
        self.num_assigners, self.assign_id = num_assigners_, assign_id
        self.target_row_num, self.max_buckets, self.rng = target_row_num, max_buckets, rng
        self.partitions: dict[Hashable, _SimplePartition] = {}

    def _next_bucket(self, p: _SimplePartition | None) -> int | None:
        used = p.counts if p else {}
        for i in range(SHORT_MAX):
            if is_my_bucket(i, self.num_assigners, self.assign_id) and i not in used:
                return i if self.max_buckets == -1 or i <= self.max_buckets - 1 else None
        raise EncodeError("Can't find a suitable bucket to assign, all the bucket are assigned?")

    def assign(self, partition: Hashable, key_hash: int) -> int:
        """The bucket of a key in a partition."""
        p = self.partitions.get(partition)
        if p is None:
            first = self._next_bucket(None)
            p = self.partitions[partition] = _SimplePartition(0 if first is None else first)
        if key_hash in p.hash_to_bucket:
            return p.hash_to_bucket[key_hash]
        if p.current not in p.counts:
            p.counts[p.current] = 0
            p.bucket_list.append(p.current)
        if p.counts[p.current] >= self.target_row_num:
            nxt = None if p.upper_bound_reached else self._next_bucket(p)
            if nxt is None:
                p.upper_bound_reached = True
                p.current = (self.rng or random).choice(p.bucket_list)
            else:
                p.current = nxt
        if p.current not in p.counts:
            p.counts[p.current] = 0
            p.bucket_list.append(p.current)
        p.counts[p.current] += 1
        p.hash_to_bucket[key_hash] = p.current
        return p.current


def _key_hash(types: Sequence[str], values: Sequence[object]) -> int:
    """hashCode of the BinaryRow of these logical values."""
    from . import binary_row, bucketing
    from .types import parse_type, to_internal

    ts = [parse_type(t) for t in types]
    return bucketing.hash_code(binary_row.write(ts, [to_internal(t, v) for t, v in zip(ts, values, strict=True)]))


def _files_of(loaded: dict, partition: Hashable) -> list:
    return loaded.get(partition, [])


def _replay_hash(fixture: dict) -> list[str]:
    table = fixture["table"]
    part_types = [table["types"][k] for k in table["partition_keys"]]
    key_names = [k for k in table["primary_keys"] if k not in table["partition_keys"]]
    key_types = [table["types"][k] for k in key_names]
    channels, assigners = fixture["channels"], fixture["assigners"]
    problems = []
    if assigners != num_assigners(channels, fixture.get("initial_buckets")):
        problems.append(f"{assigners} assigners, but channels and initial buckets give {num_assigners(channels)}")
    written: dict[tuple[int, int], set[int]] = {}  # (partition, bucket) -> key hashes, what Java's HASH files hold
    for n, rnd in enumerate(fixture["rounds"]):
        loaded = {p["partition"]: [(f["bucket"], f["hashes"]) for f in p["files"]] for p in rnd["index_before"]}
        for p, files in loaded.items():
            ours = {b: hs for (q, b), hs in written.items() if q == p}
            if {b: set(hs) for b, hs in files} != ours:
                problems.append(f"round {n}: partition {p}: Java's HASH files differ from the keys assigned so far")
        per_channel = [
            HashBucketAssigner(channels, assigners, a, rnd["target"], index_files=partial(_files_of, loaded))
            for a in range(channels)
        ]
        for i, rec in enumerate(rnd["records"]):
            where = f"round {n} record {i} ({rec['partition']}, {rec['key']!r})"
            part_hash = _key_hash(part_types, [rec["partition"]] if part_types else [])
            key_hash = _key_hash(key_types, [rec["key"]])
            if (part_hash, key_hash) != (rec["partition_hash"], rec["key_hash"]):
                problems.append(
                    f"{where}: hashes {part_hash}, {key_hash}; Java {rec['partition_hash']}, {rec['key_hash']}"
                )
                continue
            channel = assigner_of(part_hash, key_hash, channels, assigners)
            bucket = per_channel[channel].assign(rec["partition"], part_hash, key_hash)
            if (channel, bucket) != (rec["assigner"], rec["bucket"]):
                problems.append(f"{where}: assigner {channel} bucket {bucket}; Java {rec['assigner']} {rec['bucket']}")
            written.setdefault((rec["partition"], rec["bucket"]), set()).add(rec["key_hash"])
    return problems


def _replay_simple(fixture: dict) -> list[str]:
    n = fixture["assigners"]
    per_id = [SimpleHashBucketAssigner(n, a, fixture["target"]) for a in range(n)]
    problems = []
    for i, rec in enumerate(fixture["records"]):
        bucket = per_id[rec["assign_id"]].assign(rec["partition"], rec["key_hash"])
        if bucket != rec["bucket"]:
            problems.append(
                f"record {i} (assigner {rec['assign_id']}, hash {rec['key_hash']}): {bucket}; Java {rec['bucket']}"
            )
    return problems


def replay(fixture: dict) -> list[str]:
    """Re-run a dynamic_bucket golden (Java's assignment sequence) with this module; the differences."""
    if fixture.get("kind") != "dynamic-bucket":
        raise UsageError("not a dynamic-bucket fixture")
    try:
        return _replay_hash(fixture) if fixture["assigner"] == "hash" else _replay_simple(fixture)
    except (KeyError, TypeError, IndexError) as exc:
        raise UsageError(f"malformed dynamic-bucket fixture: {type(exc).__name__}: {exc}") from None
