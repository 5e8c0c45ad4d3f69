// Writes TIMESTAMP / TIMESTAMP_LTZ values into ORC tables with Java Paimon and reports what
// Java's own reader returns for them, in the time zone of the JVM it runs in
// (java -Duser.timezone=ZONE ...). Used by conformance/test_orc_timestamps.py.
//
// Usage: java -Duser.timezone=ZONE -cp <paimon jar>:<classes> OrcTimestampWriter write SPEC.json TABLE_DIR OUT.json
//        java -Duser.timezone=ZONE -cp <paimon jar>:<classes> OrcTimestampWriter read TABLE_DIR OUT.json
//        java -Duser.timezone=ZONE -cp <paimon jar>:<classes> OrcTimestampWriter serve
//
// SPEC.json: {"fields": [{"name": "id", "type": "INT"}, {"name": "t3", "type": "TIMESTAMP(3)"}, ...],
//             "options": {"file.format": "orc", ...}, "rows": [[0, [millis, nanoOfMilli] | null, ...], ...]}
// The first field is an INT row id. Timestamps are Paimon's internal values
// (Timestamp.fromEpochMillis(millis, nanoOfMilli): for TIMESTAMP the wall clock as if in UTC,
// for TIMESTAMP_LTZ the instant). "write" creates an append table (bucket -1) on the local
// file system with those fields and options, writes all rows in one BatchTableWrite and one
// commit, then reads the table back through newReadBuilder() (all splits) in the same JVM;
// "read" only reads an existing table. OUT.json:
//   {"zone": TimeZone.getDefault().getID(), "rows": [[id, [millis, nanoOfMilli] | null, ...], ...]}
// with the rows sorted by id. "serve" reads one JSON request per line on stdin,
// {"op": "write", "spec": {...}, "table": DIR}, {"op": "read", "table": DIR} or
// {"op": "offsets", "zones": [ID, ...], "instants": [millis, ...]} or
// {"op": "readfile", "path": ORC_FILE, "fields": [{"name", "type"}, ...]}, and answers each with
// one line: the OUT object; for "offsets" {"offsets": {ID: [TimeZone.getTimeZone(ID).getOffset(millis),
// ...]}, "ids": {ID: TimeZone.getTimeZone(ID).getID()}}; for "readfile" (one data file read through
// FileFormat.fromIdentifier("orc").createReaderFactory, as Paimon reads a data file) {"zone": ...,
// "rows": [[value | null | "error: <exception class>", ...], ...]} in file order; or
// {"error": "..."}. So many tables can be written in one JVM run.
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.options.Options;
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
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.RowType;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;

