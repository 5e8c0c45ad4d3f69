// Writes whole Paimon tables as golden fixtures with Java Paimon 1.0-SNAPSHOT, and reports
// what Java itself says about them.
//
// Usage: java -cp <paimon 1.0-SNAPSHOT jar>:<classes> TableGoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java_tables.py):
//   {"cases": [{"name": ..., "fields": [{"name": ..., "type": "SQL type"}],
//               "primary_keys": [...], "partition_keys": [...], "options": {...},
//               "steps": [{"op": "write", "rows": [["+I", [internal values]], ...]},
//                         {"op": "compact", "full": true},
//                         {"op": "alter", "changes": [...]}, ...]}],
//    "catch_errors": false}
// Values are internal forms: integers (DATE: days, TIME: millis); "NaN"/"Infinity"/"-Infinity"
// or numbers for floats; strings; hex for binary; [millis, nanoOfMilli] for timestamps;
// [unscaled, p, s] for decimals.
//
// Each case becomes OUT_DIR/<name>/, a table created on the local file system
// (SchemaManager.createTable, FileStoreTableFactory.create). Every step is one batch:
// a fresh BatchWriteBuilder, BatchTableWrite (with an IOManager for lookups) and commit.
// "write" writes the rows with their row kinds: write(row) for fixed-bucket and
// bucket-unaware tables; for a dynamic-bucket primary-key table (bucket = -1) a fresh
// HashBucketAssigner (one channel, one assigner) assigns each row's bucket from its
// partition and trimmed primary key (RowPartitionKeyExtractor), then write(row, bucket).
// "compact" calls write.compact(partition, bucket, full) for every partition written so
// far and every bucket (0..bucket-1 for fixed buckets, the assigned ones for dynamic).
// "alter" is no write: SchemaManager.commitChanges with the listed changes, in one schema
// version ({"kind": "add", "name", "type", "move"?}, {"kind": "rename", "name", "new_name"},
// {"kind": "drop", "name"}, {"kind": "type", "name", "type"}, {"kind": "move", "name", "move"},
// {"kind": "set_option", "key", "value"}, {"kind": "remove_option", "key"}; a move is
// {"to": "first" | "last" | "after" | "before", "ref"?}), then the table is opened again
// (FileStoreTableFactory.create) so that later steps write with the new schema. A write step
// may list "fields" (the column names its rows are in): they must be the current schema's.
// "branch" creates a branch ({"name", "tag"?}: FileStoreTable.createBranch, of the tag's snapshot when
// given); a write or compact step with "branch": <name> goes to that branch (switchToBranch). The report
// then has "branches": each branch's rows as its latest snapshot reads them.
// "update_columns" ({"columns", "first_row_id", "rows"}: data evolution, 1.3 on) writes new values of some
// columns of the rows from first_row_id on, in files that take those rows' ids (updateColumns).
// "global_index" ({"type", "field"}: 1.4 on) builds a global index ("btree", "bitmap") of the column over the
// latest snapshot.
// "compact" of a bucket-unaware append table runs AppendCompactCoordinator's tasks (1.x), as the
// compaction job does.
// Values of BLOB columns (1.4 on) are hex, written as Blob.fromData and read back with toData. A field's type may be
// the schema's JSON form (nested types: ARRAY, MAP); an ARRAY value is a list, a MAP value a list of [key, value].
// With "catch_errors" a case that throws (at create, a step or the read-back) gets a report
// with the stage and the exception ("error") instead of ending the run; a case with
// "fallbacks" (a list of {"options"?, "steps"?} replacing the case's) is first tried again in
// a fresh directory with each fallback in turn; the refused attempts are listed in
// "refusals", and "attempt" says which one was written (1 = the first fallback).
//
// OUT_DIR/<name>.report.json: the schema as Java stored it, every distinct partition
// written (values and FileStorePathFactory.getPartitionString), the data-file fields of
// primary-key tables (KeyValue.schema over PrimaryKeyFieldsExtractor key and value fields),
// the rows Java reads back from the latest snapshot (newReadBuilder, all splits), and
// every snapshot's counters and schema id, every schema version (id, fields), and the latest
// snapshot's data files (with the schema id each was written with) and index files (file
// names left out: they hold random UUIDs).
import org.apache.paimon.KeyValue;
import org.apache.paimon.Snapshot;
import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.operation.FileStoreCommit;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.stats.ColStats;
import org.apache.paimon.stats.Statistics;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.PrimaryKeyTableUtils;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.RowPartitionKeyExtractor;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.FileStorePathFactory;

import java.io.File;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

