// The read-table of the testee (Testee.java) when the request names columns to probe: Java Paimon's own batch
// read of the latest snapshot, plus what Java's filtered reads, bucket function and index files say about the
// table. The reply (read_table_reply of src/paimon_conform/schemas/testee_protocol.json) gets, besides "rows":
//   "splits": N, "data_files": N, "deletion_files": N (the splits' data files and deletion vectors),
//   "row_kinds": ["+I", ...] (per row),
//   "probes": [{"column", "value", "full", "filtered"} | {"column", "value", "error"}],
//   "bucket_checked": N, "wrong_bucket": N, "wrong_bucket_example": "..."   (fixed-bucket tables)
//   "index_entries": N | "index_error": "..."                                (a snapshot with an index manifest)
//   "hash_checked": N, "hash_missing": N, "hash_missing_example": "..."      (dynamic-bucket tables)
//
// Probes: for each listed column, each distinct value the full read returned (and null, when one was returned),
// up to max_probes values: a read with `column = value` (or IS NULL) pushed down through ReadBuilder.withFilter
// (partition pruning, bucket pruning, manifest statistics, file indexes and Parquet/ORC row-group statistics all
// apply). "value" is the value's text (Float.toString, BigDecimal.toPlainString, "epochMillis,nanoOfMillisecond"
// for timestamps, hex for bytes); "full" counts the rows holding the value in the full read, "filtered" those in
// the filtered read; filtered < full means Java skips rows that match (a misread caused by what the writer
// recorded).
//
// Bucket check (fixed-bucket tables): every row read from a split is re-hashed with Java's
// FixedBucketRowKeyExtractor (the default bucket function: these jars know no other) and compared with the
// split's bucket.
//
// Index manifest (when the latest snapshot has one): read with Java's IndexFileHandler, as a Java writer does
// before it appends; for dynamic-bucket tables every HASH index file is read too, and each row's
// trimmed-primary-key hash (DynamicBucketRowKeyExtractor) must be in the file of its partition and bucket, or a
// Java writer would assign the key a second bucket.
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

    /** Appends one value of a row in the reply's form. */
    interface Appender {
        void add(ArrayNode row, DataType type, Object value);
    }

    static void readTable(String dir, JsonNode spec, ObjectNode res, Appender appender) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
        RowType type = table.rowType();
        int n = type.getFieldCount();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[n];
        for (int i = 0; i < n; i++) {
            getters[i] = InternalRow.createFieldGetter(type.getTypeAt(i), i);
        }
        JsonNode fields = spec.get("fields");
        int[] at = new int[fields.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = type.getFieldIndex(fields.get(i).get("name").asText());
            if (at[i] < 0) {
                throw new IllegalArgumentException("no column " + fields.get(i).get("name").asText());
            }
        }
        ReadBuilder builder = table.newReadBuilder();
        List<Split> splits = builder.newScan().plan().splits();
        res.put("splits", splits.size());
        int dataFiles = 0;
        int deletionFiles = 0;
        for (Split split : splits) {
            DataSplit ds = (DataSplit) split;
            dataFiles += ds.dataFiles().size();
            if (ds.deletionFiles().isPresent()) {
                for (Object f : ds.deletionFiles().get()) {
                    if (f != null) {
                        deletionFiles++;
                    }
                }
            }
        }
        res.put("data_files", dataFiles);
        res.put("deletion_files", deletionFiles);
        ArrayNode kinds = res.putArray("row_kinds");
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
                            String text = text(type.getTypeAt(i), v);
                            distinct.get(i).putIfAbsent(text, v);
                            counts.get(i).merge(text, 1, Integer::sum);
                        }
                        for (int i : at) {
                            appender.add(r, type.getTypeAt(i), getters[i].getFieldOrNull(row));
                        }
                        kinds.add(row.getRowKind().shortString());
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
                            .addAll(ReleaseApi.hashes(handler, e));
                }
            }
            return out;
        } catch (Throwable e) {
            res.put("index_error", Failure.describe(e));
            return null;
        }
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
}
