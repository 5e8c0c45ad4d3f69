package paimon_layouts.processors;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;

/** The SST block and row-file block codecs the spec routines share; the same rules as every language's. */
final class BlockCodecs {
    static final int NONE = 0, ZSTD = 1, LZ4 = 2, LZO = 3;
    static final long MAX_DECOMPRESSED = 1L << 30;

    private BlockCodecs() {}

    static void reserve(long size) {
        if (size > MAX_DECOMPRESSED) {
            throw new ProcessException("BLOCK_DECOMPRESS", "a block stating " + size + " uncompressed bytes: more than " + MAX_DECOMPRESSED);
        }
    }

    /** BlockDecompressor: the varint length, then the codec's bytes. */
    static byte[] decompress(long compression, byte[] data) {
        if (compression == NONE) {
            return data;
        }
        if (compression < 0 || compression > LZO) {
            throw new ProcessException("BLOCK_BAD_COMPRESSION", "compression id " + compression + " (Unknown persistentId)");
        }
        if (compression == LZO) {
            throw new ProcessException("BLOCK_NOT_DECODED", "an LZO block: no LZO decoder is at hand, the content is not checked");
        }
        // VarLengthIntUtils.decodeInt: at most 5 groups of 7 bits, the value taken as a Java int
        long acc = 0;
        int pos = -1;
        for (int i = 0; i < 5; i++) {
            if (i >= data.length) {
                throw new ProcessException("BLOCK_DECOMPRESS", "the block ends inside its uncompressed length");
            }
            int b = data[i] & 0xFF;
            acc |= (long) (b & 0x7F) << (7 * i);
            if ((b & 0x80) == 0) {
                pos = i + 1;
                break;
            }
        }
        if (pos < 0) {
            throw new ProcessException("BLOCK_DECOMPRESS", "the uncompressed length is a malformed varint");
        }
        int length = (int) acc;
        if (length < 0) {
            throw new ProcessException("BLOCK_DECOMPRESS", "uncompressed length " + length + " is negative");
        }
        reserve(length);
        return compression == ZSTD ? zstdExact(data, pos, length, "BLOCK_DECOMPRESS") : lz4(data, pos, length);
    }

    /** Decompresses zstd frames into exactly `size` bytes (more or fewer: refused with `code`). */
    static byte[] zstdExact(byte[] data, int offset, long size, String code) {
        if (size < 0) {
            throw new ProcessException(code, "zstd block states " + size + " bytes");
        }
        reserve(size);
        byte[] out = new byte[(int) size + 1];
        int got = 0;
        try (ZstdInputStreamNoFinalizer in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(data, offset, data.length - offset))) {
            while (got < out.length) {
                int n = in.read(out, got, out.length - got);
                if (n < 0) {
                    break;
                }
                got += n;
            }
        } catch (IOException | RuntimeException e) {
            throw new ProcessException(code, "zstd refuses the block: " + e.getMessage());
        }
        if (got != size) {
            throw new ProcessException(code, "zstd gives " + (got > size ? "more than " + size : String.valueOf(got)) + " bytes where the index states " + size);
        }
        byte[] exact = new byte[(int) size];
        System.arraycopy(out, 0, exact, 0, (int) size);
        return exact;
    }

    /** Lz4BlockDecompressor: compressed and original length (s4le each), then a raw LZ4 block. */
    private static byte[] lz4(byte[] data, int offset, int length) {
        if (data.length - offset < 8) {
            throw new ProcessException("BLOCK_DECOMPRESS", "an LZ4 block shorter than its 8-byte header");
        }
        int compressed = le32(data, offset);
        int original = le32(data, offset + 4);
        if (original < 0 || compressed < 0 || (original == 0) != (compressed == 0)) {
            throw new ProcessException("BLOCK_DECOMPRESS", "LZ4 header lengths " + compressed + "/" + original + " (invalid length)");
        }
        if (original > length || compressed > data.length - offset - 8) {
            throw new ProcessException("BLOCK_DECOMPRESS", "LZ4 header lengths " + compressed + "/" + original + " do not fit the block");
        }
        byte[] out = new byte[length];
        if (original == 0) {
            return checkLength(0, length, out);
        }
        int got;
        try {
            got = LZ4Factory.safeInstance().safeDecompressor().decompress(data, offset + 8, compressed, out, 0, original);
        } catch (LZ4Exception e) {
            throw new ProcessException("BLOCK_DECOMPRESS", "lz4 refuses the block: " + e.getMessage());
        }
        if (got != original) {
            throw new ProcessException("BLOCK_DECOMPRESS", "LZ4 gives " + got + " bytes where its header states " + original);
        }
        return checkLength(got, length, out);
    }

    private static byte[] checkLength(int got, int length, byte[] out) {
        if (got != length) {
            throw new ProcessException("BLOCK_DECOMPRESS", "lz4 gives " + got + " bytes where the block states " + length);
        }
        return out;
    }

    private static int le32(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }
}
