"""Java Paimon 0.9.0 itself: goldens regenerate identically, and Java reads our bytes."""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
from support import background
from support.environment import ROOT
from support.jobs import java_tables_job

from paimon_conform.layouts.deletion_vectors import entry as dv
from paimon_conform.layouts.hash_index import entry as hash_index
from paimon_conform.layouts.roaring32 import codec as roaring

EVIDENCE = ("java",)


def test_java_goldens_regenerate_byte_identical(paimon_java, tmp_path):
    """Both Java generators (index files; key rows and bucket assignment) write exactly the committed goldens."""
    for tool in ("golden_java.py", "golden_java_buckets.py"):
        cmd = [sys.executable, str(ROOT / "tools" / tool), "--out", str(tmp_path)]
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(
        p.relative_to(ROOT / "golden")
        for p in (ROOT / "golden").glob("*/java-0.9.0/*")
        # not theirs: tables (golden_java_tables.py) and lone payloads (golden_java_payloads.py)
        if p.parts[-3] not in ("tables", "bitmap_index", "bloom_filter")
    )
    assert fresh == committed
    for rel in fresh:
        assert (tmp_path / rel).read_bytes() == (ROOT / "golden" / rel).read_bytes(), rel


def _parquet_digest(path: Path) -> str:
    """SHA-256 of a Parquet file's pages and of its footer with each column chunk's encoding list sorted.

    parquet-java keeps those encodings in a HashSet of enum constants, whose order follows identity hash
    codes and so changes from one JVM run to the next; every other byte is deterministic."""
    import pyarrow.parquet as pq

    data = path.read_bytes()
    (len_footer,) = struct.unpack_from("<i", data, len(data) - 8)
    meta = pq.ParquetFile(path).metadata.to_dict()
    for group in meta["row_groups"]:
        for column in group["columns"]:
            column["encodings"] = sorted(column["encodings"])
    pages = data[: len(data) - 8 - len_footer]
    return hashlib.sha256(pages + json.dumps(meta, sort_keys=True, default=str).encode()).hexdigest()


def _vectors_digest(data: bytes) -> str | None:
    """SHA-256 of a deletion-vector index file's version byte and its framed vectors in sorted order; None when the
    bytes are not that layout. Java writes the vectors in the order of a map keyed by data file names, which are
    random UUIDs: with two or more vectors in a file (1.2.0-1.4.2 keep a replaced file's) the order changes."""
    frames, at = [], 1
    while at + 4 <= len(data):
        end = at + 4 + int.from_bytes(data[at : at + 4], "big") + 4
        if end > len(data):
            return None
        frames.append(data[at:end])
        at = end
    if at != len(data) or not frames or data[:1] != b"\x01":
        return None
    return hashlib.sha256(data[:1] + b"".join(sorted(frames))).hexdigest()


def _content_digests(table: Path) -> list[str]:
    """SHA-256 of every data, changelog, file-index and index file: what does not embed random names."""
    files = [*table.rglob("bucket-*/*"), *(table / "index").glob("*")]
    out = []
    for f in files:
        if f.suffix == ".avro":
            continue
        if f.suffix == ".parquet":
            out.append(_parquet_digest(f))
        else:
            data = f.read_bytes()
            out.append(_vectors_digest(data) or hashlib.sha256(data).hexdigest())
    return sorted(out)


def test_java_tables_regenerate_the_same(paimon_java, tmp_path_factory):
    """Every release writes its committed table goldens again: identical sidecars, identical file contents
    (written beside the first tests: support/jobs.py).

    File names carry random UUIDs and manifests embed them, so only content that does not
    name other files is compared byte for byte.
    """
    tmp_path, done = background.result("java-tables", lambda: java_tables_job(tmp_path_factory))
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    committed = ROOT / "golden" / "tables"
    sidecars = sorted(p.relative_to(committed) for p in committed.glob("java-*/*.json"))
    assert sorted(p.relative_to(tmp_path / "tables") for p in (tmp_path / "tables").glob("java-*/*.json")) == sidecars
    for rel in sidecars:
        assert (tmp_path / "tables" / rel).read_bytes() == (committed / rel).read_bytes(), rel
        fresh, old = tmp_path / "tables" / rel.with_suffix(""), committed / rel.with_suffix("")
        assert _content_digests(fresh) == _content_digests(old), rel


