"""Load a snapshot's index files as the reader needs them: each deletion-vector file's vectors per data
file (ranges from the index manifest, kinds, cardinalities) and each dynamic-bucket HASH file's key
hashes per partition and bucket, with what is wrong in them on the way (IndexState.findings)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np
from pyroaring import BitMap64

from paimon_conform.core import budget
from paimon_conform.core.errors import LayoutError, PaimonConformError
from paimon_conform.core.findings import Finding
from paimon_conform.core.findings import file_finding as _f
from paimon_conform.core.java_releases import between
from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.table.metadata import IndexManifestEntry
from paimon_conform.table.paths import inside, is_file, plain_name

MAX_INDEX_BYTES = 1 << 30
DV_TYPE, HASH_TYPE = "DELETION_VECTORS", "HASH"


@dataclass
class IndexState:
    """What the index files say, per partition and bucket, for the data-file checks."""

    findings: list[Finding] = field(default_factory=list)
    # (partition bytes, bucket) -> {data file name: (index file, position in ranges, positions)}
    vectors: dict[tuple[bytes, int], dict[str, tuple[str, int, np.ndarray]]] = field(default_factory=dict)
    # (partition bytes, bucket) -> (index file, sorted key hashes)
    hashes: dict[tuple[bytes, int], tuple[str, np.ndarray]] = field(default_factory=dict)


def _read(root: Path, rel: str, e: IndexManifestEntry, owner: str, out: list) -> bytes | None:
    path = inside(root, rel)
    if path is None or not path.is_file():
        return None  # reported by the chain as TABLE_REFERENCE_ESCAPES_ROOT or INDEX_FILE_MISSING
    size = path.stat().st_size
    if size > MAX_INDEX_BYTES:
        out.append(_f("INDEX_FILE_UNREADABLE", "must", rel, "", f"larger than {MAX_INDEX_BYTES} bytes"))
        return None
    if e.file_size != size:
        msg = f"_FILE_SIZE is {e.file_size}, the index file has {size} bytes"
        out.append(_f("INDEX_MANIFEST_FILE_SIZE", "must", owner, f"entries[{e.index}]._FILE_SIZE", msg))
    return path.read_bytes()


@dataclass
class _Vector:
    """A deletion vector read from a DV file: its data file, its place in the entry's ranges, its positions."""

    data_file: str
    at: int
    positions: np.ndarray


@dataclass
class _Hashes:
    """A HASH file's key hashes, sorted."""

    hashes: np.ndarray


@dataclass
class IndexFileRead:
    """What reading one index file gave, in order (findings, vectors, hashes), before it joins the others'
    (read_index_file; a kit error travels with it, to be raised where the reads are joined)."""

    rel: str
    entry: IndexManifestEntry
    read: bool = False
    items: list[Finding | _Vector | _Hashes] = field(default_factory=list)
    error: PaimonConformError | None = None


IndexReader = Callable[[Callable[[tuple[str, IndexManifestEntry]], IndexFileRead], list], list[IndexFileRead]]


def load_index_files(
    root: Path,
    entries: list[IndexManifestEntry],
    owner: str,
    paths: dict[str, str] | None = None,
    bitmap64: bool = False,
    check_global: Callable[[str, bytes, IndexManifestEntry], list[Finding]] | None = None,
    reader: IndexReader | None = None,
) -> IndexState:
    """Parse every live index file once; findings on the index files and the index manifest.

    `paths`: index file name → path under the root (index/ unless the table keeps them in bucket directories);
    `bitmap64`: the table's `deletion-vectors.bitmap64` option; `check_global`: the checks of a global-index
    file (1.4.1), given its path, bytes and entry; `reader`: maps read_index_file over the files, returning the
    reads in order (default: one after the other here; spark.validate's in Spark tasks).
    """
    jobs = []
    for e in entries:
        if e.external_path is not None or not plain_name(e.file_name):
            continue  # (a name that is not plain is reported by the chain)
        jobs.append(((paths or {}).get(e.file_name, f"index/{e.file_name}"), e))
    read = partial(read_index_file, root, owner, bitmap64, check_global)
    state = IndexState()
    for done in (reader or _one_by_one)(read, jobs):
        _join(state, done, owner)
    return state


def _one_by_one(read: Callable, jobs: list) -> list:
    return [read(job) for job in jobs]


def read_index_file(
    root: Path,
    owner: str,
    bitmap64: bool,
    check_global: Callable[[str, bytes, IndexManifestEntry], list[Finding]] | None,
    job: tuple[str, IndexManifestEntry],
) -> IndexFileRead:
    """Read and check one index file (`job`: its path under the root and its entry) apart from the others."""
    rel, e = job
    done = IndexFileRead(rel, e)
    try:
        data = _read(root, rel, e, owner, done.items)
        if data is None:
            return done
        done.read = True
        if e.index_type == DV_TYPE:
            _read_dv(rel, data, e, owner, done.items, bitmap64)
        elif e.index_type == HASH_TYPE:
            _read_hash(rel, data, e, owner, done.items)
        elif e.global_index is not None and check_global is not None:
            done.items.extend(check_global(rel, data, e))
    except PaimonConformError as exc:
        done.error = exc
    return done


