// Writes SST data and index blocks with Paimon's own lookup-store writer, for the kit's BTree index
// writer to be compared with.
//
// Usage: java -cp <paimon 0.9.0 jar>:<classes> SstBlockCheck REQUEST.json REPORT.json
//
// REQUEST.json: {"files": [{"compression": "none"|"zstd"|"lz4", "block_size": n,
//                           "entries": [[key hex, value hex], ...]}]}
// REPORT.json: {"files": [{"bytes": hex, "footer_length": n}]}
//
// Paimon 0.9.0's SortLookupStoreWriter (org.apache.paimon.lookup.sort) writes its data blocks and
// index block exactly as 1.4.1's SstFileWriter (org.apache.paimon.sst), which BTreeIndexWriter uses:
// the same BlockWriter (aligned / unaligned entries), the same flush once BlockWriter.memory() passes
// the block size, the same compression rule and BlockTrailer, the same BlockHandle values. Only what
// follows the index block differs (0.9's lookup Footer; the BTree file's null bitmap and footer), so
// the file's bytes before its footer are the ones a BTree index file without NULL rows has before
// its own.
import org.apache.paimon.compression.CompressOptions;
import org.apache.paimon.io.cache.CacheManager;
import org.apache.paimon.lookup.sort.Footer;
import org.apache.paimon.lookup.sort.SortLookupStoreFactory;
import org.apache.paimon.lookup.sort.SortLookupStoreWriter;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.File;
import java.nio.file.Files;

public class SstBlockCheck {

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode request = mapper.readTree(new File(args[0]));
        ObjectNode report = mapper.createObjectNode();
        ArrayNode out = report.putArray("files");
        File dir = Files.createTempDirectory("sst-block-check").toFile();
        int n = 0;
        for (JsonNode spec : request.get("files")) {
            SortLookupStoreFactory factory =
                    new SortLookupStoreFactory(
                            (a, b) -> 0,
                            new CacheManager(MemorySize.ofMebiBytes(1)),
                            spec.get("block_size").asInt(),
                            new CompressOptions(spec.get("compression").asText(), 1));
            File file = new File(dir, "sst-" + n++);
            SortLookupStoreWriter writer = factory.createWriter(file, null);
            for (JsonNode e : spec.get("entries")) {
                writer.put(unhex(e.get(0).asText()), unhex(e.get(1).asText()));
            }
            writer.close();
            ObjectNode row = out.addObject();
            row.put("bytes", hex(Files.readAllBytes(file.toPath())));
            row.put("footer_length", Footer.ENCODED_LENGTH);
            file.delete();
        }
        dir.delete();
        mapper.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), report);
    }

    private static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    private static String hex(byte[] data) {
        StringBuilder sb = new StringBuilder();
        for (byte b : data) {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }
}
