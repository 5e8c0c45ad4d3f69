"""Dynamic-bucket assignment: Java's sequences replay exactly; the rules hold on random input (issue 5)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.errors import EncodeError
from paimon_conform.core.hashing.java import JavaHashMap
from paimon_conform.layouts.hash_index import dynamic_bucket as db

EVIDENCE = ("java", "kit")

FIXTURES = sorted((Path(__file__).resolve().parent.parent / "golden" / "dynamic_bucket").rglob("*.json"))


def test_fixtures_cover_both_assigners():
    kinds = {json.loads(p.read_text())["assigner"] for p in FIXTURES}
    assert kinds == {"hash", "simple"}
    assert len(FIXTURES) >= 6


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_java_sequence_replays(path):
    fixture = json.loads(path.read_text())
    assert db.replay(fixture) == []
    # and the replay notices a bucket Java did not choose
    records = fixture["rounds"][-1]["records"] if fixture["assigner"] == "hash" else fixture["records"]
    records[-1]["bucket"] += 1
    assert db.replay(fixture)


def test_hash_map_order_matters_for_the_reload():
    """The reload golden fails with ascending order or tail insertion: Java's HashMap order is what decides."""
    fixture = json.loads(next(p for p in FIXTURES if p.stem == "hashmap-shared-bins").read_text())
    items, compute = JavaHashMap.items, JavaHashMap.compute
    try:
        JavaHashMap.items = lambda self: iter(sorted(items(self)))
        assert db.replay(fixture)
        JavaHashMap.items = items

        def tail(self, key, hash_code, remap):
            self.touch()
            value = remap(self.index.get(key))
            if key in self.index:
                self._replace(key, hash_code, value)
            else:
                self._add(key, hash_code, value, head=False)
            return value

        JavaHashMap.compute = tail
        assert db.replay(fixture)
    finally:
        JavaHashMap.items, JavaHashMap.compute = items, compute


@given(st.integers(-(2**31), 2**31 - 1), st.integers(-(2**31), 2**31 - 1), st.integers(1, 64), st.data())
def test_routing_definition(partition_hash, key_hash, channels, data):
    assigners = db.num_assigners(channels, data.draw(st.none() | st.integers(1, 100)))
    got = db.assigner_of(partition_hash, key_hash, channels, assigners)
    java_rem = lambda a, b: abs(a) % b  # noqa: E731 - Math.abs(a % b): truncating %
    assert got == (java_rem(partition_hash, channels) + java_rem(key_hash, assigners)) % channels
    assert 0 <= got < channels


@given(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=300), st.integers(1, 20), st.integers(1, 4), st.data())
def test_hash_assigner_rules(hashes, target, channels, data):
    """Counts are distinct key hashes; a known hash keeps its bucket; buckets are owned; none is over target."""
    assigners = db.num_assigners(channels)
    per = [db.HashBucketAssigner(channels, assigners, a, target) for a in range(channels)]
    seen: dict[int, int] = {}
    for h in hashes:
        a = db.assigner_of(-1670924195, h, channels, assigners)
        b = per[a].assign("", -1670924195, h)
        assert db.is_my_bucket(b, assigners, a)
        assert seen.setdefault(h, b) == b
    counts: dict[int, int] = {}
    for b in seen.values():
        counts[b] = counts.get(b, 0) + 1
    assert all(c <= target for c in counts.values())