def _join(state: IndexState, done: IndexFileRead, owner: str) -> None:
    """Add one index file's read to the state, in entry order: a second vector for a data file, a second
    HASH file for a bucket, are found here."""
    e = done.entry
    if done.read and e.index_type == DV_TYPE:
        bucket = state.vectors.setdefault((e.partition, e.bucket), {})
    for item in done.items:
        if isinstance(item, Finding):
            state.findings.append(item)
        elif isinstance(item, _Vector):
            if item.data_file in bucket:
                other = bucket[item.data_file][0]
                at = f"entries[{e.index}]._DELETIONS_VECTORS_RANGES[{item.at}]"
                msg = f"{item.data_file} has a second deletion vector (also in {other}); Java keeps one per data file"
                state.findings.append(_f("DV_DUPLICATE", "must", owner, at, msg))
            bucket[item.data_file] = (done.rel, item.at, item.positions)
        else:
            hashes, key = item.hashes, (e.partition, e.bucket)
            if key in state.hashes:
                msg = f"a second HASH file for bucket {e.bucket} (also {state.hashes[key][0]})"
                state.findings.append(_f("HASH_INDEX_DUPLICATE", "must", owner, f"entries[{e.index}]", msg))
                hashes = np.sort(np.concatenate([state.hashes[key][1], hashes]))
            state.hashes[key] = (done.rel, hashes)
    if done.error is not None:
        raise done.error


def _read_dv(rel: str, data: bytes, e: IndexManifestEntry, owner: str, out: list, bitmap64: bool) -> None:
    out.extend(on_file(rel, dv.validate(data)))
    kinds: set[str] = set()
    ranges = e.dv_ranges or ()
    if e.row_count != len(ranges):
        msg = f"_ROW_COUNT is {e.row_count}, the entry lists {len(ranges)} deletion vector(s)"
        out.append(_f("INDEX_MANIFEST_ROW_COUNT", "should", owner, f"entries[{e.index}]._ROW_COUNT", msg))
    for i, r in enumerate(ranges):
        at = f"entries[{e.index}]._DELETIONS_VECTORS_RANGES[{i}]"
        try:
            bitmap = dv.read_vector(data, r.offset, r.length)
        except LayoutError as err:
            msg = f"{r.data_file}: offset {r.offset}, length {r.length}: {err.detail}"
            out.append(_f(err.code, "must", owner, at, msg, None))
            continue
        kinds.add("bitmap64" if isinstance(bitmap, BitMap64) else "bitmap32")
        budget.reserve(8 * len(bitmap), f"the {len(bitmap)} positions of the deletion vector of {r.data_file}")
        positions = np.asarray(bitmap.to_array() if hasattr(bitmap, "to_array") else list(bitmap), dtype=np.int64)
        if r.cardinality is not None and r.cardinality != len(positions):
            msg = f"_CARDINALITY is {r.cardinality}, the vector holds {len(positions)} position(s)"
            out.append(_f("DV_CARDINALITY", "must", owner, f"{at}._CARDINALITY", msg))
        out.append(_Vector(r.data_file, i, positions))
    out.extend(_vector_kinds(kinds, bitmap64, rel))


def _vector_kinds(kinds: set[str], bitmap64: bool, rel: str) -> list[Finding]:
    """The vector kinds of one DV file against `deletion-vectors.bitmap64` and the releases that read them.

    Readers since 1.2.0 take each vector's kind from its magic, whatever the option (DeletionVector.read);
    0.9-1.1 know 32-bit vectors only. The option promises Iceberg-compatible (64-bit) vectors, which
    IcebergCommitCallback does not check (apache/paimon#5670).
    """
    out = []
    if "bitmap64" in kinds:
        other = None if bitmap64 else "should"
        msg = "64-bit (Iceberg-compatible) deletion vectors: Java before 1.2.0 reads only 32-bit ones ('Invalid magic"
        msg += " number')" + ("" if bitmap64 else "; Java writes them only with deletion-vectors.bitmap64 = true")
        out.append(
            Finding("DV_BITMAP_KIND", "must", "", None, msg, rel, java_releases=between(None, "1.1"), otherwise=other)
        )
    if bitmap64 and "bitmap32" in kinds:
        msg = (
            "32-bit deletion vectors in a table with deletion-vectors.bitmap64 = true: Java reads them, but the "
            "table is no longer Iceberg-compatible (Iceberg readers take only 64-bit deletion-vector-v1 blobs, and "
            "Paimon's Iceberg commit does not check, apache/paimon#5670)"
        )
        out.append(Finding("DV_NOT_ICEBERG_COMPATIBLE", "should", "", None, msg, rel))
    return out


def _read_hash(rel: str, data: bytes, e: IndexManifestEntry, owner: str, out: list) -> None:
    found = hash_index.validate(data)
    out.extend(on_file(rel, found))
    if any(f.severity == "must" for f in found):
        return
    hashes = hash_index.load(data)
    if e.row_count != len(hashes):
        msg = f"_ROW_COUNT is {e.row_count}, the HASH file holds {len(hashes)} hash(es)"
        out.append(_f("INDEX_MANIFEST_ROW_COUNT", "must", owner, f"entries[{e.index}]._ROW_COUNT", msg))
    out.append(_Hashes(np.sort(np.asarray(hashes, dtype=np.int32))))


def on_file(rel: str, findings: list[Finding]) -> list[Finding]:
    """The findings, each attributed to the index file `rel`."""
    for f in findings:
        f.file = rel
    return findings


def replaced_data_file(root: Path, folder: str, name: str, live_names: set[str]) -> bool:
    """Whether a deletion vector's data file, not live in its bucket, is one a compaction replaced: live in no
    bucket, and still in this bucket's folder (Java 1.2.0-1.4.2 keep such a file's vector; no reader applies it).
    Any other vector for a file that is not live is misaddressed: the file it was meant for goes without it."""
    return name not in live_names and plain_name(name) and is_file(root, f"{folder}/{name}")
