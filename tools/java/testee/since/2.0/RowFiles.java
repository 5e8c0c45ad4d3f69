// The testee's row-file layout (Paimon 2.0: the "row" file format), compiled only against releases that have it
// and found by the testee by name. Both directions go through the release's own RowFileFormat: encode writes the
// case's rows with its FormatWriter (zstd blocks, the case's block size and zstd level as a table's
// file.block-size and file.compression.zstd-level give them), decode reads them with its FormatReader. Values
// travel in the kit's logical JSON form, nested types included.
import org.apache.paimon.data.Blob;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.BinaryVector;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.variant.GenericVariant;
import org.apache.paimon.data.variant.Variant;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FileFormatFactory;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.options.Options;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypeJsonParser;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;
import org.apache.paimon.types.VectorType;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public final class RowFiles {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ZSTD_LEVEL = 1; // file.compression.zstd-level's default

    private RowFiles() {}

    /** The row type of a case's or request's fields (schema-file type JSON). */
    static RowType rowType(JsonNode fields) {
        List<DataField> out = new ArrayList<>();
        for (JsonNode f : fields) {
            out.add(new DataField(out.size(), f.get("name").asText(), DataTypeJsonParser.parseDataType(f.get("type"))));
        }
        return new RowType(out);
    }

    static FileFormat format(JsonNode c) {
        MemorySize block = c.has("block_size") ? MemorySize.ofBytes(c.get("block_size").asLong()) : null;
        int level = c.path("zstd_level").asInt(ZSTD_LEVEL);
        FileFormatFactory.FormatContext context = new FileFormatFactory.FormatContext(
                new Options(), 1024, 1024, MemorySize.ofMebiBytes(128), level, block);
        return FileFormat.fromIdentifier("row", context);
    }

    /** The bytes of a .row file this release's writer makes from the case's rows. */
    public static byte[] encode(JsonNode c) throws Exception {
        RowType type = rowType(c.get("fields"));
        List<InternalRow> rows = new ArrayList<>();
        for (JsonNode r : c.get("rows")) {
            rows.add((InternalRow) internal(type, r));
        }
        return FormatFiles.write(format(c), type, "zstd", rows);
    }

    /** The rows of a .row file as this release's reader returns them, with the fields the request states. */
    public static void decode(byte[] data, ObjectNode c, JsonNode types) throws Exception {
        JsonNode fields = types.get("fields");
        if (fields == null) {
            throw new IllegalArgumentException("a row file is read with its fields' types");
        }
        RowType type = rowType(fields);
        c.set("fields", fields);
        ArrayNode rows = c.putArray("rows");
        FormatFiles.read(format(JSON.createObjectNode()), type, data, r -> rows.add(logical(type, r)));
    }

    /** A logical JSON value as the internal value of `t` (nested types included). */
    static Object internal(DataType t, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (t instanceof RowType) {
            List<DataField> fields = ((RowType) t).getFields();
            GenericRow row = new GenericRow(fields.size());
            for (int i = 0; i < fields.size(); i++) {
                row.setField(i, internal(fields.get(i).type(), v.get(i)));
            }
            return row;
        }
        if (t instanceof VectorType) {
            float[] values = new float[v.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = (float) Testee.floating(v.get(i));
            }
            return BinaryVector.fromPrimitiveArray(values);
        }
        if (t instanceof ArrayType) {
            Object[] out = new Object[v.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = internal(((ArrayType) t).getElementType(), v.get(i));
            }
            return new GenericArray(out);
        }
        if (t instanceof MapType || t instanceof MultisetType) {
            DataType key = t instanceof MapType ? ((MapType) t).getKeyType() : ((MultisetType) t).getElementType();
            DataType value = t instanceof MapType ? ((MapType) t).getValueType() : null;
            Map<Object, Object> out = new LinkedHashMap<>();
            for (JsonNode e : v) {
                out.put(internal(key, e.get(0)), value == null ? e.get(1).asInt() : internal(value, e.get(1)));
            }
            return new GenericMap(out);
        }
        switch (t.getTypeRoot()) {
            case VARIANT:
                return new GenericVariant(Testee.unhex(v.get("value").asText()), Testee.unhex(v.get("metadata").asText()));
            case BLOB:
                return Blob.fromData(Testee.unhex(v.asText()));
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString(v.asText());
            default:
                return Testee.internal(t, v);
        }
    }

    /** An internal value of `t` in the kit's logical JSON form. */
    static JsonNode logical(DataType t, Object v) {
        if (v == null) {
            return JSON.nullNode();
        }
        if (t instanceof RowType) {
            List<DataField> fields = ((RowType) t).getFields();
            InternalRow row = (InternalRow) v;
            ArrayNode out = JSON.createArrayNode();
            for (int i = 0; i < fields.size(); i++) {
                out.add(logical(fields.get(i).type(), InternalRow.createFieldGetter(fields.get(i).type(), i)
                        .getFieldOrNull(row)));
            }
            return out;
        }
        if (t instanceof ArrayType || t instanceof VectorType) {
            DataType element = t instanceof ArrayType ? ((ArrayType) t).getElementType() : ((VectorType) t).getElementType();
            InternalArray array = (InternalArray) v;
            InternalArray.ElementGetter getter = InternalArray.createElementGetter(element);
            ArrayNode out = JSON.createArrayNode();
            for (int i = 0; i < array.size(); i++) {
                out.add(logical(element, getter.getElementOrNull(array, i)));
            }
            return out;
        }
        if (t instanceof MapType || t instanceof MultisetType) {
            DataType key = t instanceof MapType ? ((MapType) t).getKeyType() : ((MultisetType) t).getElementType();
            DataType value = t instanceof MapType ? ((MapType) t).getValueType()
                    : new org.apache.paimon.types.IntType(false);
            InternalMap map = (InternalMap) v;
            InternalArray.ElementGetter k = InternalArray.createElementGetter(key);
            InternalArray.ElementGetter x = InternalArray.createElementGetter(value);
            ArrayNode out = JSON.createArrayNode();
            for (int i = 0; i < map.size(); i++) {
                out.addArray().add(logical(key, k.getElementOrNull(map.keyArray(), i)))
                        .add(logical(value, x.getElementOrNull(map.valueArray(), i)));
            }
            return out;
        }
        switch (t.getTypeRoot()) {
            case VARIANT:
                Variant variant = (Variant) v;
                ObjectNode o = JSON.createObjectNode();
                o.put("value", Testee.hex(variant.value()));
                o.put("metadata", Testee.hex(variant.metadata()));
                return o;
            case BLOB:
                return JSON.valueToTree(Testee.hex(((Blob) v).toData()));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int p = t instanceof TimestampType ? ((TimestampType) t).getPrecision()
                        : ((LocalZonedTimestampType) t).getPrecision();
                return JSON.valueToTree(timestamp(((Timestamp) v).toLocalDateTime(), p));
            default:
                ArrayNode one = JSON.createArrayNode();
                Testee.logical(one, t, v);
                return one.get(0);
        }
    }

    /** yyyy-MM-ddTHH:mm:ss and as many fraction digits as the precision (the kit's form). */
    static String timestamp(LocalDateTime t, int precision) {
        String s = String.format("%04d-%02d-%02dT%02d:%02d:%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
                t.getHour(), t.getMinute(), t.getSecond());
        return precision == 0 ? s : s + "." + String.format("%09d", t.getNano()).substring(0, precision);
    }
}
