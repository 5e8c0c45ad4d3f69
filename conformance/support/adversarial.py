"""Damaged copies of a table for the adversarial suite (test_adversarial.py).

`cases(root, seed)` lists one-change mutations of a table's metadata and files: JSON fields of
snapshots and schemas set to wrong types, huge numbers, deep nesting or removed; Avro manifests,
manifest lists and index manifests truncated, bit-flipped or claiming 2^31 records in a block;
index and data files truncated and flipped; hints, names and sizes at their limits. Each
mutation is a function of the copied table's root. `run_worker` applies the kit to each case in
a child process under a memory limit and reports, per case, how it ended.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from support.avro_bytes import read_long, zigzag

Mutation = Callable[[Path], None]

WRONG_VALUES: list[object] = [None, [], {}, "x", -1, 2**63, -(2**63) - 1, 1.5, True, "../../outside"]
DEEP = "[" * 100_000 + "]" * 100_000


def _first_block(data: bytes) -> int:
    """Offset of the first Avro block (after the header's sync marker, which also ends the file)."""
    return data.index(data[-16:]) + 16


def _json_field(rel: str, key: str, value: object) -> Mutation:
    def mutate(root: Path) -> None:
        path = root / rel
        doc = json.loads(path.read_text())
        if value is _DELETE:
            doc.pop(key, None)
        else:
            doc[key] = value
        path.write_text(json.dumps(doc))

    return mutate


_DELETE = object()
HUGE_STRING = 4 << 20  # characters of a string put in every string-valued field: 32 bytes of budget per byte once
HUGEST_STRING = 15 << 20  # one field gets this much (a snapshot's commitUser): the case the memory ceiling bounds
RAW_NUMBERS = ["1e999", "-1e999", "9" * 5000, str(2**64), "-0", "1e-400", "0.5"]  # as JSON text, not Python values
_PLACEHOLDER = "\u0000raw\u0000"


def _json_raw(rel: str, key: str, raw: str) -> Mutation:
    """The field `key` of a JSON file set to `raw` JSON text (numbers json.dumps would not write)."""

    def mutate(root: Path) -> None:
        path = root / rel
        doc = json.loads(path.read_text())
        doc[key] = _PLACEHOLDER
        path.write_text(json.dumps(doc).replace(json.dumps(_PLACEHOLDER), raw))

    return mutate


def json_files(root: Path) -> list[str]:
    """The table's JSON metadata of every kind: snapshots (the earliest and the latest), schemas, tags,
    consumers, long-lived changelogs, statistics."""
    snapshots = sorted(_files(root, "snapshot", "snapshot-"), key=lambda r: int(r.rsplit("-", 1)[1]))
    out = sorted({snapshots[0], snapshots[-1]})
    for folder, prefix in (
        ("schema", "schema-"),
        ("tag", "tag-"),
        ("consumer", "consumer-"),
        ("changelog", ""),
        ("statistics", ""),
    ):
        if (root / folder).is_dir():
            out += _files(root, folder, prefix)
    return out


def json_cases(root: Path) -> Iterator[tuple[str, Mutation]]:
    """Every top-level field of every JSON metadata file set to a huge string, huge and odd numbers, and deep
    nesting."""
    for rel in json_files(root):
        doc = json.loads((root / rel).read_text())
        for key in sorted(doc):
            yield f"{rel}.{key} = a {HUGE_STRING >> 20} MiB string", _json_field(rel, key, "s" * HUGE_STRING)
            yield f"{rel}.{key} nested 100,000 deep", _json_raw(rel, key, DEEP)
            for raw in RAW_NUMBERS:
                yield f"{rel}.{key} = {raw[:12]}", _json_raw(rel, key, raw)
    latest = json_files(root)[1]
    yield f"{latest}.commitUser = a 15 MiB string", _json_field(latest, "commitUser", "u" * HUGEST_STRING)


def enrich(root: Path) -> None:
    """Add the JSON metadata kinds a fresh table lacks, as Java writes them: a tag of the latest snapshot
    (a snapshot's JSON) and a consumer that has read up to it."""
    latest = max(_files(root, "snapshot", "snapshot-"), key=lambda r: int(r.rsplit("-", 1)[1]))
    doc = json.loads((root / latest).read_text())
    (root / "tag").mkdir(exist_ok=True)
    (root / "tag" / "tag-t1").write_text(json.dumps(doc, indent=2))
    (root / "consumer").mkdir(exist_ok=True)
    (root / "consumer" / "consumer-c1").write_text(json.dumps({"nextSnapshot": doc["id"]}))


def _bytes(rel: str, change: Callable[[bytes], bytes]) -> Mutation:
    def mutate(root: Path) -> None:
        path = root / rel
        path.write_bytes(change(path.read_bytes()))

    return mutate


def _flip(at: int, bit: int) -> Callable[[bytes], bytes]:
    def change(data: bytes) -> bytes:
        if not data:
            return data
        out = bytearray(data)
        out[at % len(out)] ^= 1 << bit
        return bytes(out)

    return change


def _block_count(count: int) -> Callable[[bytes], bytes]:
    """The first block claims `count` records (its bytes unchanged)."""

    def change(data: bytes) -> bytes:
        start = _first_block(data)
        if start >= len(data):  # no block yet: add one with two bytes
            return data + zigzag(count) + zigzag(2) + b"\x02\x02" + data[-16:]
        _, end = read_long(data, start)
        return data[:start] + zigzag(count) + data[end:]

    return change


def _block_size(size: int) -> Callable[[bytes], bytes]:
    """The first block claims `size` bytes."""

    def change(data: bytes) -> bytes:
        start = _first_block(data)
        if start >= len(data):
            return data + zigzag(1) + zigzag(size) + b"\x02\x02" + data[-16:]
        _, mid = read_long(data, start)
        _, end = read_long(data, mid)
        return data[:mid] + zigzag(size) + data[end:]

    return change


def _schema_field(rel: str, change: Callable[[dict], None]) -> Mutation:
    def mutate(root: Path) -> None:
        path = root / rel
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))

    return mutate


