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

`dynamic-bucket.max-buckets` is applied by release (`java`, read from PartitionIndex and
SimpleHashBucketAssigner at each release tag; the HASH file bytes never changed):
* Java 0.9 and 1.0 have no such option: new buckets are created up to Short.MAX_VALUE;
* Java 1.1 to 2.0.0 gate new buckets on the assigner's largest bucket id over *all*
  partitions (`maxBucketId`): once one partition reached the bound, a partition with
  fewer buckets creates no more (apache/paimon#9193); SimpleHashBucketAssigner's random
  pick only knows a partition's first bucket, so overflow all goes there (#9180);
* after 2.0.0 (`after-2.0`, apache/paimon master): the bound is per partition, and
  overflow is spread over every bucket of the partition.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial

from paimon_conform.core.errors import EncodeError, UsageError
from paimon_conform.core.hashing.java import JavaHashMap
from paimon_conform.core.java_releases import AFTER_NEWEST, NEWEST, RELEASES

SHORT_MAX = 32767
DEFAULT_TARGET_ROW_NUM = 2_000_000


NO_MAX_BUCKETS, ASSIGNER_WIDE, PER_PARTITION = "0.9-1.0", "1.1-2.0", AFTER_NEWEST


def assignment_rules(java: str = NEWEST) -> str:
    """Which max-buckets rules a Java release line applies: NO_MAX_BUCKETS, ASSIGNER_WIDE or PER_PARTITION."""
    if java == AFTER_NEWEST:
        return PER_PARTITION
    if java not in RELEASES:
        raise UsageError(f"unknown Java release {java!r} for dynamic-bucket assignment")
    return NO_MAX_BUCKETS if RELEASES.index(java) < RELEASES.index("1.1") else ASSIGNER_WIDE


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


@dataclass
class PartitionIndex:
    """One partition's index inside a HashBucketAssigner (Java's PartitionIndex)."""

    target_row_num: int
    hash_to_bucket: dict[int, int] = field(default_factory=dict)
    non_full: JavaHashMap = field(default_factory=JavaHashMap)  # HashMap<Integer, Long>: bucket -> keys
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
                    index.non_full.compute(bucket, bucket, lambda n: 1 if n is None else n + 1)
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
        assigner_max_id: int | None = None,
    ) -> int:
        """PartitionIndex.assign: the bucket of a key hash, updating the counts.

        `assigner_max_id`: Java 1.1 to 2.0.0's rule, the assigner's largest bucket id over all partitions; None for
        the rule after 2.0.0 (the bound per partition).
        """
        if key_hash in self.hash_to_bucket:
            return self.hash_to_bucket[key_hash]
        for bucket, count in list(self.non_full.items()):  # Java's entry-set iterator
            if count < self.target_row_num:
                self.non_full.put(bucket, bucket, count + 1)  # entry.setValue
                self.hash_to_bucket[key_hash] = bucket
                return bucket
            self.non_full.remove(bucket, bucket)
        top = (SHORT_MAX if max_buckets == -1 else max_buckets) - 1
        if assigner_max_id is None:
            may_create = not self.upper_bound_reached
        else:
            may_create = not self.buckets or assigner_max_id < top
        if may_create:
            for i in range(top + 1):
                if bucket_filter(i) and i not in self.buckets:
                    self.non_full.put(i, i, 1)
                    self.buckets.add(i)
                    self.bucket_list.append(i)
                    self.hash_to_bucket[key_hash] = i
                    return i
            if max_buckets == -1:
                raise EncodeError(f"Too more bucket {top}: Java fails here; increase the target bucket row number")
            self.upper_bound_reached = assigner_max_id is None
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
        java: str = NEWEST,
    ) -> None:
        self.num_channels, self.num_assigners, self.assign_id = num_channels, num_assigners_, assign_id
        self.rules = assignment_rules(java)
        self.target_row_num = target_row_num
        self.max_buckets = -1 if self.rules == NO_MAX_BUCKETS else max_buckets
        self.index_files, self.rng = index_files, rng
        self.partitions: dict[Hashable, PartitionIndex] = {}
        self.max_bucket_id = 0  # Java 1.1-2.0.0: HashBucketAssigner.maxBucketId, over every partition

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
        wide = self.max_bucket_id if self.rules == ASSIGNER_WIDE else None
        bucket = index.assign(key_hash, self._mine, self.max_buckets, self.rng, wide)
        self.max_bucket_id = max(self.max_bucket_id, bucket)
        return bucket


