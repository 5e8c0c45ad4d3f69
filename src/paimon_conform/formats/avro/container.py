"""Avro object container files read within the memory budget (the Avro 1.11 specification,
"Object Container Files"): the header (magic, metadata map, sync marker) and then each block
(record count, byte size, records, sync marker) by hand, every count and size checked against
the bytes that remain and the budget before anything is built; fastavro decodes the records.
fastavro's own reader trusts a block's claimed record count, so a 100-byte file claiming 2^31
records exhausts memory; this reader is what the table's metadata files go through.
"""

from __future__ import annotations

import io
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from paimon_conform.core import budget, codecs, json_text, varint
from paimon_conform.core.errors import PaimonConformError

# An Avro object container file (Avro 1.11 spec, "Object Container Files"), read block by block: the header
# (magic, metadata map, sync marker), then blocks of (record count, byte size, records, sync marker).
AVRO_MAGIC = b"Obj\x01"
AVRO_SYNC_SIZE = 16
MAX_VARINT = 10  # Avro's long: BinaryDecoder.readLong takes at most 10 bytes
MAX_AVRO_META_ENTRIES = 1024  # Java writes two (avro.schema, avro.codec)
STRING_RATIO = 4  # Python bytes per UTF-8 byte of a string, at most (one 4-byte character makes every one 4 wide)
PRIMITIVES = {  # Avro primitive: (fewest bytes it is written in, Python bytes fastavro builds for it, at most)
    "null": (0, 0),
    "boolean": (1, 0),
    "int": (1, 32),
    "long": (1, 32),
    "float": (4, 24),
    "double": (8, 24),
    "bytes": (1, 64),
    "string": (1, 64),
}
RECORD_COST, FIELD_COST, LIST_COST, MAP_COST, MAP_ENTRY_COST = 240, 112, 64, 240, 176


class AvroContainerError(PaimonConformError):
    """An Avro container file that cannot be read: the field path in it and why."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


def _unreadable(path: str, message: str) -> AvroContainerError:
    return AvroContainerError(path, message)


class Cursor:
    """Avro's zigzag varints and length-prefixed bytes, read from a binary stream of `size` bytes (a file, or
    BytesIO) and never past its end."""

    def __init__(self, stream: BinaryIO, size: int) -> None:
        self.stream, self.size, self.pos = stream, size, stream.tell()

    def remaining(self) -> int:
        return self.size - self.pos

    def seek(self, pos: int) -> None:
        """Go back (or on) to byte `pos` of the stream."""
        self.stream.seek(pos)
        self.pos = pos

    def long(self, where: str) -> int:
        """One zigzag varint (at most 10 bytes)."""
        start = self.pos
        ahead = self.stream.read(min(MAX_VARINT, self.remaining()))
        try:
            raw, used = varint.read(ahead, 0, max_bytes=MAX_VARINT)
        except varint.VarintError as exc:
            if exc.kind == "ends":
                raise _unreadable(where, f"the file ends inside a number at byte {start + exc.at}") from None
            raise _unreadable(where, f"a number longer than 10 bytes at byte {start}") from None
        self.seek(start + used)
        return varint.unzigzag(raw)

    def take(self, n: int, where: str) -> bytes:
        """The next `n` bytes, when that many remain."""
        if not 0 <= n <= self.remaining():
            raise _unreadable(where, f"claims {n} bytes at byte {self.pos}, {self.remaining()} remain")
        out = self.stream.read(n)
        if len(out) != n:  # the file shrank while it was read
            raise _unreadable(where, f"the file ends at byte {self.pos + len(out)}, {n} bytes were to follow")
        self.pos += n
        return out

    def skip(self, n: int, where: str) -> None:
        """Move past the next `n` bytes, when that many remain, without reading them."""
        if not 0 <= n <= self.remaining():
            raise _unreadable(where, f"claims {n} bytes at byte {self.pos}, {self.remaining()} remain")
        self.seek(self.pos + n)


def _avro_header(cur: Cursor) -> tuple[dict[str, bytes], bytes]:
    """The metadata map and sync marker of an Avro file's header."""
    cur.take(len(AVRO_MAGIC), "header.magic")
    meta: dict[str, bytes] = {}
    while count := cur.long("header.meta"):
        if count < 0:  # a negative count is followed by the block's byte size
            count = -count
            cur.long("header.meta")
        if len(meta) + count > MAX_AVRO_META_ENTRIES or count > cur.remaining() // 2:
            raise _unreadable("header.meta", f"claims {count} metadata entries in {cur.remaining()} bytes")
        for _ in range(count):
            key = cur.take(cur.long("header.meta"), "header.meta").decode("utf-8", "replace")
            meta[key] = cur.take(cur.long(f"header.meta.{key}"), f"header.meta.{key}")
    return meta, cur.take(AVRO_SYNC_SIZE, "header.sync")


