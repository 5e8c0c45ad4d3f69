"""Java Paimon 0.9.0 itself: goldens regenerate identically, and Java reads our bytes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from conftest import ROOT

from paimon_conform import roaring
from paimon_conform.layouts import deletion_vectors as dv
from paimon_conform.layouts import hash_index


def test_java_goldens_regenerate_byte_identical(paimon_java, tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "golden_java.py"), "--out", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(ROOT / "golden") for p in (ROOT / "golden").glob("*/java-0.9.0/*"))
    assert fresh == committed
    for rel in fresh:
        assert (tmp_path / rel).read_bytes() == (ROOT / "golden" / rel).read_bytes(), rel


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
                entry["vectors"].append(
                    {
                        "offset": offset,
                        "length": length,
                        "ranges": roaring.to_ranges(roaring.as_sorted_unique(vectors[name], 2**31)),
                    }
                )
                expected.append(card)
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


def test_java_refuses_the_must_reject_files_it_checks(paimon_java, tmp_path):
    """Java 0.9.0's reader refuses framing faults it checks (magic, length convention)."""
    golden = ROOT / "golden" / "deletion_vectors" / "must-reject"
    request = {
        "deletion_vectors": [
            {"file": str(golden / "wrong-magic.bin"), "vectors": [{"offset": 1, "length": 22, "ranges": []}]},
            {"file": str(golden / "magic64-big-endian.bin"), "vectors": [{"offset": 1, "length": 30, "ranges": []}]},
            {
                "file": str(ROOT / "golden" / "deletion_vectors" / "java-notes" / "dvindex-32.bin"),
                "vectors": [{"offset": 1, "length": 32, "ranges": []}],
            },  # the 64-bit convention on a 32-bit vector
        ]
    }
    (tmp_path / "request.json").write_text(json.dumps(request))
    paimon_java.run_java("GoldenReader", str(tmp_path / "request.json"), str(tmp_path / "report.json"))
    report = json.loads((tmp_path / "report.json").read_text())
    assert all("error" in f["vectors"][0] for f in report["deletion_vectors"]), report
    assert Path(golden).is_dir()
