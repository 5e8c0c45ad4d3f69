// `decode` of a file-index container: the container and its payloads parsed by the generated parsers
// (FileIndex, BloomFilter, BitmapIndex, Bsi, RangeBitmap), each typed payload turned into the column's values
// row by row, in the kit's logical JSON form of the column's type (the request's `types`). Added here, beyond
// the specs: payloads must not overlap, every row of a bitmap index is covered once, rows stay below the row
// count, and a range-bitmap's slices stay within its existence bitmap.
import io.kaitai.struct.ByteBufferKaitaiStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import paimon_layouts.BitmapIndex;
import paimon_layouts.BloomFilter;
import paimon_layouts.Bsi;
import paimon_layouts.FileIndex;
import paimon_layouts.RangeBitmap;
import paimon_layouts.Roaring32;
import paimon_layouts.TypedKey;

final class FileIndexCase {
    static final Set<String> INTEGERS = Set.of("TINYINT", "SMALLINT", "INT", "BIGINT");
    static final Set<String> STRINGS = Set.of("CHAR", "VARCHAR", "STRING");
    static final Set<String> BSI_TYPES =
            Set.of("TINYINT", "SMALLINT", "INT", "BIGINT", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "DECIMAL");

    /** A column type as the kit writes it ("INT", "TIMESTAMP(6)", "DECIMAL(10, 2)"). */
    static final class ColumnType {
        final String root;
        final long precision;
        final long scale;

        ColumnType(String text) {
            text = text.trim();
            if (text.endsWith(" NOT NULL")) {
                text = text.substring(0, text.length() - " NOT NULL".length()).trim();
            }
            int open = text.indexOf('(');
            root = (open < 0 ? text : text.substring(0, open)).trim();
            List<Long> nums = new ArrayList<>();
            if (open >= 0) {
                for (String a : text.substring(open + 1).replace(")", "").split(",")) {
                    try {
                        nums.add(Long.parseLong(a.trim()));
                    } catch (NumberFormatException e) {
                        // not a number: the default applies
                    }
                }
            }
            boolean timestamp = root.equals("TIMESTAMP") || root.equals("TIMESTAMP_LTZ");
            precision = timestamp ? (nums.isEmpty() ? 6 : nums.get(0)) : root.equals("DECIMAL") ? (nums.isEmpty() ? 10 : nums.get(0)) : 0;
            scale = root.equals("DECIMAL") && nums.size() > 1 ? nums.get(1) : 0;
        }
    }

    /** The key kind (the specs' `kind` enum id) a column type is written with, or -1. */
    static int kindCode(ColumnType t, boolean rangeBitmap) {
        switch (t.root) {
            case "TINYINT": return 1;
            case "SMALLINT": return 2;
            case "INT": case "DATE": case "TIME": return 4;
            case "BIGINT": case "TIMESTAMP": case "TIMESTAMP_LTZ": return 8;
            case "DECIMAL": return rangeBitmap && t.precision <= 18 ? 8 : -1;
            case "FLOAT": return 14;
            case "DOUBLE": return 18;
            case "BOOLEAN": return 21;
            default: return STRINGS.contains(t.root) ? 99 : -1;
        }
    }

    static String isoDate(long days) {
        LocalDate d = LocalDate.ofEpochDay(days);
        if (d.getYear() < 0 || d.getYear() > 9999) {
            throw new IllegalArgumentException("day " + days + " is outside the years 0000..9999");
        }
        return String.format("%04d-%02d-%02d", d.getYear(), d.getMonthValue(), d.getDayOfMonth());
    }

    static Object floatJson(double f) {
        if (Double.isNaN(f)) {
            return "NaN";
        }
        if (Double.isInfinite(f)) {
            return f > 0 ? "Infinity" : "-Infinity";
        }
        return f;
    }

