"""What each release's filtered reads do with the global indexes Java wrote, as written and with one thing changed.

The tables are the Java-written goldens `append-global-index-bitmap` and `append-global-index-btree` of 1.4.2 (the
first release with global indexes) and 2.0.0. Each experiment (support/global_index_experiments.py) copies one,
changes one thing (none; the `_INDEX_META` narrowed; the row range shifted, widened past the table's rows or
narrowed; the index rewritten by the kit's encoder without the last row or with the values of two rows swapped)
and has the Java testee of 1.3.1 (before global indexes), 1.4.2 and 2.0.0 read it with `name = value` (and
`IS NULL`) pushed down for every value the full read returns (the testee's probes). A release misreads an
experiment when a filtered read fails or returns another number of matching rows than the full read. The kit's
verdict for each release line must be that: a must-finding exactly where the release misreads. The two layouts'
cross reads are pinned by what happened (2.0.0 throws on 1.4's files, 1.4.2 silently finds no row in 2.0's).
paimon-cpp's two global-index tables of the external corpus are read the same way, every column probed."""

from __future__ import annotations

import copy

import pytest
from support import background
from support.global_index_experiments import CORPUS_TABLES, EXPERIMENTS, READERS, experiment_id, line, misread
from support.java_mutations import latest_snapshot
from support.jobs import global_index_java_job

from paimon_conform.core.java_releases import judge
from paimon_conform.table.validate.table import validate_table

pytestmark = pytest.mark.java

EVIDENCE = ("java", "third-party")


@pytest.fixture(scope="module")
def runs() -> dict[str, dict]:
    """The experiments' folders and reads (a background job: support/jobs.py)."""
    return background.result("global-index-java", global_index_java_job)


IDS = [experiment_id(*e) for e in EXPERIMENTS] + [f"paimon-cpp-{name}" for name in CORPUS_TABLES]


@pytest.mark.parametrize("experiment", IDS)
def test_the_kit_has_a_must_for_a_release_exactly_where_its_filtered_reads_misread(runs, experiment):
    exp = runs[experiment]
    found = [f for r in validate_table(exp["root"], java_version=None) for f in r.findings]
    total = latest_snapshot(exp["root"])["totalRecordCount"]
    disagree = []
    for release in READERS:
        reply, why = exp["reads"][release]
        assert reply is None or len(reply["rows"]) == total, f"{release}: the full read lost rows"
        wrong = misread(reply, why)
        musts = sorted({f.code for f in judge(copy.deepcopy(found), line(release)) if f.severity == "must"})
        if bool(wrong) != bool(musts):
            disagree.append(f"Java {release}: {wrong or 'reads every value'}; kit musts {musts}")
    assert not disagree, "\n".join(disagree)


def test_2_0_fails_filtered_scans_over_a_1_4_bitmap_global_index(runs):
    reply, _ = runs["bitmap-1.4.2-as-written"]["reads"]["2.0.0"]
    errors = [p.get("error", "") for p in reply["probes"]]
    assert errors
    assert all("SortedIndexFileMeta.deserialize" in e for e in errors), errors


def test_1_4_finds_no_row_through_a_bgix_bitmap_global_index(runs):
    reply, _ = runs["bitmap-2.0.0-as-written"]["reads"]["1.4.2"]
    assert reply["probes"]
    assert all(p["filtered"] == 0 < p["full"] for p in reply["probes"]), reply["probes"]


def test_1_4_loses_the_rows_of_a_partition_that_shares_row_ids_with_an_indexed_one(runs):
    """paimon-cpp's partitioned table gives both partitions' files row ids from 0 (Java assigns them table-wide):
    Java 1.4.2 filters the unindexed partition's rows with the other partition's index."""
    reply, _ = runs["paimon-cpp-append_with_global_index_with_partition"]["reads"]["1.4.2"]
    lost = sorted(p["value"] for p in reply["probes"] if p["column"] == "f0" and p["filtered"] < p["full"])
    assert lost == ["Alice", "Lucy", "Tony"]


def test_the_index_is_what_filters_each_release_that_reads_it(runs):
    """The experiments say something only if the filtered reads go through the index: swapping two rows' values
    in the index changes what 1.4.2 and 2.0.0 return for their own layouts, and not what 1.3.1 returns."""
    for writer, release in (("1.4.2", "1.4.2"), ("2.0.0", "2.0.0")):
        for index in ("bitmap", "btree"):
            reply, why = runs[f"{index}-{writer}-values-swapped"]["reads"][release]
            assert misread(reply, why), f"{index} of {writer} read by {release}"
    for name, exp in runs.items():
        assert not misread(*exp["reads"]["1.3.1"]), name
