// Reads many Paimon tables with Java Paimon's own reader in one JVM, and checks what Java's
// filtered reads and bucket function say about each table.
//
// Usage: java -cp <paimon jar>:<classes> TablesReader IN.json OUT.json
//        java -cp <paimon jar>:<classes> TablesReader --write-controls IN.json OUT.json
//
// --write-controls writes *control* tables with Java's own writer, so that what Java's reader
// does with a peer's table can be told apart from what it does with its own (a filtered read
// that skips rows of Java's own table is Java's limitation, not the peer's):
// IN.json:  {"warehouse": DIR, "tables": [{"name", "columns": [[name, type, nullable], ...],
//            "primary": [...], "partition": [...], "options": {...}, "commits": [[row, ...], ...]}]}
// OUT.json: {"name": {"ok": true} | {"ok": false, "error": "..."}}; each table goes to
// DIR/db.db/name. Row values are in the matrix's transport form (conformance/peers_matrix.py):
// FLOAT / DOUBLE numbers or "NaN" / "Infinity" / "-Infinity", DECIMAL strings, DATE days,
// TIME millis, TIMESTAMP / TIMESTAMP_LTZ epoch nanoseconds, BINARY / VARBINARY hex.
//
// IN.json:  {"tables": [{"dir": TABLE_DIR, "probe": [COLUMN, ...], "max_probes": N}, ...]}
// OUT.json: {"TABLE_DIR": {"error": null | "Class: message <- Cause: message ...",
//                          "rows": [[value, ...], ...], "splits": N,
//                          "probes": [{"column", "value", "full", "filtered"} | {"column", "value", "error"}],
//                          "bucket_checked": N, "wrong_bucket": N, "wrong_bucket_example": "...",
//                          "index_entries": N, "index_error": "...", "hash_checked": N, "hash_missing": N,
//                          "hash_missing_example": "..."}, ...}
//
// A table that Java cannot open or read gets "error" (the exception and its causes) and no rows.
// Values (by column type): BOOLEAN true/false; TINYINT..BIGINT numbers; FLOAT and DOUBLE
// Float.toString / Double.toString ("NaN", "-0.0", "Infinity"); DECIMAL BigDecimal.toPlainString;
// DATE days since 1970-01-01; TIME millis of day; TIMESTAMP and TIMESTAMP_LTZ
// "epochMillis,nanoOfMillisecond"; CHAR / VARCHAR the string; BINARY / VARBINARY lower-case hex.
//
// Probes: for each listed column, each distinct value the full read returned (and null, when
// one was returned), up to max_probes values: a read with `column = value` (or IS NULL) pushed
// down through ReadBuilder.withFilter (partition pruning, bucket pruning, manifest statistics,
// file indexes and Parquet/ORC row-group statistics all apply). "full" counts the rows holding
// the value in the full read, "filtered" those in the filtered read; filtered < full means Java
// skips rows that match (a misread caused by what the writer recorded).
//
// Bucket check (fixed-bucket tables): every row read from a split is re-hashed with Java's
// FixedBucketRowKeyExtractor (the default bucket function: these jars know no other) and
// compared with the split's bucket.
//
// Index manifest (when the latest snapshot has one): read with Java's IndexFileHandler, as a
// Java writer does before it appends ("index_entries" or "index_error"); for dynamic-bucket
// tables every HASH index file is read too, and each row's trimmed-primary-key hash
// (DynamicBucketRowKeyExtractor) must be in the file of its partition and bucket, or a Java
// writer would assign the key a second bucket ("hash_checked", "hash_missing").
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.predicate.Predicate;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.DynamicBucketRowKeyExtractor;
import org.apache.paimon.table.sink.FixedBucketRowKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;

import java.io.File;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

