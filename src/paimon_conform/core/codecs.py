"""Every decompression the kit does, each bounded: `decompress(codec, data, limit)` never builds more than
`limit` bytes of output (plus one, to see that there is more), whatever the input claims.

The caller gives the limit: the size the container declares for the output (a Parquet page, an ORC
compression block, an SST block's stated length) or what the memory budget leaves (an Avro block), after
checking it against the budget. Codecs: raw deflate (Avro deflate; ORC ZLIB, which need not end), gzip
members (Parquet GZIP), raw snappy (its stated length checked first), LZ4 blocks, zstd frames, bzip2 and
xz streams, brotli.
Paimon's SST block framing (a stated length, then zstd or LZ4 with Paimon's header) is the specs' process
routine in the generated runtime (`paimon_layouts.processors`), reached through `sst_block` and `zstd_exact`.

cramjam decodes snappy, LZ4, zstd and brotli into a buffer of the bounded size; the standard library's
incremental decoders (`max_length`) decode deflate, gzip, bzip2 and xz.
"""

from __future__ import annotations

import bz2
import lzma
import zlib
from collections.abc import Callable

import cramjam
from paimon_layouts import processors

from paimon_conform.core import varint

DEFLATE, DEFLATE_UNTERMINATED, GZIP, SNAPPY, LZ4_BLOCK, ZSTD, BZIP2, XZ, BROTLI = (
    "deflate",
    "deflate-unterminated",
    "gzip",
    "snappy",
    "lz4-block",
    "zstd",
    "bzip2",
    "xz",
    "brotli",
)
SNAPPY_LENGTH_BYTES = 5  # snappy states its uncompressed length as an unsigned 32-bit varint
# An xz stream states the dictionary its decoder allocates (up to 1.5 GiB); preset 9, the largest a writer
# uses, needs 65 MiB to decode (Java's Avro writes preset 6: 9 MiB). More is refused before it is allocated.
XZ_MEMLIMIT = 80 << 20


class CodecError(ValueError):
    """`data` does not decompress under `codec`, or would give more than the limit: then `needed` is the size it
    claims or the bytes it reached (limit + 1)."""

    def __init__(self, codec: str, message: str, needed: int | None = None) -> None:
        super().__init__(message)
        self.codec, self.needed = codec, needed


def decompress(codec: str, data: bytes, limit: int, *, exact: bool = False) -> bytes:
    """`data` decompressed by `codec`, at most `limit` bytes of it (exactly `limit` with `exact`); CodecError
    when the bytes are damaged, end early, or give more (or, with `exact`, fewer)."""
    if limit < 0:
        raise CodecError(codec, f"an output limit of {limit} bytes")
    decode = _DECODERS.get(codec)
    if decode is None:
        raise CodecError(codec, f"no decoder for {codec!r}")
    out = decode(data, limit)
    if len(out) > limit:
        raise CodecError(codec, f"{codec} gives more than {limit} bytes", len(out))
    if exact and len(out) != limit:
        raise CodecError(codec, f"{codec} gives {len(out)} bytes where {limit} are stated")
    return out


FIRST_BUFFER = 1 << 16  # the smallest output buffer a cramjam codec is first given
DIRECT = 4 << 20  # a limit up to this size (an ORC block, a page, an SST block) is the first buffer itself
GROWTH = 4


def _into(name: str) -> Callable[[bytes, int], bytes]:
    """cramjam's codec `name` into a buffer one byte past a cap (processors.at_most, shared with the specs'
    process routines): a fuller buffer means more output. The cap starts small and grows by GROWTH up to the
    limit, so that a limit that is a budget (not a declared size) never becomes an allocation."""

    def decode(data: bytes, limit: int) -> bytes:
        cap = limit if limit <= DIRECT else min(limit, max(GROWTH * len(data), FIRST_BUFFER))
        while True:
            try:
                out = processors.at_most(name, data, cap, "DECOMPRESS")
            except processors.ProcessError as exc:
                raise CodecError(name, str(exc)) from None
            if len(out) <= cap or cap >= limit:
                return out
            cap = min(limit, cap * GROWTH)

    return decode


_ZSTD_INTO = _into(ZSTD)


def _zstd(data: bytes, limit: int) -> bytes:
    """zstd frames, one after another; no frame at all is no output (as zstd's streaming readers give)."""
    return _ZSTD_INTO(data, limit) if data else b""


