// Writes golden deletion-vector and HASH index files with real Java Paimon
// classes, then reads every file back with Paimon's own readers.
//
// Usage: java -cp <paimon jar>:<classes> GoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java.py):
//   {"deletion_vectors": [{"name": ..., "target_size": bytes,
//                          "vectors": [{"data_file": ..., "ranges": [[first, last], ...]}]}],
//    "roaring32": [{"name": ..., "ranges": [[first, last], ...]}],
//    "hash_index": [{"name": ..., "hashes": [int, ...]}]}
// For each case the program writes OUT_DIR/<layout>/<name>/<file> and prints one JSON
// object per case to OUT_DIR/java-report.json with what Paimon recorded
// (IndexFileMeta: file name, size, row count, per data file offset and
// length) and what Paimon's readers returned.
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.utils.IntIterator;
import org.apache.paimon.utils.Pair;
import org.apache.paimon.utils.PathFactory;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.File;
import java.nio.file.Files;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class GoldenWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Names files <dir>/<name>-<n>, so golden file names are deterministic. */
    static final class NumberedPaths implements PathFactory {
        private final File dir;
        private final String stem;
        private int counter = 0;

        NumberedPaths(File dir, String stem) {
            this.dir = dir;
            this.stem = stem;
        }

        @Override
        public Path newPath() {
            return new Path(new File(dir, stem + "-" + (counter++)).getAbsolutePath());
        }

        @Override
        public Path toPath(String fileName) {
            return new Path(new File(dir, fileName).getAbsolutePath());
        }
    }

    public static void main(String[] args) throws Exception {
        JsonNode cases = JSON.readTree(new File(args[0]));
        File out = new File(args[1]);
        ObjectNode report = JSON.createObjectNode();
        ArrayNode dvReports = report.putArray("deletion_vectors");
        for (JsonNode c : cases.path("deletion_vectors")) {
            dvReports.add(writeDeletionVectors(c, new File(out, "deletion_vectors")));
        }
        ArrayNode roaringReports = report.putArray("roaring32");
        for (JsonNode c : cases.path("roaring32")) {
            roaringReports.add(writeRoaring32(c, new File(out, "roaring32")));
        }
        ArrayNode hashReports = report.putArray("hash_index");
        for (JsonNode c : cases.path("hash_index")) {
            hashReports.add(writeHashIndex(c, new File(out, "hash_index")));
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(new File(out, "java-report.json"), report);
    }

    static ObjectNode writeDeletionVectors(JsonNode c, File out) throws Exception {
        String name = c.get("name").asText();
        File dir = new File(out, name);
        dir.mkdirs();
        LocalFileIO fileIO = LocalFileIO.create();
        NumberedPaths paths = new NumberedPaths(dir, "index");
        DeletionVectorsIndexFile indexFile =
                new DeletionVectorsIndexFile(fileIO, paths, MemorySize.ofBytes(c.get("target_size").asLong()));

        // LinkedHashMap: the file order is the order the case lists the vectors.
        Map<String, DeletionVector> input = new LinkedHashMap<>();
        Map<String, Long> expectedCardinality = new LinkedHashMap<>();
        for (JsonNode v : c.get("vectors")) {
            BitmapDeletionVector dv = new BitmapDeletionVector();
            long count = 0;
            for (JsonNode r : v.get("ranges")) {
                for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                    dv.delete(p);
                    count++;
                }
            }
            input.put(v.get("data_file").asText(), dv);
            expectedCardinality.put(v.get("data_file").asText(), count);
        }
        List<IndexFileMeta> metas = indexFile.write(input);

        ObjectNode result = JSON.createObjectNode();
        result.put("name", name);
        ArrayNode files = result.putArray("files");
        for (IndexFileMeta meta : metas) {
            ObjectNode f = files.addObject();
            f.put("file_name", meta.fileName());
            f.put("index_type", meta.indexType());
            f.put("file_size", meta.fileSize());
            f.put("row_count", meta.rowCount());
            ArrayNode ranges = f.putArray("vectors");
            Map<String, DeletionVector> readAll = indexFile.readAllDeletionVectors(meta);
            for (Map.Entry<String, Pair<Integer, Integer>> e : meta.deletionVectorsRanges().entrySet()) {
                String dataFile = e.getKey();
                int offset = e.getValue().getLeft();
                int length = e.getValue().getRight();
                ObjectNode r = ranges.addObject();
                r.put("data_file", dataFile);
                r.put("offset", offset);
                r.put("length", length);
                // Java's per-split reader path: DeletionFile(path, offset, length).
                DeletionVector single = indexFile.readDeletionVector(
                        new DeletionFile(paths.toPath(meta.fileName()).toString(), offset, length));
                DeletionVector fromAll = readAll.get(dataFile);
                r.put("read_cardinality", single.getCardinality());
                r.put("read_all_cardinality", fromAll.getCardinality());
                r.put("expected_cardinality", expectedCardinality.get(dataFile));
                r.put("all_expected_positions_deleted", allDeleted(c, dataFile, single) && allDeleted(c, dataFile, fromAll));
            }
        }
        return result;
    }

    static boolean allDeleted(JsonNode c, String dataFile, DeletionVector dv) {
        for (JsonNode v : c.get("vectors")) {
            if (!v.get("data_file").asText().equals(dataFile)) {
                continue;
            }
            for (JsonNode r : v.get("ranges")) {
                for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                    if (!dv.isDeleted(p)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    static ObjectNode writeRoaring32(JsonNode c, File out) throws Exception {
        String name = c.get("name").asText();
        File dir = new File(out, name);
        dir.mkdirs();
        RoaringBitmap32 bitmap = new RoaringBitmap32();
        for (JsonNode r : c.get("ranges")) {
            for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                bitmap.add((int) p);
            }
        }
        byte[] bytes = bitmap.serialize();
        Files.write(new File(dir, "bitmap").toPath(), bytes);

        RoaringBitmap32 back = new RoaringBitmap32();
        back.deserialize(Files.readAllBytes(new File(dir, "bitmap").toPath()));
        ObjectNode result = JSON.createObjectNode();
        result.put("name", name);
        result.put("file_name", "bitmap");
        result.put("read_cardinality", back.getCardinality());
        ArrayNode values = result.putArray("read_values");
        Iterator<Integer> it = back.iterator();
        while (it.hasNext()) {
            values.add(Integer.toUnsignedLong(it.next()));
        }
        return result;
    }

    static ObjectNode writeHashIndex(JsonNode c, File out) throws Exception {
        String name = c.get("name").asText();
        File dir = new File(out, name);
        dir.mkdirs();
        JsonNode hashes = c.get("hashes");
        int[] values = new int[hashes.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = hashes.get(i).asInt();
        }
        NumberedPaths paths = new NumberedPaths(dir, "index");
        HashIndexFile hashIndexFile = new HashIndexFile(LocalFileIO.create(), paths);
        String fileName = hashIndexFile.write(IntIterator.create(values));

        ObjectNode result = JSON.createObjectNode();
        result.put("name", name);
        result.put("file_name", fileName);
        result.put("file_size", hashIndexFile.fileSize(fileName));
        ArrayNode read = result.putArray("read_hashes");
        try (IntIterator it = hashIndexFile.read(fileName)) {
            for (int v : IntIterator.toInts(it)) {
                read.add(v);
            }
        }
        return result;
    }
}
