#!/usr/bin/env python3
"""Regenerate the file-index payload goldens with the Java releases that write each kind.

    python tools/golden_java_payloads.py [--out DIR]

Each layout's valid cases (tools/golden/<layout>.py payload_cases) are written by the first release that
writes the layout and by 2.0.0 (RELEASES), with tools/java/testee/PayloadGoldenWriter.java compiled against
that release; the same program answers each payload's probes with the release's reader: the predicates
of the query suite's cases of that golden (query:<layout>/java-<release>/<stem>/NN), so its recorded answers
are the ones the release's testee gives live. Output: <out>/<layout>/java-<release>/<stem>.bin and a
sidecar holding the case, the release's provenance and its answers. A case a release does not write
(its writer raises, or a bitmap V2 before 1.1) is reported, never stored.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import java_releases
import paimon_java
from golden.common import ROOT, write_pair
from golden.evidence import release_provenance

from golden import bitmap_index, bloom_filter, bsi, file_index, range_bitmap
from paimon_conform.testee import queries

# layout -> (its case module, the releases that write its goldens: the first that writes it, 2.0.0)
RELEASES = {
    "bloom_filter": (bloom_filter, ("0.9.0", "2.0.0")),
    "bitmap_index": (bitmap_index, ("0.9.0", "1.1.1", "2.0.0")),
    "bsi": (bsi, ("1.0.1", "2.0.0")),
    "range_bitmap": (range_bitmap, ("1.3.1", "2.0.0")),
    "file_index": (file_index, ("1.3.1", "2.0.0")),  # containers of every payload kind: 1.3 has them all
}
BITMAP_V2_FROM = "1.1.1"  # the first release here whose BitmapFileIndex has VERSION_2


def provenance(version: str, kind: str) -> dict:
    """Which release's jar wrote a payload, and how."""
    how = (
        f"tools/java/testee/PayloadGoldenWriter.java: FileIndexer.create({kind!r}, type, options)"
        ".createWriter().writeRecord() per row, serializedBytes()"
    )
    return release_provenance(version, how)


def writes(version: str, case: dict) -> bool:
    """Whether `version` is asked to write `case`: bitmap V2 only from 1.1."""
    if case["kind"] == "bitmap" and case["version"] == 2:
        return tuple(map(int, version.split("."))) >= tuple(map(int, BITMAP_V2_FROM.split(".")))
    return True


def request(name: str, case: dict, options: dict) -> dict:
    """What PayloadGoldenWriter writes for a case: a lone payload, or a container of its columns, with the
    predicates of the query suite's cases of the golden `name`."""
    out = {"name": name.rsplit("/", 1)[1], "kind": case["kind"], "probes": queries.predicates(name, case)}
    if case["kind"] == "file-index":
        columns = [
            {"name": c["name"], "type": c["type"], "row_values": c["values"], "indexes": c["indexes"]}
            for c in case["columns"]
        ]
        return out | {"columns": columns}
    return out | {"type": case["type"], "options": options, "row_values": case.get("row_values", case.get("values"))}


def run_release(version: str, requests: list[dict], work: Path) -> list[dict]:
    """PayloadGoldenWriter of one release over the requests: its report, one entry per request."""
    (work / "cases.json").write_text(json.dumps(requests))
    cp = java_releases.testee_classpath(version)
    command = paimon_java.java_command(cp, "PayloadGoldenWriter", str(work / "cases.json"), str(work))
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"PayloadGoldenWriter {version} failed:\n{done.stdout}{done.stderr}")
    return json.loads((work / "report.json").read_text())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "golden", help="golden root to write into")
    args = parser.parse_args()
    for layout, (module, versions) in RELEASES.items():
        payloads = module.payload_cases()
        for version in versions:
            chosen = [(stem, case, options, note) for stem, case, options, note in payloads if writes(version, case)]
            requests = [request(f"{layout}/java-{version}/{stem}", case, options) for stem, case, options, _ in chosen]
            target = args.out / layout / f"java-{version}"
            if target.exists():
                shutil.rmtree(target)
            with tempfile.TemporaryDirectory() as tmp:
                report = run_release(version, requests, Path(tmp))
                for (stem, case, _options, note), entry in zip(chosen, report, strict=True):
                    if "error" in entry:
                        print(f"golden_java_payloads: Java {version} does not write {layout}/{stem}: {entry['error']}")
                        continue
                    reader = {
                        "method": "the testee's query: FileIndexer.create(kind, type).createReader over the"
                        " payload, FileIndexPredicate's visitor",
                        "probes": entry["probes"],
                    }
                    data = (Path(tmp) / f"{stem}.bin").read_bytes()
                    if hasattr(module, "complete"):  # a case whose structure comes from the bytes (bloom bits)
                        case = module.complete(case, data)
                    side = case | {"provenance": provenance(version, case["kind"]), "java_reader": reader}
                    write_pair(target, stem, data, side | {"notes": note})
    print(f"golden_java_payloads: wrote the payload goldens of {', '.join(RELEASES)} under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
