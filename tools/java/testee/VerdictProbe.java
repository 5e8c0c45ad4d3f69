// Runs a list of jobs against Paimon tables in one JVM, for conformance/test_java_verdicts.py:
// read a table with Java's reader (the query path), upsert rows into it with Java's writer (the
// write path, which restores the bucket's deletion vectors and files), or create a small table.
//
// Usage: java -cp <paimon jar>:<classes> VerdictProbe IN.json OUT.json
//
// IN.json:  {"jobs": [{"op": "read", "dir": TABLE_DIR},
//                     {"op": "upsert", "dir": TABLE_DIR, "rows": [[value, ...], ...]},
//                     {"op": "create", "dir": TABLE_DIR, "columns": [[name, type SQL], ...],
//                      "primary": [...], "partition": [...], "options": {...},
//                      "commits": [[[value, ...], ...], ...]}]}
// OUT.json: [{"op", "dir", "error": null | "Class: message <- Cause: message ... at frame",
//             "rows": [[value, ...], ...], "row_kinds": [...]}, ...] in job order; "rows" only for read.
//
// Jobs run in order, each in its own try: a job Java refuses records the exception chain and the
// next job runs. Read values: null, integers and DATE / TIME as numbers, FLOAT / DOUBLE as JSON
// numbers, TIMESTAMP / TIMESTAMP_LTZ as "epochMillis,nanoOfMillisecond",
// everything else toString. Values to write: numbers, strings, TIMESTAMP as [epochMillis, nanoOfMillisecond].
// An upsert is one BatchWriteBuilder write + commit of +I rows (a primary-key table upserts them).
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
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
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.RowType;

import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

public class VerdictProbe {

    /** Spill directory of the writers' IOManager (lookups of primary-key tables); removed at exit. */
    static java.nio.file.Path TMP;

    public static void main(String[] args) throws Exception {
        TMP = Files.createTempDirectory("verdict-probe-io");
        ObjectMapper json = new ObjectMapper();
        JsonNode in = json.readTree(new File(args[0]));
        ArrayNode out = json.createArrayNode();
        for (JsonNode job : in.get("jobs")) {
            String op = job.get("op").asText();
            String dir = job.get("dir").asText();
            ObjectNode res = out.addObject();
            res.put("op", op);
            res.put("dir", dir);
            try {
                if (op.equals("read")) {
                    read(dir, res);
                } else if (op.equals("upsert")) {
                    FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
                    commit(table, job.get("rows"));
                } else if (op.equals("create")) {
                    create(dir, job);
                } else {
                    throw new IllegalArgumentException("unknown op " + op);
                }
                res.putNull("error");
            } catch (Throwable e) {
                res.remove("rows");
                res.remove("row_kinds");
                res.put("error", Failure.describe(e));
            }
        }
        json.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
        try (java.util.stream.Stream<java.nio.file.Path> walk = Files.walk(TMP)) {
            walk.sorted(java.util.Comparator.reverseOrder()).map(java.nio.file.Path::toFile).forEach(File::delete);
        }
    }

    static void read(String dir, ObjectNode res) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir));
        RowType type = table.rowType();
        int n = type.getFieldCount();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[n];
        for (int i = 0; i < n; i++) {
            getters[i] = InternalRow.createFieldGetter(type.getTypeAt(i), i);
        }
        ReadBuilder builder = table.newReadBuilder();
        List<Split> splits = builder.newScan().plan().splits();
        ArrayNode rows = res.putArray("rows");
        ArrayNode kinds = res.putArray("row_kinds");
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(splits)) {
            RecordReader.RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    ArrayNode r = rows.addArray();
                    for (int i = 0; i < n; i++) {
                        Object v = getters[i].getFieldOrNull(row);
                        if (v == null) {
                            r.addNull();
                        } else if (v instanceof Long || v instanceof Integer
                                || v instanceof Short || v instanceof Byte) {
                            r.add(((Number) v).longValue());
                        } else if (v instanceof Double || v instanceof Float) {
                            r.add(((Number) v).doubleValue());
                        } else if (v instanceof Timestamp) {
                            Timestamp ts = (Timestamp) v;
                            r.add(ts.getMillisecond() + "," + ts.getNanoOfMillisecond());
                        } else {
                            r.add(v.toString());
                        }
                    }
                    kinds.add(row.getRowKind().shortString());
                }
                batch.releaseBatch();
            }
        }
    }

    static void commit(FileStoreTable table, JsonNode rows) throws Exception {
        List<DataType> types = table.rowType().getFieldTypes();
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite write = wb.newWrite(); BatchTableCommit c = wb.newCommit()) {
            write.withIOManager(IOManager.create(TMP.toString()));
            for (JsonNode row : rows) {
                Object[] values = new Object[types.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = internal(types.get(i), row.get(i));
                }
                write.write(GenericRow.of(values));
            }
            c.commit(write.prepareCommit());
        }
    }

    static void create(String dir, JsonNode job) throws Exception {
        LocalFileIO io = LocalFileIO.create();
        Path path = new Path(dir);
        Schema.Builder sb = Schema.newBuilder();
        for (JsonNode c : job.get("columns")) {
            sb.column(c.get(0).asText(), DataTypeJsonParser.parseAtomicTypeSQLString(c.get(1).asText()));
        }
        List<String> primary = new ArrayList<>();
        job.get("primary").forEach(x -> primary.add(x.asText()));
        List<String> partition = new ArrayList<>();
        job.get("partition").forEach(x -> partition.add(x.asText()));
        sb.primaryKey(primary).partitionKeys(partition);
        job.get("options").fields().forEachRemaining(e -> sb.option(e.getKey(), e.getValue().asText()));
        new SchemaManager(io, path).createTable(sb.build());
        FileStoreTable table = FileStoreTableFactory.create(io, path);
        for (JsonNode rows : job.get("commits")) {
            commit(table, rows);
        }
    }

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
                return (float) v.asDouble();
            case DOUBLE:
                return v.asDouble();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(v.get(0).asLong(), v.get(1).asInt());
            case DECIMAL:
                DecimalType d = (DecimalType) t;
                return Decimal.fromBigDecimal(new BigDecimal(v.asText()), d.getPrecision(), d.getScale());
            default:
                return BinaryString.fromString(v.asText());
        }
    }
}
