"""What a golden's expected content rests on, recorded in its sidecar (`provenance.evidence`):

- java-written: Java Paimon wrote the bytes (its release named);
- java-read: a Java Paimon release here reads the file as the sidecar says (its testee decodes it to the sidecar's
  content, or refuses a must-reject file), checked by test_testee_reference against that testee's failure list;
- third-party: bytes copied from a document that says Java wrote them, which no Java here reads;
- kit: the reference encoder (or, for a must-reject file, the kit's rule) and nothing else.

A check whose only evidence is the kit detects change, not conformance."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import java_releases
import paimon_java

from paimon_conform.testee import failures

FAILURES = Path(__file__).resolve().parents[1] / "testees" / "failures"
# The layouts the Java testees decode (tools/java/testee/Testee.java LAYOUTS and since/), by
# golden folder, with the first release that has them (None: every release); test_java_release_jars holds each
# testee's hello to it.
JAVA_DECODED: dict[str, str | None] = {
    "deletion_vectors": None,
    "hash_index": None,
    "roaring32": None,
    "roaring64": "1.2",
    "blob_descriptor": "1.4",
    "blob_file": "1.4",
    "row_file": "2.0",
}
JAVA_TESTEES = (*java_releases.releases(), paimon_java.PAIMON_10_VERSION)


def decodes(version: str, layout: str) -> bool:
    """Whether the Java testee of `version` decodes `layout` (releases before its first one do not have it)."""
    since = JAVA_DECODED.get(layout, "")
    if since == "":
        return False
    line = tuple(int(p) for p in version.split("-")[0].split(".")[:2])
    return since is None or line >= tuple(int(p) for p in since.split("."))


@cache
def _listed(version: str) -> frozenset[str]:
    return frozenset(failures.load(FAILURES / f"java-{version}.txt"))


def java_written(version: str) -> dict:
    return {"kind": "java-written", "by": f"Java Paimon {version}"}


def release_provenance(version: str, how: str) -> dict:
    """The provenance of a golden a release of tools/java/releases.tsv wrote from Maven's jar, and how."""
    jar = java_releases.release(version).jar
    return {
        "producer": "java-paimon",
        "paimon_version": version,
        "artifact": f"{jar.coordinate} (Maven Central)",
        "artifact_sha256": jar.sha256,
        "how": how,
        "evidence": java_written(version),
    }


def evidence_of(folder: Path, stem: str, provenance: dict) -> dict:
    """The evidence of the golden `<folder>/<stem>` (folder: <layout>/<producer folder>)."""
    if provenance["producer"] == "java-paimon":
        return java_written(provenance["paimon_version"])
    layout, case = folder.parent.name, f"{folder.parent.name}/{folder.name}/{stem}"
    decoded = layout in JAVA_DECODED
    if decoded:
        readers = [v for v in JAVA_TESTEES if decodes(v, layout) and f"decode:{case}" not in _listed(v)]
        if readers:
            what = "refuses it" if provenance["producer"] == "mutation" else "decodes it as the sidecar says"
            return {"kind": "java-read", "by": f"Java Paimon {', '.join(readers)} (its testee {what})"}
    if provenance["producer"] == "java-verified-notes":
        return {"kind": "third-party", "by": provenance["source"]}
    if provenance["producer"] == "mutation":
        return {"kind": "kit", "by": "the kit's rule for this fault (no Java here refuses it)"}
    why = "every Java testee here lists this file as a failure" if decoded else "no Java here reads this layout"
    return {"kind": "kit", "by": f"the reference encoder ({why})"}


def with_evidence(folder: Path, stem: str, sidecar: dict) -> dict:
    """The sidecar with its provenance's evidence added (last)."""
    prov = sidecar["provenance"]
    return {**sidecar, "provenance": {**prov, "evidence": evidence_of(folder, stem, prov)}}
