// A testee in Java built on the generated parsers (generated/java, Maven paimon.conform:paimon-layouts):
// `decode` of roaring32, roaring64, deletion-vectors and file-index (FileIndexCase.java) through the kit's
// testee protocol 1 (JSON lines on
// stdin/stdout, docs/testee-protocol.md). The starting point a Java port copies into its own CI: the
// spec parser does the framing and every check the spec states; this file adds the checks the spec cannot
// express (a standalone bitmap's trailing bytes, container contents against their cardinality, DV position
// ranges) and turns the parse tree into the case.
//
// Run (tools/testees/generated_java.py compiles it with FileIndexCase.java and Json.java against the package):
//   paimon-conform testee --kind roaring32 --kind deletion-vectors -- python tools/testees/generated_java.py
import io.kaitai.struct.ByteBufferKaitaiStream;
import io.kaitai.struct.KaitaiStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import paimon_layouts.DeletionVectors;
import paimon_layouts.Roaring32;
import paimon_layouts.Roaring64;

public final class Testee {
    static final long MAX_POSITION64 = (0x7FFFFFFEL << 32) | 0x80000000L;
    /** A refusal with the kit's finding code. */
    static final class Refused extends RuntimeException {
        final String code;

        Refused(String code, String message) {
            super(message);
            this.code = code;
        }
    }

    /** Sorted positions as [start, end] ranges, and their count. */
    static final class Ranges {
        final List<long[]> ranges = new ArrayList<>();
        long cardinality;

        void add(long v) {
            cardinality++;
            long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last[1] + 1 == v) {
                last[1] = v;
            } else {
                ranges.add(new long[] {v, v});
            }
        }

        void addRun(long start, long end) {
            cardinality += end - start + 1;
            long[] last = ranges.isEmpty() ? null : ranges.get(ranges.size() - 1);
            if (last != null && last[1] + 1 == start) {
                last[1] = end;
            } else {
                ranges.add(new long[] {start, end});
            }
        }

