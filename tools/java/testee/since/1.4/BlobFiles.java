// The testee's blob-file layout (Paimon 1.4 on: the "blob" file format of BLOB columns), compiled only against
// releases that have it (java_releases.testee_sources) and found by the testee by name. Both directions go
// through the release's own "blob" FileFormat: encode writes the case's rows with its FormatWriter (Blob.fromData
// per payload, NULL, BlobPlaceholder.INSTANCE from 2.0 for a placeholder row; ARRAY<BLOB> and MAP<K, BLOB>
// columns as GenericArray / GenericMap of such blobs), decode reads them with its FormatReader.
import org.apache.paimon.data.Blob;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.options.Options;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class BlobFiles {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DataType BLOB = DataTypes.BLOB();

    private BlobFiles() {}

    /** The column type a case or request states in `fields` (a plain BLOB when it states none). */
    static DataType columnType(JsonNode fields) {
        if (fields == null || fields.isMissingNode() || fields.isNull()) {
            return BLOB;
        }
        JsonNode t = fields.get(0).get("type");
        if (t.isTextual()) {
            return DataTypeJsonParser.parseAtomicTypeSQLString(t.asText());
        }
        switch (t.get("type").asText()) {
            case "ARRAY":
                return DataTypes.ARRAY(BLOB);
            case "MAP":
                return DataTypes.MAP(DataTypeJsonParser.parseAtomicTypeSQLString(t.get("key").asText()), BLOB);
            default:
                throw new IllegalArgumentException("a BLOB file's column is BLOB, ARRAY<BLOB> or MAP<K, BLOB>");
        }
    }

    /** The rows of a .blob file as this release's reader returns them. The rows are read twice: as a plain BLOB
     * column, which gives each row's stored payload (a record's length is the payload's plus the 16 bytes of
     * framing, and the records lie back to back in row order, as BlobFileMeta locates them from the index, so
     * the offsets are the lengths summed), and, for an ARRAY<BLOB> or MAP<K, BLOB> column, as that type, which
     * gives its elements or entries. */
    public static void decode(byte[] data, ObjectNode c, JsonNode types) throws Exception {
        JsonNode fields = types.path("fields");
        DataType type = columnType(fields);
        c.put("version", data.length > 0 ? data[data.length - 1] : 0);
        if (!fields.isMissingNode()) {
            c.set("fields", fields);
        }
        List<Object> stored = read(data, BLOB);
        List<Object> typed = type == BLOB ? stored : read(data, type);
        if (typed.size() != stored.size()) {
            throw new IllegalStateException(stored.size() + " rows as BLOB, " + typed.size() + " as " + type);
        }
        ArrayNode rows = c.putArray("rows");
        long offset = 0;
        for (int i = 0; i < stored.size(); i++) {
            Object payload = stored.get(i);
            if (!(payload instanceof byte[])) {
                rows.addObject().put((String) payload, true);
                continue;
            }
            int length = ((byte[]) payload).length + 16;
            ObjectNode r = rows.addObject().put("offset", offset).put("length", length);
            offset += length;
            if (type == BLOB) {
                r.put("data", Testee.hex((byte[]) payload));
            } else {
                r.set(type instanceof MapType ? "entries" : "elements", (JsonNode) typed.get(i));
            }
        }
    }

    /** Each row of the file read as `type`: "null", "placeholder", a BLOB's bytes, or the JSON of its
     * elements (ARRAY) or entries (MAP). */
    static List<Object> read(byte[] data, DataType type) throws Exception {
        List<Object> out = new ArrayList<>();
        FormatFiles.read(format(), RowType.of(type), data, r -> out.add(value(r, type)));
        return out;
    }

    static FileFormat format() {
        return FileFormat.fromIdentifier("blob", new Options());
    }

    static Object value(InternalRow r, DataType type) {
        if (r.isNullAt(0)) {
            return "null";
        }
        if (type == BLOB) {
            Blob blob = r.getBlob(0);
            return isPlaceholder(blob) ? "placeholder" : blob.toData();
        }
        if (type instanceof MapType) {
            DataType keyType = ((MapType) type).getKeyType();
            InternalMap map = r.getMap(0);
            if (map.getClass().getSimpleName().equals("BlobMapPlaceholder")) {
                return "placeholder";
            }
            InternalArray keys = map.keyArray();
            InternalArray values = map.valueArray();
            InternalArray.ElementGetter key = InternalArray.createElementGetter(keyType);
            ArrayNode entries = JSON.createArrayNode();
            for (int i = 0; i < map.size(); i++) {
                ArrayNode k = JSON.createArrayNode();
                Testee.logical(k, keyType, key.getElementOrNull(keys, i));
                ObjectNode e = entries.addObject();
                e.set("key", k.get(0));
                e.set("value", values.isNullAt(i) ? null : JSON.valueToTree(Testee.hex(values.getBlob(i).toData())));
            }
            return entries;
        }
        InternalArray array = r.getArray(0);
        if (array.getClass().getSimpleName().equals("BlobArrayPlaceholder")) {
            return "placeholder";
        }
        ArrayNode elements = JSON.createArrayNode();
        for (int i = 0; i < array.size(); i++) {
            if (array.isNullAt(i)) {
                elements.addNull();
            } else {
                elements.add(Testee.hex(array.getBlob(i).toData()));
            }
        }
        return elements;
    }

    /** The bytes of a .blob file this release's writer makes from the case's rows. */
    public static byte[] encode(JsonNode c) throws Exception {
        DataType type = columnType(c.path("fields"));
        List<InternalRow> rows = new ArrayList<>();
        for (JsonNode r : c.get("rows")) {
            rows.add(GenericRow.of(rowValue(r, type)));
        }
        return FormatFiles.write(format(), RowType.of(type), "none", rows);
    }

    static Object rowValue(JsonNode r, DataType type) throws Exception {
        if (r.has("null")) {
            return null;
        }
        if (r.has("placeholder")) {
            return placeholder(type == BLOB ? "BlobPlaceholder"
                    : type instanceof MapType ? "BlobMapPlaceholder" : "BlobArrayPlaceholder");
        }
        if (r.has("data")) {
            return blob(r.get("data"));
        }
        if (r.has("elements")) {
            List<Object> elements = new ArrayList<>();
            for (JsonNode e : r.get("elements")) {
                elements.add(blob(e));
            }
            return new GenericArray(elements.toArray());
        }
        DataType keyType = ((MapType) type).getKeyType();
        Map<Object, Object> entries = new LinkedHashMap<>();
        for (JsonNode e : r.get("entries")) {
            entries.put(Testee.internal(keyType, e.get("key")), blob(e.get("value")));
        }
        return new GenericMap(entries);
    }

    static Blob blob(JsonNode hex) {
        return hex == null || hex.isNull() ? null : Blob.fromData(Testee.unhex(hex.asText()));
    }

    /** The placeholder row of a column type (BlobPlaceholder, BlobArrayPlaceholder, BlobMapPlaceholder: their
     * INSTANCE, from 2.0); a release without it has no placeholder rows to write. */
    static Object placeholder(String name) throws Exception {
        try {
            return Class.forName("org.apache.paimon.data." + name).getField("INSTANCE").get(null);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("this release has no BLOB placeholder rows (" + name + ", from 2.0)");
        }
    }

    static boolean isPlaceholder(Blob blob) {
        return blob.getClass().getName().equals("org.apache.paimon.data.BlobPlaceholder");
    }
}
