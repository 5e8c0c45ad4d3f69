"""The Avro metadata records Java writes: `avro_record` builds a metadata record's Avro schema from
the spec's `metadata_records` (Java's field order, names and nullability, per release);
`avro_bytes` / `write_avro` write records with Java's codec (zstandard).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from paimon_conform.table import table_layout as tl

AVRO_NAMESPACE = "org.apache.paimon.avro.generated.record"


def _avro_type(t: Any, name: str, nullable: bool, release: str) -> Any:
    if isinstance(t, dict):
        items = _avro_type(t["array"], f"{name}", bool(t.get("nullable_items")), release)
        out: Any = {"type": "array", "items": items}
    elif t == "timestamp_millis":
        out = {"type": "long", "logicalType": "timestamp-millis"}
    elif t in ("int", "long", "string", "bytes"):
        out = t
    else:
        out = avro_record(t, name, release)
    return ["null", out] if nullable else out


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("-")[0].split("."))


def avro_record(kind: str, name: str = AVRO_NAMESPACE, release: str = "0.9.0") -> dict:
    """The Avro schema Java `release` writes for a metadata record (the fields it knows)."""
    fields = []
    for f in tl.spec()["metadata_records"][kind]["fields"]:
        if "since" in f and _version(f["since"]) > _version(release):
            continue
        entry: dict[str, Any] = {
            "name": f["name"],
            "type": _avro_type(f["type"], f"{name}_{f['name']}", False, release),
        }
        if f.get("nullable"):
            entry = {"default": None, "name": f["name"], "type": ["null", entry["type"]]}
        fields.append(entry)
    return {"type": "record", "name": name, "fields": fields}


def avro_bytes(kind: str, records: list[dict], release: str = "0.9.0") -> bytes:
    """Records of a metadata kind as the Avro file Java `release` writes (zstandard codec)."""
    import fastavro

    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(avro_record(kind, release=release)), records, codec="zstandard")
    return buf.getvalue()


def write_avro(path: Path, kind: str, records: list[dict], release: str = "0.9.0") -> int:
    """Write records of a metadata kind as Java `release` does; return the file size."""
    data = avro_bytes(kind, records, release)
    path.write_bytes(data)
    return len(data)
