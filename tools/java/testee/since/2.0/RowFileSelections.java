// What this release's .row reader returns when a read selects rows by position (FormatReaderContext's selection,
// as deletion vectors and row ranges hand it over), for conformance/test_row_file_selections.py.
//
// Usage: java -cp <testee classpath> RowFileSelections IN.json OUT.json
// IN.json:  {"files": [{"path": FILE, "fields": [{"name", "type"}, ...], "rows": N}, ...]}
// OUT.json: [{"path", "reads": [{"selection": null | [p, ...], "rows": [[logical values]], "error": null | "..."},
//             ...]}, ...]
// A full read (selection null), one read per position 0..N-1 selecting that row alone, then one of every position
// but the first.
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

public final class RowFileSelections {

    private RowFileSelections() {}

    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        JsonNode in = json.readTree(new File(args[0]));
        ArrayNode out = json.createArrayNode();
        for (JsonNode f : in.get("files")) {
            ObjectNode result = out.addObject();
            result.put("path", f.get("path").asText());
            ArrayNode reads = result.putArray("reads");
            byte[] data = Files.readAllBytes(new File(f.get("path").asText()).toPath());
            RowType type = RowFiles.rowType(f.get("fields"));
            int n = f.get("rows").asInt();
            List<int[]> selections = new ArrayList<>();
            selections.add(null);
            for (int p = 0; p < n; p++) {
                selections.add(new int[] {p});
            }
            int[] rest = new int[Math.max(n - 1, 0)];
            for (int p = 1; p < n; p++) {
                rest[p - 1] = p;
            }
            selections.add(rest);
            for (int[] positions : selections) {
                ObjectNode read = reads.addObject();
                RoaringBitmap32 selection = null;
                if (positions == null) {
                    read.putNull("selection");
                } else {
                    ArrayNode selected = read.putArray("selection");
                    selection = new RoaringBitmap32();
                    for (int p : positions) {
                        selection.add(p);
                        selected.add(p);
                    }
                }
                RoaringBitmap32 chosen = selection;
                ArrayNode rows = read.putArray("rows");
                try {
                    FormatFiles.read(RowFiles.format(json.createObjectNode()), type, data, chosen,
                            r -> rows.add(RowFiles.logical(type, r)));
                    read.putNull("error");
                } catch (Throwable e) {
                    read.put("error", Failure.describe(e));
                }
            }
        }
        json.writeValue(new File(args[1]), out);
    }
}
