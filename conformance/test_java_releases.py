"""The release model behind `validate --java-version`, and Java's float identity for key ranges."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paimon_conform.core.errors import UsageError
from paimon_conform.core.findings import Finding
from paimon_conform.core.java_releases import NEWEST, RELEASES, between, describe, judge, release
from paimon_conform.core.types import java_equals, parse_type

EVIDENCE = ("kit",)


def test_release_lines_from_versions():
    assert release("0.9.0") == release("0.9") == "0.9"
    assert release("1.4.1") == "1.4"
    assert release("2.0.0") == NEWEST
    for bad in ("3.0", "1", "x.y", "1.0-SNAPSHOT", ""):
        with pytest.raises(UsageError):
            release(bad)


def test_describe_names_the_releases():
    assert describe(None) == describe(RELEASES) == "every Java release"
    assert describe(between(None, "0.9")) == "Java <= 0.9"
    assert describe(between("1.2")) == "Java >= 1.2"
    assert describe(between("0.9", "1.1")) == "Java 0.9-1.1"
    assert describe(("0.9", "1.3")) == "Java 0.9, 1.3"


@given(st.sampled_from(RELEASES), st.sampled_from(RELEASES), st.sampled_from(RELEASES))
def test_judge_keeps_a_must_only_for_the_releases_it_is_about(a, b, target):
    lo, hi = sorted((a, b), key=RELEASES.index)
    about = between(lo, hi)
    kept = Finding("X", "must", "", None, "m", java_releases=about)
    dropped = Finding("Y", "must", "", None, "m", java_releases=about, otherwise=None)
    always = Finding("Z", "must", "", None, "m")
    out = judge([kept, dropped, always], target)
    assert always in out
    assert always.severity == "must"
    assert kept.severity == ("must" if target in about else "should")
    assert (dropped in out) == (target in about)


def test_java_equals_is_float_compare_identity():
    f = parse_type("FLOAT")
    assert java_equals(f, math.nan, float("nan"))  # Python's == says False: the old false MANIFEST_KEY_RANGE
    assert not java_equals(f, -0.0, 0.0)  # Float.compare(-0.0f, 0.0f) < 0
    assert not java_equals(f, math.nan, 1.0)
    assert java_equals(parse_type("INT"), 3, 3)
