"""Hypothesis strategies: position sets with the edges that break ports, and internal column values."""

from __future__ import annotations

import bisect

import numpy as np
from hypothesis import strategies as st

MAX32 = 2**32 - 1
MAX_DV32 = 2**31 - 1

# Values that sit on container and format boundaries.
EDGE_LOWS = [0, 1, 2, 4095, 4096, 4097, 65534, 65535]
EDGE_KEYS = [0, 1, 2, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF]


@st.composite
def container_values(draw, key: int) -> list[int]:
    """Values of one container, shaped to hit array / bitmap / run decisions."""
    shape = draw(st.sampled_from(["sparse", "dense", "runs", "edges", "full", "threshold"]))
    base = key << 16
    if shape == "sparse":
        lows = draw(st.sets(st.integers(0, 65535), max_size=300))
    elif shape == "dense":
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        count = draw(st.sampled_from([4000, 4096, 4097, 6000, 9000, 30000]))
        lows = set(rng.choice(65536, size=count, replace=False).tolist())
    elif shape == "runs":
        lows = set()
        for _ in range(draw(st.integers(1, 40))):
            start = draw(st.integers(0, 65535))
            lows.update(range(start, min(65536, start + draw(st.integers(1, 3000)))))
    elif shape == "edges":
        lows = set(draw(st.lists(st.sampled_from(EDGE_LOWS), min_size=1)))
    elif shape == "full":
        return list(range(base, base + 65536))
    else:  # around the 4096 array limit and the 2 + 4*runs tie
        step = draw(st.sampled_from([1, 2, 3]))
        count = draw(st.sampled_from([4095, 4096, 4097, 3, 4, 5]))
        return list(range(base, base + count * step, step)) if count * step <= 65536 else []
    return (np.sort(np.fromiter(lows, np.int64, len(lows))) + base).tolist()


@st.composite
def positions32(draw, max_value: int = MAX32, max_containers: int = 4) -> list[int]:
    """A sorted set of 32-bit positions spread over a few containers."""
    top = max_value >> 16
    keys = draw(
        st.sets(
            st.one_of(st.sampled_from([k for k in EDGE_KEYS if k <= top]), st.integers(0, top)), max_size=max_containers
        )
    )
    out: list[int] = []
    for key in sorted(keys):
        values = draw(container_values(key))  # ascending
        out.extend(values[: bisect.bisect_right(values, max_value)])
    return out


@st.composite
def positions64(draw, max_high: int = 6) -> list[int]:
    """A sorted set of 64-bit positions over a few high keys (some above 2^32)."""
    highs = draw(st.sets(st.integers(0, max_high), max_size=2))
    out: list[int] = []
    for h in sorted(highs):
        out.extend((np.asarray(draw(positions32(max_containers=2)), np.uint64) | np.uint64(h << 32)).tolist())
    return out


# internal values per column type (what types.to_internal produces)
INTERNAL_VALUES = {
    "BOOLEAN": st.booleans(),
    "TINYINT": st.integers(-128, 127),
    "SMALLINT": st.integers(-(2**15), 2**15 - 1),
    "INT": st.integers(-(2**31), 2**31 - 1),
    "BIGINT": st.integers(-(2**63), 2**63 - 1),
    "FLOAT": st.floats(width=32, allow_nan=False),
    "DOUBLE": st.floats(allow_nan=False),
    "DATE": st.integers(-(2**31), 2**31 - 1),
    "TIME": st.integers(0, 86_399_999),
    "STRING": st.text(max_size=20),
    "CHAR(10)": st.text(max_size=10),
    "VARBINARY(30)": st.binary(max_size=30),
    "DECIMAL(18, 4)": st.integers(-(10**18) + 1, 10**18 - 1).map(lambda u: (u, 18, 4)),
    "DECIMAL(38, 10)": st.integers(-(10**38) + 1, 10**38 - 1).map(lambda u: (u, 38, 10)),
    "TIMESTAMP(3)": st.integers(-(2**50), 2**50).map(lambda ms: (ms, 0)),
    "TIMESTAMP(9)": st.tuples(st.integers(-(2**50), 2**50), st.integers(0, 999_999)),
    "TIMESTAMP_LTZ(6)": st.tuples(st.integers(-(2**50), 2**50), st.integers(0, 999).map(lambda u: u * 1000)),
}


# The Paimon types of the type x role matrices (test_type_matrix_java, test_type_matrix_peers): every
# primitive type the layouts accept, compact and wide DECIMAL, every timestamp precision class.
MATRIX_TYPES = (
    "BOOLEAN",
    "TINYINT",
    "SMALLINT",
    "INT",
    "BIGINT",
    "FLOAT",
    "DOUBLE",
    "DECIMAL(5, 2)",
    "DECIMAL(18, 4)",
    "DECIMAL(38, 10)",
    "DATE",
    "TIME(0)",
    "TIMESTAMP(0)",
    "TIMESTAMP(3)",
    "TIMESTAMP(6)",
    "TIMESTAMP(9)",
    "TIMESTAMP(3) WITH LOCAL TIME ZONE",
    "TIMESTAMP(6) WITH LOCAL TIME ZONE",
    "TIMESTAMP(9) WITH LOCAL TIME ZONE",
    "CHAR(5)",
    "VARCHAR(20)",
    "STRING",
    "BINARY(4)",
    "VARBINARY(10)",
    "BYTES",
)


def hx(text: str) -> bytes:
    """Bytes from hex written with spaces and line breaks, as the Java notes show them."""
    return bytes.fromhex("".join(text.split()))


def damaged(data: bytes, draw) -> bytes:
    """`data` with one drawn change: a byte flipped, the tail cut, or 1-3 bytes inserted (`draw`: st.data())."""
    out = bytearray(data)
    how = draw.draw(st.sampled_from(["flip", "cut", "grow"]))
    if how == "flip" and out:
        at = draw.draw(st.integers(0, len(out) - 1))
        out[at] ^= draw.draw(st.integers(1, 255))
    elif how == "cut":
        del out[draw.draw(st.integers(0, len(out))) :]
    else:
        out[draw.draw(st.integers(0, len(out))) : 0] = draw.draw(st.binary(min_size=1, max_size=3))
    return bytes(out)