def _snappy(data: bytes, limit: int) -> bytes:
    """Raw snappy: the length it states comes first and is checked before anything is built."""
    try:
        stated, _ = varint.read(data, 0, max_bytes=SNAPPY_LENGTH_BYTES)
    except varint.VarintError:
        raise CodecError(SNAPPY, "snappy: no stated length") from None
    if stated > limit:
        raise CodecError(SNAPPY, f"snappy states {stated} bytes, more than {limit}", stated)
    out = bytearray(stated)
    try:
        got = cramjam.snappy.decompress_raw_into(data, out)
    except cramjam.DecompressionError as exc:
        raise CodecError(SNAPPY, f"snappy refuses the bytes: {exc}") from None
    return bytes(out[:got])


def _lz4_block(data: bytes, limit: int) -> bytes:
    """A raw LZ4 block (no size prefix): its actual output, which may not pass the limit (a declared size: ORC's
    block size, a Parquet page's; cramjam's LZ4 cannot tell a fuller buffer from a damaged block)."""
    out = bytearray(limit + 1)
    try:
        got = cramjam.lz4.decompress_block_into(data, out)
    except cramjam.DecompressionError as exc:
        raise CodecError(LZ4_BLOCK, f"lz4 refuses the bytes: {exc}") from None
    return bytes(out[:got])


def _streams(make: Callable[[], object], codec: str) -> Callable[[bytes, int], bytes]:
    """Concatenated streams (gzip members, bzip2, xz) through a standard-library decoder with max_length."""

    def decode(data: bytes, limit: int) -> bytes:
        out = bytearray()
        rest = data
        while rest:
            d = make()
            try:
                out += d.decompress(rest, max_length=limit + 1 - len(out))
            except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
                raise CodecError(codec, f"{codec} refuses the bytes: {exc}") from None
            if len(out) > limit or (not d.eof and not d.needs_input):  # more output than the limit allows
                raise CodecError(codec, f"{codec} gives more than {limit} bytes", limit + 1)
            if not d.eof:
                raise CodecError(codec, f"the {codec} stream ends early")
            rest = d.unused_data
        return bytes(out)

    return decode


def _deflate(data: bytes, limit: int, terminated: bool = True) -> bytes:
    """One raw deflate stream (no zlib header), which must end where the bytes end; unless not `terminated`
    (what an inflater gives until it needs more input, as ORC Java's ZlibCodec reads a chunk)."""
    d = zlib.decompressobj(-15)
    try:
        out = d.decompress(data, limit + 1)
    except zlib.error as exc:
        raise CodecError(DEFLATE, f"deflate refuses the bytes: {exc}") from None
    if len(out) > limit or not terminated:
        return out
    if not d.eof or d.unconsumed_tail:
        raise CodecError(DEFLATE, "the deflate stream ends early")
    return out


class _GzipMember:
    """zlib's gzip decoder with the interface of bz2 / lzma decompressors (eof, needs_input, unused_data)."""

    def __init__(self) -> None:
        self._d = zlib.decompressobj(31)

    def decompress(self, data: bytes, max_length: int) -> bytes:
        return self._d.decompress(data, max_length)

    @property
    def eof(self) -> bool:
        return self._d.eof

    @property
    def needs_input(self) -> bool:
        return not self._d.unconsumed_tail

    @property
    def unused_data(self) -> bytes:
        return self._d.unused_data


_DECODERS: dict[str, Callable[[bytes, int], bytes]] = {
    DEFLATE: _deflate,
    DEFLATE_UNTERMINATED: lambda data, limit: _deflate(data, limit, terminated=False),
    GZIP: _streams(_GzipMember, GZIP),
    SNAPPY: _snappy,
    LZ4_BLOCK: _lz4_block,
    ZSTD: _zstd,
    BZIP2: _streams(bz2.BZ2Decompressor, BZIP2),
    XZ: _streams(lambda: lzma.LZMADecompressor(memlimit=XZ_MEMLIMIT), XZ),
    BROTLI: _into(BROTLI),
}


def sst_block(compression: int, data: bytes) -> bytes:
    """An SST block's content as Java's BlockDecompressor gives it (its stated length bounds it);
    processors.ProcessError where Java refuses it."""
    return processors.decompress(compression, data)


def zstd_exact(data: bytes, size: int, code: str = "ROW_FILE_BLOCK_DECOMPRESS") -> bytes:
    """ZstdBlockDecompressor into a buffer of exactly `size` bytes, as the row format and the BGIX read a block;
    processors.ProcessError (finding `code`) unless the frames give exactly `size`."""
    return processors.zstd_exact(data, size, code)
