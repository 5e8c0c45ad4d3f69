"""Cases generated from a fixed seed beside the golden files: keys to hash (every key type, nulls included) and
roaring32 bitmaps, hash-index files and deletion-vector files to decode and encode (array, bitmap, run and full
containers). The expected answers are the kit's: its hashing for keys; for files, the bytes its encoder writes
and the case its reader reads from them. The Java testees run them in CI, so each is checked against Java.
Ids (`decode:generated/roaring32-07`) and contents do not move while SEED and the counts stay."""

from __future__ import annotations

import random
import struct
from typing import Any

import numpy as np

from paimon_conform.core import cases
from paimon_conform.core.types import parse_type, to_json
from paimon_conform.layouts.binary_row import bucketing
from paimon_conform.layouts.registry import get
from paimon_conform.layouts.roaring32.codec import to_ranges
from paimon_conform.testee.suite import Case

SEED = 20261124
COUNTS = {"hash": 64, "roaring32": 24, "hash-index": 12, "deletion-vectors": 12}
BUCKETS = [1, 2, 3, 5, 8, 16, 100, 1024]  # bucket counts each key is placed for
KEY_TYPES = [
    "BOOLEAN",
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL(5, 2)",
    "DECIMAL(18, 4)",
    "DECIMAL(19, 0)",
    "DECIMAL(38, 10)",
    "STRING",
    "VARCHAR(20)",
    "CHAR(3)",
    "BINARY(4)",
    "VARBINARY(30)",
    "DATE",
    "TIME",
    "TIMESTAMP(0)",
    "TIMESTAMP(3)",
    "TIMESTAMP(6)",
    "TIMESTAMP(9)",
    "TIMESTAMP_LTZ(3)",
    "TIMESTAMP_LTZ(6)",
]
INT_BITS = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}
MAX_DAYS = 2_932_896  # 9999-12-31: the JSON form writes years 1..9999
MIN_DAYS = -719_162  # 0001-01-01
NOW_DAYS = 20_781  # 2026-11-24: dates and timestamps are half from 1970 to today, half from the whole range
TEXT = "aZ09 -_é中\U0001f600"  # one to four UTF-8 bytes per character


def cases_for(ops: tuple[str, ...], kinds: list[str] | None = None, seed: int = SEED) -> list[Case]:
    """The generated cases of the given operations (and kinds, when `kinds` names some)."""
    out: list[Case] = []
    if "hash" in ops and (not kinds or "binary-row" in kinds):
        rng = random.Random(f"{seed}:hash")
        out += [_hash_case(n, rng) for n in range(1, COUNTS["hash"] + 1)]
    for kind, make in (("roaring32", _roaring32), ("hash-index", _hash_index), ("deletion-vectors", _vectors)):
        if (kinds and kind not in kinds) or not {"decode", "encode"} & set(ops):
            continue
        rng = random.Random(f"{seed}:{kind}")
        for n in range(1, COUNTS[kind] + 1):
            out += _file_cases(f"generated/{kind}-{n:02d}", kind, make(rng), ops)
    return out


def _file_cases(name: str, kind: str, seed_case: dict[str, Any], ops: tuple[str, ...]) -> list[Case]:
    """Decode (the bytes the kit writes, to the case the kit reads back) and encode (that case, to those bytes)."""
    layout = get(kind)
    data = layout.encode(seed_case)
    case = layout.inspect(data, None)
    out = []
    if "decode" in ops:
        request = {"op": "decode", "kind": kind, "data": data.hex()}
        out.append(Case(f"decode:{name}", "decode", kind, request, "content", cases.content(case)))
    if "encode" in ops:
        out.append(Case(f"encode:{name}", "encode", kind, {"op": "encode", "case": case}, "bytes", data.hex()))
    return out


# ------------------------------------------------------------------------------------------- keys


def _hash_case(n: int, rng: random.Random) -> Case:
    """A key of one to four fields, a tenth of its values null, hashed by the kit."""
    types = [rng.choice(KEY_TYPES) for _ in range(rng.randint(1, 4))]
    values = [None if rng.random() < 0.1 else key_value(t, rng) for t in types]
    row, h, buckets = bucketing.key_buckets([parse_type(t) for t in types], values, BUCKETS)
    request = {"op": "hash", "types": types, "values": values, "buckets": BUCKETS, "bucket_function": "default"}
    expected = {"row": row.hex(), "hash": h, "buckets": buckets}
    return Case(f"hash:generated/key-{n:02d}", "hash", "binary-row", request, "hash", expected)


