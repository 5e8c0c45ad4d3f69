// Reads a Paimon table with Java Paimon's own reader and prints what it returns.
//
// Usage: java -cp <paimon jar>:<classes> TableReader TABLE_DIR OUT.json
//
// OUT.json: {"rows": [[field values...], ...], "row_kinds": [...], "splits": N,
//            "data_files": N, "deletion_files": N}
// Values: null, numbers (integers, floating point as JSON numbers), strings (toString of
// BinaryString and of every other type). The table is opened with
// FileStoreTableFactory.create on the local file system and read from its latest snapshot
// through newReadBuilder(): a scan over all splits, deletion vectors applied.
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;

import java.io.File;
import java.util.List;

public class TableReader {

    public static void main(String[] args) throws Exception {
        FileStoreTable table = FileStoreTableFactory.create(LocalFileIO.create(), new Path(args[0]));
        RowType type = table.rowType();
        ReadBuilder builder = table.newReadBuilder();
        List<Split> splits = builder.newScan().plan().splits();
        ObjectMapper json = new ObjectMapper();
        ObjectNode out = json.createObjectNode();
        ArrayNode rows = out.putArray("rows");
        ArrayNode kinds = out.putArray("row_kinds");
        int dataFiles = 0;
        int deletionFiles = 0;
        for (Split split : splits) {
            DataSplit ds = (DataSplit) split;
            dataFiles += ds.dataFiles().size();
            if (ds.deletionFiles().isPresent()) {
                for (Object f : ds.deletionFiles().get()) {
                    if (f != null) {
                        deletionFiles++;
                    }
                }
            }
        }
        out.put("splits", splits.size());
        out.put("data_files", dataFiles);
        out.put("deletion_files", deletionFiles);
        List<DataField> fields = type.getFields();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[fields.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRow.createFieldGetter(fields.get(i).type(), i);
        }
        try (RecordReader<InternalRow> reader = builder.newRead().createReader(splits)) {
            reader.forEachRemaining(
                    row -> {
                        ArrayNode r = rows.addArray();
                        for (int i = 0; i < getters.length; i++) {
                            Object v = getters[i].getFieldOrNull(row);
                            if (v == null) {
                                r.addNull();
                            } else if (v instanceof Long || v instanceof Integer
                                    || v instanceof Short || v instanceof Byte) {
                                r.add(((Number) v).longValue());
                            } else if (v instanceof Double || v instanceof Float) {
                                r.add(((Number) v).doubleValue());
                            } else {
                                r.add(v.toString());
                            }
                        }
                        kinds.add(row.getRowKind().shortString());
                    });
        }
        json.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
    }
}
