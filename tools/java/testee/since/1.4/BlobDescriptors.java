// The testee's blob-descriptor layout (Paimon 1.4 on: BlobDescriptor), compiled only against releases that have
// it and found by the testee by name. Encode serializes a new descriptor (each release writes its own version
// only); decode deserializes one and gives its fields, with the version byte it accepted.
import org.apache.paimon.data.BlobDescriptor;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

public final class BlobDescriptors {

    private BlobDescriptors() {}

    public static void decode(byte[] data, ObjectNode c, JsonNode types) {
        BlobDescriptor d = BlobDescriptor.deserialize(data);
        c.put("version", data[0]);
        c.put("uri", d.uri());
        c.put("offset", d.offset());
        c.put("length", d.length());
    }

    public static byte[] encode(JsonNode c) {
        return new BlobDescriptor(c.get("uri").asText(), c.get("offset").asLong(), c.get("length").asLong())
                .serialize();
    }
}
