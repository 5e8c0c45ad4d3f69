// Times Java Paimon's own file-index writers on generated columns, for
// tools/benchmarks/file_index_build.py. Prints one JSON line:
//   {"bloom_int_s": ..., "bloom_string_s": ..., "bloom_double_s": ..., "bloom_timestamp_s": ..., "bitmap_s": ...}
// Usage: java -cp <paimon jar>:<classes> IndexBench ROWS DISTINCT RUNS
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.fileindex.FileIndexWriter;
import org.apache.paimon.fileindex.FileIndexer;
import org.apache.paimon.options.Options;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;

import java.util.Random;

public class IndexBench {

    static double best(Runnable r, int runs) {
        double best = Double.MAX_VALUE;
        for (int i = 0; i < runs; i++) {
            long t = System.nanoTime();
            r.run();
            best = Math.min(best, (System.nanoTime() - t) / 1e9);
        }
        return best;
    }

    static byte[] build(String type, DataType dataType, Options options, Object[] values) {
        FileIndexWriter writer = FileIndexer.create(type, dataType, options).createWriter();
        for (Object v : values) {
            writer.writeRecord(v);
        }
        return writer.serializedBytes();
    }

    public static void main(String[] args) {
        int rows = Integer.parseInt(args[0]);
        int distinct = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        Random rng = new Random(1);
        Object[] ints = new Object[rows];
        Object[] strings = new Object[rows];
        Object[] bitmapValues = new Object[rows];
        Object[] doubles = new Object[rows];
        Object[] timestamps = new Object[rows];
        for (int i = 0; i < rows; i++) {
            ints[i] = rng.nextInt();
            strings[i] = BinaryString.fromString("s" + Integer.toHexString(rng.nextInt()));
            bitmapValues[i] = rng.nextInt(distinct);
            doubles[i] = rng.nextDouble() * 1e6 - 5e5;
            // microseconds within about 2^50 of the epoch (years 1934 to 2005)
            timestamps[i] = Timestamp.fromMicros(rng.nextLong() >> 13);
        }
        Options bloom = new Options();
        bloom.set("items", String.valueOf(rows));
        Options none = new Options();
        double bloomInt = best(() -> build("bloom-filter", DataTypes.INT(), bloom, ints), runs);
        double bloomString = best(() -> build("bloom-filter", DataTypes.STRING(), bloom, strings), runs);
        double bloomDouble = best(() -> build("bloom-filter", DataTypes.DOUBLE(), bloom, doubles), runs);
        double bloomTimestamp = best(() -> build("bloom-filter", DataTypes.TIMESTAMP(6), bloom, timestamps), runs);
        double bitmap = best(() -> build("bitmap", DataTypes.INT(), none, bitmapValues), runs);
        System.out.println("{\"bloom_int_s\": " + bloomInt + ", \"bloom_string_s\": " + bloomString
                + ", \"bloom_double_s\": " + bloomDouble + ", \"bloom_timestamp_s\": " + bloomTimestamp
                + ", \"bitmap_s\": " + bitmap + "}");
    }
}
