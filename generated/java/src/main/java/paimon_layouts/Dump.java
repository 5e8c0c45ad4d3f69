package paimon_layouts;

import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStream;
import io.kaitai.struct.KaitaiStruct;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints a parsed file as the language-neutral JSON tree of tree_schema.json, the same lines as every
 * language's dump program.
 *
 * <pre>
 *   java -jar paimon-layouts.jar ROOT FILE [PARAM ...]
 *   java -jar paimon-layouts.jar --jobs JOBS.tsv     (one job per line: ID, ROOT, FILE, PARAM ... by tabs)
 *   java -jar paimon-layouts.jar --bench RUNS ROOT FILE [PARAM ...]   ({"best_ms"}: parse + tree walk, best of RUNS)
 * </pre>
 */
public final class Dump {
    private final Schema schema;

    private Dump(Schema schema) {
        this.schema = schema;
    }

    public static void main(String[] args) throws IOException {
        Schema schema;
        try (InputStream in = Dump.class.getResourceAsStream("/paimon_layouts/tree_schema.json")) {
            schema = Schema.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        Dump dump = new Dump(schema);
        if (args.length >= 4 && args[0].equals("--bench")) {
            dump.bench(Integer.parseInt(args[1]), args[2], args[3], java.util.Arrays.copyOfRange(args, 4, args.length));
            return;
        }
        List<String[]> jobs = new ArrayList<>();
        if (args.length >= 2 && args[0].equals("--jobs")) {
            for (String line : Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    jobs.add(line.split("\t", -1));
                }
            }
        } else if (args.length >= 2) {
            String[] job = new String[args.length + 1];
            job[0] = args[1];
            System.arraycopy(args, 0, job, 1, args.length);
            jobs.add(job);
        } else {
            System.err.println("usage: Dump ROOT FILE [PARAM ...] | --jobs FILE");
            System.exit(2);
        }
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        for (String[] job : jobs) {
            StringBuilder line = new StringBuilder("{\"id\":");
            Json.string(line, job[0]);
            StringBuilder tree = new StringBuilder();
            try {
                byte[] data = Files.readAllBytes(Paths.get(job[2]));
                String[] params = new String[job.length - 3];
                System.arraycopy(job, 3, params, 0, params.length);
                dump.struct(tree, dump.parse(job[1], data, params));
                line.append(",\"ok\":true,\"tree\":").append(tree);
            } catch (Throwable e) { // any failure is a rejection, printed as such
                Throwable cause = e instanceof InvocationTargetException ? e.getCause() : e;
                line.append(",\"ok\":false,\"error\":");
                Json.string(line, cause.getClass().getSimpleName() + ": " + cause.getMessage());
            }
            out.write(line.append("}\n").toString());
        }
        out.flush();
    }

    private void bench(int runs, String root, String file, String[] params) throws IOException {
        byte[] data = Files.readAllBytes(Paths.get(file));
        double best = Double.MAX_VALUE;
        try {
            for (int i = 0; i < runs; i++) {
                long t = System.nanoTime();
                struct(new StringBuilder(), parse(root, data, params));
                best = Math.min(best, (System.nanoTime() - t) / 1e6);
            }
        } catch (Exception e) {
            throw new IOException(e);
        }
        System.out.println("{\"best_ms\":" + best + "}");
    }

    private KaitaiStruct parse(String root, byte[] data, String[] params) throws Exception {
        Schema.Root entry = schema.roots.get(root);
        if (entry == null) {
            throw new IllegalArgumentException("no spec " + root);
        }
        if (params.length != entry.paramKinds.size()) {
            throw new IllegalArgumentException(root + " takes " + entry.paramKinds.size() + " parameters");
        }
        Class<?> cls = Class.forName("paimon_layouts." + entry.cls);
        for (Constructor<?> c : cls.getConstructors()) {
            Class<?>[] types = c.getParameterTypes();
            if (types.length != params.length + 1 || types[0] != KaitaiStream.class
                    || (params.length > 0 && KaitaiStruct.class.isAssignableFrom(types[1]))) {
                continue;
            }
            Object[] args = new Object[types.length];
            args[0] = new ByteBufferKaitaiStream(data);
            for (int i = 0; i < params.length; i++) {
                args[i + 1] = param(types[i + 1], entry.paramKinds.get(i), params[i]);
            }
            return (KaitaiStruct) c.newInstance(args);
        }
        throw new IllegalStateException("no constructor of " + cls + " takes the stream and " + params.length + " parameters");
    }