class _Shape:
    """What an Avro writer schema allows: each value's fewest encoded bytes and the most Python bytes it builds.

    `ratio` bounds the Python bytes per encoded byte of everything a record repeats (array items, map
    entries, string contents), so a block of `n` bytes holding `count` records decodes to at most
    `count * cost(record) + n * ratio` bytes. Recursive schemas, and arrays of values written in zero
    bytes (whose item count no byte bounds), are refused: Java's metadata schemas have neither.
    """

    def __init__(self) -> None:
        self.named: dict[str, tuple[int, int]] = {}
        self.active: set[str] = set()
        self.ratio = float(STRING_RATIO)

    def of(self, s: Any, ns: str = "") -> tuple[int, int]:
        """(fewest encoded bytes, most Python bytes) of a value of schema `s` in namespace `ns`."""
        if isinstance(s, str):
            if s in PRIMITIVES:
                return PRIMITIVES[s]
            name = s if "." in s or not ns else f"{ns}.{s}"
            if name in self.active or s in self.active:
                raise _unreadable("schema", f"the writer schema is recursive ({s}); Java's metadata schemas are not")
            found = self.named.get(name) or self.named.get(s)
            if found is None:
                raise _unreadable("schema", f"the writer schema names an undefined type {s!r}")
            return found
        if isinstance(s, list):
            if not s:
                raise _unreadable("schema", "the writer schema holds an empty union")
            branches = [self.of(b, ns) for b in s]
            return 1 + min(m for m, _ in branches), max(c for _, c in branches)
        if not isinstance(s, dict):
            raise _unreadable("schema", f"the writer schema holds {s!r} where a type belongs")
        kind = s.get("type")
        if kind in ("record", "error", "enum", "fixed"):
            return self._named(s, kind, ns)
        if kind == "array":
            least, cost = self.of(s.get("items"), ns)
            if least == 0:
                raise _unreadable("schema", "an array of values written in zero bytes: no byte bounds its length")
            self.ratio = max(self.ratio, (cost + 8) / least)
            return 1, LIST_COST
        if kind == "map":
            least, cost = self.of(s.get("values"), ns)
            self.ratio = max(self.ratio, (cost + MAP_ENTRY_COST) / (1 + least))
            return 1, MAP_COST
        least, cost = self.of(kind, ns)
        return least, max(cost, 128) if "logicalType" in s else cost  # decimals, datetimes, uuids

    def _named(self, s: dict, kind: str, ns: str) -> tuple[int, int]:
        raw = str(s.get("name", ""))
        space = str(s.get("namespace") or ns) if "." not in raw else raw.rsplit(".", 1)[0]
        name = raw if "." in raw or not space else f"{space}.{raw}"
        if kind == "enum":
            shape = (1, 64)
        elif kind == "fixed":
            size = s.get("size")
            if not isinstance(size, int) or size < 0:
                raise _unreadable("schema", f"fixed type {raw!r} has size {size!r}")
            shape = (size, 40 + size)
        else:
            self.active |= {name, raw}
            fields = s.get("fields")
            if not isinstance(fields, list):
                raise _unreadable("schema", f"record {raw!r} has no field list")
            parts = [self.of(f.get("type") if isinstance(f, dict) else None, space) for f in fields]
            self.active -= {name, raw}
            shape = (sum(m for m, _ in parts), RECORD_COST + sum(FIELD_COST + c for _, c in parts))
        self.named[name] = self.named[raw] = shape
        return shape