    /** A stored key (Long, Double, Boolean or byte[]) as the logical JSON value of a column of type t. */
    static Object toJson(ColumnType t, Object key) {
        String root = t.root;
        if (key instanceof Long) {
            long k = (Long) key;
            if (INTEGERS.contains(root)) {
                return k;
            }
            if (root.equals("BOOLEAN")) {
                return k != 0;
            }
            if (root.equals("DATE")) {
                return isoDate(k);
            }
            if (root.equals("TIME")) {
                long ms = Math.floorMod(k, 86_400_000L);
                return String.format("%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
            }
            if (root.equals("TIMESTAMP") || root.equals("TIMESTAMP_LTZ")) {
                long millis = t.precision <= 3 ? k : Math.floorDiv(k, 1000L);
                long nano = t.precision <= 3 ? 0 : Math.floorMod(k, 1000L) * 1000;
                long days = Math.floorDiv(millis, 86_400_000L), ms = Math.floorMod(millis, 86_400_000L);
                String text = String.format("%sT%02d:%02d:%02d", isoDate(days), ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
                if (t.precision > 0) {
                    String frac = String.format("%03d%06d", ms % 1000, nano);
                    text += "." + frac.substring(0, (int) Math.min(t.precision, 9));
                }
                return text;
            }
            if (root.equals("DECIMAL")) {
                return BigDecimal.valueOf(k, (int) t.scale).toString(); // the same notation as Python's Decimal
            }
        } else if (key instanceof Double && (root.equals("FLOAT") || root.equals("DOUBLE"))) {
            return floatJson((Double) key);
        } else if (key instanceof Boolean && root.equals("BOOLEAN")) {
            return key;
        } else if (key instanceof byte[] && STRINGS.contains(root)) {
            return new String((byte[]) key, StandardCharsets.UTF_8);
        }
        throw new IllegalArgumentException("a key of another kind than a " + root + " column's");
    }

    /** A parsed key (BitmapIndex's or TypedKey's value) as Long, Double, Boolean or byte[]. */
    static Object keyValue(Object v) {
        if (v instanceof Float || v instanceof Double) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof Number) {
            return ((Number) v).longValue(); // a boolean key of a bitmap index is its u1 byte
        }
        if (v instanceof BitmapIndex.StringKey) {
            return ((BitmapIndex.StringKey) v).value();
        }
        if (v instanceof TypedKey.StringKey) {
            return ((TypedKey.StringKey) v).value();
        }
        if (v instanceof TypedKey.BooleanKey) {
            return ((TypedKey.BooleanKey) v).value() == 1;
        }
        throw new IllegalArgumentException("a key of no known kind: " + v);
    }

    /** The values a roaring bitmap holds, ascending. */
    static List<Long> bitmapValues(Roaring32 bitmap) {
        Testee.Ranges r = new Testee.Ranges();
        Testee.roaring32(bitmap, 0, r);
        List<Long> out = new ArrayList<>();
        for (long[] p : r.ranges) {
            for (long v = p[0]; v <= p[1]; v++) {
                out.add(v);
            }
        }
        return out;
    }

    /** A bitmap index (V1 or V2): each key's rows, the null rows, every row exactly once. */
    static Map<String, Object> bitmapIndex(byte[] payload, ColumnType t) {
        int code = kindCode(t, false);
        if (code < 0) {
            throw new IllegalArgumentException("no bitmap index for " + t.root);
        }
        BitmapIndex index = new BitmapIndex(new ByteBufferKaitaiStream(payload), BitmapIndex.KeyKind.byId(code));
        int bodyStart = payload.length - index.body().length;
        List<Object> keys = new ArrayList<>();
        List<List<Long>> rows = new ArrayList<>();
        int version = index.version() == BitmapIndex.Version.V1 ? 1 : 2;
        if (version == 1) {
            for (BitmapIndex.EntryV1 e : index.entriesV1()) {
                keys.add(keyValue(e.key().value()));
                rows.add(rowsAt(payload, bodyStart, index.body().length, e.ofsBitmap()));
            }
        } else {
            for (BitmapIndex.IndexBlock b : index.indexBlocks().blocks()) {
                for (BitmapIndex.EntryV2 e : b.entries()) {
                    keys.add(keyValue(e.key().value()));
                    rows.add(rowsAt(payload, bodyStart, index.body().length, e.ofsBitmap()));
                }
            }
        }
        if (index.hasNulls() != 0) {
            keys.add(null);
            rows.add(rowsAt(payload, bodyStart, index.body().length, index.ofsNullBitmap()));
        }
        long numRows = index.numRows(), covered = 0;
        for (List<Long> r : rows) {
            covered += r.size();
        }
        if (covered != numRows) {
            throw new Testee.Refused("BITMAP_ROWS_NOT_COVERED", "the row count says " + numRows + " rows, the bitmaps cover " + covered);
        }
        Object[] out = new Object[(int) numRows];
        boolean[] seen = new boolean[(int) numRows];
        for (int i = 0; i < keys.size(); i++) {
            Object value = keys.get(i) == null ? null : toJson(t, keys.get(i));
            for (long r : rows.get(i)) {
                if (r >= numRows || seen[(int) r]) {
                    throw new Testee.Refused("BITMAP_ROW_OUT_OF_RANGE", "row " + r + " cannot hold another value");
                }
                out[(int) r] = value;
                seen[(int) r] = true;
            }
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("version", (long) version);
        c.put("row_values", Arrays.asList(out));
        return c;
    }

    static List<Long> rowsAt(byte[] payload, int bodyStart, int bodyLength, int offset) {
        if (offset < 0) {
            return List.of(-1L - offset);
        }
        if (offset >= bodyLength) {
            throw new Testee.Refused("BITMAP_OFFSET_OUT_OF_RANGE", "bitmap offset " + offset + " is outside the body");
        }
        byte[] sub = Arrays.copyOfRange(payload, bodyStart + offset, payload.length);
        return bitmapValues(new Roaring32(new ByteBufferKaitaiStream(sub)));
    }

    /** One half of a BSI: each row's value, the half's minimum plus the bits of its slices. */
    static void bsiHalf(Bsi.Half half, long sign, Map<Long, Long> found) {
        Map<Long, Long> value = new HashMap<>();
        List<Long> rows = bitmapValues(half.existence());
        for (long r : rows) {
            value.put(r, half.min());
        }
        for (int i = 0; i < half.slices().size(); i++) {
            for (long r : bitmapValues(half.slices().get(i))) {
                if (value.containsKey(r)) {
                    value.put(r, value.get(r) + (1L << i));
                }
            }
        }
        for (long r : rows) {
            found.put(r, sign * value.get(r));
        }
    }

    static Map<String, Object> bsi(byte[] payload, ColumnType t) {
        if (!BSI_TYPES.contains(t.root)) {
            throw new IllegalArgumentException("no bsi index for " + t.root);
        }
        Bsi index = new Bsi(new ByteBufferKaitaiStream(payload));
        TreeMap<Long, Long> found = new TreeMap<>();
        if (index.hasPositive() != 0) {
            bsiHalf(index.positive(), 1, found);
        }
        if (index.hasNegative() != 0) {
            bsiHalf(index.negative(), -1, found);
        }
        long numRows = index.numRows();
        if (!found.isEmpty() && found.lastKey() >= numRows) {
            throw new Testee.Refused("BSI_ROW_OUT_OF_RANGE", "a row is not below the row count " + numRows);
        }
        List<Object> out = new ArrayList<>();
        for (long r = 0; r < numRows; r++) {
            Long v = found.get(r);
            out.add(v == null ? null : toJson(t, v));
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("row_values", out);
        return c;
    }

    /** A range-bitmap: the dictionary's keys in code order, each row's code from the code slices. */
    static Map<String, Object> rangeBitmap(byte[] payload, ColumnType t) {
        int code = kindCode(t, true);
        if (code < 0) {
            throw new IllegalArgumentException("no range-bitmap index for " + t.root);
        }
        RangeBitmap index = new RangeBitmap(new ByteBufferKaitaiStream(payload), TypedKey.Kind.byId(code));
        List<Object> values = new ArrayList<>();
        for (RangeBitmap.Chunk chunk : index.dictionary().chunks().chunks()) {
            values.add(toJson(t, keyValue(chunk.firstKey().value())));
            for (RangeBitmap.ListedKey listed : chunk.block().keys().keys()) {
                values.add(toJson(t, keyValue(listed.key().value())));
            }
        }
        List<Long> rows = bitmapValues(index.codes().existence());
        TreeMap<Long, Long> codes = new TreeMap<>();
        for (long r : rows) {
            codes.put(r, 0L);
        }
        List<RangeBitmap.CodeSlice> slices = index.codes().slices().slices();
        for (int i = 0; i < slices.size(); i++) {
            for (long r : bitmapValues(slices.get(i).bitmap())) {
                if (!codes.containsKey(r)) {
                    throw new Testee.Refused("RANGE_BITMAP_SLICE_OUTSIDE_EXISTENCE", "a slice holds rows the existence bitmap does not");
                }
                codes.put(r, codes.get(r) + (1L << Math.min(i, 31)));
            }
        }
        long numRows = index.header().numRows();
        if (!rows.isEmpty() && rows.get(rows.size() - 1) >= numRows) {
            throw new Testee.Refused("RANGE_BITMAP_TOO_MANY_ROWS_TO_LIST", "a row is not below the row count " + numRows);
        }
        Object[] out = new Object[(int) Math.max(numRows, 0)];
        for (Map.Entry<Long, Long> e : codes.entrySet()) {
            long c = e.getValue();
            if (c >= values.size()) {
                throw new IllegalArgumentException("code " + c + " is not in the dictionary");
            }
            out[(int) (long) e.getKey()] = values.get((int) c);
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("row_values", Arrays.asList(out));
        return c;
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(String.format("%02x", b & 0xFF));
        }
        return s.toString();
    }

    static Map<String, Object> indexEntry(FileIndex.IndexEntry e, ColumnType t) {
        String name = e.indexType().value();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("index_type", name);
        out.put("offset", (long) e.ofsPayload());
        out.put("length", (long) e.lenPayload());
        if (e.isEmpty()) {
            out.put("empty", true);
            return out;
        }
        Object payload = e.payload();
        if (payload instanceof BloomFilter) {
            BloomFilter b = (BloomFilter) payload;
            Map<String, Object> bloom = new LinkedHashMap<>();
            bloom.put("num_hash_functions", (long) b.numHashFunctions());
            bloom.put("num_bits", (long) b.numBits());
            bloom.put("bits", hex(b.bits()));
            out.put("payload", bloom);
        } else if (t != null && name.equals("bitmap")) {
            out.put("payload", bitmapIndex((byte[]) payload, t));
        } else if (t != null && name.equals("bsi")) {
            out.put("payload", bsi((byte[]) payload, t));
        } else if (t != null && name.equals("range-bitmap")) {
            out.put("payload", rangeBitmap((byte[]) payload, t));
        } else {
            out.put("payload_hex", hex((byte[]) payload));
        }
        return out;
    }

    /** The case of a file-index container; `types` is the request's (its `columns`: name and type of each). */
    static String decode(byte[] data, Object types) {
        Map<String, String> typeText = new HashMap<>();
        if (types instanceof Map && ((Map<?, ?>) types).get("columns") instanceof List) {
            for (Object c : (List<?>) ((Map<?, ?>) types).get("columns")) {
                if (c instanceof Map && ((Map<?, ?>) c).get("name") instanceof String && ((Map<?, ?>) c).get("type") instanceof String) {
                    typeText.put((String) ((Map<?, ?>) c).get("name"), (String) ((Map<?, ?>) c).get("type"));
                }
            }
        }
        FileIndex file = new FileIndex(new ByteBufferKaitaiStream(data));
        List<long[]> spans = new ArrayList<>();
        for (FileIndex.Column col : file.columns()) {
            for (FileIndex.IndexEntry e : col.indexes()) {
                if (!e.isEmpty() && e.lenPayload() > 0) {
                    spans.add(new long[] {e.ofsPayload(), (long) e.ofsPayload() + e.lenPayload()});
                }
            }
        }
        spans.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (int i = 1; i < spans.size(); i++) {
            if (spans.get(i)[0] < spans.get(i - 1)[1]) {
                throw new Testee.Refused("FILE_INDEX_PAYLOADS_OVERLAP", "payload at " + spans.get(i)[0] + " starts inside the payload at "
                        + spans.get(i - 1)[0] + ".." + spans.get(i - 1)[1]);
            }
        }
        List<Object> columns = new ArrayList<>();
        for (FileIndex.Column col : file.columns()) {
            String name = col.name().value();
            Map<String, Object> column = new LinkedHashMap<>();
            column.put("name", name);
            ColumnType t = null;
            if (typeText.containsKey(name)) {
                column.put("type", typeText.get(name));
                t = new ColumnType(typeText.get(name));
            }
            List<Object> indexes = new ArrayList<>();
            for (FileIndex.IndexEntry e : col.indexes()) {
                indexes.add(indexEntry(e, t));
            }
            column.put("indexes", indexes);
            columns.add(column);
        }
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("case_format", 1L);
        c.put("kind", "file-index");
        c.put("version", 1L);
        c.put("columns", columns);
        return Json.write(c);
    }
}
