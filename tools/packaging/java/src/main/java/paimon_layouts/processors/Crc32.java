package paimon_layouts.processors;

import io.kaitai.struct.CustomDecoder;
import java.util.zip.CRC32;

/** The spec routine crc32: the bytes' java.util.zip.CRC32, as 4 bytes big-endian. */
public final class Crc32 implements CustomDecoder {
    @Override
    public byte[] decode(byte[] src) {
        CRC32 crc = new CRC32();
        crc.update(src);
        long v = crc.getValue();
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