AVRO_CODECS = {  # Avro's codec names -> core.codecs (the codecs Java's Avro writes)
    "deflate": codecs.DEFLATE,
    "snappy": codecs.SNAPPY,
    "zstandard": codecs.ZSTD,
    "bzip2": codecs.BZIP2,
    "xz": codecs.XZ,
}


def _decompress(codec: str, raw: bytes, room: int, where: str) -> bytes:
    """A block's bytes, decompressed to at most `room` bytes (core.codecs); a snappy block is followed by the
    CRC32 of its uncompressed bytes."""
    if codec == "null":
        return raw
    if codec not in AVRO_CODECS:
        raise _unreadable("header.meta.avro.codec", f"unknown codec {codec!r}")
    body = raw
    if codec == "snappy":
        if len(raw) < 5:
            raise _unreadable(where, "a snappy block shorter than its CRC")
        body = raw[:-4]
    try:
        out = codecs.decompress(AVRO_CODECS[codec], body, room)
    except codecs.CodecError as exc:
        if exc.needed is not None:
            raise budget.BudgetExceeded(f"{where}: the decompressed block", exc.needed, room) from None
        raise _unreadable(where, str(exc)) from None
    if codec == "snappy" and zlib.crc32(out) != int.from_bytes(raw[-4:], "big"):
        raise _unreadable(where, "the snappy block's CRC32 does not match its bytes")
    return out


def _footprint(value: Any) -> int:
    """Bytes of the Python objects a decoded record holds (shared small objects counted as if not)."""
    size = sys.getsizeof(value)
    if isinstance(value, dict):
        return size + sum(_footprint(v) for v in value.values())  # keys: the schema's field names, shared
    if isinstance(value, list):
        return size + sum(_footprint(v) for v in value)
    return size


def _flat_footprint(record: dict) -> int:
    """_footprint of a record whose every field holds a scalar (no list, map or record)."""
    return sys.getsizeof(record) + sum(map(sys.getsizeof, record.values()))


def _is_scalar(t: Any) -> bool:
    """Whether values of Avro type `t` decode to scalars (a union of them included), not lists or dicts."""
    if isinstance(t, list):
        return all(map(_is_scalar, t))
    if isinstance(t, dict):
        return t.get("type") in ("enum", "fixed", *PRIMITIVES)
    return t in PRIMITIVES


def _is_flat(doc: Any) -> bool:
    """Whether the writer schema is a record (or Java's ["null", record]) of scalar fields alone."""
    if isinstance(doc, list):
        records = [d for d in doc if d != "null"]
        return len(records) == 1 and _is_flat(records[0])
    fields = doc.get("fields") if isinstance(doc, dict) and doc.get("type") == "record" else None
    return isinstance(fields, list) and all(isinstance(f, dict) and _is_scalar(f.get("type")) for f in fields)


@dataclass
class Header:
    """What an Avro container file's header says: its writer schema (as fastavro.reader gives it, and parsed
    for decoding), codec and sync marker, and the fewest encoded bytes and most Python bytes of a record."""

    schema: Any
    decoder: Any
    codec: str
    sync: bytes
    least: int
    cost: int
    ratio: float
    flat: bool  # every record a dict of scalars (_is_flat)