def key_value(type_text: str, rng: random.Random) -> Any:
    """A value of the type in the logical JSON form, extremes and specials among them."""
    t = parse_type(type_text)
    root = t.root
    if root == "BOOLEAN":
        return rng.random() < 0.5
    if root in INT_BITS:
        bits = INT_BITS[root]
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return rng.choice([low, high, 0, -1, rng.randint(low, high), rng.randint(max(low, -1000), min(high, 1000))])
    if root in ("FLOAT", "DOUBLE"):
        special = rng.choice(["NaN", "Infinity", "-Infinity", -0.0, 0.0, None, None, None])
        if special is not None:
            return special
        v = rng.uniform(-1e6, 1e6) * 10 ** rng.randint(-20, 20)
        return struct.unpack("<f", struct.pack("<f", v))[0] if root == "FLOAT" else v  # FLOAT: a float32 exactly
    if root == "DECIMAL":
        bound = 10**t.precision - 1
        unscaled = rng.choice([bound, -bound, 0, -128, rng.randint(-bound, bound), rng.randint(-999, 999)])
        return to_json(t, (unscaled, t.precision, t.scale))
    if t.is_string:
        size = t.precision if root == "CHAR" else rng.randint(0, min(t.precision or 30, 30))
        return "".join(rng.choice(TEXT) for _ in range(size))
    if t.is_binary:
        size = t.precision if root == "BINARY" else rng.randint(0, min(t.precision or 30, 30))
        return rng.randbytes(size).hex()
    days = rng.randint(0, NOW_DAYS) if rng.random() < 0.5 else rng.randint(MIN_DAYS, MAX_DAYS)  # half of today's
    if root == "DATE":
        return to_json(t, rng.choice([0, -1, MIN_DAYS, MAX_DAYS, days]))
    if root == "TIME":
        return to_json(t, rng.randrange(86_400_000))
    millis = days * 86_400_000 + rng.randrange(86_400_000)  # TIMESTAMP, TIMESTAMP_LTZ
    return to_json(t, (millis, rng.randrange(1_000_000)))


# ------------------------------------------------------------------------------------------- files


def positions(rng: random.Random, chunks: int = 4, highs: int = 65536) -> np.ndarray:
    """Sorted distinct 32-bit values over up to `chunks` of the first `highs` 65536-value chunks, each an array,
    bitmap, run or full container's worth."""
    out: set[int] = set()
    for high in rng.sample(range(highs), rng.randint(0, chunks)):
        base = high << 16
        shape = rng.choice(["array", "bitmap", "runs", "full", "edge"])
        if shape == "array":
            out.update(base + v for v in rng.sample(range(65536), rng.randint(1, 4096)))
        elif shape == "bitmap":
            out.update(base + v for v in rng.sample(range(65536), rng.randint(4097, 20000)))
        elif shape == "runs":
            for _ in range(rng.randint(1, 40)):
                start = rng.randrange(65536)
                out.update(range(base + start, base + min(65536, start + rng.randint(1, 3000))))
        elif shape == "full":
            out.update(range(base, base + 65536))
        else:
            out.update(base + v for v in (0, 1, 65534, 65535))
    return np.array(sorted(out), dtype=np.uint64)


def _roaring32(rng: random.Random) -> dict[str, Any]:
    values = positions(rng)
    return {"case_format": 1, "kind": "roaring32", "cardinality": values.size, "ranges": to_ranges(values)}


def _hash_index(rng: random.Random) -> dict[str, Any]:
    pool = [0, -1, 1, -(1 << 31), (1 << 31) - 1]
    draw = lambda: rng.choice(pool) if rng.random() < 0.1 else rng.randint(-(1 << 31), (1 << 31) - 1)  # noqa: E731
    hashes = [draw() for _ in range(rng.randint(1, 300))]
    return {"case_format": 1, "kind": "hash-index", "count": len(hashes), "hashes": hashes}


def _vectors(rng: random.Random) -> dict[str, Any]:
    """One to four 32-bit vectors over the row positions of data files of up to 262144 rows."""
    vectors = []
    for i in range(rng.randint(1, 4)):
        values = positions(rng, 2, highs=4)
        if values.size == 0:
            values = np.array([rng.randrange(1000)], dtype=np.uint64)
        runs = to_ranges(values)
        vectors.append({"data_file": f"data-{i}", "bitmap": "bitmap32", "cardinality": values.size, "ranges": runs})
    return {"case_format": 1, "kind": "deletion-vectors", "version": 1, "vectors": vectors}
