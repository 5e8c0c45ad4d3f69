"""What the Java-backed golden generators share: the producer folder, Java's value forms, provenance and the pair
writer."""

from __future__ import annotations

import math
from pathlib import Path

import paimon_java

from golden.evidence import java_written
from paimon_conform.core import cases
from paimon_conform.core.types import parse_type, to_internal

PRODUCER_DIR = f"java-{paimon_java.PAIMON_VERSION}"


def java_value(type_text: str, value):
    """A logical JSON value in the internal form the Java program reads."""
    t = parse_type(type_text)
    v = to_internal(t, value)
    if v is None or isinstance(v, bool | int | str):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else ("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))
    if isinstance(v, bytes):
        return v.hex()
    return list(v)  # timestamp (millis, nano of milli)


def provenance(how: str) -> dict:
    """Provenance of a file written by the Paimon 0.9.0 jar."""
    return {
        "producer": "java-paimon",
        "paimon_version": paimon_java.PAIMON_VERSION,
        "artifact": paimon_java.ARTIFACT,
        "artifact_sha256": paimon_java.JAR_SHA256,
        "how": how,
        "evidence": java_written(paimon_java.PAIMON_VERSION),
    }


def write_pair(folder: Path, stem: str, data: bytes, sidecar: dict) -> None:
    """Store `<stem>.bin` and its validated `<stem>.json`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.bin").write_bytes(data)
    (folder / f"{stem}.json").write_text(cases.dumps(cases.check(sidecar)))


def ranges_of(values: set[int] | list[int]) -> list[list[int]]:
    """Sorted unique values as inclusive runs."""
    out: list[list[int]] = []
    for v in sorted(set(values)):
        if out and v == out[-1][1] + 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out