public class OrcTimestampWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "write":
                JSON.writeValue(new File(args[3]), write(JSON.readTree(new File(args[1])), new File(args[2])));
                break;
            case "read":
                JSON.writeValue(new File(args[2]), read(new File(args[1])));
                break;
            case "serve":
                serve();
                break;
            default:
                throw new IllegalArgumentException("mode " + args[0]);
        }
    }

    static void serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            ObjectNode answer;
            try {
                JsonNode request = JSON.readTree(line);
                String op = request.get("op").asText();
                if (op.equals("offsets")) {
                    answer = offsets(request);
                } else if (op.equals("readfile")) {
                    answer = readFile(request);
                } else if (op.equals("write")) {
                    answer = write(request.get("spec"), new File(request.get("table").asText()));
                } else {
                    answer = read(new File(request.get("table").asText()));
                }
            } catch (Exception | LinkageError e) {
                answer = JSON.createObjectNode();
                answer.put("error", e.getClass().getName() + ": " + e.getMessage());
            }
            out.println(JSON.writeValueAsString(answer));
        }
    }

    static ObjectNode offsets(JsonNode request) {
        ObjectNode out = JSON.createObjectNode();
        ObjectNode offsets = out.putObject("offsets");
        ObjectNode ids = out.putObject("ids");
        for (JsonNode id : request.get("zones")) {
            TimeZone zone = TimeZone.getTimeZone(id.asText());
            ids.put(id.asText(), zone.getID());
            ArrayNode values = offsets.putArray(id.asText());
            for (JsonNode t : request.get("instants")) {
                values.add(zone.getOffset(t.asLong()));
            }
        }
        return out;
    }

    static ObjectNode readFile(JsonNode request) throws Exception {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (JsonNode f : request.get("fields")) {
            names.add(f.get("name").asText());
            types.add(DataTypeJsonParser.parseAtomicTypeSQLString(f.get("type").asText()));
        }
        RowType rowType = RowType.of(types.toArray(new DataType[0]), names.toArray(new String[0]));
        LocalFileIO fileIO = LocalFileIO.create();
        Path path = new Path(request.get("path").asText());
        ObjectNode out = JSON.createObjectNode();
        out.put("zone", TimeZone.getDefault().getID());
        ArrayNode rows = out.putArray("rows");
        try (RecordReader<InternalRow> reader = ReleaseApi.readerFactory(FileFormat.fromIdentifier("orc", new Options()), rowType)
                .createReader(new FormatReaderContext(fileIO, path, fileIO.getFileSize(path)))) {
            reader.forEachRemaining(
                    row -> {
                        ArrayNode r = rows.addArray();
                        for (int i = 0; i < types.size(); i++) {
                            try {
                                Object v = InternalRow.createFieldGetter(types.get(i), i).getFieldOrNull(row);
                                addValue(r, v);
                            } catch (RuntimeException e) {
                                r.add("error: " + e.getClass().getName());
                            }
                        }
                    });
        }
        return out;
    }

    static void addValue(ArrayNode r, Object v) {
        if (v == null) {
            r.addNull();
        } else if (v instanceof Integer) {
            r.add((Integer) v);
        } else {
            Timestamp t = (Timestamp) v;
            ArrayNode ts = r.addArray();
            ts.add(t.getMillisecond());
            ts.add(t.getNanoOfMillisecond());
        }
    }

    static ObjectNode write(JsonNode spec, File dir) throws Exception {
        Schema.Builder builder = Schema.newBuilder();
        for (JsonNode f : spec.get("fields")) {
            builder.column(f.get("name").asText(), DataTypeJsonParser.parseAtomicTypeSQLString(f.get("type").asText()));
        }
        Iterator<Map.Entry<String, JsonNode>> options = spec.get("options").fields();
        while (options.hasNext()) {
            Map.Entry<String, JsonNode> o = options.next();
            builder.option(o.getKey(), o.getValue().asText());
        }
        Path path = new Path(dir.getAbsolutePath());
        LocalFileIO fileIO = LocalFileIO.create();
        TableSchema schema = new SchemaManager(fileIO, path).createTable(builder.build());
        FileStoreTable table = FileStoreTableFactory.create(fileIO, path, schema);
        RowType rowType = schema.logicalRowType();
        BatchWriteBuilder writeBuilder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = writeBuilder.newWrite()) {
            for (JsonNode r : spec.get("rows")) {
                GenericRow row = new GenericRow(rowType.getFieldCount());
                for (int i = 0; i < rowType.getFieldCount(); i++) {
                    row.setField(i, value(rowType.getTypeAt(i), r.get(i)));
                }
                write.write(row);
            }
            try (BatchTableCommit commit = writeBuilder.newCommit()) {
                commit.commit(write.prepareCommit());
            }
        }
        return read(dir);
    }

    static Object value(DataType type, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case INTEGER:
                return v.asInt();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(v.get(0).asLong(), v.get(1).asInt());
            default:
                throw new IllegalArgumentException("type " + type);
        }
    }

    static ObjectNode read(File dir) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(dir.getAbsolutePath()));
        RowType type = table.rowType();
        ReadBuilder builder = table.newReadBuilder();
        List<InternalRow.FieldGetter> getters = new ArrayList<>();
        for (int i = 0; i < type.getFieldCount(); i++) {
            getters.add(InternalRow.createFieldGetter(type.getTypeAt(i), i));
        }
        List<ArrayNode> rows = new ArrayList<>();
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(builder.newScan().plan())) {
            reader.forEachRemaining(
                    row -> {
                        ArrayNode r = JSON.createArrayNode();
                        for (int i = 0; i < getters.size(); i++) {
                            addValue(r, getters.get(i).getFieldOrNull(row));
                        }
                        rows.add(r);
                    });
        }
        rows.sort((a, b) -> Integer.compare(a.get(0).asInt(), b.get(0).asInt()));
        ObjectNode out = JSON.createObjectNode();
        out.put("zone", TimeZone.getDefault().getID());
        ArrayNode all = out.putArray("rows");
        rows.forEach(all::add);
        return out;
    }
}
