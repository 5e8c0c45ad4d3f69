// The testee's roaring64 layout (Paimon 1.2 on: OptimizedRoaringBitmap64, the bitmap of a 64-bit deletion
// vector, in the portable 64-bit RoaringBitmap form), compiled only against releases that have it and found by
// the testee by name. Encode adds every position, run-length encodes as Bitmap64DeletionVector does before it
// serializes, and serializes; decode deserializes and lists the positions. Little-endian, as the portable form.
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.utils.OptimizedRoaringBitmap64;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

public final class Roaring64 {

    private static final long MAX_POSITIONS = 50_000_000L; // a case lists ranges; the testee adds them one by one

    private Roaring64() {}

    public static byte[] encode(JsonNode c) {
        OptimizedRoaringBitmap64 bitmap = new OptimizedRoaringBitmap64();
        long added = 0;
        for (JsonNode r : c.get("ranges")) {
            long first = r.get(0).asLong();
            long last = r.get(1).asLong();
            added += last - first + 1;
            if (added > MAX_POSITIONS) {
                throw new IllegalArgumentException("more than " + MAX_POSITIONS + " positions");
            }
            for (long p = first; p <= last; p++) {
                bitmap.add(p);
            }
        }
        bitmap.runLengthEncode();
        ByteBuffer out = ByteBuffer.allocate((int) bitmap.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
        bitmap.serialize(out);
        return out.array();
    }

    public static void decode(byte[] data, ObjectNode c, JsonNode types) {
        ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        OptimizedRoaringBitmap64 bitmap = OptimizedRoaringBitmap64.deserialize(in);
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " bytes after the bitmap");
        }
        c.put("cardinality", bitmap.cardinality());
        Testee.RangeCollector ranges = new Testee.RangeCollector(c.putArray("ranges"));
        bitmap.forEach(ranges);
        ranges.finish();
    }
}
