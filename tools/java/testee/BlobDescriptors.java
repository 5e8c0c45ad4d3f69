// The testee's blob-descriptor layout: Paimon's BlobDescriptor (from 1.4), reached by reflection so that the
// testee compiles against releases that do not have it.
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.reflect.Method;

final class BlobDescriptors {

    static final String KIND = "blob-descriptor";

    private BlobDescriptors() {}

    /** BlobDescriptor in this release, or null when it has none. */
    static Class<?> type() {
        try {
            return Class.forName("org.apache.paimon.data.BlobDescriptor");
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    /** BlobDescriptor.deserialize(data): its uri, offset and length, and the version byte it accepted. */
    static void decode(byte[] data, ObjectNode c) throws Exception {
        Class<?> t = type();
        Object d = Reflection.call(() -> t.getMethod("deserialize", byte[].class).invoke(null, (Object) data));
        c.put("version", data[0]);
        c.put("uri", (String) t.getMethod("uri").invoke(d));
        c.put("offset", (long) t.getMethod("offset").invoke(d));
        c.put("length", (long) t.getMethod("length").invoke(d));
    }

    /** new BlobDescriptor(uri, offset, length).serialize(): the release writes its own version only. */
    static byte[] encode(JsonNode c) throws Exception {
        Class<?> t = type();
        Object d = Reflection.call(() -> t.getConstructor(String.class, long.class, long.class)
                .newInstance(c.get("uri").asText(), c.get("offset").asLong(), c.get("length").asLong()));
        Method serialize = t.getMethod("serialize");
        return (byte[]) Reflection.call(() -> serialize.invoke(d));
    }
}
