// The JSON the testee reads (a request) and writes (a case): a small reader giving Map / List / String /
// Double / Long / Boolean / null, and a writer of the same values, so that the testee needs nothing beyond
// the generated package.
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    /** The value a JSON text holds. */
    static Object parse(String text) {
        Json reader = new Json(text);
        Object value = reader.value();
        reader.space();
        if (reader.pos != text.length()) {
            throw new IllegalArgumentException("text after the JSON value at " + reader.pos);
        }
        return value;
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char next() {
        space();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("the JSON text ends early");
        }
        return text.charAt(pos);
    }

    private void expect(char c) {
        if (next() != c) {
            throw new IllegalArgumentException("'" + c + "' expected at " + pos);
        }
        pos++;
    }

    private Object value() {
        char c = next();
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            if (next() == '}') {
                pos++;
                return map;
            }
            do {
                String key = string();
                expect(':');
                map.put(key, value());
            } while (comma('}'));
            return map;
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            pos++;
            if (next() == ']') {
                pos++;
                return list;
            }
            do {
                list.add(value());
            } while (comma(']'));
            return list;
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, pos)) {
                pos += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String number = text.substring(start, pos);
        if (number.isEmpty()) {
            throw new IllegalArgumentException("a JSON value expected at " + start);
        }
        return number.matches("-?\\d+") ? (Object) Long.valueOf(number) : (Object) Double.valueOf(number);
    }

    private boolean comma(char close) {
        char c = next();
        pos++;
        if (c == ',') {
            return true;
        }
        if (c != close) {
            throw new IllegalArgumentException("',' or '" + close + "' expected at " + (pos - 1));
        }
        return false;
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw new IllegalArgumentException("a JSON string does not end");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n': out.append('\n'); break;
                case 't': out.append('\t'); break;
                case 'r': out.append('\r'); break;
                case 'b': out.append('\b'); break;
                case 'f': out.append('\f'); break;
                case 'u':
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                    break;
                default: out.append(e);
            }
        }
    }

    /** A value (Map, List, String, Number, Boolean or null) as JSON text. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null || value instanceof Boolean || value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof Double) {
            out.append(Double.toString((Double) value));
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                out.append(first ? "" : ",");
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
                first = false;
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object v : (List<?>) value) {
                out.append(first ? "" : ",");
                write(v, out);
                first = false;
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass());
        }
    }

    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
