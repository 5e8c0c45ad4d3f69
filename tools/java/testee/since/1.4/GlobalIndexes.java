// The testee's global-index layouts (Paimon 1.4 on): btree-global-index and bitmap-global-index, written by the
// release's own GlobalIndexer ("btree", "bitmap") over one column, row i given relative row id i. Encode, and
// query: a predicate evaluated by the release's GlobalIndexEvaluator over the indexer's reader of the file (a
// global index is read through predicates, not back into its values). Compiled only against releases that have
// global indexes and found by the testee by name; the writer's write(key, rowId) is reached by reflection
// because its interface moved between 1.4 and 2.0.
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.globalindex.GlobalIndexEvaluator;
import org.apache.paimon.globalindex.GlobalIndexIOMeta;
import org.apache.paimon.globalindex.GlobalIndexReader;
import org.apache.paimon.globalindex.GlobalIndexResult;
import org.apache.paimon.globalindex.GlobalIndexWriter;
import org.apache.paimon.globalindex.GlobalIndexer;
import org.apache.paimon.globalindex.ResultEntry;
import org.apache.paimon.globalindex.io.GlobalIndexFileReader;
import org.apache.paimon.globalindex.io.GlobalIndexFileWriter;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowType;

import java.io.File;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.Comparator;
import java.util.List;

public final class GlobalIndexes {

    private GlobalIndexes() {}

    /** (key, row id) of every row in the order the sorted index builders feed the writer: NULL keys first, then
     * the keys by the release's KeySerializer comparator, equal keys by row id. */
    static List<Object[]> sorted(DataType type, JsonNode values) throws Exception {
        Class<?> serializers = Testee.feature("org.apache.paimon.globalindex.KeySerializer");
        if (serializers == null) {
            serializers = Class.forName("org.apache.paimon.globalindex.btree.KeySerializer");
        }
        Object serializer = serializers.getMethod("create", DataType.class).invoke(null, type);
        @SuppressWarnings("unchecked")
        Comparator<Object> order = (Comparator<Object>) serializers.getMethod("createComparator").invoke(serializer);
        List<Object[]> nulls = new ArrayList<>();
        List<Object[]> keys = new ArrayList<>();
        long row = 0;
        for (JsonNode v : values) {
            Object key = Testee.internal(type, v);
            (key == null ? nulls : keys).add(new Object[] {key, row++});
        }
        keys.sort((a, b) -> order.compare(a[0], b[0])); // stable: equal keys keep row order
        nulls.addAll(keys);
        return nulls;
    }

    /** The one index file this release's GlobalIndexer writes for the case's rows. */
    public static byte[] encode(JsonNode c) throws Exception {
        String kind = c.get("kind").asText();
        Options options = new Options();
        String identifier;
        if (kind.equals("btree-global-index")) {
            identifier = "btree";
            if (c.has("block_size")) {
                options.set("btree-index.block-size", c.get("block_size").asLong() + "b");
            }
            if (c.has("compression")) {
                options.set("btree-index.compression", c.get("compression").asText());
            }
        } else {
            identifier = "bitmap";
            if (c.has("dictionary_block_size")) {
                options.set("bitmap-index.dictionary-block-size", c.get("dictionary_block_size").asLong() + "b");
            }
            if (c.has("compression")) {
                options.set("bitmap-index.compression", c.get("compression").asText());
            }
        }
        DataType type = DataTypeJsonParser.parseAtomicTypeSQLString(c.get("type").asText());
        File dir = Files.createTempDirectory("testee-global-index").toFile();
        try {
            LocalFileIO io = LocalFileIO.create();
            int[] files = {0};
            GlobalIndexFileWriter output = new GlobalIndexFileWriter() {
                @Override
                public String newFileName(String prefix) {
                    return prefix + "-" + (files[0]++) + ".index";
                }

                @Override
                public PositionOutputStream newOutputStream(String name) throws java.io.IOException {
                    return io.newOutputStream(new Path(new File(dir, name).getPath()), false);
                }
            };
            GlobalIndexer indexer = GlobalIndexer.create(identifier, new DataField(0, "v", type), options);
            GlobalIndexWriter writer = indexer.createWriter(output);
            Method write = writer.getClass().getMethod("write", Object.class, long.class);
            for (Object[] entry : sorted(type, c.get("row_values"))) {
                Reflection.call(() -> write.invoke(writer, entry[0], entry[1]));
            }
            List<ResultEntry> written = writer.finish();
            if (written.size() != 1) {
                throw new IllegalStateException("the writer wrote " + written.size() + " index files, not one");
            }
            return Files.readAllBytes(new File(dir, written.get(0).fileName()).toPath());
        } finally {
            Testee.deleteTree(dir);
        }
    }

    /**
     * The answer of this release's GlobalIndexEvaluator to `predicate` over one index file of `kind` on the one
     * column of `rowType`: "remain" (no index answer), or the relative rows that may match. `meta` is the
     * entry's _INDEX_META (SortedIndexFileMeta; null for none), as the scan hands it to the reader.
     */
    public static void query(String kind, RowType rowType, Predicate predicate, byte[] data, byte[] meta,
            ObjectNode reply) throws Exception {
        String identifier = kind.equals("btree-global-index") ? "btree" : "bitmap";
        File dir = Files.createTempDirectory("testee-global-query").toFile();
        try {
            File file = new File(dir, "query.index");
            Files.write(file.toPath(), data);
            LocalFileIO io = LocalFileIO.create();
            GlobalIndexIOMeta ioMeta = new GlobalIndexIOMeta(new Path(file.getPath()), data.length, meta);
            GlobalIndexer indexer = GlobalIndexer.create(identifier, rowType.getFields().get(0), new Options());
            GlobalIndexFileReader files = m -> io.newInputStream(m.filePath());
            List<GlobalIndexIOMeta> metas = Collections.singletonList(ioMeta);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            Optional<GlobalIndexResult> result;
            try {
                // 2.0 reads on an executor; 1.4 has no such argument
                GlobalIndexReader reader = (GlobalIndexReader) Reflection.invoke(indexer, "createReader",
                        new Object[] {files, metas, pool}, new Object[] {files, metas});
                try (GlobalIndexEvaluator evaluator = new GlobalIndexEvaluator(rowType,
                        id -> Collections.singletonList(reader))) {
                    result = evaluator.evaluate(predicate);
                }
            } finally {
                pool.shutdownNow();
            }
            if (!result.isPresent()) {
                reply.put("result", "remain");
                return;
            }
            reply.put("result", "rows");
            ArrayNode rows = reply.putArray("rows");
            Iterator<Long> it = result.get().results().iterator();
            while (it.hasNext()) {
                rows.add(it.next());
            }
        } finally {
            Testee.deleteTree(dir);
        }
    }
}
