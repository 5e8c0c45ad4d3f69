// Times Java Paimon's own bucket path over keys from a file: a BinaryRowWriter fills one
// reused BinaryRow per key (as the generated projection does), then BinaryRow.hashCode()
// and KeyAndBucketExtractor.bucket(hash, n).
//
// Usage: java -cp <paimon jar>:<classes> BucketBench KEYS_FILE BIGINT|STRING BUCKETS RUNS
// KEYS_FILE: BIGINT keys as int64 LE; STRING keys as (int32 LE byte length, UTF-8 bytes).
// Prints one JSON line: {"best_s": seconds of the best run, "bucket_sum": sum of all buckets}.
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryRowWriter;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.table.sink.KeyAndBucketExtractor;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

public class BucketBench {

    public static void main(String[] args) throws Exception {
        ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(Paths.get(args[0]))).order(ByteOrder.LITTLE_ENDIAN);
        boolean strings = args[1].equals("STRING");
        int buckets = Integer.parseInt(args[2]);
        int runs = Integer.parseInt(args[3]);
        long[] longs = null;
        BinaryString[] texts = null;
        if (strings) {
            List<BinaryString> list = new ArrayList<>();
            while (in.hasRemaining()) {
                byte[] b = new byte[in.getInt()];
                in.get(b);
                list.add(BinaryString.fromString(new String(b, StandardCharsets.UTF_8)));
            }
            texts = list.toArray(new BinaryString[0]);
        } else {
            longs = new long[in.remaining() / 8];
            in.asLongBuffer().get(longs);
        }
        BinaryRow row = new BinaryRow(1);
        BinaryRowWriter writer = new BinaryRowWriter(row);
        double best = Double.MAX_VALUE;
        long sum = 0;
        for (int r = 0; r < runs + 1; r++) { // the first run warms the JIT up and is not counted
            long start = System.nanoTime();
            sum = 0;
            int n = strings ? texts.length : longs.length;
            for (int i = 0; i < n; i++) {
                writer.reset();
                if (strings) {
                    writer.writeString(0, texts[i]);
                } else {
                    writer.writeLong(0, longs[i]);
                }
                writer.complete();
                sum += KeyAndBucketExtractor.bucket(row.hashCode(), buckets);
            }
            double s = (System.nanoTime() - start) / 1e9;
            if (r > 0) {
                best = Math.min(best, s);
            }
        }
        System.out.println("{\"best_s\": " + best + ", \"bucket_sum\": " + sum + "}");
    }
}
