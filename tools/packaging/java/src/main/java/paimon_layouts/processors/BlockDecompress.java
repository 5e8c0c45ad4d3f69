package paimon_layouts.processors;

import io.kaitai.struct.CustomDecoder;

/** The spec routine block_decompress(compression): an SST block's content, as Java Paimon's BlockDecompressor gives it. */
public final class BlockDecompress implements CustomDecoder {
    private final long compression;

    public BlockDecompress(long compression) {
        this.compression = compression;
    }

    @Override
    public byte[] decode(byte[] src) {
        return BlockCodecs.decompress(compression, src);
    }
}
