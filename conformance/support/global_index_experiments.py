"""The global-index experiments of test_global_index_java.py: the Java-written global-index goldens of 1.4.2 and
2.0.0, each as written and with one thing changed, read with filters by the Java testee of every release that
could read them (one session per release)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from paimon_conform.layouts import global_index_query
from paimon_conform.layouts.bitmap_global_index import codec as bgix
from paimon_conform.layouts.bitmap_index import codec as bitmap
from paimon_conform.layouts.btree_global_index import codec as btree
from paimon_conform.layouts.sorted_index import index_meta, read_index_meta
from paimon_conform.table.metadata import read_records
from paimon_conform.table.schema import read_schema
from support import testees
from support.environment import ROOT, corpus_table
from support.java_mutations import latest_snapshot, rewrite_avro

TABLES = ROOT / "golden" / "tables"
READERS = ("1.3.1", "1.4.2", "2.0.0")
COLUMN = "name"


def _entries(root: Path) -> list[dict]:
    """The live index-manifest entries of the table's latest snapshot."""
    return read_records(root / "manifest" / latest_snapshot(root)["indexManifest"]).records


def _column_by_row_id(root: Path) -> list:
    """The indexed column's values by row id (the data files by _FIRST_ROW_ID, each file's rows in order)."""
    snapshot = latest_snapshot(root)
    files = []
    for listed in (
        read_records(root / "manifest" / snapshot["baseManifestList"]).records
        + read_records(root / "manifest" / snapshot["deltaManifestList"]).records
    ):
        for e in read_records(root / "manifest" / listed["_FILE_NAME"]).records:
            files.append((e["_FILE"]["_FIRST_ROW_ID"], e["_FILE"]["_FILE_NAME"]))
    values: list = []
    for first, name in sorted(files):
        assert first == len(values), f"row ids not contiguous at {name}"
        values += pq.read_table(root / "bucket-0" / name, columns=[COLUMN]).column(0).to_pylist()
    return values


def _narrow_meta(root: Path) -> None:
    """Every _INDEX_META's first key raised to its last: files are skipped for the lower values they hold."""

    def narrow(r: dict) -> dict:
        _first, last, nulls = read_index_meta(r["_GLOBAL_INDEX"]["_INDEX_META"])
        r["_GLOBAL_INDEX"]["_INDEX_META"] = index_meta(last, last, nulls)
        return r

    assert rewrite_avro(root, "index_manifest", record_fn=narrow) > 0


def _range(shift_start: int, shift_end: int) -> Callable[[Path], None]:
    """Every entry's _ROW_RANGE_START / _ROW_RANGE_END moved by the given rows."""

    def mutate(root: Path) -> None:
        def move(r: dict) -> dict:
            r["_GLOBAL_INDEX"]["_ROW_RANGE_START"] += shift_start
            r["_GLOBAL_INDEX"]["_ROW_RANGE_END"] += shift_end
            return r

        assert rewrite_avro(root, "index_manifest", record_fn=move) > 0

    return mutate


def _rebuild(change: Callable[[list], list]) -> Callable[[Path], None]:
    """The index rewritten by the kit's encoder of its layout (1.4: a bitmap file-index payload, 2.0 bitmap: BGIX,
    btree) from the column's values of its row range after `change`; _FILE_SIZE and _INDEX_META follow the new
    file, the row range stays."""

    def mutate(root: Path) -> None:
        t = next(f.type for f in read_schema(root).fields if f.name == COLUMN)
        [entry] = _entries(root)
        g = entry["_GLOBAL_INDEX"]
        rows = change(_column_by_row_id(root)[g["_ROW_RANGE_START"] : g["_ROW_RANGE_END"] + 1])
        meta = None
        if entry["_INDEX_TYPE"] == "btree":
            data = btree.encode(t, rows)
            meta = global_index_query.file_meta("btree-global-index", data, t)
        elif g["_INDEX_META"] is None:
            data = bitmap.build(t, rows, version=2)
        else:
            data = bgix.encode(t, rows)
            meta = global_index_query.file_meta("bitmap-global-index", data, t)
        (root / "index" / entry["_FILE_NAME"]).write_bytes(data)

        def follow(r: dict) -> dict:
            r["_FILE_SIZE"] = len(data)
            if meta is not None:
                r["_GLOBAL_INDEX"]["_INDEX_META"] = meta
            return r

        assert rewrite_avro(root, "index_manifest", record_fn=follow) == 1

    return mutate


def _swapped(values: list) -> list:
    """The values of the first row and the next row that holds another value swapped."""
    j = next(k for k in range(1, len(values)) if values[k] != values[0])
    values[0], values[j] = values[j], values[0]
    return values


def _unchanged(_root: Path) -> None:
    """As Java wrote it."""


MUTATIONS: dict[str, Callable[[Path], None]] = {
    "as-written": _unchanged,
    "meta-narrowed": _narrow_meta,
    "range-shifted": _range(1, 1),
    "range-widened": _range(0, 1),
    "range-narrowed": _range(0, -1),
    "index-short": _rebuild(lambda values: values[:-1]),
    "values-swapped": _rebuild(_swapped),
}
# The mutations each table takes: a 1.4 bitmap payload has no _INDEX_META to narrow.
EXPERIMENTS = [
    (writer, index, mutation)
    for writer in ("1.4.2", "2.0.0")
    for index in ("bitmap", "btree")
    for mutation in MUTATIONS
    if not (mutation == "meta-narrowed" and (writer, index) == ("1.4.2", "bitmap"))
]


def experiment_id(writer: str, index: str, mutation: str) -> str:
    return f"{index}-{writer}-{mutation}"


# Tables other implementations wrote with global indexes (the external corpus, paimon-cpp), read as they are.
CORPUS_TABLES = ("append_with_global_index", "append_with_global_index_with_partition")


def run(factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Per experiment: the table's folder, the columns probed, and per reader release (reply, why) of its probing
    read. The Java goldens' experiments probe the indexed column, the corpus tables every column."""
    base = factory.mktemp("global-index-java")
    out: dict[str, dict] = {}
    for writer, index, mutation in EXPERIMENTS:
        root = base / experiment_id(writer, index, mutation)
        shutil.copytree(TABLES / f"java-{writer}" / f"append-global-index-{index}", root)
        MUTATIONS[mutation](root)
        out[experiment_id(writer, index, mutation)] = {"root": root, "probe": [COLUMN], "reads": {}}
    for name in CORPUS_TABLES:
        root = corpus_table(base, name)
        out[f"paimon-cpp-{name}"] = {"root": root, "probe": [f.name for f in read_schema(root).fields], "reads": {}}
    for release in READERS:
        with testees.opened(f"java-{release}") as s:
            for exp in out.values():
                fields = testees.table_fields(exp["root"])
                request = testees.read_request(exp["root"], fields, exp["probe"], max_probes=64)
                exp["reads"][release] = s.exchange(request, "read_table_reply")
    return out


def misread(reply: dict | None, why: str) -> str:
    """How a release's read went wrong ('' when every filtered read found the full read's rows)."""
    if reply is None:
        return f"read fails: {why[:160]}"
    probes = reply["probes"]
    assert probes, "no value was probed"
    wrong = [p for p in probes if "error" in p or p["filtered"] != p["full"]]
    return "; ".join(
        f"{p['value']}: " + (p["error"][:160] if "error" in p else f"{p['filtered']} of {p['full']}") for p in wrong
    )


def line(release: str) -> str:
    return ".".join(release.split(".")[:2])
