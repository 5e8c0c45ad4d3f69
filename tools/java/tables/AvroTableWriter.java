// Writes an append table whose one data file is an Avro file of many blocks, with Java Paimon's own writer
// (for the streaming benchmark, tools/benchmarks/validate_memory.py --format avro, and test_streaming).
//
// Usage: java -cp <paimon jar>:<classes> AvroTableWriter OUT_DIR ROWS WIDE
//
// The table: id BIGINT, v DOUBLE, s STRING (the benchmark's columns), and with WIDE = 1 also
// d DECIMAL(10, 2), ts TIMESTAMP(3), day DATE, n INT (null in the first half of the rows, so a window of the
// file's first blocks holds nulls only), with bloom-filter indexes on s and ts (Java's bloom filter takes no
// DECIMAL) and a bitmap index on day (Java writes file indexes for append tables in any format);
// bucket = -1, file.format = avro, target-file-size 4 GB (one file).
// Row i: id = i, v = (i mod 1000) / 8, s = "s" + (i mod 50000), d = (i mod 100000) / 100 - 500,
// ts = i seconds after 2024-01-01T00:00:00.123, day = 2024-01-01 + (i mod 3000) days, n = i mod 7.
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;

import java.io.File;
import java.math.BigDecimal;

public class AvroTableWriter {

    static final long START_MILLIS = 1704067200123L; // 2024-01-01T00:00:00.123
    static final int START_DAY = 19723; // 2024-01-01

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: AvroTableWriter OUT_DIR ROWS WIDE");
            System.exit(2);
        }
        File dir = new File(args[0]).getAbsoluteFile();
        long rows = Long.parseLong(args[1]);
        boolean wide = args[2].equals("1");
        if (dir.exists()) {
            System.err.println(dir + " exists; remove it first");
            System.exit(2);
        }
        Schema.Builder builder = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("v", DataTypes.DOUBLE())
                .column("s", DataTypes.STRING())
                .option("bucket", "-1")
                .option("file.format", "avro")
                .option("target-file-size", "4 gb");
        if (wide) {
            builder.column("d", DataTypes.DECIMAL(10, 2))
                    .column("ts", DataTypes.TIMESTAMP(3))
                    .column("day", DataTypes.DATE())
                    .column("n", DataTypes.INT())
                    .option("file-index.bloom-filter.columns", "s,ts")
                    .option("file-index.bitmap.columns", "day");
        }
        Path path = new Path(dir.getPath());
        LocalFileIO io = LocalFileIO.create();
        new SchemaManager(io, path).createTable(builder.build());
        FileStoreTable table = FileStoreTableFactory.create(io, path);
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite write = wb.newWrite(); BatchTableCommit commit = wb.newCommit()) {
            for (long i = 0; i < rows; i++) {
                Object id = i;
                Object v = (i % 1000) / 8.0;
                Object s = BinaryString.fromString("s" + (i % 50000));
                if (!wide) {
                    write.write(GenericRow.of(id, v, s));
                    continue;
                }
                Decimal d = Decimal.fromBigDecimal(BigDecimal.valueOf(i % 100000 - 50000, 2), 10, 2);
                Timestamp ts = Timestamp.fromEpochMillis(START_MILLIS + i * 1000);
                int day = START_DAY + (int) (i % 3000);
                Object n = i < rows / 2 ? null : (int) (i % 7);
                write.write(GenericRow.of(id, v, s, d, ts, day, n));
            }
            commit.commit(write.prepareCommit());
        }
        System.out.println("wrote " + rows + " rows to " + dir);
    }
}
