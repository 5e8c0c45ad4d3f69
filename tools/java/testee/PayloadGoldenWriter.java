// Writes lone file-index payloads (bitmap, bsi, range-bitmap, bloom-filter) with one Paimon release's own
// index writers and answers each payload's probes with that release's reader, as the testee's query does.
//
// Usage: java -cp <release class path>:<testee classes> PayloadGoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java_payloads.py):
//   [{"name": ..., "kind": "bitmap"|"bsi"|"range-bitmap"|"bloom-filter", "type": "INT", "options": {...},
//     "row_values": [logical JSON values, null for null], "probes": [protocol predicates on column "v"]}]
// or a file-index container: {"name": ..., "kind": "file-index", "columns": [{"name", "type", "row_values",
//     "indexes": [{"type": kind, "options": {...}}]}], "probes": [protocol predicates on its columns]}, written
//     with FileIndexFormat.Writer.writeColumnIndexes (columns and indexes in the case's order)
// Writes OUT_DIR/<name>.bin for every case the release writes, and OUT_DIR/report.json: per case, the
// payload's length and each probe's reply, or the error the release's writer raised.
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.options.Options;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

public class PayloadGoldenWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        JsonNode cases = JSON.readTree(new File(args[0]));
        File out = new File(args[1]);
        out.mkdirs();
        ArrayNode report = JSON.createArrayNode();
        for (JsonNode c : cases) {
            ObjectNode result = report.addObject();
            result.put("name", c.get("name").asText());
            byte[] payload;
            try {
                payload = write(c);
            } catch (Exception | Error e) {
                result.put("error", e.getClass().getName() + ": " + e.getMessage());
                continue;
            }
            Files.write(new File(out, c.get("name").asText() + ".bin").toPath(), payload);
            result.put("length", payload.length);
            ArrayNode probes = result.putArray("probes");
            for (JsonNode predicate : c.path("probes")) {
                ObjectNode request = JSON.createObjectNode();
                request.put("kind", c.get("kind").asText());
                request.put("data", Testee.hex(payload));
                if (c.has("columns")) {
                    ObjectNode types = request.putObject("types");
                    c.get("columns").forEach(col -> types.put(col.get("name").asText(), col.get("type").asText()));
                } else {
                    request.putObject("types").put("v", c.get("type").asText());
                }
                request.set("predicate", predicate);
                ObjectNode reply = JSON.createObjectNode();
                try {
                    Testee.query(request, reply);
                } catch (Exception | Error e) {
                    reply.put("error", e.getClass().getName() + ": " + e.getMessage());
                }
                probes.addObject().<ObjectNode>set("predicate", predicate).set("reply", reply);
            }
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(new File(out, "report.json"), report);
    }

    /** The bytes of the case: a lone payload, or a container of its columns' payloads. */
    static byte[] write(JsonNode c) throws Exception {
        if (!c.has("columns")) {
            return payload(c.get("kind").asText(), c.get("type").asText(), c.path("options"), c.get("row_values"));
        }
        Map<String, Map<String, byte[]>> indexes = new LinkedHashMap<>();
        for (JsonNode col : c.get("columns")) {
            Map<String, byte[]> perKind = new LinkedHashMap<>();
            for (JsonNode index : col.get("indexes")) {
                String kind = index.get("type").asText();
                perKind.put(kind, payload(kind, col.get("type").asText(), index.path("options"), col.get("row_values")));
            }
            indexes.put(col.get("name").asText(), perKind);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (FileIndexFormat.Writer writer = FileIndexFormat.createWriter(out)) {
            writer.writeColumnIndexes(indexes);
        }
        return out.toByteArray();
    }

    /** The payload this release's writer of `kind` makes from the rows, in order. */
    static byte[] payload(String kind, String type, JsonNode optionsJson, JsonNode rows) throws Exception {
        DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(type);
        Options options = new Options();
        optionsJson.fields().forEachRemaining(e -> options.set(e.getKey(), e.getValue().asText()));
        FileIndexWriter writer = FileIndexer.create(kind, t, options).createWriter();
        for (JsonNode v : rows) {
            writer.writeRecord(Testee.internal(t, v));
        }
        return writer.serializedBytes();
    }
}
