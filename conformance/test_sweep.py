"""The crash sweep itself (support/sweep.py): it finds every table under a folder, reports an internal error of
the CLI as a crash, and a test's teardown runs it over that test's tmp_path."""

from __future__ import annotations

import shutil

from support import sweep
from support.environment import GOLDEN, ROOT

EVIDENCE = ("contract",)

JAVA = GOLDEN / "tables" / "java-1.0-SNAPSHOT"
SUITE = ROOT / "conformance"


def test_tables_are_found_at_any_depth_and_not_inside_a_table(tmp_path):
    a = shutil.copytree(JAVA / "pk-dynamic-parquet", tmp_path / "x" / "a")
    b = shutil.copytree(JAVA / "append-fixed3-avro", tmp_path / "y" / "z" / "b")
    (tmp_path / "not-a-table" / "schema").mkdir(parents=True)
    assert sweep.tables_under(tmp_path) == [a, b]


def test_an_internal_error_is_a_crash_and_a_clean_table_is_not(tmp_path_factory, monkeypatch):
    # (in a session folder: the teardown sweep of a tmp_path runs while the planted fault is still in place)
    table = shutil.copytree(JAVA / "pk-dynamic-parquet", tmp_path_factory.mktemp("planted") / "t")
    report = table.parent / "r.json"
    assert sweep.crash(table, report) is None
    from paimon_conform.table.validate import table as validation

    def broken(*args, **kwargs):
        raise ZeroDivisionError("planted")

    monkeypatch.setattr(validation, "read_schema", broken)
    problem = sweep.crash(table, report)
    assert problem is not None
    assert "internal error" in problem or "ZeroDivisionError" in problem


def test_the_teardown_sweep_fails_the_test_that_built_a_crashing_table(pytester):
    """A test whose tmp_path holds a table the CLI crashes on errors at teardown, though its body passed."""
    pytester.makeconftest((SUITE / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(
        f"""
        import shutil
        from paimon_conform.table.validate import table as validation

        def test_builds(tmp_path, monkeypatch):
            shutil.copytree({str(JAVA / "pk-dynamic-parquet")!r}, tmp_path / "t")
            monkeypatch.setattr(validation, "read_schema", lambda *a, **k: 1 / 0)
        """
    )
    counts = (sweep.swept.copy(), sweep.handed.copy(), sweep.identical.copy(), sweep._digests)
    sweep._digests = set()  # the inner run sweeps afresh (the table is a copy of one the suite swept)
    try:
        result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    finally:  # the inner run's tables are not the suite's
        sweep.swept, sweep.handed, sweep.identical, sweep._digests = counts
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*the sweep of this test's tables: internal errors*"])


def test_handed_tables_are_counted_and_not_swept_again(tmp_path):
    table = shutil.copytree(JAVA / "pk-dynamic-parquet", tmp_path / "t")
    before = (sweep.swept["test_sweep.py"], sweep.handed["test_sweep.py"])
    sweep.checked("conformance/test_sweep.py::x", [table])
    assert sweep.sweep("test_sweep.py", tmp_path) == []
    assert (sweep.swept["test_sweep.py"], sweep.handed["test_sweep.py"]) == (before[0], before[1] + 1)


def test_a_module_below_its_floor_is_named_only_when_it_ran_in_full(monkeypatch):
    monkeypatch.setattr(sweep, "FLOORS", {"test_x.py": 3, "test_y.py": 1})
    monkeypatch.setattr(sweep, "swept", sweep.Counter({"test_x.py": 2, "test_y.py": 1}))
    monkeypatch.setattr(sweep, "handed", sweep.Counter())
    assert sweep.short_by_floor({"test_x.py", "test_y.py"}) == ["test_x.py: 2 tables, floor 3"]
    assert sweep.short_by_floor({"test_y.py"}) == []
