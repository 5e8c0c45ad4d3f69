"""Bad input is normal input: a Java-written table with any of its files damaged (bytes
flipped, truncated, emptied, replaced by JSON or random bytes) is validated without an
exception escaping, and the damage is reported; damage the validator does not report is a
flipped byte the reader reads through too; the Spark source's code ends in rows or the kit's
error, never an internal error."""

from __future__ import annotations

import shutil
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import sweep
from support.environment import ROOT

from paimon_conform.table.read import reader
from paimon_conform.table.validate.table import validate_table

EVIDENCE = ("contract",)

TABLES = ["pk-fixed4-parquet-dv", "pk-dynamic-parquet", "append-file-index-separate", "pk-fixed4-orc-mor"]
JAVA = ROOT / "golden" / "tables" / "java-1.0-SNAPSHOT"


def files_of(table: str) -> list[str]:
    root = JAVA / table
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


damage = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("replace"), st.binary(max_size=64), st.just(0)),
)


def apply(path: Path, how: tuple) -> bytes:
    data = path.read_bytes()
    kind, arg, mask = how
    if kind == "flip" and data:
        i = arg % len(data)
        data = data[:i] + bytes([data[i] ^ mask]) + data[i + 1 :]
    elif kind == "truncate":
        data = data[: arg % (len(data) + 1)]
    elif kind == "replace":
        data = arg
    path.write_bytes(data)
    return data


# each example copies a Java table, damages it and validates it (and reads it): ~0.15 s; 120 per test keep
# both under 20 s of the CI budget, beside the adversarial suite's 1,100 named mutations
@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.sampled_from(TABLES), pick=st.integers(0, 10**6), how=damage)
def test_damaged_tables_are_reported_not_raised(tmp_path_factory, request, table, pick, how):
    names = files_of(table)
    rel = names[pick % len(names)]
    root = shutil.copytree(JAVA / table, tmp_path_factory.mktemp("t") / table)
    original = (root / rel).read_bytes()
    changed = apply(root / rel, how) != original
    results = validate_table(root)  # must not raise
    internal = [r.unusable for r in results if r.unusable and "internal error" in r.unusable]
    assert not internal, f"{how} on {rel}: {internal[0]}"
    sweep.checked(request.node.nodeid, [root])  # validated above, an internal error a failure
    hint = rel.startswith("snapshot/") and rel.endswith(("EARLIEST", "LATEST"))
    assume(changed and not hint)  # unchanged bytes, or an advisory hint: nothing to check, not a pass
    reported = [r for r in results if r.unusable or any(f.severity != "warning" for f in r.findings)]
    if not reported:
        # a flip may land where nothing is checked (Parquet page padding, compressed statistics Java
        # ignores, a value no statistic or index covers): then the table still reads, as Java reads it
        assert how[0] == "flip", f"{how[0]} of {rel} went unreported"
        reader.read_latest(root)


# each example copies a Java table, damages it and validates it (and reads it): ~0.15 s; 120 per test keep
# both under 20 s of the CI budget, beside the adversarial suite's 1,100 named mutations
@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.sampled_from(TABLES), pick=st.integers(0, 10**6), how=damage)
def test_damaged_tables_fail_the_scan_with_the_kits_errors(tmp_path_factory, table, pick, how):
    """What the Spark source runs (plan on the driver, read_split in tasks) on a damaged table:
    rows, or an error of the kit's hierarchy naming the problem; never another exception."""
    from paimon_conform.core.errors import InternalError, PaimonConformError
    from paimon_conform.table.read import scan

    names = files_of(table)
    rel = names[pick % len(names)]
    root = shutil.copytree(JAVA / table, tmp_path_factory.mktemp("t") / table)
    apply(root / rel, how)
    try:
        schema, splits, _ = scan.plan(root)
        for s in splits:
            scan.read_split(root, schema, s)
    except InternalError as exc:
        raise AssertionError(f"{how[0]} of {rel}: {exc}") from exc
    except PaimonConformError:
        return  # the kit's error, an answer (an InternalError failed above); any other exception fails the test


def test_a_column_of_another_type_than_its_statistics_is_a_finding(tmp_path):
    """Found by the suite's crash sweep: one flipped bit in an ORC footer makes a STRING column boolean; its
    manifest statistics (strings) were compared with the file's booleans (a TypeError, an internal error)."""
    table = "pk-fixed4-orc-mor"
    root = shutil.copytree(JAVA / table, tmp_path / table)
    rel = "dt=2024-01-01/bucket-0/log-9b041469-9cd0-4856-962c-b60c154b1d32-0.orc"
    apply(root / rel, ("flip", 715, 0x01))
    results = validate_table(root)
    assert not [r.unusable for r in results if r.unusable]
    codes = {(f.code, f.severity) for r in results for f in r.findings if r.file.endswith(rel)}
    assert ("DATA_FILE_COLUMN_TYPE", "must") in codes