def test_java_reads_what_the_encoder_writes(paimon_java, tmp_path):
    """Random files from the reference encoder, read by Paimon's own readers."""
    rng = np.random.default_rng(2026)
    request = {"deletion_vectors": [], "roaring32": [], "hash_index": []}
    expected = []
    for i in range(25):
        vectors = {}
        for j in range(int(rng.integers(1, 6))):
            span = int(rng.choice([100, 70_000, 1 << 20, 2**31]))
            n = int(rng.integers(0, 3000))
            values = np.unique(rng.integers(0, span, n))
            if j % 2:
                values = np.unique(np.concatenate([values, np.arange(int(rng.integers(0, 1000)), 5000 + n)]))
            vectors[f"data-{i}-{j}.parquet"] = values
        for n, written in enumerate(dv.write_files(vectors, target_size=int(rng.choice([1024, 2 << 20])))):
            path = tmp_path / f"dv-{i}-{n}"
            path.write_bytes(written.data)
            entry = {"file": str(path), "vectors": []}
            for name, (offset, length, card) in written.ranges.items():
                assert card == len(vectors[name])  # the encoder's count of the distinct positions given
                entry["vectors"].append(
                    {
                        "offset": offset,
                        "length": length,
                        "ranges": roaring.to_ranges(roaring.as_sorted_unique(vectors[name], 2**31)),
                    }
                )
                expected.append(len(vectors[name]))  # np.unique: the distinct positions
            request["deletion_vectors"].append(entry)
        bitmap = np.unique(rng.integers(0, int(rng.choice([1 << 16, 1 << 20, 2**32])), int(rng.integers(0, 9000))))
        path = tmp_path / f"bitmap-{i}"
        path.write_bytes(roaring.encode_roaring32(bitmap))
        request["roaring32"].append({"file": str(path), "values": bitmap.tolist()})
        hashes = rng.integers(-(2**31), 2**31, int(rng.integers(0, 500)))
        path = tmp_path / f"hash-{i}"
        path.write_bytes(hash_index.encode_hashes(hashes))
        request["hash_index"].append({"file": str(path), "hashes": hashes.tolist()})
    (tmp_path / "request.json").write_text(json.dumps(request))
    paimon_java.run_java("GoldenReader", str(tmp_path / "request.json"), str(tmp_path / "report.json"))
    report = json.loads((tmp_path / "report.json").read_text())
    seen = [v for f in report["deletion_vectors"] for v in f["vectors"]]
    assert all("error" not in v for v in seen), [v for v in seen if "error" in v][:3]
    assert [v["cardinality"] for v in seen] == expected
    assert all(v["all_expected_positions_deleted"] for v in seen)
    for want, got in zip(request["roaring32"], report["roaring32"], strict=True):
        assert got.get("values") == want["values"]
    for want, got in zip(request["hash_index"], report["hash_index"], strict=True):
        assert got.get("hashes") == want["hashes"]


