"""A `.blob` data file of a table (Paimon 1.4+): its layout, read piece by piece, and its manifest entry
(file size, row count, the one BLOB column it holds); and BLOB descriptors stored inline in data files."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa

from paimon_conform.core.errors import LayoutError
from paimon_conform.core.findings import Finding
from paimon_conform.core.findings import file_finding as _f
from paimon_conform.layouts.blob_descriptor import codec as descriptor
from paimon_conform.layouts.blob_descriptor import entry as blob_descriptor
from paimon_conform.layouts.blob_file import codec
from paimon_conform.layouts.blob_file import entry as blob_file
from paimon_conform.layouts.blob_file.elements import BLOB
from paimon_conform.table import features
from paimon_conform.table.metadata import ManifestEntry
from paimon_conform.table.paths import OutsideRoot, contained
from paimon_conform.table.read.data_files import DataFile, WindowCheck
from paimon_conform.table.schema import TableSchema
from paimon_conform.table.validate.file_meta import check_size_and_rows


def check_blob_file(
    root: Path, relative: str, entry: ManifestEntry | None, schema: TableSchema | None
) -> list[Finding]:
    """Findings of one `.blob` file: its bytes on the file, its entry's disagreements on the manifest."""
    try:
        path = contained(root, relative)
    except OutsideRoot as out:
        return [Finding("TABLE_PATH_ESCAPES_ROOT", "must", "", None, str(out), relative)]
    cols = entry.file.write_cols if entry is not None else None
    etype = None
    if schema is not None and cols is not None and len(cols) == 1:
        etype = features.blob_element_type(schema, cols[0])
    try:
        with path.open("rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            rows, errs = blob_file.faults(codec.Source(file=fh, size=size), etype or BLOB)
    except OSError as exc:
        return [Finding("DATA_FILE_UNREADABLE", "must", "", None, f"cannot read the blob file: {exc}", relative)]
    out = [blob_file.finding(e, relative) for e in errs] + blob_file.placeholder_findings(rows, relative)
    if entry is None:
        return out
    if etype is not None:
        out += blob_file.key_type_findings(etype, relative)
    out += check_size_and_rows(entry, size, None if rows is None else len(rows))
    owner, at = entry.manifest, f"entries[{entry.index}]._FILE"
    blobs = features.blob_columns(schema) if schema is not None else set()
    if schema is not None and (cols is None or len(cols) != 1 or cols[0] not in blobs):
        msg = (
            f"_WRITE_COLS is {list(cols) if cols is not None else None}: a .blob file holds exactly one BLOB column "
            f"(BlobFormatWriter), and schema {schema.id} has {sorted(blobs) or 'none'}; Java cannot tell which "
            "column the file's rows belong to"
        )
        out.append(_f("DATA_FILE_COLUMNS", "must", owner, f"{at}._WRITE_COLS", msg))
    return out


def check_inline_descriptors(df: DataFile, schema: TableSchema, file: str) -> list[Finding]:
    """Every value of the `blob-descriptor-field` columns decoded as a BlobDescriptor (layout blob_descriptor):
    Java's read of the column fails on the first one it cannot deserialize. One finding per column and fault."""
    check = InlineDescriptors(schema, file)
    check.add(df)
    return check.findings()


class InlineDescriptors(WindowCheck):
    """check_inline_descriptors over the windows of a file (rows numbered from each window's `start`)."""

    def __init__(self, schema: TableSchema, file: str) -> None:
        self.names, self.file = features.descriptor_columns(schema), file
        self.wrong: dict[str, Finding] = {}  # a column that is not binary
        self.faults: dict[str, dict[str, list]] = {}  # column -> code -> [first row, count, error]

    def add(self, df: DataFile) -> None:
        for name in self.names:
            if name not in df.table.column_names or name in self.wrong:
                continue
            column = df.table.column(name)
            if not (pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type)):
                msg = f"column {name} is {column.type}, not the binary column that holds serialized BlobDescriptors"
                self.wrong[name] = Finding("BLOB_DESCRIPTOR_COLUMN", "must", f"columns.{name}", None, msg, self.file)
                continue
            faults = self.faults.setdefault(name, {})
            for row, value in enumerate(column.to_pylist(), df.start):
                if value is None:
                    continue
                try:
                    descriptor.decode(value)
                except LayoutError as err:
                    faults.setdefault(err.code, [row, 0, err])[1] += 1

    def findings(self) -> list[Finding]:
        out: list[Finding] = []
        for name in self.names:
            if name in self.wrong:
                out.append(self.wrong[name])
                continue
            for first, count, err in self.faults.get(name, {}).values():
                f = blob_descriptor.finding(err, self.file)
                f.path, f.offset = f"columns.{name}[{first}]" + (f".{err.path}" if err.path else ""), None
                where = f", byte {err.offset} of the value" if err.offset is not None else ""
                f.message = f"{count} value(s) of {name}, the first at row {first}{where}: {f.message}"
                out.append(f)
        return out
