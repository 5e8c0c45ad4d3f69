// Writes golden BinaryRows, hash codes and buckets, and dynamic-bucket assignment
// sequences, with Java Paimon's own classes.
//
// Usage: java -cp <paimon jar>:<classes> BucketGoldenWriter CASES.json OUT_DIR
//
// CASES.json (written by tools/golden_java.py):
//   {"counts": [bucket counts],
//    "rows": [{"name": ..., "types": ["INT", "DECIMAL(38, 2)", ...], "values": [internal values]}],
//    "dynamic": [{"name": ..., "partitioned": bool, "targets": [n per round], "channels": c,
//                 "initial_buckets": a or null,
//                 "rounds": [[[partition, key], ...], ...]},
//    "simple": [{"name": ..., "assigners": a, "target": n, "keys": [[assign_id, partition, key_hash], ...]}]}
// Values are internal forms: integers; "NaN"/"Infinity"/"-Infinity" or numbers for floats;
// strings; hex for binary; [millis, nanoOfMilli] for timestamps; [unscaled, p, s] for decimals.
//
// Rows: the bucket-key BinaryRow is built by Paimon's generated projection
// (CodeGenUtils.newProjection, what FixedBucketRowKeyExtractor uses), and each bucket
// comes from a FixedBucketRowKeyExtractor over a table schema whose bucket-key is all
// fields. Dynamic: a real primary-key table (bucket = -1) on the local file system;
// each round routes every record to its assigner (BucketAssigner.computeAssigner),
// assigns it with a fresh HashBucketAssigner per channel (which loads the HASH index
// written so far), writes and commits the rows, so the next round starts from the
// index Java wrote. Simple: SimpleHashBucketAssigner over the given key hashes.
import org.apache.paimon.codegen.CodeGenUtils;
import org.apache.paimon.codegen.Projection;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.BucketAssigner;
import org.apache.paimon.index.HashBucketAssigner;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.SimpleHashBucketAssigner;
import org.apache.paimon.manifest.IndexManifestEntry;
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
import org.apache.paimon.table.sink.KeyAndBucketExtractor;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.SerializationUtils;

