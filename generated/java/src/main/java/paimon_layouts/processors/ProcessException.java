package paimon_layouts.processors;

import io.kaitai.struct.KaitaiStream;

/** A spec routine refused its input; {@link #code()} is the finding code (as in every language). */
public final class ProcessException extends KaitaiStream.KaitaiStructError {
    private final String code;

    public ProcessException(String code, String message) {
        super(message, "");
        this.code = code;
    }

    public String code() {
        return code;
    }
}
