package paimon_layouts.processors;

import io.kaitai.struct.CustomDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** The spec routine utf8_strict: well-formed UTF-8 passes unchanged; anything else is refused (UTF8_INVALID). */
public final class Utf8Strict implements CustomDecoder {
    @Override
    public byte[] decode(byte[] src) {
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(src));
        } catch (CharacterCodingException e) {
            throw new ProcessException("UTF8_INVALID", "malformed UTF-8: " + e);
        }
        return src;
    }
}