def read_header(cur: Cursor) -> Header:
    """The header of the container file at the cursor, which it leaves at the first block."""
    import fastavro
    from fastavro.schema import parse_schema

    meta, sync = _avro_header(cur)
    if "avro.schema" not in meta:
        raise _unreadable("header.meta", "no avro.schema")
    try:
        doc = json_text.loads_json(meta["avro.schema"], "the Avro writer schema")
    except json_text.JsonLimitError as exc:
        raise _unreadable("header.meta.avro.schema", str(exc)) from None
    except ValueError as exc:
        raise _unreadable("header.meta.avro.schema", f"not JSON: {exc}") from None
    codec = meta.get("avro.codec", b"null").decode("utf-8", "replace") or "null"
    schema = parse_schema(doc, {}, _write_hint=False, _force=True)  # what fastavro.reader gives as writer_schema
    shape = _Shape()
    least, cost = shape.of(doc)
    if least == 0:
        raise _unreadable(
            "schema", "a record of the writer schema can be written in zero bytes: no byte bounds a count"
        )
    return Header(schema, fastavro.parse_schema(doc), codec, sync, least, cost, shape.ratio, _is_flat(doc))


def _block_frame(cur: Cursor, block: int) -> tuple[int, int]:
    """(record count, byte size) of the block at the cursor, both checked not negative."""
    where = f"blocks[{block}]"
    count = cur.long(f"{where}.count")
    size = cur.long(f"{where}.size")
    if count < 0 or size < 0:
        raise _unreadable(where, f"a negative record count ({count}) or byte size ({size})")
    return count, size


def _sync(cur: Cursor, head: Header, block: int) -> None:
    if cur.take(AVRO_SYNC_SIZE, f"blocks[{block}].sync") != head.sync:
        raise _unreadable(f"blocks[{block}].sync", "the sync marker after the block is not the header's")


def block_counts(cur: Cursor, head: Header) -> list[int]:
    """The record count each block from the cursor on claims, read from the blocks' frames alone (their
    records skipped, each sync marker checked); the cursor ends at the end of the file. A count is a claim:
    blocks() checks it against the block's bytes when it decodes them."""
    counts: list[int] = []
    while cur.remaining():
        count, size = _block_frame(cur, len(counts))
        cur.skip(size, f"blocks[{len(counts)}].size")
        _sync(cur, head, len(counts))
        counts.append(count)
    return counts


def blocks(cur: Cursor, head: Header, meter: budget.Meter) -> Iterator[list[dict]]:
    """The records of each block from the cursor on, decoded one block at a time within the budget.

    Each block's record count and byte size are checked against the bytes that remain, its decompressed
    size against what `meter` leaves of the budget, its record count against what its bytes can hold, and
    the records' worst-case size against the budget, all before decoding; the records must use the block
    exactly, and the sync marker must follow. The decoded records are charged to `meter` (the caller
    releases what it no longer holds).
    """
    import fastavro

    block = 0
    while cur.remaining():
        where = f"blocks[{block}]"
        count, size = _block_frame(cur, block)
        raw = cur.take(size, f"{where}.size")
        _sync(cur, head, block)
        body = _decompress(head.codec, raw, meter.room(), where)
        del raw
        if count > len(body) // head.least:
            msg = f"claims {count} records in {len(body)} bytes; each record takes at least {head.least} byte(s)"
            raise _unreadable(f"{where}.count", msg)
        budget.reserve(meter.used + count * (head.cost + 8) + int(len(body) * head.ratio), meter.what)
        stream = io.BytesIO(body)
        got = [fastavro.schemaless_reader(stream, head.decoder, None) for _ in range(count)]
        if stream.tell() != len(body):
            raise _unreadable(where, f"{len(body) - stream.tell()} byte(s) of the block follow its {count} records")
        meter.charge(sum(map(_flat_footprint if head.flat else _footprint, got)) + 8 * count)
        yield got
        block += 1


def read(data: bytes) -> tuple[Any, list[dict]]:
    """(writer schema, records) of an Avro object container file held in memory, read block by block within
    the budget (blocks())."""
    cur = Cursor(io.BytesIO(data), len(data))
    head = read_header(cur)
    meter = budget.Meter("the records of this metadata file")
    meter.charge(len(data))  # the file's own bytes stay in memory while it is read
    records: list[dict] = []
    for got in blocks(cur, head, meter):
        records += got
    return head.schema, records
