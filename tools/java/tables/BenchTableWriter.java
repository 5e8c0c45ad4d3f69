// Writes the benchmark primary-key table (tools/bench_table.py) with Java Paimon's own writers.
//
// Usage: java -cp <paimon jar>:<classes> BenchTableWriter OUT_DIR ROWS SEED
//
// The table: dt STRING NOT NULL, id BIGINT NOT NULL, v DOUBLE, s STRING; PRIMARY KEY (dt, id),
// PARTITIONED BY dt (four values); bucket = 4, deletion-vectors.enabled, file.format = parquet,
// a bloom filter and a bitmap on s (s takes 1,000 distinct values and some nulls). A bitmap on dt
// would be useless: every data file lies in one partition, so it would hold one value.
// Rows are generated here from SEED (java.util.SplittableRandom), never passed in:
//
//   commit 1: ROWS rows, key i (0 <= i < ROWS) = (dt_(i mod 4), id = i)
//   commit 2: full compaction of every partition and bucket
//   commit 3: ROWS/10 of those keys upserted with new v and s, and ROWS/100 other keys deleted
//   commit 4: a non-full compaction of every partition and bucket; with deletion vectors this
//             lifts the level-0 files and marks the rows they replace in the older files'
//             deletion vectors
//
// Afterwards it reads the latest snapshot back (Java's scan: data files with their .index
// extra files or embedded indexes; the index manifest: DELETION_VECTORS files and their vectors)
// and exits with 1 when the table has no deletion vector. The file-index options are set, but
// Paimon 0.9.0 and 1.0-SNAPSHOT (2024-09-04) build file indexes only for append tables
// (RowDataFileWriter); their KeyValueDataFileWriter writes none, so the summary counts 0 and a
// later Paimon jar would count them. The summary goes to
// standard output and to OUT_DIR.summary.json (next to the table, not in it).
import org.apache.paimon.Snapshot;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.manifest.ManifestEntry;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowKind;

import java.io.File;
import java.nio.file.Files;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.SplittableRandom;

public class BenchTableWriter {

