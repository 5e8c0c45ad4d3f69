// Writes golden file-index containers with Java Paimon's own index writers and
// FileIndexFormat, then answers probes with Paimon's own readers.
//
// Usage: java -cp <paimon jar>:<classes> FileIndexGoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java.py):
//   {"file_index": [{"name": ...,
//      "columns": [{"name": ..., "type": "INT", "values": [internal values, null allowed],
//                   "indexes": [{"type": "bloom-filter", "options": {"items": "10"}}]}],
//      "probes": [{"column": ..., "op": "eq"|"not_eq"|"in"|"not_in"|"is_null"|"is_not_null",
//                  "values": [...]}]}]}
// Values are the internal forms: numbers; "NaN"/"Infinity"/"-Infinity" for floats; strings;
// hex for binary; [millis, nanoOfMilli] for timestamps.
// Writes OUT_DIR/file_index/<name>/index and a report (OUT_DIR/file-index-report.json) with
// each index's payload length and every probe's answer: for each index on the column, whether
// the file remains and, for bitmap results, the row positions.
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexReader;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResultLazy;
import org.apache.paimon.fs.ByteArraySeekableStream;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.FieldRef;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class FileIndexGoldenWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    static DataType type(String t) {
        String u = t.trim().toUpperCase();
        switch (u) {
            case "TINYINT": return DataTypes.TINYINT();
            case "SMALLINT": return DataTypes.SMALLINT();
            case "INT": return DataTypes.INT();
            case "BIGINT": return DataTypes.BIGINT();
            case "FLOAT": return DataTypes.FLOAT();
            case "DOUBLE": return DataTypes.DOUBLE();
            case "BOOLEAN": return DataTypes.BOOLEAN();
            case "DATE": return DataTypes.DATE();
            case "TIME": return DataTypes.TIME();
            case "STRING": return DataTypes.STRING();
            case "BYTES": return DataTypes.BYTES();
            default: break;
        }
        int open = u.indexOf('(');
        int p = Integer.parseInt(u.substring(open + 1, u.indexOf(')')).trim());
        if (u.startsWith("TIMESTAMP_LTZ")) return DataTypes.TIMESTAMP_WITH_LOCAL_TIME_ZONE(p);
        if (u.startsWith("TIMESTAMP")) return DataTypes.TIMESTAMP(p);
        if (u.startsWith("VARCHAR")) return DataTypes.VARCHAR(p);
        if (u.startsWith("CHAR")) return DataTypes.CHAR(p);
        if (u.startsWith("VARBINARY")) return DataTypes.VARBINARY(p);
        if (u.startsWith("BINARY")) return DataTypes.BINARY(p);
        throw new IllegalArgumentException("type " + t);
    }

    static Object value(String t, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        String u = t.trim().toUpperCase();
        if (u.equals("TINYINT")) return (byte) v.asInt();
        if (u.equals("SMALLINT")) return (short) v.asInt();
        if (u.equals("INT") || u.equals("DATE") || u.equals("TIME")) return v.asInt();
        if (u.equals("BIGINT")) return v.asLong();
        if (u.equals("BOOLEAN")) return v.asBoolean();
        if (u.equals("FLOAT")) return v.isTextual() ? Float.parseFloat(v.asText()) : (float) v.asDouble();
        if (u.equals("DOUBLE")) return v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
        if (u.equals("STRING") || u.startsWith("VARCHAR") || u.startsWith("CHAR")) {
            return BinaryString.fromString(v.asText());
        }
        if (u.startsWith("TIMESTAMP")) return Timestamp.fromEpochMillis(v.get(0).asLong(), v.get(1).asInt());
        if (u.equals("BYTES") || u.contains("BINARY")) return hex(v.asText());
        throw new IllegalArgumentException("type " + t);
    }

    static byte[] hex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        JsonNode cases = JSON.readTree(new File(args[0]));
        File out = new File(args[1]);
        ArrayNode report = JSON.createArrayNode();
        for (JsonNode c : cases.path("file_index")) {
            report.add(write(c, new File(out, "file_index")));
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(new File(out, "file-index-report.json"), report);
    }

    static ObjectNode write(JsonNode c, File out) throws Exception {
        String name = c.get("name").asText();
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        List<DataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        ObjectNode result = JSON.createObjectNode();
        result.put("name", name);
        ArrayNode lengths = result.putArray("payload_lengths");
        for (JsonNode col : c.get("columns")) {
            String colName = col.get("name").asText();
            String typeName = col.get("type").asText();
            DataType dataType = type(typeName);
            names.add(colName);
            types.add(dataType);
            Map<String, byte[]> perType = new LinkedHashMap<>();
            for (JsonNode idx : col.get("indexes")) {
                if (idx.path("empty").asBoolean()) {
                    perType.put(idx.get("type").asText(), null); // FileIndexFormat writes start -1
                    continue;
                }
                Options options = new Options();
                idx.path("options").fields().forEachRemaining(e -> options.set(e.getKey(), e.getValue().asText()));
                FileIndexWriter writer = FileIndexer.create(idx.get("type").asText(), dataType, options).createWriter();
                for (JsonNode v : col.get("values")) {
                    writer.writeRecord(value(typeName, v));
                }
                byte[] payload = writer.serializedBytes();
                perType.put(idx.get("type").asText(), payload);
                lengths.addObject().put("column", colName).put("type", idx.get("type").asText())
                        .put("length", payload.length);
            }
            indexes.put(colName, perType);
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (FileIndexFormat.Writer writer = FileIndexFormat.createWriter(buffer)) {
            writer.writeColumnIndexes(indexes);
        }
        byte[] bytes = buffer.toByteArray();
        File dir = new File(out, name);
        dir.mkdirs();
        Files.write(new File(dir, "index").toPath(), bytes);

        RowType rowType = RowType.of(types.toArray(new DataType[0]), names.toArray(new String[0]));
        ArrayNode answers = result.putArray("probes");
        for (JsonNode probe : c.path("probes")) {
            String col = probe.get("column").asText();
            int fieldIndex = names.indexOf(col);
            String typeName = c.get("columns").get(fieldIndex).get("type").asText();
            FieldRef ref = new FieldRef(fieldIndex, col, types.get(fieldIndex));
            List<Object> literals = new ArrayList<>();
            for (JsonNode v : probe.path("values")) {
                literals.add(value(typeName, v));
            }
            ObjectNode answer = answers.addObject();
            answer.set("probe", probe);
            ArrayNode perIndex = answer.putArray("results");
            try (FileIndexFormat.Reader reader =
                    FileIndexFormat.createReader(new ByteArraySeekableStream(bytes), rowType)) {
                Set<FileIndexReader> readers = reader.readColumnIndex(col);
                for (FileIndexReader r : readers) {
                    FileIndexResult res = visit(r, probe.get("op").asText(), ref, literals);
                    ObjectNode one = perIndex.addObject();
                    one.put("reader", r.getClass().getName());
                    one.put("remain", res.remain());
                    if (res instanceof BitmapIndexResultLazy) {
                        RoaringBitmap32 rows = ((BitmapIndexResultLazy) res).get();
                        ArrayNode list = one.putArray("rows");
                        Iterator<Integer> it = rows.iterator();
                        while (it.hasNext()) {
                            list.add(it.next());
                        }
                    }
                }
            }
        }
        return result;
    }

    static FileIndexResult visit(FileIndexReader r, String op, FieldRef ref, List<Object> literals) {
        switch (op) {
            case "eq": return r.visitEqual(ref, literals.get(0));
            case "not_eq": return r.visitNotEqual(ref, literals.get(0));
            case "in": return r.visitIn(ref, literals);
            case "not_in": return r.visitNotIn(ref, literals);
            case "is_null": return r.visitIsNull(ref);
            case "is_not_null": return r.visitIsNotNull(ref);
            default: throw new IllegalArgumentException(op);
        }
    }
}