        String json() {
            StringBuilder s = new StringBuilder("\"cardinality\":").append(cardinality).append(",\"ranges\":[");
            for (int i = 0; i < ranges.size(); i++) {
                s.append(i == 0 ? "" : ",").append('[').append(ranges.get(i)[0]).append(',').append(ranges.get(i)[1]).append(']');
            }
            return s.append(']').toString();
        }
    }

    /** The positions of a parsed 32-bit bitmap, above `high`, with the checks the spec leaves to the reader. */
    static void roaring32(Roaring32 bitmap, long high, Ranges out) {
        for (Roaring32.Container c : bitmap.containers()) {
            long base = high | ((long) c.key() << 16);
            long held = 0;
            Object body = c.body();
            if (body instanceof Roaring32.RunContainer) {
                for (Roaring32.Run r : ((Roaring32.RunContainer) body).runs()) {
                    out.addRun(base + r.start(), base + r.last());
                    held += r.last() - r.start() + 1;
                }
            } else if (body instanceof Roaring32.ArrayContainer) {
                int previous = -1;
                for (Integer v : ((Roaring32.ArrayContainer) body).values()) {
                    if (v <= previous) {
                        throw new Refused("ROARING_ARRAY_NOT_ASCENDING", "value " + v + " does not exceed the previous " + previous);
                    }
                    previous = v;
                    out.add(base + v);
                    held++;
                }
            } else {
                byte[] words = ((Roaring32.BitmapContainer) body).words();
                for (int i = 0; i < words.length * 8; i++) {
                    if ((words[i >> 3] >> (i & 7) & 1) != 0) {
                        out.add(base + i);
                        held++;
                    }
                }
                if (held == 0) {
                    throw new Refused("ROARING_EMPTY_CONTAINER", "bitmap container with no bit set");
                }
            }
            if (held != c.cardinality()) {
                throw new Refused("ROARING_CARDINALITY_MISMATCH", "the container holds " + held + " values, the header says " + c.cardinality());
            }
        }
    }

    static Ranges roaring64(Roaring64 bitmap) {
        Ranges out = new Ranges();
        for (Roaring64.Bucket b : bitmap.buckets()) {
            roaring32(b.bitmap(), b.highKey() << 32, out);
        }
        return out;
    }

    static String decode(String kind, byte[] data, String line) {
        KaitaiStream io = new ByteBufferKaitaiStream(data);
        switch (kind) {
            case "file-index":
                return FileIndexCase.decode(data, ((java.util.Map<?, ?>) Json.parse(line)).get("types"));
            case "roaring32": {
                Roaring32 bitmap = new Roaring32(io);
                if (io.pos() != data.length) {
                    throw new Refused("ROARING_TRAILING_BYTES", (data.length - io.pos()) + " bytes after the bitmap");
                }
                Ranges r = new Ranges();
                roaring32(bitmap, 0, r);
                return "{\"case_format\":1,\"kind\":\"roaring32\"," + r.json() + "}";
            }
            case "roaring64": {
                Roaring64 bitmap = new Roaring64(io);
                if (io.pos() != data.length) {
                    throw new Refused("ROARING_TRAILING_BYTES", (data.length - io.pos()) + " bytes after the bitmap");
                }
                return "{\"case_format\":1,\"kind\":\"roaring64\"," + roaring64(bitmap).json() + "}";
            }
            case "deletion-vectors": {
                DeletionVectors file = new DeletionVectors(io);
                StringBuilder s = new StringBuilder("{\"case_format\":1,\"kind\":\"deletion-vectors\",\"version\":1,\"vectors\":[");
                boolean first = true;
                for (DeletionVectors.Vector v : file.vectors()) {
                    v.crcCheck(); // the CRC is checked while parsing; touching the field documents it
                    boolean is64 = v.blob().magic() == DeletionVectors.Magic.BITMAP64;
                    Ranges r;
                    if (is64) {
                        r = roaring64((Roaring64) v.blob().bitmap());
                        // Bitmap64DeletionVector (Iceberg's RoaringPositionBitmap): at most MAX_POSITION, high key
                        // Integer.MAX_VALUE - 1 with low part 2^31; a high key of 2^31 or more is a negative long
                        long last = r.ranges.isEmpty() ? 0 : r.ranges.get(r.ranges.size() - 1)[1];
                        if (last < 0 || last > MAX_POSITION64) {
                            throw new Refused("DV_POSITION_OUT_OF_RANGE", "position " + Long.toUnsignedString(last) + " past " + MAX_POSITION64);
                        }
                    } else {
                        r = new Ranges();
                        roaring32((Roaring32) v.blob().bitmap(), 0, r);
                        // BitmapDeletionVector: positions are at most 2^31 - 1
                        if (!r.ranges.isEmpty() && r.ranges.get(r.ranges.size() - 1)[1] > Integer.MAX_VALUE) {
                            throw new Refused("DV_POSITION_OUT_OF_RANGE", "a position past 2^31 - 1");
                        }
                    }
                    s.append(first ? "" : ",").append("{\"bitmap\":\"").append(is64 ? "bitmap64" : "bitmap32")
                            .append("\",\"offset\":").append(v.ofsVector()).append(",\"length\":").append(v.lenManifest())
                            .append(',').append(r.json()).append('}');
                    first = false;
                }
                return s.append("]}").toString();
            }
            default:
                throw new IllegalArgumentException("not declared: " + kind);
        }
    }

    static String field(String line, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*(\"([^\"]*)\"|(-?\\d+))").matcher(line);
        return m.find() ? (m.group(2) != null ? m.group(2) : m.group(3)) : null;
    }

    static String quote(String s) {
        StringBuilder out = new StringBuilder();
        Json.quote(String.valueOf(s), out);
        return out.toString();
    }

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        for (String line; (line = in.readLine()) != null; ) {
            String id = field(line, "id");
            String op = field(line, "op");
            if ("bye".equals(op)) {
                break;
            }
            if ("hello".equals(op)) {
                out.println("{\"id\":" + id + ",\"name\":\"generated-java\",\"version\":\"0.1.0\",\"protocol\":1,\"java_release\":\"2.0\","
                        + "\"capabilities\":{\"decode\":[\"roaring32\",\"roaring64\",\"deletion-vectors\",\"file-index\"]}}");
                continue;
            }
            try {
                if (!"decode".equals(op)) {
                    throw new IllegalArgumentException("not declared: " + op);
                }
                out.println("{\"id\":" + id + ",\"case\":" + decode(field(line, "kind"), hex(field(line, "data")), line) + "}");
            } catch (Refused e) {
                out.println("{\"id\":" + id + ",\"error\":{\"code\":" + quote(e.code) + ",\"message\":" + quote(e.getMessage()) + "}}");
            } catch (Exception | StackOverflowError e) { // a spec check or the end of the input: a refusal
                out.println("{\"id\":" + id + ",\"error\":{\"message\":" + quote(e.getClass().getSimpleName() + ": " + e.getMessage()) + "}}");
            }
        }
    }
}
