package paimon_layouts.processors;

import io.kaitai.struct.CustomDecoder;
import java.io.ByteArrayOutputStream;

/**
 * The spec routine java_mutf8: Java modified UTF-8 (DataInput.readUTF) re-encoded as standard UTF-8.
 * Refuses (MUTF8_INVALID) what readUTF refuses; a lone surrogate becomes U+FFFD, as in every language.
 */
public final class JavaMutf8 implements CustomDecoder {
    @Override
    public byte[] decode(byte[] src) {
        int n = src.length;
        char[] units = new char[n];
        int count = 0;
        int i = 0;
        while (i < n) {
            int b = src[i] & 0xFF;
            if (b < 0x80) {
                units[count++] = (char) b;
                i += 1;
            } else if ((b & 0xE0) == 0xC0) {
                if (i + 1 >= n || (src[i + 1] & 0xC0) != 0x80) {
                    throw new ProcessException("MUTF8_INVALID", "malformed 2-byte sequence at byte " + i);
                }
                units[count++] = (char) (((b & 0x1F) << 6) | (src[i + 1] & 0x3F));
                i += 2;
            } else if ((b & 0xF0) == 0xE0) {
                if (i + 2 >= n || (src[i + 1] & 0xC0) != 0x80 || (src[i + 2] & 0xC0) != 0x80) {
                    throw new ProcessException("MUTF8_INVALID", "malformed 3-byte sequence at byte " + i);
                }
                units[count++] = (char) (((b & 0x0F) << 12) | ((src[i + 1] & 0x3F) << 6) | (src[i + 2] & 0x3F));
                i += 3;
            } else {
                throw new ProcessException("MUTF8_INVALID", String.format("byte 0x%02x at %d cannot start a modified UTF-8 sequence", b, i));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(count * 3);
        for (int k = 0; k < count; k++) {
            int c = units[k];
            if (Character.isHighSurrogate((char) c) && k + 1 < count && Character.isLowSurrogate(units[k + 1])) {
                int cp = Character.toCodePoint((char) c, units[++k]);
                out.write(0xF0 | (cp >> 18));
                out.write(0x80 | ((cp >> 12) & 0x3F));
                out.write(0x80 | ((cp >> 6) & 0x3F));
                out.write(0x80 | (cp & 0x3F));
                continue;
            }
            if (Character.isSurrogate((char) c)) {
                c = 0xFFFD;
            }
            if (c < 0x80) {
                out.write(c);
            } else if (c < 0x800) {
                out.write(0xC0 | (c >> 6));
                out.write(0x80 | (c & 0x3F));
            } else {
                out.write(0xE0 | (c >> 12));
                out.write(0x80 | ((c >> 6) & 0x3F));
                out.write(0x80 | (c & 0x3F));
            }
        }
        return out.toByteArray();
    }
}