public class TablesReader {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--write-controls")) {
            writeControls(args[1], args[2]);
            return;
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode in = json.readTree(new File(args[0]));
        ObjectNode out = json.createObjectNode();
        for (JsonNode t : in.get("tables")) {
            String dir = t.get("dir").asText();
            ObjectNode res = out.putObject(dir);
            try {
                readTable(dir, t, res);
                res.putNull("error");
            } catch (Throwable e) {
                res.removeAll();
                res.put("error", Failure.describe(e));
            }
        }
        json.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
    }

    static void readTable(String dir, JsonNode spec, ObjectNode res) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
        RowType type = table.rowType();
        int n = type.getFieldCount();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[n];
        for (int i = 0; i < n; i++) {
            getters[i] = InternalRow.createFieldGetter(type.getTypeAt(i), i);
        }
        ReadBuilder builder = table.newReadBuilder();
        List<Split> splits = builder.newScan().plan().splits();
        res.put("splits", splits.size());
        ArrayNode rows = res.putArray("rows");
        // per column: the Java object of each distinct text form the full read returned
        List<Map<String, Object>> distinct = new ArrayList<>();
        List<Map<String, Integer>> counts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            distinct.add(new LinkedHashMap<>());
            counts.add(new LinkedHashMap<>());
        }
        boolean fixed = table.coreOptions().bucket() > 0;
        FixedBucketRowKeyExtractor extractor = fixed ? new FixedBucketRowKeyExtractor(table.schema()) : null;
        int checked = 0;
        int wrong = 0;
        String example = null;
        // the HASH index, per partition and bucket, when the table has one
        Map<BinaryRow, Map<Integer, Set<Integer>>> hashes = readIndexes(table, res);
        DynamicBucketRowKeyExtractor dynamic =
                hashes != null && !table.schema().primaryKeys().isEmpty() && table.coreOptions().bucket() == -1
                        ? new DynamicBucketRowKeyExtractor(table.schema())
                        : null;
        int hashChecked = 0;
        int hashMissing = 0;
        String hashExample = null;
        for (Split split : splits) {
            int bucket = ((DataSplit) split).bucket();
            Set<Integer> bucketHashes = null;
            if (dynamic != null) {
                bucketHashes = hashes.getOrDefault(((DataSplit) split).partition(), Collections.emptyMap())
                        .getOrDefault(bucket, Collections.emptySet());
            }
            try (RecordReader<InternalRow> reader =
                    builder.newRead().createReader(Collections.singletonList(split))) {
                RecordReader.RecordIterator<InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        ArrayNode r = rows.addArray();
                        for (int i = 0; i < n; i++) {
                            Object v = getters[i].getFieldOrNull(row);
                            String text = add(r, type.getTypeAt(i), v);
                            distinct.get(i).putIfAbsent(text, v);
                            counts.get(i).merge(text, 1, Integer::sum);
                        }
                        if (dynamic != null) {
                            dynamic.setRecord(row);
                            hashChecked++;
                            if (!bucketHashes.contains(dynamic.trimmedPrimaryKey().hashCode())) {
                                hashMissing++;
                                if (hashExample == null) {
                                    hashExample = "row " + r + " in bucket-" + bucket + ": its key hash "
                                            + dynamic.trimmedPrimaryKey().hashCode()
                                            + " is not in that bucket's HASH index file";
                                }
                            }
                        }
                        if (extractor != null) {
                            extractor.setRecord(row);
                            int want = extractor.bucket();
                            checked++;
                            if (want != bucket) {
                                wrong++;
                                if (example == null) {
                                    example = "row " + r + " is in bucket-" + bucket
                                            + ", Java's default bucket function puts it in bucket-" + want;
                                }
                            }
                        }
                    }
                    batch.releaseBatch();
                }
            }
        }
        if (dynamic != null) {
            res.put("hash_checked", hashChecked);
            res.put("hash_missing", hashMissing);
            res.put("hash_missing_example", hashExample);
        }
        if (fixed) {
            res.put("bucket_checked", checked);
            res.put("wrong_bucket", wrong);
            res.put("wrong_bucket_example", example);
        }
        ArrayNode probes = res.putArray("probes");
        JsonNode probe = spec.get("probe");
        if (probe == null) {
            return;
        }
        int max = spec.has("max_probes") ? spec.get("max_probes").asInt() : 16;
        PredicateBuilder pb = new PredicateBuilder(type);
        for (JsonNode c : probe) {
            String column = c.asText();
            int idx = type.getFieldNames().indexOf(column);
            int done = 0;
            for (Map.Entry<String, Object> e : distinct.get(idx).entrySet()) {
                if (done++ >= max) {
                    break;
                }
                Object value = e.getValue();
                ObjectNode p = probes.addObject();
                p.put("column", column);
                p.put("value", e.getKey());
                p.put("full", counts.get(idx).get(e.getKey()));
                try {
                    Predicate pred = value == null ? pb.isNull(idx) : pb.equal(idx, value);
                    ReadBuilder fb = table.newReadBuilder().withFilter(pred);
                    int got = 0;
                    try (RecordReader<InternalRow> reader =
                            fb.newRead().createReader(fb.newScan().plan().splits())) {
                        RecordReader.RecordIterator<InternalRow> batch;
                        while ((batch = reader.readBatch()) != null) {
                            InternalRow row;
                            while ((row = batch.next()) != null) {
                                Object v = getters[idx].getFieldOrNull(row);
                                if (text(type.getTypeAt(idx), v).equals(e.getKey())) {
                                    got++;
                                }
                            }
                            batch.releaseBatch();
                        }
                    }
                    p.put("filtered", got);
                } catch (Throwable ex) {
                    p.put("error", Failure.describe(ex));
                }
            }
        }
    }

    /** Reads the latest snapshot's index manifest and HASH index files; null when there are none or they fail. */
    static Map<BinaryRow, Map<Integer, Set<Integer>>> readIndexes(FileStoreTable table, ObjectNode res) {
        Snapshot snapshot = table.snapshotManager().latestSnapshot();
        if (snapshot == null || snapshot.indexManifest() == null) {
            return null;
        }
        try {
            IndexFileHandler handler = table.store().newIndexFileHandler();
            List<IndexManifestEntry> entries = handler.readManifestWithIOException(snapshot.indexManifest());
            res.put("index_entries", entries.size());
            Map<BinaryRow, Map<Integer, Set<Integer>>> out = new HashMap<>();
            for (IndexManifestEntry e : entries) {
                if ("HASH".equals(e.indexFile().indexType())) {
                    out.computeIfAbsent(e.partition(), p -> new HashMap<>())
                            .computeIfAbsent(e.bucket(), b -> new HashSet<>())
                            .addAll(handler.readHashIndexList(e.indexFile()));
                }
            }
            return out;
        } catch (Throwable e) {
            res.put("index_error", Failure.describe(e));
            return null;
        }
    }

    /** Appends a value in the documented form; returns its text form (distinct-value key). */
    static String add(ArrayNode r, DataType t, Object v) {
        if (v == null) {
            r.addNull();
            return "null";
        }
        DataTypeRoot root = t.getTypeRoot();
        switch (root) {
            case BOOLEAN:
                r.add((Boolean) v);
                break;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                r.add(((Number) v).longValue());
                break;
            default:
                r.add(text(t, v));
        }
        return text(t, v);
    }

    static String text(DataType t, Object v) {
        if (v == null) {
            return "null";
        }
        switch (t.getTypeRoot()) {
            case FLOAT:
                return Float.toString((Float) v);
            case DOUBLE:
                return Double.toString((Double) v);
            case DECIMAL:
                return ((Decimal) v).toBigDecimal().toPlainString();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                Timestamp ts = (Timestamp) v;
                return ts.getMillisecond() + "," + ts.getNanoOfMillisecond();
            case BINARY:
            case VARBINARY:
                byte[] b = (byte[]) v;
                char[] out = new char[b.length * 2];
                for (int i = 0; i < b.length; i++) {
                    out[2 * i] = HEX[(b[i] >> 4) & 0xF];
                    out[2 * i + 1] = HEX[b[i] & 0xF];
                }
                return new String(out);
            default:
                return v.toString();
        }
    }

    static void writeControls(String in, String outFile) throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode spec = json.readTree(new File(in));
        String warehouse = spec.get("warehouse").asText();
        ObjectNode out = json.createObjectNode();
        for (JsonNode t : spec.get("tables")) {
            String name = t.get("name").asText();
            ObjectNode res = out.putObject(name);
            try {
                writeControl(new Path(warehouse + "/db.db/" + name), t);
                res.put("ok", true);
            } catch (Throwable e) {
                res.put("ok", false);
                res.put("error", Failure.describe(e));
            }
        }
        json.writerWithDefaultPrettyPrinter().writeValue(new File(outFile), out);
    }

    static void writeControl(Path path, JsonNode t) throws Exception {
        Schema.Builder sb = Schema.newBuilder();
        List<DataType> types = new ArrayList<>();
        for (JsonNode c : t.get("columns")) {
            DataType type = DataTypeJsonParser.parseAtomicTypeSQLString(c.get(1).asText()).copy(c.get(2).asBoolean());
            types.add(type);
            sb.column(c.get(0).asText(), type);
        }
        List<String> primary = new ArrayList<>();
        t.get("primary").forEach(x -> primary.add(x.asText()));
        List<String> partition = new ArrayList<>();
        t.get("partition").forEach(x -> partition.add(x.asText()));
        sb.primaryKey(primary).partitionKeys(partition);
        t.get("options").fields().forEachRemaining(e -> sb.option(e.getKey(), e.getValue().asText()));
        createAndCommit(path, sb.build(), types, t.get("commits"), TablesReader::internal);
    }

    /** Creates the table at `path` and writes each batch of `commits` in one BatchTableWrite and commit, each
     *  JSON value made Java's internal object of its column type by `value`. */
    static void createAndCommit(Path path, Schema schema, List<DataType> types, JsonNode commits,
            BiFunction<DataType, JsonNode, Object> value) throws Exception {
        LocalFileIO io = LocalFileIO.create();
        new SchemaManager(io, path).createTable(schema);
        FileStoreTable table = FileStoreTableFactory.create(io, path);
        for (JsonNode commit : commits) {
            BatchWriteBuilder wb = table.newBatchWriteBuilder();
            try (BatchTableWrite write = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
                for (JsonNode row : commit) {
                    Object[] values = new Object[types.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = value.apply(types.get(i), row.get(i));
                    }
                    write.write(GenericRow.of(values));
                }
                c.commit(write.prepareCommit());
            }
        }
    }

    /** A transport-form JSON value as Java Paimon's internal object of the type. */
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
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
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
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                long nanos = v.asLong();
                return Timestamp.fromEpochMillis(
                        Math.floorDiv(nanos, 1_000_000L), (int) Math.floorMod(nanos, 1_000_000L));
            case BINARY:
            case VARBINARY:
                return TableGoldenWriter.unhex(v.asText());
            default:
                return BinaryString.fromString(v.asText());
        }
    }

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
}
