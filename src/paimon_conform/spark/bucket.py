"""Paimon's fixed bucket as a Spark SQL expression, for keys of INT and BIGINT columns without nulls.

The bucket of a row is Math.abs(hash % buckets) where hash is MurmurHash3 (seed 42, 4-byte
words) over the BinaryRow of the bucket-key values: the header words (row kind and null bits,
all zero here) and each value's 8-byte slot (an INT fills the low word). Spark computes it per
row in the JVM, with 32-bit arithmetic done in 64-bit columns (products split in 16-bit halves,
so nothing overflows under ANSI mode). Keys of other types, or nullable ones, take the Arrow
function that calls the kit's vectorized hash (`spark.bucket_batches`, through mapInArrow).
"""

from __future__ import annotations

from paimon_conform.core.hashing.murmur import mix_h1, mix_k1
from paimon_conform.core.types import DataType
from paimon_conform.layouts.binary_row.codec import bit_set_width

MASK = 0xFFFFFFFF
C1, C2 = 0xCC9E2D51, 0x1B873593
SEED = 42
SUPPORTED = ("INT", "BIGINT")


def supported(types: list[DataType], nullable: list[bool]) -> bool:
    """Whether the expression covers these bucket-key columns."""
    return bool(types) and all(t.root in SUPPORTED for t in types) and not any(nullable)


class _Steps:
    """Each intermediate value a column of its own: an expression that used a value twice would
    otherwise double at every step (Spark keeps non-trivial columns referenced twice uncollapsed)."""

    def __init__(self, df, prefix: str) -> None:
        self.df, self.prefix, self.n = df, prefix, 0

    def put(self, expr) -> str:
        import pyspark.sql.functions as F

        name = f"{self.prefix}{self.n}"
        self.n += 1
        self.df = self.df.withColumn(name, expr)
        return F.col(name)


def _mul(steps: _Steps, x, c: int):
    """(x * c) mod 2^32 for x in [0, 2^32) and a constant c < 2^32, without 64-bit overflow."""
    lo, hi = c & 0xFFFF, c >> 16
    return steps.put(((x * lo) + (((x * hi) % 65536) * 65536)) % (MASK + 1))


def _rotl(steps: _Steps, x, r: int):
    import pyspark.sql.functions as F

    return steps.put((F.shiftleft(x, r) % (MASK + 1)).bitwiseOR(F.shiftright(x, 32 - r)))


def _mix(steps: _Steps, h, word):
    k = _mul(steps, _rotl(steps, _mul(steps, word, C1), 15), C2)
    h = _rotl(steps, steps.put(h.bitwiseXOR(k)), 13)
    return steps.put((_mul(steps, h, 5) + 0xE6546B64) % (MASK + 1))


def _unsigned(steps: _Steps, x):
    import pyspark.sql.functions as F

    x = steps.put(x % (MASK + 1))
    return steps.put(F.when(x < 0, x + (MASK + 1)).otherwise(x))


def with_bucket(df, columns: list[str], types: list[DataType], buckets, name: str):
    """`df` with a column `name` holding each row's Paimon bucket (DefaultBucketFunction) for the key columns;
    `buckets` the table's bucket count, or a column holding each row's own."""
    import pyspark.sql.functions as F

    steps = _Steps(df, f"__paimon_h{abs(hash(name)) % 10_000}_")
    header = bit_set_width(len(columns)) // 4
    h_scalar = SEED
    for _ in range(header):
        h_scalar = mix_h1(h_scalar, mix_k1(0)) & MASK
    h = F.lit(h_scalar).cast("long")
    for col, t in zip(columns, types, strict=True):
        value = steps.put(F.col(f"`{col}`").cast("long"))
        low = _unsigned(steps, value)
        high = F.lit(0).cast("long") if t.root == "INT" else _unsigned(steps, F.shiftright(value, 32))
        h = _mix(steps, _mix(steps, h, low), high)
    words = header + 2 * len(columns)
    h = steps.put(h.bitwiseXOR(F.lit(4 * words)))
    h = steps.put(h.bitwiseXOR(F.shiftright(h, 16)))
    h = _mul(steps, h, 0x85EBCA6B)
    h = steps.put(h.bitwiseXOR(F.shiftright(h, 13)))
    h = _mul(steps, h, 0xC2B2AE35)
    h = steps.put(h.bitwiseXOR(F.shiftright(h, 16)))
    signed = steps.put(F.when(h >= 2**31, h - 2**32).otherwise(h))
    out = steps.df.withColumn(name, F.abs(signed % buckets).cast("int"))
    return out.drop(*[f"{steps.prefix}{i}" for i in range(steps.n)])
