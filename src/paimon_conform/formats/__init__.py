"""Data file formats read as Paimon's Java readers read them: Parquet and ORC columns as Paimon types and
internal values, exact timestamps (INT96, ORC), and the isolated ORC reader."""

from __future__ import annotations

from pathlib import Path


def file_format(path: str | Path) -> str | None:
    """'parquet', 'orc' or 'avro' as the file's first bytes (its magic) name it, else None; OSError as open's."""
    with open(path, "rb") as f:
        head = f.read(4)
    if head == b"PAR1":
        return "parquet"
    if head[:3] == b"ORC":
        return "orc"
    if head == b"Obj\x01":  # an Avro object container (avro.container.AVRO_MAGIC)
        return "avro"
    return None