@dataclass
class _SimplePartition:
    current: int
    counts: dict[int, int] = field(default_factory=dict)
    bucket_list: list[int] = field(default_factory=list)
    hash_to_bucket: dict[int, int] = field(default_factory=dict)
    upper_bound_reached: bool = False

    def register_current(self, listed: bool = True) -> None:
        """Start counting the current bucket if it is new (Java's computeIfAbsent / compute on bucketInformation);
        `listed`: whether that also adds it to bucketList (always after 2.0.0; up to 2.0.0 only computeIfAbsent
        does, which sees a partition's first bucket only)."""
        if self.current not in self.counts:
            self.counts[self.current] = 0
            if listed:
                self.bucket_list.append(self.current)


class SimpleHashBucketAssigner:
    """Java's SimpleHashBucketAssigner (INSERT OVERWRITE): no index is loaded; buckets fill one by one."""

    def __init__(
        self,
        num_assigners_: int,
        assign_id: int,
        target_row_num: int = DEFAULT_TARGET_ROW_NUM,
        max_buckets: int = -1,
        rng: random.Random | None = None,
        java: str = NEWEST,
    ) -> None:
        self.num_assigners, self.assign_id = num_assigners_, assign_id
        self.rules = assignment_rules(java)
        self.max_buckets = -1 if self.rules == NO_MAX_BUCKETS else max_buckets
        self.target_row_num, self.rng = target_row_num, rng
        self.partitions: dict[Hashable, _SimplePartition] = {}
        self.max_bucket_id = 0  # Java 1.1-2.0.0: SimpleHashBucketAssigner.maxBucketId, over every partition

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
        if self.rules == PER_PARTITION:
            self._overflow_per_partition(p)
        else:
            self._overflow_assigner_wide(p)
        p.counts[p.current] += 1
        p.hash_to_bucket[key_hash] = p.current
        self.max_bucket_id = max(self.max_bucket_id, p.current)
        return p.current

    def _overflow_per_partition(self, p: _SimplePartition) -> None:
        """After 2.0.0: a full bucket moves to the next one, or past the bound to any bucket of the partition."""
        p.register_current()
        if p.counts[p.current] >= self.target_row_num:
            nxt = None if p.upper_bound_reached else self._next_bucket(p)
            if nxt is None:
                p.upper_bound_reached = True
                p.current = (self.rng or random).choice(p.bucket_list)
            else:
                p.current = nxt
        p.register_current()

    def _overflow_assigner_wide(self, p: _SimplePartition) -> None:
        """Up to 2.0.0: new buckets while the assigner's largest id is below the bound (a next bucket past it
        leaves the full one current); then a random pick from bucketList, which holds the first bucket only."""
        p.register_current(listed=True)
        if p.counts[p.current] >= self.target_row_num:
            top = self.max_buckets - 1
            if self.max_buckets == -1 or not p.counts or self.max_bucket_id < top:
                nxt = self._next_bucket(p)
                if nxt is not None:
                    p.current = nxt
            else:
                p.current = (self.rng or random).choice(p.bucket_list)
        p.register_current(listed=False)


def _key_hash(types: Sequence[str], values: Sequence[object]) -> int:
    """hashCode of the BinaryRow of these logical values."""
    from paimon_conform.core.types import parse_type, to_internal
    from paimon_conform.layouts.binary_row import bucketing
    from paimon_conform.layouts.binary_row import codec as binary_row

    ts = [parse_type(t) for t in types]
    return bucketing.hash_code(binary_row.write(ts, [to_internal(t, v) for t, v in zip(ts, values, strict=True)]))


def _files_of(loaded: dict, partition: Hashable) -> list:
    return loaded.get(partition, [])


def _java_of(fixture: dict) -> str:
    """The release line whose assignment rules a fixture is replayed with: the one that wrote it."""
    from paimon_conform.core.java_releases import release

    return release(str(fixture["provenance"]["paimon_version"]).removesuffix("-SNAPSHOT"))


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
            HashBucketAssigner(
                channels, assigners, a, rnd["target"], index_files=partial(_files_of, loaded), java=_java_of(fixture)
            )
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
    per_id = [SimpleHashBucketAssigner(n, a, fixture["target"], java=_java_of(fixture)) for a in range(n)]
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
    if not isinstance(fixture, dict) or fixture.get("kind") != "dynamic-bucket":
        raise UsageError("not a dynamic-bucket fixture")
    try:
        return _replay_hash(fixture) if fixture["assigner"] == "hash" else _replay_simple(fixture)
    except (KeyError, TypeError, IndexError) as exc:
        raise UsageError(f"malformed dynamic-bucket fixture: {type(exc).__name__}: {exc}") from None