import java.io.File;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class BucketGoldenWriter {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        JsonNode cases = JSON.readTree(new File(args[0]));
        File out = new File(args[1]);
        ObjectNode report = JSON.createObjectNode();
        ArrayNode rows = report.putArray("rows");
        for (JsonNode c : cases.path("rows")) {
            rows.add(row(c, cases.get("counts")));
        }
        ArrayNode dynamic = report.putArray("dynamic");
        for (JsonNode c : cases.path("dynamic")) {
            dynamic.add(dynamic(c, new File(out, "dynamic")));
        }
        ArrayNode simple = report.putArray("simple");
        for (JsonNode c : cases.path("simple")) {
            simple.add(simple(c));
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(new File(out, "bucket-report.json"), report);
    }

    static Object value(DataType type, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
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
            case BINARY: case VARBINARY: return FileIndexGoldenWriter.hex(v.asText());
            case TIMESTAMP_WITHOUT_TIME_ZONE: case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(v.get(0).asLong(), v.get(1).asInt());
            case DECIMAL:
                BigDecimal d = new BigDecimal(new BigInteger(v.get(0).asText()), v.get(2).asInt());
                return Decimal.fromBigDecimal(d, v.get(1).asInt(), v.get(2).asInt());
            default: throw new IllegalArgumentException("type " + type);
        }
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b & 0xff));
        }
        return sb.toString();
    }

    static ObjectNode row(JsonNode c, JsonNode counts) {
        List<DataField> fields = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < c.get("types").size(); i++) {
            DataType t = DataTypeJsonParser.parseAtomicTypeSQLString(c.get("types").get(i).asText());
            fields.add(new DataField(i, "f" + i, t));
            names.add("f" + i);
        }
        RowType rowType = new RowType(fields);
        GenericRow input = new GenericRow(fields.size());
        for (int i = 0; i < fields.size(); i++) {
            input.setField(i, value(fields.get(i).type(), c.get("values").get(i)));
        }
        int[] all = new int[fields.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        Projection projection = CodeGenUtils.newProjection(rowType, all);
        BinaryRow key = projection.apply(input).copy();
        ObjectNode result = JSON.createObjectNode();
        result.put("name", c.get("name").asText());
        result.put("row_hex", hex(key.toBytes()));
        result.put("hash", key.hashCode());
        byte[] serialized = SerializationUtils.serializeBinaryRow(key);
        result.put("serialized_hex", hex(serialized));
        // Java's reader: the manifest form back into a row, then each field through a FieldGetter
        BinaryRow back = SerializationUtils.deserializeBinaryRow(serialized);
        ObjectNode reader = result.putObject("reader");
        reader.put("arity", back.getFieldCount());
        reader.put("hash", back.hashCode());
        reader.put("equals_written", back.equals(key));
        ArrayNode shown = reader.putArray("values");
        for (int i = 0; i < fields.size(); i++) {
            Object v = InternalRow.createFieldGetter(fields.get(i).type(), i).getFieldOrNull(back);
            if (v == null) {
                shown.addNull();
            } else if (v instanceof byte[]) {
                shown.add(hex((byte[]) v));
            } else {
                shown.add(v.toString());
            }
        }
        ObjectNode buckets = result.putObject("buckets");
        for (JsonNode n : counts) {
            Map<String, String> options = new HashMap<>();
            options.put("bucket", n.asText());
            options.put("bucket-key", String.join(",", names));
            TableSchema schema = new TableSchema(
                    0, fields, fields.size() - 1, Collections.emptyList(), Collections.emptyList(), options, "");
            FixedBucketRowKeyExtractor extractor = new FixedBucketRowKeyExtractor(schema);
            extractor.setRecord(input);
            int bucket = extractor.bucket();
            if (bucket != KeyAndBucketExtractor.bucket(key.hashCode(), n.asInt())) {
                throw new IllegalStateException("extractor and hashCode disagree for " + c);
            }
            buckets.put(n.asText(), bucket);
        }
        return result;
    }

    static ObjectNode dynamic(JsonNode c, File out) throws Exception {
        String name = c.get("name").asText();
        boolean partitioned = c.get("partitioned").asBoolean();
        int channels = c.get("channels").asInt();
        int assigners = c.get("initial_buckets").isNull()
                ? channels : Math.min(c.get("initial_buckets").asInt(), channels);
        long target = c.get("targets").get(0).asLong();
        Schema.Builder schema = Schema.newBuilder()
                .column("p", DataTypes.INT())
                .column("k", DataTypes.STRING())
                .column("v", DataTypes.INT())
                .primaryKey(partitioned ? new String[] {"p", "k"} : new String[] {"k"})
                .option("bucket", "-1")
                .option("file.format", "avro")
                .option("dynamic-bucket.target-row-num", String.valueOf(target));
        if (partitioned) {
            schema.partitionKeys("p");
        }
        Path path = new Path(new File(out, name).getAbsolutePath());
        LocalFileIO fileIO = LocalFileIO.create();
        TableSchema tableSchema = new SchemaManager(fileIO, path).createTable(schema.build());
        FileStoreTable table = FileStoreTableFactory.create(fileIO, path, tableSchema);
        IndexFileHandler handler = table.store().newIndexFileHandler();
        RowType partType = RowType.of(DataTypes.INT());
        RowType keyType = RowType.of(DataTypes.STRING());
        Projection partProjection = CodeGenUtils.newProjection(partType, new int[] {0});
        Projection keyProjection = CodeGenUtils.newProjection(keyType, new int[] {0});

        ObjectNode result = JSON.createObjectNode();
        result.put("name", name);
        result.put("assigners", assigners);
        ArrayNode rounds = result.putArray("rounds");
        int v = 0;
        for (int n = 0; n < c.get("rounds").size(); n++) {
            JsonNode round = c.get("rounds").get(n);
            long roundTarget = c.get("targets").get(n).asLong();
            ObjectNode roundOut = rounds.addObject();
            roundOut.put("target", roundTarget);
            // the HASH files a fresh assigner loads, per partition, in index-manifest order
            ArrayNode loaded = roundOut.putArray("index_before");
            Map<Integer, Boolean> seenPartitions = new HashMap<>();
            for (JsonNode rec : round) {
                int p = partitioned ? rec.get(0).asInt() : 0;
                if (seenPartitions.put(p, true) != null) {
                    continue;
                }
                BinaryRow part = partitioned
                        ? partProjection.apply(GenericRow.of(p)).copy() : BinaryRow.EMPTY_ROW;
                ObjectNode po = loaded.addObject();
                po.put("partition", p);
                ArrayNode files = po.putArray("files");
                for (IndexManifestEntry e : handler.scanEntries("HASH", part)) {
                    ObjectNode f = files.addObject();
                    f.put("bucket", e.bucket());
                    ArrayNode hashes = f.putArray("hashes");
                    for (int h : handler.readHashIndexList(e.indexFile())) {
                        hashes.add(h);
                    }
                }
            }
            HashBucketAssigner[] perChannel = new HashBucketAssigner[channels];
            for (int a = 0; a < channels; a++) {
                perChannel[a] = new HashBucketAssigner(
                        table.snapshotManager(), "golden", handler, channels, assigners, a, roundTarget);
            }
            ArrayNode records = roundOut.putArray("records");
            BatchWriteBuilder builder = table.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite()) {
                for (JsonNode rec : round) {
                    int p = partitioned ? rec.get(0).asInt() : 0;
                    String k = rec.get(1).asText();
                    BinaryRow part = partitioned
                            ? partProjection.apply(GenericRow.of(p)).copy() : BinaryRow.EMPTY_ROW;
                    BinaryRow key = keyProjection.apply(GenericRow.of(BinaryString.fromString(k))).copy();
                    int partHash = part.hashCode();
                    int keyHash = key.hashCode();
                    int channel = BucketAssigner.computeAssigner(partHash, keyHash, channels, assigners);
                    int bucket = perChannel[channel].assign(part, keyHash);
                    ObjectNode r = records.addObject();
                    r.put("partition", p);
                    r.put("key", k);
                    r.put("partition_hash", partHash);
                    r.put("key_hash", keyHash);
                    r.put("assigner", channel);
                    r.put("bucket", bucket);
                    write.write(GenericRow.of(p, BinaryString.fromString(k), v++), bucket);
                }
                try (BatchTableCommit commit = builder.newCommit()) {
                    commit.commit(write.prepareCommit());
                }
            }
        }
        return result;
    }

    static ObjectNode simple(JsonNode c) {
        int assigners = c.get("assigners").asInt();
        long target = c.get("target").asLong();
        SimpleHashBucketAssigner[] perId = new SimpleHashBucketAssigner[assigners];
        for (int a = 0; a < assigners; a++) {
            perId[a] = new SimpleHashBucketAssigner(assigners, a, target);
        }
        ObjectNode result = JSON.createObjectNode();
        result.put("name", c.get("name").asText());
        ArrayNode buckets = result.putArray("buckets");
        for (JsonNode k : c.get("keys")) {
            BinaryRow part = k.get(1).isNull()
                    ? BinaryRow.EMPTY_ROW
                    : CodeGenUtils.newProjection(RowType.of(DataTypes.INT()), new int[] {0})
                            .apply(GenericRow.of(k.get(1).asInt())).copy();
            buckets.add(perId[k.get(0).asInt()].assign(part, k.get(2).asInt()));
        }
        return result;
    }
}