@given(st.lists(st.integers(-(2**31), 2**31 - 1), unique=True, min_size=1, max_size=200), st.integers(1, 8))
def test_max_buckets_bounds_new_buckets(hashes, max_buckets):
    """With dynamic-bucket.max-buckets, no bucket id reaches it; past the bound keys go to existing buckets."""
    a = db.HashBucketAssigner(1, 1, 0, target_row_num=3, max_buckets=max_buckets, rng=random.Random(1))
    got = [a.assign("", 0, h) for h in hashes]
    assert set(got) <= set(range(max_buckets))
    assert len(set(got)) == min(max_buckets, -(-len(hashes) // 3))


def test_unbounded_assigner_fails_like_java_past_32766():
    index = db.PartitionIndex(target_row_num=1)
    for b in range(db.SHORT_MAX):
        index.buckets.add(b)
    with pytest.raises(EncodeError):
        index.assign(5, lambda b: True)


@given(st.lists(st.integers(-(2**31), 2**31 - 1), max_size=200), st.integers(1, 10), st.integers(1, 3))
def test_simple_assigner_fills_one_bucket_at_a_time(hashes, target, assigners):
    per = [db.SimpleHashBucketAssigner(assigners, a, target) for a in range(assigners)]
    seen: dict[tuple[int, int], int] = {}
    order: dict[int, list[int]] = {a: [] for a in range(assigners)}
    for i, h in enumerate(hashes):
        a = i % assigners
        b = per[a].assign(None, h)
        if (a, h) in seen:
            assert b == seen[a, h]
            continue
        seen[a, h] = b
        order[a].append(b)
    for a, buckets in order.items():
        # owned ids in ascending order, each used for `target` new keys before the next
        expected = [x for x in range(10_000) if x % assigners == a]
        assert buckets == [expected[i // target] for i in range(len(buckets))]


# dynamic-bucket.max-buckets by release (PartitionIndex / SimpleHashBucketAssigner at each release tag)


def _hash_run(java: str, partitions: list[tuple[str, int]], max_buckets: int, target: int = 1) -> list[int]:
    a = db.HashBucketAssigner(1, 1, 0, target_row_num=target, max_buckets=max_buckets, rng=random.Random(7), java=java)
    return [a.assign(part, 0, h) for part, h in partitions]


def test_hash_assigner_max_buckets_by_release():
    """Partition a reaches the bound of 2 buckets first. Java 1.1 to 2.0.0 gate new buckets on the assigner's
    largest id over every partition, so partition b stays at one bucket; after 2.0.0 (apache/paimon#9193) b
    creates its own second bucket; 0.9 and 1.0 have no bound."""
    keys = [("a", 1), ("a", 2), ("a", 3), ("b", 4), ("b", 5), ("b", 6)]
    assert _hash_run("2.0", keys, 2)[3:] == [0, 0, 0]
    assert _hash_run("1.1", keys, 2)[3:] == [0, 0, 0]
    master = _hash_run("after-2.0", keys, 2)
    assert master[3:5] == [0, 1]
    assert master[5] in (0, 1)
    assert _hash_run("0.9", keys, 2) == [0, 1, 2, 0, 1, 2]


def _simple_run(java: str, hashes: list[int], max_buckets: int, seed: int, target: int = 1) -> list[int]:
    a = db.SimpleHashBucketAssigner(1, 0, target, max_buckets=max_buckets, rng=random.Random(seed), java=java)
    return [a.assign("p", h) for h in hashes]


def test_simple_assigner_overflow_by_release():
    """Past the bound, Java up to 2.0.0 picks from a bucketList that holds the partition's first bucket only
    (apache/paimon#9180): every overflow key goes to bucket 0. After 2.0.0 it is spread over all buckets."""
    hashes = list(range(1, 40))
    for seed in range(5):
        old = _simple_run("2.0", hashes, 3, seed)
        assert old[:3] == [0, 1, 2]
        assert set(old[3:]) == {0}
    spread = {b for seed in range(5) for b in _simple_run("after-2.0", hashes, 3, seed)[3:]}
    assert spread == {0, 1, 2}
    assert _simple_run("1.0", hashes[:5], 3, 0) == [0, 1, 2, 3, 4]


@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(-(2**31), 2**31 - 1)), max_size=120),
    st.integers(1, 6),
    st.integers(1, 3),
)
def test_releases_agree_without_a_bound(keys, target, channels):
    """Without dynamic-bucket.max-buckets every release assigns the same buckets (both assigners)."""
    runs = []
    for java in ("0.9", "2.0", "after-2.0"):
        per = [db.HashBucketAssigner(channels, channels, c, target, java=java) for c in range(channels)]
        simple = db.SimpleHashBucketAssigner(1, 0, target, java=java)
        runs.append(
            [
                (per[db.assigner_of(ord(p), h, channels, channels)].assign(p, ord(p), h), simple.assign(p, h))
                for p, h in keys
            ]
        )
    assert runs[0] == runs[1] == runs[2]


@given(
    st.lists(st.tuples(st.sampled_from("ab"), st.integers(-(2**31), 2**31 - 1)), unique=True, max_size=150),
    st.integers(1, 5),
    st.integers(1, 4),
)
def test_bounded_releases_stay_within_the_bound(keys, max_buckets, target):
    """From 1.1 on no bucket id reaches dynamic-bucket.max-buckets, under either rule."""
    for java in ("1.1", "2.0", "after-2.0"):
        got = _hash_run(java, keys, max_buckets, target)
        assert all(0 <= b < max_buckets for b in got)
        simple = db.SimpleHashBucketAssigner(1, 0, target, max_buckets=max_buckets, rng=random.Random(3), java=java)
        assert all(0 <= simple.assign(p, h) < max_buckets for p, h in keys)


@pytest.mark.parametrize("java", ["1.1", "2.0", "after-2.0"])
def test_java_upper_bound_sequence(java):
    """SimpleHashBucketAssignerTest.testAssignWithUpperBound(MultiAssigners) at release-2.0.0 (the same on master):
    two assigners, target 100, bound 3: assigner 0 fills 0 then 2 and overflows into {0, 2}; assigner 1 fills 1
    and overflows into {1}."""
    a0 = db.SimpleHashBucketAssigner(2, 0, 100, max_buckets=3, rng=random.Random(5), java=java)
    a1 = db.SimpleHashBucketAssigner(2, 1, 100, max_buckets=3, rng=random.Random(5), java=java)
    h = iter(range(10_000))
    assert {a0.assign("", next(h)) for _ in range(100)} == {0}
    assert {a1.assign("", next(h)) for _ in range(100)} == {1}
    assert {a0.assign("", next(h)) for _ in range(100)} == {2}
    assert {a0.assign("", next(h)) for _ in range(200)} <= {0, 2}
    assert {a1.assign("", next(h)) for _ in range(200)} == {1}
