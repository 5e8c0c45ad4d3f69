"""What the table validator checks, per Java release: the coverage table of docs/releases.md, rendered from here.

Each row names a layout or feature, the first release that has it, what the kit does for releases
before it (`—` none has it, `must` the release cannot read it and the kit says so for that
`--java-version`), and what it does from that release on (`✓` checked as Java defines it, `part`
checked in part with the rest named in a warning, FEATURE_NOT_CHECKED or TABLE_EXTERNAL_PATH,
`warn` recognized and named in a FEATURE_NOT_CHECKED warning only), and, for a layout a newer
release no longer reads, `must` after the last release that does (`until`); a layout an older
release knows of but cannot read is `must` for the releases from `must_from` on.
"""

from __future__ import annotations

from dataclasses import dataclass

from paimon_conform.core.java_releases import RELEASES

SHOWN = RELEASES[1:]  # 0.9 ... 2.0: the releases a valid table can come from


@dataclass(frozen=True)
class Row:
    """One line of the coverage table."""

    what: str
    since: str = "0.9"
    before: str = "—"
    status: str = "✓"
    until: str | None = None  # the last release that reads it, when a newer one no longer does
    after: str = "must"  # what the kit does for the releases after `until`
    must_from: str | None = None  # the first older release that meets the layout and cannot read it


ROWS = (
    Row("data files: columns, types, partitions, buckets, statistics (Parquet, ORC, Avro)"),
    Row("manifests, manifest lists, index manifests: each release's records, `_VERSION`"),
    Row("deletion vectors, 32-bit"),
    Row("deletion vectors, 64-bit (Iceberg-compatible)", "1.2", "must"),
    Row("dynamic-bucket HASH index and assignment"),
    Row("file-index container, bloom filter, bitmap V1"),
    Row("BSI file index", "1.0", "must"),
    Row("bitmap V2 file index", "1.1", "must"),
    Row("range-bitmap file index", "1.3", "must"),
    Row("thin-mode primary-key files, dense `_VALUE_STATS_COLS`", "1.0", "must"),
    Row("index files in bucket directories (`index-file-in-data-file-dir`)", "1.3", "must"),
    Row("external data paths (files outside the root are not opened)", "1.1", "—", "part"),
    Row("row tracking: `_ROW_ID` / `_SEQUENCE_NUMBER` columns, row-id ranges (`nextRowId` not)", "1.3", "—", "part"),
    Row("data evolution: files of `_WRITE_COLS`, row-id ranges as the reader merges them", "1.3", "must"),
    Row("BLOB columns: `.blob` files (layout `blob_file`); the type is unknown to Java before 1.4", "1.4", "must"),
    Row(
        "ARRAY<BLOB> / MAP<K, BLOB> columns: each row's element framing and map keys (layout `blob_file`); "
        "1.4 reads no nested BLOB",
        "2.0",
        "must",
    ),
    Row(
        "managed BLOB storage (primary-key tables): `.managed.blob` packs, `.blobref` sidecars named, not read",
        "2.0",
        "—",
        "part",
    ),
    Row(
        "BLOB descriptors stored inline: each value decoded (layout `blob_descriptor`; the data not opened)",
        "1.4",
        "—",
        "part",
    ),
    Row(
        "row-format data files: `.row` (layout `row_file`; rows read with the schema's types, then checked as data)",
        "2.0",
    ),
    Row("bitmap global index, 1.4 layout (a bitmap file-index payload; 2.0 reads only BGIX)", "1.4", until="1.4"),
    Row(
        "bitmap global index, 2.0 BGIX layout (layout `bitmap_global_index`; 1.4 cannot read it)",
        "2.0",
        must_from="1.4",
    ),
    Row("BTree global index (layout `btree_global_index`, 1.4.1)", "1.4"),
    Row("global indexes: vector, full-text: `_GLOBAL_INDEX` records (bytes not)", "1.4", "—", "part"),
    Row("branches: each validated as its own table (schema, snapshots, manifests; shared data)"),
    Row("tags, long-lived changelogs, consumers, statistics: followed for what Java keeps for each"),
)


def cell(row: Row, release: str) -> str:
    """What the kit does with `row` for a table read by `release`."""
    if row.until is not None and SHOWN.index(release) > SHOWN.index(row.until):
        return row.after
    if SHOWN.index(release) >= SHOWN.index(row.since):
        return row.status
    if row.must_from is not None and SHOWN.index(release) >= SHOWN.index(row.must_from):
        return "must"
    return row.before


def markdown() -> str:
    """The coverage table as docs/releases.md shows it."""
    head = "| what | " + " | ".join(SHOWN) + " |"
    rule = "|---|" + "---|" * len(SHOWN)
    lines = [head, rule] + [f"| {r.what} | " + " | ".join(cell(r, v) for v in SHOWN) + " |" for r in ROWS]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