    static final String[] DTS = {"2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04"};
    static final int BUCKETS = 4;

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: BenchTableWriter OUT_DIR ROWS SEED");
            System.exit(2);
        }
        File dir = new File(args[0]).getAbsoluteFile();
        int rows = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        if (dir.exists()) {
            System.err.println(dir + " exists; remove it first");
            System.exit(2);
        }
        long t0 = System.nanoTime();

        Schema.Builder builder = Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.BIGINT().notNull())
                .column("v", DataTypes.DOUBLE())
                .column("s", DataTypes.STRING())
                .primaryKey("dt", "id")
                .partitionKeys("dt")
                .option("bucket", String.valueOf(BUCKETS))
                .option("deletion-vectors.enabled", "true")
                .option("file.format", "parquet")
                .option("file-index.bloom-filter.columns", "s")
                .option("file-index.bitmap.columns", "s");
        Path path = new Path(dir.getPath());
        LocalFileIO fileIO = LocalFileIO.create();
        TableSchema schema = new SchemaManager(fileIO, path).createTable(builder.build());
        FileStoreTable table = FileStoreTableFactory.create(fileIO, path, schema);
        File tmp = Files.createTempDirectory("bench-table-io").toFile();
        SplittableRandom rnd = new SplittableRandom(seed);

        // commit 1: every key once
        Set<BinaryRow> partitions = new LinkedHashSet<>();
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite write = wb.newWrite()) {
            write.withIOManager(IOManager.create(tmp.getAbsolutePath()));
            for (int i = 0; i < rows; i++) {
                GenericRow row = row(RowKind.INSERT, i, rnd);
                partitions.add(write.getPartition(row).copy());
                write.write(row);
            }
            commit(wb, write);
        }
        compact(table, partitions, tmp, true);

        // commit 3: ROWS/10 keys upserted, ROWS/100 others deleted (a seeded permutation of the keys)
        int[] perm = new int[rows];
        for (int i = 0; i < rows; i++) {
            perm[i] = i;
        }
        for (int i = rows - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        int upserts = rows / 10;
        int deletes = rows / 100;
        wb = table.newBatchWriteBuilder();
        try (BatchTableWrite write = wb.newWrite()) {
            write.withIOManager(IOManager.create(tmp.getAbsolutePath()));
            for (int k = 0; k < upserts; k++) {
                write.write(row(RowKind.UPDATE_AFTER, perm[k], rnd));
            }
            for (int k = upserts; k < upserts + deletes; k++) {
                write.write(row(RowKind.DELETE, perm[k], rnd));
            }
            commit(wb, write);
        }
        compact(table, partitions, tmp, false);
        Testee.deleteTree(tmp);
        double writeSeconds = (System.nanoTime() - t0) / 1e9;

        // what Java says the latest snapshot holds
        FileStoreTable latest = FileStoreTableFactory.create(fileIO, path);
        int dataFiles = 0;
        long dataRows = 0;
        int indexExtraFiles = 0;
        int embeddedIndexes = 0;
        for (ManifestEntry e : latest.store().newScan().plan().files()) {
            DataFileMeta f = e.file();
            dataFiles++;
            dataRows += f.rowCount();
            for (String x : f.extraFiles()) {
                if (x.endsWith(".index")) {
                    indexExtraFiles++;
                }
            }
            if (f.embeddedIndex() != null) {
                embeddedIndexes++;
            }
        }
        IndexFileHandler handler = latest.store().newIndexFileHandler();
        int dvFiles = 0;
        int vectors = 0;
        long deletedPositions = 0;
        for (IndexManifestEntry e : handler.scanEntries()) {
            IndexFileMeta m = e.indexFile();
            if (m.indexType().equals("DELETION_VECTORS")) {
                dvFiles++;
                for (DeletionVector dv : ReleaseApi.vectors(handler, e)) {
                    vectors++;
                    deletedPositions += dv.getCardinality();
                }
            }
        }
        Snapshot snapshot = latest.snapshotManager().latestSnapshot();

        ObjectMapper json = new ObjectMapper();
        ObjectNode out = json.createObjectNode();
        out.put("table", dir.getPath());
        out.put("rows_generated", rows);
        out.put("seed", seed);
        out.put("upserted_keys", upserts);
        out.put("deleted_keys", deletes);
        out.put("snapshots", snapshot.id());
        out.put("total_record_count", snapshot.totalRecordCount());
        out.put("live_data_files", dataFiles);
        out.put("live_data_file_rows", dataRows);
        out.put("index_extra_files", indexExtraFiles);
        out.put("embedded_indexes", embeddedIndexes);
        out.put("deletion_vector_files", dvFiles);
        out.put("deletion_vectors", vectors);
        out.put("deleted_positions", deletedPositions);
        out.put("write_seconds", writeSeconds);
        String text = json.writerWithDefaultPrettyPrinter().writeValueAsString(out);
        Files.write(new File(dir.getPath() + ".summary.json").toPath(), text.getBytes("UTF-8"));
        System.out.println(text);
        if (dvFiles == 0 || vectors == 0) {
            System.err.println("the table has no deletion vector");
            System.exit(1);
        }
        if (indexExtraFiles + embeddedIndexes == 0) {
            // Paimon 0.9.0 and the 1.0-SNAPSHOT jar build file indexes only in RowDataFileWriter
            // (append tables); KeyValueDataFileWriter writes none, whatever the options say.
            System.err.println("note: no file index (this Paimon writes file indexes for append tables only)");
        }
    }

    /** Key i's row: dt and id from i, v and s drawn from rnd (s: 1,000 values, about 2 % null). */
    static GenericRow row(RowKind kind, int i, SplittableRandom rnd) {
        GenericRow row = new GenericRow(kind, 4);
        row.setField(0, BinaryString.fromString(DTS[i % DTS.length]));
        row.setField(1, (long) i);
        row.setField(2, rnd.nextDouble() * 1000.0);
        int s = rnd.nextInt(1020);
        row.setField(3, s < 1000 ? BinaryString.fromString("s-" + s) : null);
        return row;
    }

    static void commit(BatchWriteBuilder wb, BatchTableWrite write) throws Exception {
        try (BatchTableCommit commit = wb.newCommit()) {
            commit.commit(write.prepareCommit());
        }
    }

    /** One commit compacting every partition and bucket (full or as the compaction strategy picks). */
    static void compact(FileStoreTable table, Set<BinaryRow> partitions, File tmp, boolean full) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite write = wb.newWrite()) {
            write.withIOManager(IOManager.create(tmp.getAbsolutePath()));
            for (BinaryRow p : partitions) {
                for (int b = 0; b < BUCKETS; b++) {
                    write.compact(p, b, full);
                }
            }
            commit(wb, write);
        }
    }
}