public class TableGoldenWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        JsonNode spec = JSON.readTree(new File(args[0]));
        File out = new File(args[1]);
        out.mkdirs();
        File tmp = Files.createTempDirectory("table-golden-io").toFile();
        try {
            writeCases(spec, out, tmp);
        } finally {
            Testee.deleteTree(tmp);
        }
    }

    /** Writes every case of the spec under `out`, with `tmp` as the writers' spill directory. */
    static void writeCases(JsonNode spec, File out, File tmp) throws Exception {
        boolean catchErrors = spec.has("catch_errors") && spec.get("catch_errors").asBoolean();
        for (JsonNode c : spec.get("cases")) {
            File dir = new File(out, c.get("name").asText());
            ArrayNode refusals = JSON.createArrayNode();
            JsonNode attempt = c;
            int fallback = 0;
            ObjectNode report;
            while (true) {
                String[] stage = {"create"};
                try {
                    report = writeCase(attempt, dir, tmp, stage);
                    break;
                } catch (Exception | LinkageError e) {
                    if (!catchErrors) {
                        throw e;
                    }
                    ObjectNode error = error(e, stage[0]);
                    JsonNode fallbacks = c.get("fallbacks");
                    if (fallbacks == null || fallback >= fallbacks.size()) {
                        report = JSON.createObjectNode();
                        report.put("name", c.get("name").asText());
                        report.set("error", error);
                        break;
                    }
                    // try again with the next fallback's options and / or steps, in a fresh directory
                    error.set("options", attempt.get("options"));
                    error.put("attempt", fallback);
                    refusals.add(error);
                    Testee.deleteTree(dir);
                    ObjectNode next = c.deepCopy();
                    JsonNode replacement = fallbacks.get(fallback++);
                    for (String key : new String[] {"options", "steps"}) {
                        if (replacement.has(key)) {
                            next.set(key, replacement.get(key));
                        }
                    }
                    attempt = next;
                }
            }
            if (refusals.size() > 0) {
                report.set("refusals", refusals);
                report.put("attempt", fallback);
                report.set("options_used", attempt.get("options"));
            }
            JSON.writerWithDefaultPrettyPrinter()
                    .writeValue(new File(out, c.get("name").asText() + ".report.json"), report);
        }
    }

    static ObjectNode error(Throwable e, String stage) {
        ObjectNode error = JSON.createObjectNode();
        error.put("stage", stage);
        error.put("class", e.getClass().getName());
        error.put("message", String.valueOf(e.getMessage()));
        ArrayNode causes = error.putArray("causes");
        Throwable root = e;
        for (Throwable t = e.getCause(); t != null && causes.size() < 5; t = t.getCause()) {
            causes.add(t.getClass().getName() + ": " + t.getMessage());
            root = t;
        }
        ArrayNode at = error.putArray("at");  // where the innermost cause was thrown
        StackTraceElement[] frames = root.getStackTrace();
        for (int i = 0; i < Math.min(4, frames.length); i++) {
            at.add(frames[i].toString());
        }
        return error;
    }

    static SchemaChange.Move move(String name, JsonNode m) {
        if (m == null || m.isNull()) {
            return null;
        }
        switch (m.get("to").asText()) {
            case "first": return SchemaChange.Move.first(name);
            case "last": return SchemaChange.Move.last(name);
            case "after": return SchemaChange.Move.after(name, m.get("ref").asText());
            case "before": return SchemaChange.Move.before(name, m.get("ref").asText());
            default: throw new IllegalArgumentException("move " + m);
        }
    }

    /** The SchemaChange list of an "alter" step. */
    static List<SchemaChange> changes(JsonNode step) {
        List<SchemaChange> out = new ArrayList<>();
        for (JsonNode ch : step.get("changes")) {
            String kind = ch.get("kind").asText();
            switch (kind) {
                case "add":
                    out.add(SchemaChange.addColumn(ch.get("name").asText(),
                            DataTypeJsonParser.parseAtomicTypeSQLString(ch.get("type").asText()), null,
                            move(ch.get("name").asText(), ch.get("move"))));
                    break;
                case "rename":
                    out.add(SchemaChange.renameColumn(ch.get("name").asText(), ch.get("new_name").asText()));
                    break;
                case "drop":
                    out.add(SchemaChange.dropColumn(ch.get("name").asText()));
                    break;
                case "type":
                    out.add(SchemaChange.updateColumnType(ch.get("name").asText(),
                            DataTypeJsonParser.parseAtomicTypeSQLString(ch.get("type").asText())));
                    break;
                case "move":
                    out.add(SchemaChange.updateColumnPosition(move(ch.get("name").asText(), ch.get("move"))));
                    break;
                case "set_option":
                    out.add(SchemaChange.setOption(ch.get("key").asText(), ch.get("value").asText()));
                    break;
                case "remove_option":
                    out.add(SchemaChange.removeOption(ch.get("key").asText()));
                    break;
                default:
                    throw new IllegalArgumentException("schema change " + kind);
            }
        }
        return out;
    }

    static Object value(DataType type, JsonNode v) throws ReflectiveOperationException {
        if (v == null || v.isNull()) {
            return null;
        }
        if (type.getTypeRoot().name().equals("BLOB")) {
            // Blob.fromData (1.4 on), by reflection: the class compiles against every release
            return Class.forName("org.apache.paimon.data.Blob").getMethod("fromData", byte[].class)
                    .invoke(null, (Object) Testee.unhex(v.asText()));
        }
        if (type instanceof org.apache.paimon.types.ArrayType) {
            DataType element = ((org.apache.paimon.types.ArrayType) type).getElementType();
            Object[] elements = new Object[v.size()];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = value(element, v.get(i));
            }
            return new org.apache.paimon.data.GenericArray(elements);
        }
        if (type instanceof org.apache.paimon.types.MapType) {
            org.apache.paimon.types.MapType map = (org.apache.paimon.types.MapType) type;
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (JsonNode e : v) { // [[key, value], ...]
                entries.put(value(map.getKeyType(), e.get(0)), value(map.getValueType(), e.get(1)));
            }
            return new org.apache.paimon.data.GenericMap(entries);
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: return v.asBoolean();
            case TINYINT: return (byte) v.asInt();
            case SMALLINT: return (short) v.asInt();
            case INTEGER: case DATE: case TIME_WITHOUT_TIME_ZONE: return v.asInt();
            case BIGINT: return new BigInteger(v.asText()).longValue();
            case FLOAT: return v.isTextual() ? Float.parseFloat(v.asText()) : (float) v.asDouble();
            case DOUBLE: return v.isTextual() ? Double.parseDouble(v.asText()) : v.asDouble();
            case CHAR: case VARCHAR: return BinaryString.fromString(v.asText());
            case BINARY: case VARBINARY: return Testee.unhex(v.asText());
            case TIMESTAMP_WITHOUT_TIME_ZONE: case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(v.get(0).asLong(), v.get(1).asInt());
            case DECIMAL:
                BigDecimal d = new BigDecimal(new BigInteger(v.get(0).asText()), v.get(2).asInt());
                return Decimal.fromBigDecimal(d, v.get(1).asInt(), v.get(2).asInt());
            default: throw new IllegalArgumentException("type " + type);
        }
    }

    /** One field of a row in the internal JSON form the input uses. */
    static void put(ArrayNode target, DataType type, Object v) {
        if (v == null) {
            target.addNull();
            return;
        }
        if (type.getTypeRoot().name().equals("BLOB")) {
            try {
                target.add(Testee.hex((byte[]) v.getClass().getMethod("toData").invoke(v)));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
            return;
        }
        if (type instanceof org.apache.paimon.types.ArrayType) {
            DataType element = ((org.apache.paimon.types.ArrayType) type).getElementType();
            org.apache.paimon.data.InternalArray array = (org.apache.paimon.data.InternalArray) v;
            ArrayNode out = target.addArray();
            InternalArray.ElementGetter getter = InternalArray.createElementGetter(element);
            for (int i = 0; i < array.size(); i++) {
                put(out, element, getter.getElementOrNull(array, i));
            }
            return;
        }
        if (type instanceof org.apache.paimon.types.MapType) {
            org.apache.paimon.types.MapType mapType = (org.apache.paimon.types.MapType) type;
            org.apache.paimon.data.InternalMap map = (org.apache.paimon.data.InternalMap) v;
            ArrayNode out = target.addArray();
            InternalArray.ElementGetter keys = InternalArray.createElementGetter(mapType.getKeyType());
            InternalArray.ElementGetter values = InternalArray.createElementGetter(mapType.getValueType());
            for (int i = 0; i < map.size(); i++) {
                ArrayNode entry = out.addArray();
                put(entry, mapType.getKeyType(), keys.getElementOrNull(map.keyArray(), i));
                put(entry, mapType.getValueType(), values.getElementOrNull(map.valueArray(), i));
            }
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: target.add((Boolean) v); return;
            case TINYINT: target.add((Byte) v); return;
            case SMALLINT: target.add((Short) v); return;
            case INTEGER: case DATE: case TIME_WITHOUT_TIME_ZONE: target.add((Integer) v); return;
            case BIGINT: target.add((Long) v); return;
            case FLOAT: case DOUBLE:
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) {
                    target.add(Double.isNaN(d) ? "NaN" : (d > 0 ? "Infinity" : "-Infinity"));
                } else if (v instanceof Float) {
                    target.add((Float) v);
                } else {
                    target.add(d);
                }
                return;
            case CHAR: case VARCHAR: target.add(v.toString()); return;
            case BINARY: case VARBINARY: target.add(Testee.hex((byte[]) v)); return;
            case TIMESTAMP_WITHOUT_TIME_ZONE: case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                Timestamp t = (Timestamp) v;
                ArrayNode ts = target.addArray();
                ts.add(t.getMillisecond());
                ts.add(t.getNanoOfMillisecond());
                return;
            case DECIMAL:
                Decimal dec = (Decimal) v;
                ArrayNode dn = target.addArray();
                dn.add(dec.toBigDecimal().unscaledValue().toString());
                dn.add(dec.precision());
                dn.add(dec.scale());
                return;
            default: throw new IllegalArgumentException("type " + type);
        }
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        for (JsonNode n : array) {
            out.add(n.asText());
        }
        return out;
    }

    static ArrayNode fields(List<DataField> fields) {
        ArrayNode out = JSON.createArrayNode();
        for (DataField f : fields) {
            ObjectNode o = out.addObject();
            o.put("id", f.id());
            o.put("name", f.name());
            o.put("type", f.type().copy(true).asSQLString());
            o.put("nullable", f.type().isNullable());
        }
        return out;
    }

    /**
     * Compacts a bucket-unaware append table as Paimon's compaction job does (a batch write cannot): the tasks
     * of AppendCompactCoordinator (1.x; by reflection, the class compiles against every release), each done
     * with AppendCompactTask.doCompact over the store's write, committed in one batch commit.
     */
    static void compactUnaware(FileStoreTable table) throws Exception {
        Class<?> coordinatorClass = Class.forName("org.apache.paimon.append.AppendCompactCoordinator");
        Object coordinator = coordinatorClass.getConstructor(FileStoreTable.class, boolean.class)
                .newInstance(table, false);
        List<?> tasks = (List<?>) coordinatorClass.getMethod("run").invoke(coordinator);
        List<CommitMessage> messages = new ArrayList<>();
        Object write = table.store().newWrite("golden");
        for (Object task : tasks) {
            for (Method m : task.getClass().getMethods()) {
                if (m.getName().equals("doCompact") && m.getParameterCount() == 2) {
                    messages.add((CommitMessage) m.invoke(task, table, write));
                }
            }
        }
        if (messages.size() != tasks.size() || messages.isEmpty()) {
            throw new IllegalStateException(tasks.size() + " compaction task(s), " + messages.size() + " done");
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
        write.getClass().getMethod("close").invoke(write);
    }

    /**
     * A data-evolution update of some columns of existing rows, as Spark's MERGE INTO writes it (1.3 on): the
     * rows of those columns only (BatchTableWrite.withWriteType), their new files given the first row id of the
     * rows they replace (DataFileMeta.assignFirstRowId) before the commit, which then keeps it. By reflection:
     * the class compiles against every release.
     */
    @SuppressWarnings("unchecked")
    static void updateColumns(FileStoreTable table, RowType rowType, JsonNode step) throws Exception {
        RowType writeType = rowType.project(strings(step.get("columns")));
        BatchWriteBuilder writeBuilder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = writeBuilder.newWrite()) {
            write.getClass().getMethod("withWriteType", RowType.class).invoke(write, writeType);
            for (JsonNode r : step.get("rows")) {
                GenericRow row = new GenericRow(writeType.getFieldCount());
                for (int i = 0; i < writeType.getFieldCount(); i++) {
                    row.setField(i, value(writeType.getTypeAt(i), r.get(i)));
                }
                write.write(row);
            }
            List<CommitMessage> messages = write.prepareCommit();
            long next = step.get("first_row_id").asLong();
            for (CommitMessage m : messages) {
                Object increment = m.getClass().getMethod("newFilesIncrement").invoke(m);
                List<DataFileMeta> files = (List<DataFileMeta>) increment.getClass().getMethod("newFiles").invoke(increment);
                for (int i = 0; i < files.size(); i++) {
                    DataFileMeta f = files.get(i);
                    files.set(i, (DataFileMeta) f.getClass().getMethod("assignFirstRowId", long.class).invoke(f, next));
                    next += f.rowCount();
                }
            }
            try (BatchTableCommit commit = writeBuilder.newCommit()) {
                commit.commit(messages);
            }
        }
    }

    /**
     * A global index over one column of the latest snapshot, built as the create_global_index procedures do:
     * the builder's scan, build of each split, one commit of the messages. 2.0 has SortedGlobalIndexBuilder(table,
     * type); 1.4 BTreeGlobalIndexBuilder(table) for "btree". By reflection: the class compiles against every release.
     */
    @SuppressWarnings("unchecked")
    static void buildGlobalIndex(FileStoreTable table, JsonNode step, File tmp) throws Exception {
        String type = step.get("type").asText();
        Object builder;
        try {
            builder = Class.forName("org.apache.paimon.globalindex.sorted.SortedGlobalIndexBuilder")
                    .getConstructor(org.apache.paimon.table.Table.class, String.class).newInstance(table, type);
        } catch (ClassNotFoundException e) {
            if (type.equals("bitmap")) {
                buildSingletonIndex(table, step, tmp);
                return;
            }
            if (!type.equals("btree")) {
                throw new IllegalArgumentException("no " + type + " global index builder in this release", e);
            }
            builder = Class.forName("org.apache.paimon.globalindex.btree.BTreeGlobalIndexBuilder")
                    .getConstructor(org.apache.paimon.table.Table.class).newInstance(table);
        }
        Class<?> c = builder.getClass();
        builder = c.getMethod("withIndexField", String.class).invoke(builder, step.get("field").asText());
        Optional<?> scanned = (Optional<?>) c.getMethod("scan").invoke(builder);
        Object pair = scanned.orElseThrow(() -> new IllegalStateException("no snapshot to index"));
        List<DataSplit> splits = (List<DataSplit>) pair.getClass().getMethod("getRight").invoke(pair);
        Method build = c.getMethod("build", DataSplit.class, IOManager.class);
        List<CommitMessage> messages = new ArrayList<>();
        IOManager io = IOManager.create(tmp.getAbsolutePath());
        for (DataSplit split : splits) {
            messages.addAll((List<CommitMessage>) build.invoke(builder, split, io));
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    /**
     * 1.4's global index of a GlobalIndexSingletonWriter ("bitmap": a bitmap file-index payload per file), built as
     * 1.4's create_global_index procedure builds one: BTreeGlobalIndexBuilder's scan (the splits of contiguous row
     * ids), then per split the column read with _ROW_ID, its keys written in row-id order to
     * GlobalIndexBuilderUtils.createIndexWriter, the files named by toIndexFileMetas with the split's row range and
     * committed as an index increment of bucket 0. By reflection: the classes exist from 1.4 on.
     */
    @SuppressWarnings("unchecked")
    static void buildSingletonIndex(FileStoreTable table, JsonNode step, File tmp) throws Exception {
        String type = step.get("type").asText();
        Class<?> btree = Class.forName("org.apache.paimon.globalindex.btree.BTreeGlobalIndexBuilder");
        Object builder = btree.getConstructor(org.apache.paimon.table.Table.class).newInstance(table);
        builder = btree.getMethod("withIndexField", String.class).invoke(builder, step.get("field").asText());
        Optional<?> scanned = (Optional<?>) btree.getMethod("scan").invoke(builder);
        Object pair = scanned.orElseThrow(() -> new IllegalStateException("no snapshot to index"));
        List<DataSplit> splits = (List<DataSplit>) pair.getClass().getMethod("getRight").invoke(pair);
        DataField field = table.rowType().getField(step.get("field").asText());
        DataField rowIdField = (DataField) Class.forName("org.apache.paimon.table.SpecialFields")
                .getField("ROW_ID").get(null);
        RowType readType = new RowType(java.util.Arrays.asList(field, rowIdField));
        Class<?> utils = Class.forName("org.apache.paimon.globalindex.GlobalIndexBuilderUtils");
        Class<?> rangeClass = Class.forName("org.apache.paimon.utils.Range");
        Class<?> increments = Class.forName("org.apache.paimon.io.DataIncrement");
        Class<?> compactIncrement = Class.forName("org.apache.paimon.io.CompactIncrement");
        Class<?> messageClass = Class.forName("org.apache.paimon.table.sink.CommitMessageImpl");
        List<CommitMessage> messages = new ArrayList<>();
        for (DataSplit split : splits) {
            Object range = btree.getMethod("calcRowRange", DataSplit.class).invoke(null, split);
            long from = rangeClass.getField("from").getLong(range);
            long to = rangeClass.getField("to").getLong(range);
            Object[] keys = new Object[Math.toIntExact(to - from + 1)];
            boolean[] seen = new boolean[keys.length];
            ReadBuilder read = (ReadBuilder) Reflection.invoke(table.newReadBuilder(), "withReadType",
                    new Object[] {readType});
            InternalRow.FieldGetter getter = InternalRow.createFieldGetter(field.type(), 0);
            try (RecordReader<InternalRow> reader = read.newRead().createReader(split)) {
                reader.forEachRemaining(r -> {
                    int at = Math.toIntExact(r.getLong(1) - from);
                    if (seen[at]) {
                        throw new IllegalStateException("row id " + r.getLong(1) + " read twice");
                    }
                    seen[at] = true;
                    keys[at] = getter.getFieldOrNull(r);
                });
            }
            for (int i = 0; i < seen.length; i++) {
                if (!seen[i]) {
                    throw new IllegalStateException("row id " + (from + i) + " of " + range + " not read");
                }
            }
            Object writer = utils.getMethod("createIndexWriter", FileStoreTable.class, String.class,
                    DataField.class, org.apache.paimon.options.Options.class)
                    .invoke(null, table, type, field, table.coreOptions().toConfiguration());
            Method write = writer.getClass().getMethod("write", Object.class);
            for (Object key : keys) {
                Reflection.call(() -> write.invoke(writer, key));
            }
            Object entries = writer.getClass().getMethod("finish").invoke(writer);
            Object metas = utils.getMethod("toIndexFileMetas", org.apache.paimon.fs.FileIO.class,
                    Class.forName("org.apache.paimon.index.IndexPathFactory"), org.apache.paimon.CoreOptions.class,
                    rangeClass, int.class, String.class, List.class)
                    .invoke(null, table.fileIO(), table.store().pathFactory().getClass()
                            .getMethod("globalIndexFileFactory").invoke(table.store().pathFactory()),
                            table.coreOptions(), range, field.id(), type, entries);
            Object increment = increments.getMethod("indexIncrement", List.class).invoke(null, metas);
            messages.add((CommitMessage) messageClass.getConstructor(BinaryRow.class, int.class, Integer.class,
                    increments, compactIncrement).newInstance(split.partition(), 0, null, increment,
                    compactIncrement.getMethod("emptyIncrement").invoke(null)));
        }
        try (BatchTableCommit commit = table.newBatchWriteBuilder().newCommit()) {
            commit.commit(messages);
        }
    }

    /** Every row `readBuilder` reads over all its splits, into `rows` and their kinds into `kinds`; the split count. */
    static int readAll(ReadBuilder readBuilder, RowType readType, ArrayNode rows, ArrayNode kinds) throws Exception {
        List<Split> splits = readBuilder.newScan().plan().splits();
        try (RecordReader<InternalRow> reader = readBuilder.newRead().createReader(splits)) {
            reader.forEachRemaining(r -> {
                rows.add(row(readType, r));
                kinds.add(r.getRowKind().shortString());
            });
        }
        return splits.size();
    }

    static ArrayNode row(RowType type, InternalRow row) {
        ArrayNode out = JSON.createArrayNode();
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataType t = type.getTypeAt(i);
            put(out, t, InternalRow.createFieldGetter(t, i).getFieldOrNull(row));
        }
        return out;
    }

    static ObjectNode writeCase(JsonNode c, File dir, File tmp, String[] stage) throws Exception {
        Schema.Builder builder = Schema.newBuilder();
        for (JsonNode f : c.get("fields")) {
            builder.column(f.get("name").asText(), f.get("type").isObject()
                        ? DataTypeJsonParser.parseDataType(f.get("type")) // a nested type in the schema's JSON form
                        : DataTypeJsonParser.parseAtomicTypeSQLString(f.get("type").asText()));
        }
        builder.primaryKey(strings(c.get("primary_keys")));
        builder.partitionKeys(strings(c.get("partition_keys")));
        Iterator<Map.Entry<String, JsonNode>> options = c.get("options").fields();
        while (options.hasNext()) {
            Map.Entry<String, JsonNode> o = options.next();
            builder.option(o.getKey(), o.getValue().asText());
        }
        Path path = new Path(dir.getAbsolutePath());
        LocalFileIO fileIO = LocalFileIO.create();
        TableSchema schema = new SchemaManager(fileIO, path).createTable(builder.build());
        FileStoreTable table = FileStoreTableFactory.create(fileIO, path, schema);
        RowType rowType = schema.logicalRowType();
        RowType partitionType = schema.logicalPartitionType();
        SchemaManager schemaManager = new SchemaManager(fileIO, path);
        int bucketOption = Integer.parseInt(schema.options().getOrDefault("bucket", "-1"));
        boolean dynamic = bucketOption == -1 && !schema.primaryKeys().isEmpty();
        RowPartitionKeyExtractor extractor = new RowPartitionKeyExtractor(schema);
        long target = Long.parseLong(schema.options().getOrDefault("dynamic-bucket.target-row-num", "2000000"));

        // distinct partitions in first-written order, and the buckets written in each
        Map<BinaryRow, Set<Integer>> written = new LinkedHashMap<>();
        List<String> branches = new ArrayList<>();
        FileStoreTable mainTable = table;
        int stepNo = 0;
        for (JsonNode step : c.get("steps")) {
            String op = step.get("op").asText();
            stage[0] = "step " + stepNo++ + " (" + op + ")";
            // a step with "branch" writes (or compacts) that branch; every other step the main branch
            table = step.has("branch") ? mainTable.switchToBranch(step.get("branch").asText()) : mainTable;
            if (op.equals("branch")) {
                // BranchManager: branch/branch-<name>/ with the schemas (and, from a tag, its snapshot)
                if (step.has("tag")) {
                    table.createBranch(step.get("name").asText(), step.get("tag").asText());
                } else {
                    table.createBranch(step.get("name").asText());
                }
                branches.add(step.get("name").asText());
                continue;
            }
            if (op.equals("alter")) {
                schema = schemaManager.commitChanges(changes(step));
                table = mainTable = FileStoreTableFactory.create(fileIO, path);
                rowType = schema.logicalRowType();
                extractor = new RowPartitionKeyExtractor(schema);
                continue;
            }
            if (op.equals("tag")) {
                // TagManager.createTag: tag/tag-<name>, the snapshot's JSON with tagCreateTime (and tagTimeRetained)
                if (step.has("retained_seconds")) {
                    table.createTag(step.get("name").asText(), step.get("snapshot").asLong(),
                            Duration.ofSeconds(step.get("retained_seconds").asLong()));
                } else {
                    table.createTag(step.get("name").asText(), step.get("snapshot").asLong());
                }
                continue;
            }
            if (op.equals("consumer")) {
                // ConsumerManager.resetConsumer: consumer/consumer-<id>, {"nextSnapshot": n}
                new ConsumerManager(fileIO, path).resetConsumer(
                        step.get("id").asText(), new Consumer(step.get("next_snapshot").asLong()));
                continue;
            }
            if (op.equals("analyze")) {
                // FileStoreCommit.commitStatistics: statistics/stat-<uuid>-0 and an ANALYZE snapshot naming it
                Snapshot last = table.snapshotManager().latestSnapshot();
                Map<String, ColStats<?>> colStats = new LinkedHashMap<>();
                JsonNode col = step.get("column");
                colStats.put(col.get("name").asText(), ColStats.newColStats(
                        col.get("field_id").asInt(), col.get("distinct").asLong(), col.get("min").asLong(),
                        col.get("max").asLong(), 0L, 8L, 8L));
                Statistics stats = new Statistics(last.id(), last.schemaId(), last.totalRecordCount(), null, colStats);
                FileStoreCommit commit = (FileStoreCommit) Reflection.invoke(table.store(), "newCommit",
                        new Object[] {"golden", table}, new Object[] {"golden"});
                commit.commitStatistics(stats, Long.MAX_VALUE);
                commit.close();
                continue;
            }
            if (op.equals("global_index")) {
                buildGlobalIndex(table, step, tmp);
                continue;
            }
            if (op.equals("update_columns")) {
                updateColumns(table, rowType, step);
                continue;
            }
            if (op.equals("compact") && bucketOption == -1 && schema.primaryKeys().isEmpty()) {
                compactUnaware(table);
                continue;
            }
            if (step.has("fields") && !strings(step.get("fields")).equals(rowType.getFieldNames())) {
                throw new IllegalStateException("rows in " + step.get("fields") + ", schema has " + rowType.getFieldNames());
            }
            BatchWriteBuilder writeBuilder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = writeBuilder.newWrite()) {
                write.withIOManager(IOManager.create(tmp.getAbsolutePath()));
                if (op.equals("write")) {
                    HashBucketAssigner assigner = dynamic
                            ? Reflection.construct(HashBucketAssigner.class,
                                    new Object[] {table.snapshotManager(), "golden",
                                            table.store().newIndexFileHandler(), 1, 1, 0, target, -1},
                                    new Object[] {table.snapshotManager(), "golden",
                                            table.store().newIndexFileHandler(), 1, 1, 0, target})
                            : null;
                    for (JsonNode r : step.get("rows")) {
                        GenericRow row = new GenericRow(RowKind.fromShortString(r.get(0).asText()),
                                rowType.getFieldCount());
                        for (int i = 0; i < rowType.getFieldCount(); i++) {
                            row.setField(i, value(rowType.getTypeAt(i), r.get(1).get(i)));
                        }
                        BinaryRow partition = write.getPartition(row).copy();
                        int bucket;
                        if (dynamic) {
                            bucket = assigner.assign(partition, extractor.trimmedPrimaryKey(row).hashCode());
                            write.write(row, bucket);
                        } else {
                            bucket = write.getBucket(row);
                            write.write(row);
                        }
                        written.computeIfAbsent(partition, k -> new LinkedHashSet<>()).add(bucket);
                    }
                } else if (op.equals("compact")) {
                    boolean full = step.get("full").asBoolean();
                    for (Map.Entry<BinaryRow, Set<Integer>> e : written.entrySet()) {
                        Set<Integer> buckets = new LinkedHashSet<>();
                        if (bucketOption > 0) {
                            for (int b = 0; b < bucketOption; b++) {
                                buckets.add(b);
                            }
                        } else {
                            buckets.addAll(e.getValue());
                        }
                        for (int b : buckets) {
                            write.compact(e.getKey(), b, full);
                        }
                    }
                } else {
                    throw new IllegalArgumentException("step " + op);
                }
                try (BatchTableCommit commit = writeBuilder.newCommit()) {
                    commit.commit(write.prepareCommit());
                }
            }
        }

        stage[0] = "report";
        ObjectNode report = JSON.createObjectNode();
        report.put("name", c.get("name").asText());
        ObjectNode schemaOut = report.putObject("schema");
        schemaOut.put("id", schema.id());
        schemaOut.set("fields", fields(schema.fields()));
        ArrayNode pks = schemaOut.putArray("primary_keys");
        schema.primaryKeys().forEach(pks::add);
        ArrayNode parts = schemaOut.putArray("partition_keys");
        schema.partitionKeys().forEach(parts::add);
        ObjectNode opts = schemaOut.putObject("options");
        schema.options().forEach(opts::put);
        ArrayNode bucketKeys = schemaOut.putArray("bucket_keys");
        schema.bucketKeys().forEach(bucketKeys::add);
        ArrayNode schemas = report.putArray("schemas");
        for (TableSchema version : schemaManager.listAll()) {
            ObjectNode o = schemas.addObject();
            o.put("id", version.id());
            o.set("fields", fields(version.fields()));
            o.put("highest_field_id", version.highestFieldId());
        }

        FileStorePathFactory pathFactory = table.store().pathFactory();
        ArrayNode partitions = report.putArray("partitions");
        for (Map.Entry<BinaryRow, Set<Integer>> e : written.entrySet()) {
            ObjectNode p = partitions.addObject();
            p.set("values", row(partitionType, e.getKey()));
            p.put("path", pathFactory.getPartitionString(e.getKey()));
            ArrayNode b = p.putArray("buckets");
            e.getValue().forEach(b::add);
        }

        if (schema.primaryKeys().isEmpty()) {
            report.putNull("data_file_fields");
        } else {
            RowType keyType = new RowType(PrimaryKeyTableUtils.PrimaryKeyFieldsExtractor.EXTRACTOR.keyFields(schema));
            RowType valueType =
                    new RowType(PrimaryKeyTableUtils.PrimaryKeyFieldsExtractor.EXTRACTOR.valueFields(schema));
            report.set("data_file_fields", fields(KeyValue.schema(keyType, valueType).getFields()));
        }

        stage[0] = "read";
        FileStoreTable latest = FileStoreTableFactory.create(fileIO, path);
        RowType readType = latest.rowType();
        ArrayNode rows = report.putArray("rows");
        ArrayNode kinds = report.putArray("row_kinds");
        report.put("splits", readAll(latest.newReadBuilder(), readType, rows, kinds));
        // each branch the case made: the rows its latest snapshot reads (FileStoreTable.switchToBranch)
        if (!branches.isEmpty()) {
            ObjectNode branchesOut = report.putObject("branches");
            for (String b : branches) {
                FileStoreTable branch = latest.switchToBranch(b);
                ObjectNode o = branchesOut.putObject(b);
                readAll(branch.newReadBuilder(), branch.rowType(), o.putArray("rows"), o.putArray("row_kinds"));
                o.put("latest_snapshot", branch.snapshotManager().latestSnapshotId());
            }
        }

        // the latest snapshot's data files (FileStoreScan) and index files (index manifest)
        ArrayNode dataFiles = report.putArray("data_files");
        for (ManifestEntry e : latest.store().newScan().plan().files()) {
            DataFileMeta f = e.file();
            ObjectNode o = dataFiles.addObject();
            o.put("partition", pathFactory.getPartitionString(e.partition()));
            o.put("bucket", e.bucket());
            o.put("level", f.level());
            o.put("schema_id", f.schemaId());
            o.put("row_count", f.rowCount());
            if (f.deleteRowCount().isPresent()) {
                o.put("delete_row_count", f.deleteRowCount().get());
            } else {
                o.putNull("delete_row_count");
            }
            o.put("file_source", f.fileSource().isPresent() ? f.fileSource().get().name() : null);
            o.put("name_prefix", f.fileName().substring(0, f.fileName().indexOf('-') + 1));
            o.put("name_extension", f.fileName().substring(f.fileName().lastIndexOf('.')));
            ArrayNode extra = o.putArray("extra_file_suffixes");
            for (String x : f.extraFiles()) {
                extra.add(x.startsWith(f.fileName()) ? x.substring(f.fileName().length()) : x);
            }
            if (f.embeddedIndex() == null) {
                o.putNull("embedded_index_bytes");
            } else {
                o.put("embedded_index_bytes", f.embeddedIndex().length);
            }
        }
        IndexFileHandler handler = latest.store().newIndexFileHandler();
        ArrayNode indexFiles = report.putArray("index_files");
        for (IndexManifestEntry e : handler.scanEntries()) {
            IndexFileMeta m = e.indexFile();
            ObjectNode o = indexFiles.addObject();
            o.put("index_type", m.indexType());
            o.put("partition", pathFactory.getPartitionString(e.partition()));
            o.put("bucket", e.bucket());
            o.put("row_count", m.rowCount());
            o.put("file_size", m.fileSize());
            if (m.indexType().equals("DELETION_VECTORS")) {
                List<Long> cards = new ArrayList<>();
                for (DeletionVector dv : ReleaseApi.vectors(handler, e)) {
                    cards.add(dv.getCardinality());
                }
                Collections.sort(cards);
                ArrayNode c2 = o.putArray("vector_cardinalities");
                cards.forEach(c2::add);
            } else if (m.indexType().equals("HASH")) {
                List<Integer> hashes = new ArrayList<>(ReleaseApi.hashes(handler, e));
                Collections.sort(hashes);
                ArrayNode h = o.putArray("sorted_hashes");
                hashes.forEach(h::add);
            }
        }

        ArrayNode snapshots = report.putArray("snapshots");
        Long latestId = latest.snapshotManager().latestSnapshotId();
        Long earliestId = latest.snapshotManager().earliestSnapshotId();
        for (long id = earliestId == null ? 1 : earliestId; latestId != null && id <= latestId; id++) {
            Snapshot s = latest.snapshotManager().snapshot(id);
            ObjectNode o = snapshots.addObject();
            o.put("id", s.id());
            o.put("schema_id", s.schemaId());
            o.put("commit_kind", s.commitKind().name());
            o.put("total_record_count", s.totalRecordCount());
            o.put("delta_record_count", s.deltaRecordCount());
            o.put("changelog_record_count", s.changelogRecordCount());
            o.put("has_changelog_manifest_list", s.changelogManifestList() != null);
            o.put("has_index_manifest", s.indexManifest() != null);
            if (s.statistics() != null) {
                o.put("has_statistics", true);
            }
        }
        // tags (TagManager.tags: name -> the snapshot id it keeps) and consumers, when the case made any
        ObjectNode tags = JSON.createObjectNode();
        for (Map.Entry<Snapshot, List<String>> e : latest.tagManager().tags().entrySet()) {
            for (String name : e.getValue()) {
                tags.put(name, e.getKey().id());
            }
        }
        if (tags.size() > 0) {
            report.set("tags", tags);
        }
        Map<String, Long> consumerMap = new ConsumerManager(fileIO, path).consumers();
        if (!consumerMap.isEmpty()) {
            ObjectNode consumers = report.putObject("consumers");
            consumerMap.forEach(consumers::put);
        }
        return report;
    }
}