def _rename_long(rel: str, length: int) -> Mutation:
    def mutate(root: Path) -> None:
        path = root / rel
        path.rename(path.with_name(path.name + "x" * (length - len(path.name))))

    return mutate


def _files(root: Path, folder: str, prefix: str) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in (root / folder).glob(f"{prefix}*") if p.is_file())


def cases(root: Path, seed: int) -> Iterator[tuple[str, Mutation]]:
    """(name, mutation) pairs over every metadata and file kind of the table at `root`."""
    rng = random.Random(seed)
    snapshots = _files(root, "snapshot", "snapshot-")
    latest = max(snapshots, key=lambda r: int(r.rsplit("-", 1)[1]))
    schema = _files(root, "schema", "schema-")[-1]
    doc = json.loads((root / latest).read_text())
    for key in sorted(doc):
        for value in [*WRONG_VALUES, _DELETE]:
            shown = "deleted" if value is _DELETE else repr(value)[:20]
            yield f"{latest}.{key} = {shown}", _json_field(latest, key, value)
    yield f"{latest}.baseManifestList 300 characters", _json_field(latest, "baseManifestList", "m" * 300)
    yield f"{latest}.deltaManifestList 1e6 characters", _json_field(latest, "deltaManifestList", "m" * 1_000_000)
    for rel in (latest, schema):
        yield f"{rel} deep JSON", _bytes(rel, lambda _: DEEP.encode())
        yield f"{rel} not UTF-8", _bytes(rel, lambda d: b"\xff\xfe" + d)
        yield f"{rel} empty", _bytes(rel, lambda _: b"")
        yield f"{rel} 20 MB", _bytes(rel, lambda d: d + b" " * (20 << 20))
        for cut in (1, 7, 0.5):
            yield f"{rel} cut at {cut}", _bytes(rel, lambda d, c=cut: d[: int(len(d) * c) if c < 1 else c])
    sdoc = json.loads((root / schema).read_text())
    for key in sorted(sdoc):
        for value in [*WRONG_VALUES, _DELETE]:
            shown = "deleted" if value is _DELETE else repr(value)[:20]
            yield f"{schema}.{key} = {shown}", _json_field(schema, key, value)
    column_changes: dict[str, Callable[[dict], None]] = {
        "partition key names no column": lambda d: d.update(partitionKeys=["nope"]),
        "primary key names no column": lambda d: d.update(primaryKeys=["nope"]),
        "options a list": lambda d: d.update(options=["bucket", "2"]),
        "option value a dict": lambda d: d["options"].update(bucket={"x": 1}),
        "bucket option huge": lambda d: d["options"].update(bucket=str(2**40)),
        "bucket option negative": lambda d: d["options"].update(bucket="-7"),
        "field type garbage": lambda d: d["fields"][0].update(type="NOT A TYPE(((("),
        "field type a list": lambda d: d["fields"][0].update(type=[1, 2]),
        "field name missing": lambda d: d["fields"][0].pop("name"),
        "field id duplicated": lambda d: d["fields"][1].update(id=d["fields"][0]["id"]),
        "fields a dict": lambda d: d.update(fields={"a": 1}),
        "field an int": lambda d: d["fields"].__setitem__(0, 7),
        "decimal precision huge": lambda d: d["fields"][-1].update(type="DECIMAL(100000, 2)"),
        "char length huge": lambda d: d["fields"][-1].update(type="CHAR(2147483647)"),
    }
    for name, change in column_changes.items():
        yield f"{schema} {name}", _schema_field(schema, change)
    for hint in ("LATEST", "EARLIEST"):
        rel = f"snapshot/{hint}"
        for text in (b"abc", b"99999999999999999999999", b"-1", b"\xff", b"7" * 10_000):
            yield f"{rel} = {text[:12]!r}", _bytes(rel, lambda _, t=text: t)
    avro = _files(root, "manifest", "")
    for rel in avro:
        yield f"{rel} block claims 2^31 records", _bytes(rel, _block_count(2**31))
        yield f"{rel} block claims 2^62 records", _bytes(rel, _block_count(2**62))
        yield f"{rel} block claims -5 records", _bytes(rel, _block_count(-5))
        yield f"{rel} block claims 2^40 bytes", _bytes(rel, _block_size(2**40))
        yield f"{rel} block claims -1 bytes", _bytes(rel, _block_size(-1))
    for rel in [*avro, *_files(root, "index", ""), *_data_files(root)]:
        size = (root / rel).stat().st_size
        for cut in sorted({0, 3, size // 2, max(size - 17, 0), max(size - 1, 0)}):
            yield f"{rel} cut to {cut} bytes", _bytes(rel, lambda d, c=cut: d[:c])
        for _ in range(4):
            at, bit = rng.randrange(max(size, 1)), rng.randrange(8)
            yield f"{rel} bit {bit} of byte {at} flipped", _bytes(rel, _flip(at, bit))
    yield "a data file name of 300 characters", _rename_long(_data_files(root)[0], 250)
    yield "a manifest renamed 250 characters", _rename_long(avro[0], 250)
    yield from json_cases(root)


def _data_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.glob("*/bucket-*/*") if p.is_file())


WORKER = r"""
import json, resource, sys
limit, max_memory = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from paimon_conform.core import budget
from paimon_conform.core.errors import InternalError, PaimonConformError
from paimon_conform.spark.source import PaimonDataSource
from paimon_conform.table.read import reader
from paimon_conform.table.validate.table import validate_table


def rss(field):
    return next(int(l.split()[1]) << 10 for l in open("/proc/self/status") if l.startswith(field))


def rows_of(table):
    return sorted((repr(r) for r in table.to_pylist()))


def source_rows(case):
    # the Spark source's driver and task code, as Spark calls it: schema, planning, each partition's batches
    import pyarrow as pa
    from paimon_conform.spark.source import _as_spark_columns, spark_arrow_schema
    ds = PaimonDataSource({"path": case})
    schema = ds.schema()
    rd = ds.reader(schema)
    batches = [b for p in rd.partitions() for b in rd.read(p)]
    target = spark_arrow_schema(schema)
    return target, pa.Table.from_batches(batches, target) if batches else target.empty_table()


def verdict(run):
    try:
        return "rows", run()
    except InternalError as exc:
        return f"internal: {str(exc)[:300]}", None
    except PaimonConformError:
        return "refused", None
    except BaseException as exc:
        return f"raised {type(exc).__name__}: {str(exc)[:300]}", None


for line in sys.stdin:
    case = line.rstrip("\n")
    outcome = {"case": case}
    open("/proc/self/clear_refs", "w").write("5")  # the peak resident size starts again at this case
    base = rss("VmRSS")
    with budget.limited(max_memory):
        try:
            results = validate_table(case)
            internal = [r.unusable for r in results if r.unusable and "internal error" in r.unusable]
            outcome["validate"] = "internal: " + internal[0] if internal else "ok"
        except BaseException as exc:
            outcome["validate"] = f"raised {type(exc).__name__}: {str(exc)[:300]}"
        outcome["read"], got = verdict(lambda: reader.read_latest(case)[1])
        outcome["source"], served = verdict(lambda: source_rows(case))
    if got is not None and served is not None:
        from paimon_conform.spark.source import _as_spark_columns
        target, table = served
        mine = _as_spark_columns(got.select(target.names), target).cast(target)
        outcome["same_rows"] = rows_of(mine) == rows_of(table)
        outcome["rows"] = got.num_rows
    outcome["peak"] = rss("VmHWM") - base
    print(json.dumps(outcome), flush=True)
"""


def worker_command(limit: int, max_memory: int) -> list[str]:
    """The child process that validates each case directory named on its standard input, reads it with the
    reader and with the Spark source's code (schema, planning, every partition), each under the budget
    `max_memory`, and reports how each ended, their rows, and the case's peak resident memory."""
    return [sys.executable, "-c", WORKER, str(limit), str(max_memory)]


def env() -> dict[str, str]:
    """The child's environment (one thread per pool: the memory limit counts virtual memory)."""
    return {**os.environ, "OMP_NUM_THREADS": "1", "ARROW_DEFAULT_MEMORY_POOL": "system"}


SEED = 20261124
MEMORY_LIMIT = 3 << 30  # virtual memory of the child: far below what an unchecked count would take
BUDGET = 256 << 20  # the kit's memory budget in the child (--max-memory)
CEILING = BUDGET + (64 << 20)  # what one case may add to the child's resident memory at its peak
TIMEOUT = 1500  # seconds for all cases together: a safety net against a hang, not a speed target


@dataclass
class Run:
    """Every case run: case directory -> its name, the undamaged table, each case's outcome, the worker's stderr."""

    seed: int
    pristine: Path
    dirs: dict[str, str]
    outcomes: list[dict]
    stderr: str


def run_all(base: Path) -> Run:
    """A DV primary-key table with file indexes, two partitions, two buckets and two snapshots (the pristine
    table), every case of it in a folder under `base`, all run by one worker process; the case folders are
    removed afterwards (the pristine table stays for the test's own read)."""
    from paimon_conform.table.write.reference_table import write_table

    pristine = base / "pristine" / "t"
    write_table(pristine, rows=40, buckets=2, release="1.0.0")
    enrich(pristine)
    work = base / "cases"
    dirs = {}
    for i, (name, mutate) in enumerate(cases(pristine, SEED)):
        root = work / f"case{i}"
        shutil.copytree(pristine, root, symlinks=True)
        mutate(root)
        dirs[str(root)] = name
    undamaged = work / "pristine"
    shutil.copytree(pristine, undamaged, symlinks=True)
    dirs[str(undamaged)] = "the undamaged table"
    proc = subprocess.run(
        worker_command(MEMORY_LIMIT, BUDGET),
        input="\n".join(dirs) + "\n",
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=env(),
    )
    outcomes = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    shutil.rmtree(work, ignore_errors=True)
    return Run(SEED, pristine, dirs, outcomes, proc.stderr)
