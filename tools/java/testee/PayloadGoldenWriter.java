// Writes lone file-index payloads (bitmap, bsi, range-bitmap, bloom-filter) with one Paimon release's own
// index writers and answers each payload's probes with that release's reader, as the testee's query does.
//
// Usage: java -cp <release class path>:<testee classes> PayloadGoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java_payloads.py):
//   [{"name": ..., "kind": "bitmap"|"bsi"|"range-bitmap"|"bloom-filter", "type": "INT", "options": {...},
//     "row_values": [logical JSON values, null for null], "probes": [protocol predicates on column "v"]}]
// Writes OUT_DIR/<name>.bin for every case the release writes, and OUT_DIR/report.json: per case, the
// payload's length and each probe's reply, or the error the release's writer raised.
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.options.Options;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;

import java.io.File;
import java.nio.file.Files;

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
                request.putObject("types").put("v", c.get("type").asText());
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

    /** The payload this release's writer of the case's kind makes from its rows, in order. */
    static byte[] write(JsonNode c) throws Exception {
        DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(c.get("type").asText());
        Options options = new Options();
        c.path("options").fields().forEachRemaining(e -> options.set(e.getKey(), e.getValue().asText()));
        FileIndexWriter writer = FileIndexer.create(c.get("kind").asText(), t, options).createWriter();
        for (JsonNode v : c.get("row_values")) {
            writer.writeRecord(Testee.internal(t, v));
        }
        return writer.serializedBytes();
    }
}
