"""pypaimon 2.1.0 as a testee (`python tools/testees/pypaimon_testee.py`): its pure-Python path only
(`pypaimon_rust` cannot be imported here, so no read or write reaches its optional Rust backend).

- hash: the key as pypaimon hashes it for a fixed bucket: GenericRowSerializer.to_bytes of a GenericRow of the
  key fields (the BinaryRow, after the 4-byte length), RowKeyExtractor's hash of those bytes and bucket function
  (pypaimon/write/row_key_extractor.py; the default bucket function only);
- read-table: CatalogFactory (warehouse = the folder above <database>.db) -> new_read_builder -> to_arrow;
- write-table: create_table with Schema(fields, partition keys, primary keys, options), one batch write and
  commit per batch (write_arrow).
Rows travel through the kit's rows module (logical JSON <-> Arrow)."""

from __future__ import annotations

import sys
from importlib.metadata import version


class _NoRust:
    def find_spec(self, name, path=None, target=None):
        if name == "pypaimon_rust" or name.startswith("pypaimon_rust."):
            raise ImportError("pypaimon_rust is blocked: the testee runs pypaimon's Python path")


sys.meta_path.insert(0, _NoRust())

from typing import Any  # noqa: E402

import pyarrow as pa  # noqa: E402
from pypaimon import CatalogFactory, Schema  # noqa: E402
from pypaimon.schema.data_types import AtomicType, DataField, PyarrowFieldParser  # noqa: E402
from pypaimon.table.row.generic_row import GenericRow, GenericRowSerializer  # noqa: E402
from pypaimon.table.row.row_kind import RowKind  # noqa: E402
from pypaimon.write import row_key_extractor as rke  # noqa: E402

from paimon_conform.testee import tables  # noqa: E402
from paimon_conform.testee.kit import TABLE_CAPABILITIES, adapter, serve, table_handlers  # noqa: E402
from paimon_conform.testee.rows import from_arrow, to_arrow  # noqa: E402


def _fields(fields: list[dict[str, Any]]) -> list[DataField]:
    return [DataField(i, f["name"], AtomicType(f["type"], f.get("nullable", True))) for i, f in enumerate(fields)]


def _where(path: str) -> tuple[Any, str]:
    """(catalog, "db.table") of a table directory <warehouse>/<db>.db/<table>."""
    warehouse, db, name = tables.location(path)
    return CatalogFactory.create({"warehouse": warehouse}), f"{db}.{name}"


def hash_key(request: dict[str, Any]) -> dict[str, Any]:
    if request.get("bucket_function", "default") != "default":
        raise ValueError("pypaimon's fixed-bucket extractor has the default bucket function only")
    fields = [{"name": f"f{i}", "type": t} for i, t in enumerate(request["types"])]
    values = list(to_arrow(fields, [request["values"]]).to_pylist()[0].values())
    row = GenericRowSerializer.to_bytes(GenericRow(values, _fields(fields), RowKind.INSERT))[4:]
    unsigned = rke._hash_bytes_by_words(row)
    signed = unsigned - (1 << 32) if unsigned >= 1 << 31 else unsigned
    buckets = {str(n): rke._bucket_from_hash(unsigned, n) for n in request["buckets"]}
    return {"row": row.hex(), "hash": signed, "buckets": buckets}


def read_table(path: str, fields: list[dict[str, Any]]) -> list[list[Any]]:
    catalog, ident = _where(path)
    rb = catalog.get_table(ident).new_read_builder()
    return from_arrow(fields, rb.new_read().to_arrow(rb.new_scan().plan().splits()))


def write_table(path: str, table: dict[str, Any], commits: list[list[list[Any]]], existing: bool = False) -> None:
    catalog, ident = _where(path)
    if not existing:
        catalog.create_database(ident.split(".")[0], True)
        schema = Schema(_fields(table["fields"]), table["partition_keys"], table["primary_keys"], table["options"])
        catalog.create_table(ident, schema, False)
    t = catalog.get_table(ident)
    target = PyarrowFieldParser.from_paimon_schema(t.table_schema.fields)
    for rows in commits:
        data = to_arrow(table["fields"], rows)
        data = pa.Table.from_arrays([c.cast(target.field(i).type) for i, c in enumerate(data.columns)], schema=target)
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        c.commit(w.prepare_commit())
        w.close()
        c.close()


answer = adapter(
    "pypaimon",
    version("pypaimon"),
    {"hash": ["binary-row"], **TABLE_CAPABILITIES},
    {"hash": hash_key, **table_handlers(read_table, write_table)},
)

if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer, answer)
    assert "pypaimon_rust" not in sys.modules
