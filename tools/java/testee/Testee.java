// Java Paimon as a testee of paimon-conform's testee protocol (version 1: JSON lines on stdin and stdout,
// src/paimon_conform/schemas/testee_protocol.json). Compiled against each bundled jar (0.9.0, 1.0-SNAPSHOT) and
// started by tools/testees/java_paimon.py; every answer comes from Java Paimon's own classes:
//
//   decode / encode  roaring32 (RoaringBitmap32.deserialize / serialize), hash-index (HashIndexFile.read /
//                    write), deletion-vectors (DeletionVectorsIndexFile.readDeletionVector per vector, the
//                    vectors found by their length fields after the version byte / DeletionVectorsIndexFile.write);
//                    the layouts of newer releases by the classes of since/<first release>/ (FEATURES)
//   hash             the key's BinaryRow from the generated projection FixedBucketRowKeyExtractor uses, its
//                    hashCode, and the extractor's bucket per count (these releases have one bucket function)
//   read-table       FileStoreTable batch read of the latest snapshot; with "probe" (columns), TablesReader's read:
//                    filtered reads per distinct value, rows re-hashed to their buckets, index manifest, HASH files
//   query            file-index containers: FileIndexFormat.Reader's column readers; a lone payload (bloom-filter,
//                    bitmap, bsi, range-bitmap: the kinds this release's FileIndexer.create makes): that index's
//                    reader over the whole payload, as FileIndexFormat.Reader opens one; the predicate as
//                    PredicateBuilder builds it, evaluated by FileIndexPredicate's own (private) visitor, reached by
//                    reflection
//   write-table      SchemaManager.createTable (not with `existing`: another writer made the table), then one
//                    BatchTableWrite + commit per batch (createAndCommit)
//
// Usage: java -cp <jar>:<classes> Testee PAIMON_VERSION JAVA_RELEASE
// Paimon's logging goes to stderr: stdout carries only replies.
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fileindex.FileIndexFormat;
import org.apache.paimon.fileindex.FileIndexReader;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.fs.ByteArraySeekableStream;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.IntIterator;
import org.apache.paimon.utils.PathFactory;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class Testee {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] LAYOUTS = {"deletion-vectors", "hash-index", "roaring32"};
    private static final String[] TABLE_KINDS = {
        "append", "append-bucketed", "custom", "existing", "pk", "pk-dv", "pk-partitioned"
    };
    private static String version;
    private static String release;

    public static void main(String[] args) throws Exception {
        version = args[0];
        release = args[1];
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            JsonNode request = JSON.readTree(line);
            if (request.path("op").asText().equals("bye")) {
                return;
            }
            ObjectNode reply = JSON.createObjectNode();
            reply.set("id", request.get("id"));
            try {
                answer(request, reply);
            } catch (Throwable e) {
                reply.removeAll();
                reply.set("id", request.get("id"));
                reply.putObject("error").put("message", Failure.describe(e));
            }
            out.println(JSON.writeValueAsString(reply));
        }
    }

    static void answer(JsonNode request, ObjectNode reply) throws Exception {
        String op = request.path("op").asText();
        switch (op) {
            case "hello":
                hello(reply);
                return;
            case "decode":
                reply.set("case", decode(request.get("kind").asText(), unhex(request.get("data").asText()),
                        request.path("types")));
                return;
            case "encode":
                reply.put("data", hex(encode(request.get("case"))));
                return;
            case "hash":
                hash(request, reply);
                return;
            case "query":
                query(request, reply);
                return;
            case "read-table":
                if (request.has("probe")) {
                    TablesReader.readTable(request.get("path").asText(), request, reply, Testee::logical);
                } else {
                    reply.set("rows", readTable(request.get("path").asText(), request.get("fields")));
                }
                return;
            case "write-table":
                writeTable(
                        request.get("path").asText(),
                        request.get("table"),
                        request.get("commits"),
                        request.path("existing").asBoolean(false));
                reply.put("ok", true);
                return;
            default:
                throw new IllegalArgumentException("unknown operation " + op);
        }
    }

    static void hello(ObjectNode reply) {
        reply.put("name", "java-paimon");
        reply.put("version", version);
        reply.put("protocol", 1);
        reply.put("java_release", release);
        ObjectNode caps = reply.putObject("capabilities");
        for (String op : new String[] {"decode", "encode"}) {
            ArrayNode kinds = caps.putArray(op);
            for (String k : LAYOUTS) {
                kinds.add(k);
            }
            for (String[] f : FEATURES) {
                if (feature(f[1]) != null && feature(f[3]) != null && Arrays.asList(f[2].split(" ")).contains(op)) {
                    kinds.add(f[0]);
                }
            }
        }
        caps.putArray("hash").add("binary-row");
        ArrayNode queries = caps.putArray("query").add("file-index");
        for (String kind : INDEX_KINDS) {
            if (indexer(kind) != null) {
                queries.add(kind);
            }
        }
        for (String kind : GLOBAL_INDEX_KINDS) {
            if (declared(kind)) {
                queries.add(kind);
            }
        }
        caps.putArray("read-table").add("table").add("probe");
        ArrayNode writes = caps.putArray("write-table");
        for (String k : TABLE_KINDS) {
            writes.add(k);
        }
    }

    // ------------------------------------------------------------------ layouts

    /** The case of a file of a layout the testee declares; `types`: the request's column types (a BLOB file's
     * fields). */
    static ObjectNode decode(String kind, byte[] data, JsonNode types) throws Exception {
        ObjectNode c = JSON.createObjectNode();
        c.put("case_format", 1);
        c.put("kind", kind);
        switch (kind) {
            case "roaring32": {
                RoaringBitmap32 bitmap = ReleaseApi.roaring(data);
                c.put("cardinality", bitmap.getCardinality());
                ranges(bitmap.iterator(), c.putArray("ranges"));
                return c;
            }
            case "hash-index": {
                File dir = Files.createTempDirectory("testee-hash").toFile();
                try {
                    File file = new File(dir, "hash");
                    Files.write(file.toPath(), data);
                    ArrayNode hashes = JSON.createArrayNode();
                    for (int h : ReleaseApi.readHashFile(file)) {
                        hashes.add(h);
                    }
                    c.put("count", hashes.size());
                    c.set("hashes", hashes);
                    return c;
                } finally {
                    deleteTree(dir);
                }
            }
            case "deletion-vectors":
                return decodeVectors(data, c);
            default:
                Reflection.call(() -> featureOf(kind)
                        .getMethod("decode", byte[].class, ObjectNode.class, JsonNode.class)
                        .invoke(null, data, c, types));
                return c;
        }
    }

    /** The vectors of an index file: each found by its length field, read by Java's per-split reader. */
    static ObjectNode decodeVectors(byte[] data, ObjectNode c) throws Exception {
        if (data.length == 0 || data[0] != DeletionVectorsIndexFile.VERSION_ID_V1) {
            throw new IllegalArgumentException("not a version 1 deletion vectors file");
        }
        c.put("version", data[0]);
        ArrayNode vectors = c.putArray("vectors");
        File dir = Files.createTempDirectory("testee-dv").toFile();
        try {
            File file = new File(dir, "index");
            Files.write(file.toPath(), data);
            int pos = 1;
            while (pos < data.length) {
                if (data.length - pos < 4) {
                    throw new IllegalArgumentException("a length field cut short at " + pos);
                }
                int length = ByteBuffer.wrap(data, pos, 4).getInt();
                if (length < 0 || length > data.length - pos - 8) {
                    throw new IllegalArgumentException("a vector of " + length + " bytes at " + pos + " overruns");
                }
                long span = ReleaseApi.vectorSpan(data, pos, length);
                DeletionVector dv = ReleaseApi.readVector(file, pos, span);
                ObjectNode v = vectors.addObject();
                v.put("bitmap", ReleaseApi.is64(dv) ? "bitmap64" : "bitmap32");
                v.put("offset", pos);
                v.put("length", span);
                v.put("cardinality", dv.getCardinality());
                RangeCollector ranges = new RangeCollector(v.putArray("ranges"));
                ReleaseApi.positions(dv, ranges);
                ranges.finish();
                pos += 4 + length + 4;
            }
            return c;
        } finally {
            deleteTree(dir);
        }
    }

    static void ranges(Iterator<Integer> it, ArrayNode out) {
        RangeCollector ranges = new RangeCollector(out);
        it.forEachRemaining(p -> ranges.accept(Integer.toUnsignedLong(p)));
        ranges.finish();
    }

    /** Ascending positions to [first, last] ranges. */
    static final class RangeCollector implements java.util.function.LongConsumer {
        private final ArrayNode out;
        private long first = -2;
        private long last = -2;

        RangeCollector(ArrayNode out) {
            this.out = out;
        }

        @Override
        public void accept(long v) {
            if (v != last + 1) {
                finish();
                first = v;
            }
            last = v;
        }

        void finish() {
            if (first >= 0) {
                out.addArray().add(first).add(last);
            }
            first = -2;
        }
    }

    /** The layouts of newer releases: kind, the class under tools/java/testee/since/ that reads and writes it
     * (compiled only for the releases that have the layout), the operations it does, and the class whose
     * presence says the release has the layout. */
    private static final String[][] FEATURES = {
        {"roaring64", "Roaring64", "decode encode", "Roaring64"},
        {"blob-descriptor", "BlobDescriptors", "decode encode", "BlobDescriptors"},
        {"blob-file", "BlobFiles", "decode encode", "BlobFiles"},
        {"row-file", "RowFiles", "decode encode", "RowFiles"},
        {"btree-global-index", "GlobalIndexes", "encode", "GlobalIndexes"},
        // 1.4's "bitmap" global index wraps the file-index bitmap; the BGIX layout's writer arrived in 2.0
        {"bitmap-global-index", "GlobalIndexes", "encode", "org.apache.paimon.globalindex.bitmap.BitmapGlobalIndexWriter"},
    };

    /** A class compiled into this release's testee, or null. */
    static Class<?> feature(String className) {
        try {
            return Class.forName(className);
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** Whether this release's testee has the layout `kind` of FEATURES. */
    static boolean declared(String kind) {
        return featureClass(kind) != null;
    }

    /** The feature class of a kind this release's testee has; IllegalArgumentException otherwise. */
    static Class<?> featureOf(String kind) {
        Class<?> c = featureClass(kind);
        if (c == null) {
            throw new IllegalArgumentException("kind " + kind + " is not declared");
        }
        return c;
    }

    /** The class under since/ of a layout of FEATURES this release has, or null. */
    private static Class<?> featureClass(String kind) {
        for (String[] f : FEATURES) {
            if (f[0].equals(kind) && feature(f[1]) != null && feature(f[3]) != null) {
                return feature(f[1]);
            }
        }
        return null;
    }

    static byte[] encode(JsonNode c) throws Exception {
        String kind = c.get("kind").asText();
        switch (kind) {
            case "roaring32": {
                RoaringBitmap32 bitmap = new RoaringBitmap32();
                for (JsonNode r : c.get("ranges")) {
                    for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                        bitmap.add((int) p);
                    }
                }
                return bitmap.serialize();
            }
            case "hash-index": {
                JsonNode hashes = c.get("hashes");
                int[] values = new int[hashes.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = hashes.get(i).asInt();
                }
                File dir = Files.createTempDirectory("testee-hash").toFile();
                try {
                    return Files.readAllBytes(ReleaseApi.writeHashFile(dir, values).toPath());
                } finally {
                    deleteTree(dir);
                }
            }
            case "deletion-vectors": {
                Map<String, DeletionVector> input = new LinkedHashMap<>();
                java.util.Set<String> kinds = new java.util.TreeSet<>();
                for (JsonNode v : c.get("vectors")) {
                    kinds.add(v.path("bitmap").asText("bitmap32"));
                }
                if (kinds.size() > 1) {
                    throw new IllegalArgumentException(
                            "Paimon writes one kind of vector per index file (deletion-vectors.bitmap64), not " + kinds);
                }
                boolean bitmap64 = kinds.contains("bitmap64");
                for (JsonNode v : c.get("vectors")) {
                    DeletionVector dv = ReleaseApi.newVector(bitmap64);
                    for (JsonNode r : v.get("ranges")) {
                        for (long p = r.get(0).asLong(); p <= r.get(1).asLong(); p++) {
                            dv.delete(p);
                        }
                    }
                    input.put("data-" + input.size(), dv);
                }
                File dir = Files.createTempDirectory("testee-dv").toFile();
                try {
                    return Files.readAllBytes(ReleaseApi.writeVectors(dir, input, bitmap64).toPath());
                } finally {
                    deleteTree(dir);
                }
            }
            default:
                return (byte[]) Reflection.call(() -> featureOf(kind).getMethod("encode", JsonNode.class)
                        .invoke(null, c));
        }
    }

    // ------------------------------------------------------------------ hash

    static void hash(JsonNode request, ObjectNode reply) {
        String function = request.path("bucket_function").asText("default");
        if (!function.equals("default")) {
            throw new IllegalArgumentException("Paimon " + version + " has no bucket function " + function);
        }
        List<DataField> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        JsonNode types = request.get("types");
        GenericRow input = new GenericRow(types.size());
        for (int i = 0; i < types.size(); i++) {
            DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(types.get(i).asText());
            fields.add(new DataField(i, "f" + i, t));
            names.add("f" + i);
            input.setField(i, internal(t, request.get("values").get(i)));
        }
        int[] all = new int[fields.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        BinaryRow key = CodeGenUtils.newProjection(new RowType(fields), all).apply(input).copy();
        reply.put("row", hex(key.toBytes()));
        reply.put("hash", key.hashCode());
        ObjectNode buckets = reply.putObject("buckets");
        for (JsonNode n : request.get("buckets")) {
            Map<String, String> options = new HashMap<>();
            options.put("bucket", n.asText());
            options.put("bucket-key", String.join(",", names));
            TableSchema schema = new TableSchema(
                    0, fields, fields.size() - 1, Collections.emptyList(), Collections.emptyList(), options, "");
            FixedBucketRowKeyExtractor extractor = new FixedBucketRowKeyExtractor(schema);
            extractor.setRecord(input);
            buckets.put(n.asText(), extractor.bucket());
        }
    }

    // ------------------------------------------------------------------ query

    /** The index kinds a lone payload may hold (the kit's KNOWN_INDEXES). */
    private static final String[] INDEX_KINDS = {"bloom-filter", "bitmap", "bsi", "range-bitmap"};
    /** The global-index layouts a release with them answers predicates on (FEATURES says which it has). */
    private static final String[] GLOBAL_INDEX_KINDS = {"btree-global-index", "bitmap-global-index"};

    /** This release's FileIndexer of `kind` for an INT column, or null when the release has no such index. */
    static FileIndexer indexer(String kind) {
        try {
            return FileIndexer.create(kind, DataTypes.INT(), new Options());
        } catch (RuntimeException e) {
            return null;
        }
    }

    static void query(JsonNode request, ObjectNode reply) throws Exception {
        String kind = request.get("kind").asText();
        boolean lone = Arrays.asList(INDEX_KINDS).contains(kind);
        boolean global = Arrays.asList(GLOBAL_INDEX_KINDS).contains(kind);
        if (global) {
            featureOf(kind); // declared by this release, else IllegalArgumentException
        } else if (!kind.equals("file-index") && !lone) {
            throw new IllegalArgumentException("Paimon " + version + " has no index kind " + kind);
        }
        List<DataField> fields = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> types = request.get("types").fields();
        while (types.hasNext()) {
            Map.Entry<String, JsonNode> e = types.next();
            DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(e.getValue().asText());
            fields.add(new DataField(fields.size(), e.getKey(), t));
        }
        RowType rowType = new RowType(fields);
        Predicate predicate = predicate(new PredicateBuilder(rowType), rowType, request.get("predicate"));
        byte[] data = unhex(request.get("data").asText());
        if (global) {
            if (fields.size() != 1) {
                throw new IllegalArgumentException("a " + kind + " file has one column");
            }
            byte[] meta = request.hasNonNull("index_meta") ? unhex(request.get("index_meta").asText()) : null;
            Method query = featureOf(kind).getMethod("query", String.class, RowType.class, Predicate.class,
                    byte[].class, byte[].class, ObjectNode.class);
            Reflection.call(() -> query.invoke(null, kind, rowType, predicate, data, meta, reply));
            return;
        }
        Map<String, Collection<FileIndexReader>> readers = new HashMap<>();
        if (lone) {
            if (fields.size() != 1) {
                throw new IllegalArgumentException("a lone " + kind + " payload has one column");
            }
            DataField f = fields.get(0);
            FileIndexer indexer = FileIndexer.create(kind, f.type(), new Options());
            readers.put(f.name(), Collections.singletonList(
                    indexer.createReader(new ByteArraySeekableStream(data), 0, data.length)));
            answer(evaluate(readers, predicate), reply);
            return;
        }
        try (FileIndexFormat.Reader reader = new FileIndexFormat.Reader(new ByteArraySeekableStream(data), rowType)) {
            for (DataField f : fields) {
                readers.put(f.name(), reader.readColumnIndex(f.name()));
            }
            answer(evaluate(readers, predicate), reply);
        }
    }

    /** A query's reply: the rows a bitmap result names, or whether the file remains. */
    static void answer(FileIndexResult result, ObjectNode reply) {
        Iterator<Integer> it = ReleaseApi.bitmapRows(result);
        if (it != null) {
            reply.put("result", "rows");
            ArrayNode rows = reply.putArray("rows");
            while (it.hasNext()) {
                rows.add(Integer.toUnsignedLong(it.next()));
            }
        } else {
            reply.put("result", result.remain() ? "remain" : "skip");
        }
    }

    /** FileIndexPredicate's own visitor (a private class in these releases) over the columns' readers. */
    static FileIndexResult evaluate(Map<String, Collection<FileIndexReader>> readers, Predicate p) throws Exception {
        Class<?> test = Class.forName("org.apache.paimon.fileindex.FileIndexPredicate$FileIndexPredicateTest");
        Constructor<?> make = test.getDeclaredConstructor(Map.class);
        make.setAccessible(true);
        Method run = test.getDeclaredMethod("test", Predicate.class);
        run.setAccessible(true);
        return (FileIndexResult) run.invoke(make.newInstance(readers), p);
    }

    /** A protocol predicate as PredicateBuilder builds it (IN of up to 20 literals: an OR of equals). */
    static Predicate predicate(PredicateBuilder b, RowType rowType, JsonNode p) {
        String op = p.get("op").asText();
        if (op.equals("and") || op.equals("or")) {
            List<Predicate> children = new ArrayList<>();
            for (JsonNode c : p.get("children")) {
                children.add(predicate(b, rowType, c));
            }
            return op.equals("and") ? PredicateBuilder.and(children) : PredicateBuilder.or(children);
        }
        int i = b.indexOf(p.get("column").asText());
        if (i < 0) {
            throw new IllegalArgumentException("no column " + p.get("column"));
        }
        DataType t = rowType.getTypeAt(i);
        List<Object> literals = new ArrayList<>();
        for (JsonNode l : p.path("literals")) {
            literals.add(internal(t, l));
        }
        switch (op) {
            case "eq":
                return b.equal(i, literals.get(0));
            case "not_eq":
                return b.notEqual(i, literals.get(0));
            case "lt":
                return b.lessThan(i, literals.get(0));
            case "lte":
                return b.lessOrEqual(i, literals.get(0));
            case "gt":
                return b.greaterThan(i, literals.get(0));
            case "gte":
                return b.greaterOrEqual(i, literals.get(0));
            case "in":
                return b.in(i, literals);
            case "not_in":
                return b.notIn(i, literals);
            case "between":
                return b.between(i, literals.get(0), literals.get(1));
            case "is_null":
                return b.isNull(i);
            case "is_not_null":
                return b.isNotNull(i);
            default:
                throw new IllegalArgumentException("unknown predicate " + op);
        }
    }

    // ------------------------------------------------------------------ tables

    static ArrayNode readTable(String dir, JsonNode fields) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
        RowType type = table.rowType();
        int[] at = new int[fields.size()];
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[fields.size()];
        DataType[] types = new DataType[fields.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = type.getFieldIndex(fields.get(i).get("name").asText());
            if (at[i] < 0) {
                throw new IllegalArgumentException("no column " + fields.get(i).get("name").asText());
            }
            types[i] = type.getTypeAt(at[i]);
            getters[i] = InternalRow.createFieldGetter(types[i], at[i]);
        }
        ReadBuilder builder = table.newReadBuilder();
        ArrayNode rows = JSON.createArrayNode();
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(builder.newScan().plan())) {
            reader.forEachRemaining(row -> {
                ArrayNode r = rows.addArray();
                for (int i = 0; i < at.length; i++) {
                    logical(r, types[i], getters[i].getFieldOrNull(row));
                }
            });
        }
        return rows;
    }

    static void writeTable(String dir, JsonNode spec, JsonNode commits, boolean existing) throws Exception {
        Schema.Builder sb = Schema.newBuilder();
        List<DataType> types = new ArrayList<>();
        for (JsonNode f : spec.get("fields")) {
            DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(f.get("type").asText())
                    .copy(f.path("nullable").asBoolean(true));
            types.add(t);
            sb.column(f.get("name").asText(), t);
        }
        List<String> primary = new ArrayList<>();
        spec.get("primary_keys").forEach(x -> primary.add(x.asText()));
        List<String> partition = new ArrayList<>();
        spec.get("partition_keys").forEach(x -> partition.add(x.asText()));
        sb.primaryKey(primary).partitionKeys(partition);
        spec.get("options").fields().forEachRemaining(e -> sb.option(e.getKey(), e.getValue().asText()));
        createAndCommit(new Path(dir), existing ? null : sb.build(), types, commits);
    }

    // ------------------------------------------------------------------ values

    /**
     * Creates the table at `path` (unless `schema` is null: the table exists) and writes each batch of `commits` in
     * one BatchTableWrite and commit.
     */
    static void createAndCommit(Path path, Schema schema, List<DataType> types, JsonNode commits) throws Exception {
        LocalFileIO io = LocalFileIO.create();
        if (schema != null) {
            new SchemaManager(io, path).createTable(schema);
        }
        FileStoreTable table = FileStoreTableFactory.create(io, path);
        for (JsonNode commit : commits) {
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            // lookups (deletion vectors, the lookup changelog producer) spill to a temporary directory
            try (IOManager spill = IOManager.create(System.getProperty("java.io.tmpdir"));
                    BatchTableWrite write = wb.newWrite();
                    BatchTableCommit c = wb.newCommit()) {
                write.withIOManager(spill);
                for (JsonNode row : commit) {
                    Object[] values = new Object[types.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = internal(types.get(i), row.get(i));
                    }
                    write.write(GenericRow.of(values));
                }
                c.commit(write.prepareCommit());
            }
        }
    }

    /** A logical JSON value (the golden sidecars' form) as Java Paimon's internal object of the type. */
    static Object internal(DataType t, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return v.asBoolean();
            case TINYINT:
                return (byte) v.asInt();
            case SMALLINT:
                return (short) v.asInt();
            case INTEGER:
                return v.asInt();
            case BIGINT:
                return v.asLong();
            case FLOAT:
                return (float) floating(v);
            case DOUBLE:
                return floating(v);
            case DECIMAL:
                DecimalType d = (DecimalType) t;
                return Decimal.fromBigDecimal(new BigDecimal(v.asText()), d.getPrecision(), d.getScale());
            case DATE:
                return v.isNumber() ? v.asInt() : (int) LocalDate.parse(v.asText()).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return v.isNumber() ? v.asInt() : (int) (LocalTime.parse(v.asText()).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromLocalDateTime(LocalDateTime.parse(v.asText().replace(' ', 'T')));
            case BINARY:
            case VARBINARY:
                return unhex(v.asText());
            default:
                return BinaryString.fromString(v.asText());
        }
    }

    /** A FLOAT / DOUBLE value: a JSON number, or "NaN", "Infinity", "-Infinity". */
    static double floating(JsonNode v) {
        if (v.isTextual()) {
            switch (v.asText()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    return Double.parseDouble(v.asText());
            }
        }
        return v.asDouble();
    }

    /** Appends an internal value in the logical JSON form. */
    static void logical(ArrayNode r, DataType t, Object v) {
        if (v == null) {
            r.addNull();
            return;
        }
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                r.add((Boolean) v);
                return;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                r.add(((Number) v).longValue());
                return;
            case FLOAT:
            case DOUBLE:
                double x = ((Number) v).doubleValue();
                if (Double.isNaN(x) || Double.isInfinite(x)) {
                    r.add(Double.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity");
                } else if (v instanceof Float) {
                    r.add((Float) v);
                } else {
                    r.add(x);
                }
                return;
            case DATE:
                r.add(LocalDate.ofEpochDay((Integer) v).toString());
                return;
            case TIME_WITHOUT_TIME_ZONE:
                int ms = (Integer) v;
                r.add(String.format("%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000));
                return;
            case DECIMAL:
                r.add(((Decimal) v).toBigDecimal().toPlainString());
                return;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                LocalDateTime ldt = ((Timestamp) v).toLocalDateTime();
                r.add(String.format("%04d-%02d-%02dT%02d:%02d:%02d.%09d", ldt.getYear(), ldt.getMonthValue(),
                        ldt.getDayOfMonth(), ldt.getHour(), ldt.getMinute(), ldt.getSecond(), ldt.getNano()));
                return;
            case BINARY:
            case VARBINARY:
                r.add(hex((byte[]) v));
                return;
            default:
                if (t.getTypeRoot().name().equals("BLOB")) {
                    // Blob.toData (1.4 on), by reflection: the testee compiles against every release
                    try {
                        r.add(hex((byte[]) v.getClass().getMethod("toData").invoke(v)));
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("BLOB value " + v.getClass(), e);
                    }
                    return;
                }
                r.add(v.toString());
        }
    }

    static void deleteTree(File f) {
        File[] children = f.listFiles();
        if (children != null) {
            for (File child : children) {
                deleteTree(child);
            }
        }
        f.delete();
    }

    static byte[] unhex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }
}
