import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.utils.JsonSerdeUtil;

/**
 * Which column type texts Java Paimon's schema-file reader takes: for each argument, a one-column schema
 * file's JSON with that type is read as TableSchema, and one line is printed: "ok" and the type Java
 * parsed, or "refused" and the exception.
 */
public class TypeProbe {
    public static void main(String[] args) {
        for (String type : args) {
            String json =
                    "{\"version\":3,\"id\":0,\"fields\":[{\"id\":0,\"name\":\"a\",\"type\":"
                            + JsonSerdeUtil.toJson(type)
                            + "}],\"highestFieldId\":0,\"partitionKeys\":[],\"primaryKeys\":[],"
                            + "\"options\":{},\"timeMillis\":1}";
            try {
                TableSchema schema = JsonSerdeUtil.fromJson(json, TableSchema.class);
                System.out.println("ok\t" + schema.fields().get(0).type());
            } catch (RuntimeException e) {
                String message = String.valueOf(e.getMessage()).split("\n")[0];
                System.out.println("refused\t" + e.getClass().getSimpleName() + ": " + message);
            }
        }
    }
}
