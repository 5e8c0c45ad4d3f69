// Reads files written by someone else (our reference encoder) with Java
// Paimon's own readers, and reports what Java saw.
//
// Usage: java -cp <paimon jar>:<classes> GoldenReader REQUEST.json REPORT.json
//
// REQUEST.json: {"deletion_vectors": [{"file": path, "vectors": [{"offset": o, "length": l,
//                                      "ranges": [[first, last], ...]}]}],
//                "roaring32": [{"file": path, "ranges": [...]}],
//                "hash_index": [{"file": path}]}
// For every vector: DeletionVectorsIndexFile.readDeletionVector(DeletionFile(path, offset, length)),
// its cardinality and whether every expected position is deleted (and, given "probe": [[first, last], ...], the
// positions in those ranges isDeleted says are deleted, as ranges). For every bitmap:
// RoaringBitmap32.deserialize and its values. For every HASH file: HashIndexFile.read.
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.utils.IntIterator;
import org.apache.paimon.utils.PathFactory;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.File;
import java.nio.file.Files;
import java.util.Iterator;

public class GoldenReader {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Resolves file names against one folder; the readers never create files. */
    static final class Folder implements PathFactory {
        private final File dir;

        Folder(File dir) {
            this.dir = dir;
        }

        @Override
        public Path newPath() {
            throw new UnsupportedOperationException("read only");
        }

        @Override
        public Path toPath(String fileName) {
            return new Path(new File(dir, fileName).getAbsolutePath());
        }
    }

    public static void main(String[] args) throws Exception {
        JsonNode request = JSON.readTree(new File(args[0]));
        ObjectNode report = JSON.createObjectNode();
        ArrayNode dvs = report.putArray("deletion_vectors");
        for (JsonNode f : request.path("deletion_vectors")) {
            File file = new File(f.get("file").asText());
            DeletionVectorsIndexFile index = new DeletionVectorsIndexFile(
                    LocalFileIO.create(), new Folder(file.getParentFile()), MemorySize.ofMebiBytes(2));
            ArrayNode vectors = dvs.addObject().put("file", file.getPath()).putArray("vectors");
            for (JsonNode v : f.get("vectors")) {
                ObjectNode r = vectors.addObject();
                try {
                    DeletionVector dv = index.readDeletionVector(
                            new DeletionFile(file.getAbsolutePath(), v.get("offset").asLong(), v.get("length").asLong()));
                    r.put("cardinality", dv.getCardinality());
                    r.put("all_expected_positions_deleted", allDeleted(v.get("ranges"), dv));
                    if (v.has("probe")) {
                        r.set("deleted_in_probe", deletedIn(v.get("probe"), dv));
                    }
                } catch (Exception e) {
                    r.put("error", describe(e));
                }
            }
        }
        ArrayNode bitmaps = report.putArray("roaring32");
        for (JsonNode f : request.path("roaring32")) {
            ObjectNode r = bitmaps.addObject();
            try {
                RoaringBitmap32 bitmap = new RoaringBitmap32();
                bitmap.deserialize(Files.readAllBytes(new File(f.get("file").asText()).toPath()));
                ArrayNode values = r.putArray("values");
                Iterator<Integer> it = bitmap.iterator();
                while (it.hasNext()) {
                    values.add(Integer.toUnsignedLong(it.next()));
                }
            } catch (Exception e) {
                r.put("error", e.toString());
            }
        }
        ArrayNode hashes = report.putArray("hash_index");
        for (JsonNode f : request.path("hash_index")) {
            File file = new File(f.get("file").asText());
            ObjectNode r = hashes.addObject();
            try (IntIterator it = new HashIndexFile(LocalFileIO.create(), new Folder(file.getParentFile()))
                    .read(file.getName())) {
                ArrayNode values = r.putArray("hashes");
                for (int h : IntIterator.toInts(it)) {
                    values.add(h);
                }
            } catch (Exception e) {
                r.put("error", e.toString());
            }
        }
        JSON.writeValue(new File(args[1]), report);
    }

    /** The exception and its causes, so a report says why Java refused. */
    static String describe(Throwable e) {
        StringBuilder s = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            s.append(" <- ").append(c);
        }
        return s.toString();
    }

    /** The positions of the probe ranges that isDeleted says are deleted, as ranges [first, last]. */
    static ArrayNode deletedIn(JsonNode ranges, DeletionVector dv) {
        ArrayNode out = JSON.createArrayNode();
        for (JsonNode r : ranges) {
            long start = -1;
            for (long p = r.get(0).asLong(); p <= r.get(1).asLong() + 1; p++) {
                boolean deleted = p <= r.get(1).asLong() && dv.isDeleted(p);
                if (deleted && start < 0) {
                    start = p;
                } else if (!deleted && start >= 0) {
                    out.addArray().add(start).add(p - 1);
                    start = -1;
                }
            }
        }
        return out;
    }

    static boolean allDeleted(JsonNode ranges, DeletionVector dv) {
        for (JsonNode r : ranges) {
            for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                if (!dv.isDeleted(p)) {
                    return false;
                }
            }
        }
        return true;
    }
}