# What Java Paimon 0.9.0's DeletionVectorsIndexFile.readDeletionVector(DeletionFile) does with each
# must-reject file, reading the first vector at offset 1 with the length its length word gives
# (bad-crc: the second vector, where the fault is). Java refuses framing faults and checks the CRC;
# it accepts malformed bitmaps (RoaringBitmap does not validate).
JAVA_0_9_REFUSES = {
    "bad-crc": "Checksum not match",
    "descending-64-keys": "Invalid magic number",
    "duplicate-64-keys": "Invalid magic number",
    "magic32-little-endian": "Invalid magic number",
    "magic64-big-endian": "Invalid magic number",
    "position-beyond-64-bit-range": "Invalid magic number",
    "size-past-end-of-file": "EOFException",
    "too-many-64-buckets": "Invalid magic number",
    "truncated-blob": "EOFException",
    "version-2": "Version not match",
    "wrong-magic": "Invalid magic number",
}
# The files it accepts: what Java 0.9.0 answers (its getCardinality(), and the positions of PROBE its isDeleted
# says are deleted), as Java printed them on 2026-11-28. Where the two answers contradict each other, Java
# misreads the vector: a reader that trusts its cardinality skips other rows than one that asks isDeleted.
PROBE = [[0, 200_000], [2**31 - 70_000, 2**31 - 1]]
JAVA_0_9_ACCEPTS = {
    "array-not-ascending": (3, [[1, 1]]),  # binary search in a descending array finds one of three
    "cardinality-contradicts-bitmap": (5000, [[0, 4998]]),  # the header's count, 4999 set
    "cardinality-contradicts-runs": (10, [[0, 9]]),
    "empty-bitmap-container": (5000, []),
    "empty-run-container": (0, []),
    "lying-offset-header": (4, [[0, 0], [65537, 65537], [131074, 131074], [196611, 196611]]),
    "overlapping-runs": (14, [[0, 8]]),  # the overlap counted twice
    "position-beyond-32-bit-range": (1, []),  # no row number below 2^31 deleted
    "trailing-bytes-after-vectors": (2, [[2, 3]]),
    "trailing-bytes-in-blob": (2, [[2, 3]]),
}
JAVA_0_9_MISREADS = {
    "array-not-ascending",
    "cardinality-contradicts-bitmap",
    "empty-bitmap-container",
    "overlapping-runs",
    "position-beyond-32-bit-range",
}


def test_what_java_0_9_does_with_the_must_reject_files(paimon_java, tmp_path):
    folder = ROOT / "golden" / "deletion_vectors" / "must-reject"
    files = [p for p in sorted(folder.glob("*.bin")) if p.stat().st_size >= 5]
    assert {p.stem for p in files} == set(JAVA_0_9_REFUSES) | set(JAVA_0_9_ACCEPTS)
    request = {"deletion_vectors": []}
    for p in files:
        data = p.read_bytes()
        offset = 33 if p.stem == "bad-crc" else 1
        length = struct.unpack_from(">I", data, offset)[0]
        vector = {"offset": offset, "length": length, "ranges": [], "probe": PROBE}
        request["deletion_vectors"].append({"file": str(p), "vectors": [vector]})
    (tmp_path / "request.json").write_text(json.dumps(request))
    paimon_java.run_java("GoldenReader", str(tmp_path / "request.json"), str(tmp_path / "report.json"))
    report = json.loads((tmp_path / "report.json").read_text())
    misread = set()
    for p, seen in zip(files, report["deletion_vectors"], strict=True):
        outcome = seen["vectors"][0]
        if p.stem in JAVA_0_9_REFUSES:
            assert JAVA_0_9_REFUSES[p.stem] in outcome.get("error", ""), (p.stem, outcome)
            continue
        assert "error" not in outcome, (p.stem, outcome)
        assert (outcome["cardinality"], outcome["deleted_in_probe"]) == JAVA_0_9_ACCEPTS[p.stem], p.stem
        if outcome["cardinality"] != sum(last - first + 1 for first, last in outcome["deleted_in_probe"]):
            misread.add(p.stem)
    assert misread == JAVA_0_9_MISREADS


def test_java_reads_manifest_lengths_by_the_32_bit_convention(paimon_java, tmp_path):
    """Java checks the manifest length against the length word (the 32-bit convention)."""
    dv32 = ROOT / "golden" / "deletion_vectors" / "java-2.0.0" / "dvindex-32.bin"
    request = {
        "deletion_vectors": [
            {
                "file": str(dv32),
                "vectors": [
                    {"offset": 1, "length": 24, "ranges": [[2, 3]]},
                    {"offset": 1, "length": 32, "ranges": [[2, 3]]},  # the 64-bit convention on a 32-bit vector
                ],
            }
        ]
    }
    (tmp_path / "request.json").write_text(json.dumps(request))
    paimon_java.run_java("GoldenReader", str(tmp_path / "request.json"), str(tmp_path / "report.json"))
    good, bad = json.loads((tmp_path / "report.json").read_text())["deletion_vectors"][0]["vectors"]
    assert good["cardinality"] == 2
    assert good["all_expected_positions_deleted"]
    assert "error" in bad
