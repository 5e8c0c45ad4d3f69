package paimon_layouts.processors;

import io.kaitai.struct.CustomDecoder;

/** The spec routine zstd_block(size): a row file's block, decompressed into exactly `size` bytes (ZstdBlockDecompressor). */
public final class ZstdBlock implements CustomDecoder {
    private final long size;

    public ZstdBlock(long size) {
        this.size = size;
    }

    @Override
    public byte[] decode(byte[] src) {
        return BlockCodecs.zstdExact(src, 0, size, "ROW_FILE_BLOCK_DECOMPRESS");
    }
}