    private static Object param(Class<?> type, String kind, String text) throws Exception {
        switch (kind) {
            case "bytes": {
                String hex = text.substring(1, text.length() - 1);
                byte[] b = new byte[hex.length() / 2];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
                }
                return b;
            }
            case "bool":
                return Boolean.parseBoolean(text);
            case "enum":
                return type.getMethod("byId", long.class).invoke(null, Long.parseLong(text));
            default: {
                long v = Long.parseLong(text);
                if (type == int.class || type == Integer.class) return (int) v;
                if (type == short.class || type == Short.class) return (short) v;
                if (type == byte.class || type == Byte.class) return (byte) v;
                return v;
            }
        }
    }

    private void struct(StringBuilder out, KaitaiStruct obj) throws Exception {
        String path = obj.getClass().getName().substring("paimon_layouts.".length()).replace('$', '.');
        List<String> fields = schema.types.get(path);
        if (fields == null) {
            throw new IllegalStateException(path + " is not in the tree schema");
        }
        out.append('{');
        boolean first = true;
        for (String id : fields) {
            Method m = obj.getClass().getMethod(lowerCamel(id));
            Object v;
            try {
                v = m.invoke(obj);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ? (Exception) e.getCause() : new RuntimeException(e.getCause());
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            Json.string(out, id);
            out.append(':');
            value(out, v);
        }
        out.append('}');
    }

    private void value(StringBuilder out, Object v) throws Exception {
        if (v == null) {
            out.append("null");
        } else if (v instanceof KaitaiStruct) {
            struct(out, (KaitaiStruct) v);
        } else if (v instanceof Boolean || v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            out.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                out.append("\"NaN\"");
            } else if (Double.isInfinite(d)) {
                out.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
            } else {
                out.append(d);
            }
        } else if (v instanceof String) {
            Json.string(out, (String) v);
        } else if (v instanceof byte[]) {
            out.append("{\"$bytes\":\"");
            for (byte b : (byte[]) v) {
                out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            out.append("\"}");
        } else if (v instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object x : (List<?>) v) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                value(out, x);
            }
            out.append(']');
        } else if (v instanceof Enum) {
            out.append(v.getClass().getMethod("id").invoke(v));
        } else {
            throw new IllegalStateException("no tree form for " + v.getClass());
        }
    }

    /** A KSY id as ksc names its Java accessor: snake_case to lowerCamel. */
    static String lowerCamel(String id) {
        StringBuilder s = new StringBuilder();
        String[] parts = id.split("_", -1);
        s.append(parts[0]);
        for (int i = 1; i < parts.length; i++) {
            if (!parts[i].isEmpty()) {
                s.append(Character.toUpperCase(parts[i].charAt(0))).append(parts[i].substring(1));
            }
        }
        return s.toString();
    }

    /** The parts of tree_schema.json a dump needs, read with a pattern (its shape is fixed by gen_parsers). */
    static final class Schema {
        final Map<String, Root> roots = new java.util.HashMap<>();
        final Map<String, List<String>> types = new java.util.HashMap<>();

        static final class Root {
            String cls;
            final List<String> paramKinds = new ArrayList<>();
        }

        static Schema read(String text) {
            Schema s = new Schema();
            int typesAt = text.indexOf("\"types\"");
            String roots = text.substring(text.indexOf("\"roots\""), typesAt);
            Matcher r = Pattern.compile("\"(\\w+)\": \\{\\s*\"class\": \"(\\w+)\",\\s*\"params\": \\[(.*?)\\]\\s*\\}", Pattern.DOTALL).matcher(roots);
            while (r.find()) {
                Root root = new Root();
                root.cls = r.group(2);
                Matcher k = Pattern.compile("\"kind\": \"(\\w+)\"").matcher(r.group(3));
                while (k.find()) {
                    root.paramKinds.add(k.group(1));
                }
                s.roots.put(r.group(1), root);
            }
            Matcher t = Pattern.compile("\"([\\w.]+)\": \\[(.*?)\\]", Pattern.DOTALL).matcher(text.substring(typesAt));
            while (t.find()) {
                List<String> ids = new ArrayList<>();
                Matcher id = Pattern.compile("\"(\\w+)\"").matcher(t.group(2));
                while (id.find()) {
                    ids.add(id.group(1));
                }
                s.types.put(t.group(1), ids);
            }
            return s;
        }
    }

    /** JSON string escaping. */
    static final class Json {
        static void string(StringBuilder out, String s) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF)) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            out.append('"');
        }
    }
}
