// The calls Testee makes whose signatures changed between Paimon releases: this copy compiles against
// Paimon 0.9.0 (and the 1.0-SNAPSHOT of 2024-09): RoaringBitmap32.deserialize(byte[]), PathFactory-based
// index files, DeletionFile without a cardinality, BitmapIndexResultLazy, no 64-bit deletion vectors.
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResultLazy;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.index.HashIndexFile;
import org.apache.paimon.index.IndexFileHandler;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.manifest.IndexManifestEntry;
import org.apache.paimon.options.MemorySize;
import org.apache.paimon.table.source.DeletionFile;
import org.apache.paimon.utils.IntIterator;
import org.apache.paimon.utils.PathFactory;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderFactory;
import org.apache.paimon.types.RowType;
import java.util.Collection;
import java.util.Collections;
import java.util.ArrayList;

final class ReleaseApi {
    static final boolean BITMAP64 = false;

    private ReleaseApi() {}

    /** Resolves file names in one folder; newPath names files index-0, index-1, ... */
    static final class Folder implements PathFactory {
        private final File dir;
        private int next;

        Folder(File dir) {
            this.dir = dir;
        }

        @Override
        public Path newPath() {
            return toPath("index-" + next++);
        }

        @Override
        public Path toPath(String fileName) {
            return new Path(new File(dir, fileName).getAbsolutePath());
        }
    }

    static RoaringBitmap32 roaring(byte[] data) throws IOException {
        RoaringBitmap32 bitmap = new RoaringBitmap32();
        bitmap.deserialize(data);
        return bitmap;
    }

    static int[] readHashFile(File file) throws IOException {
        try (IntIterator it = new HashIndexFile(LocalFileIO.create(), new Folder(file.getParentFile())).read(file.getName())) {
            return IntIterator.toInts(it);
        }
    }

    static File writeHashFile(File dir, int[] values) throws IOException {
        return new File(dir, new HashIndexFile(LocalFileIO.create(), new Folder(dir)).write(IntIterator.create(values)));
    }

    /** The bytes a manifest's DeletionFile covers for the vector whose length field at `offset` says `length`. */
    static long vectorSpan(byte[] data, int offset, int length) {
        return length;
    }

    /** The vector at `offset`, read by Java's per-split reader (DeletionVectorsIndexFile.readDeletionVector). */
    static DeletionVector readVector(File file, int offset, long span) {
        DeletionVectorsIndexFile index =
                new DeletionVectorsIndexFile(LocalFileIO.create(), new Folder(file.getParentFile()), MemorySize.ofMebiBytes(2));
        return index.readDeletionVector(new DeletionFile(file.getAbsolutePath(), offset, span));
    }

    static boolean is64(DeletionVector dv) {
        return false;
    }

    /** The vector's deleted positions, ascending. */
    static void positions(DeletionVector dv, LongConsumer out) throws IOException {
        byte[] bytes = dv.serializeToBytes();
        roaring(Arrays.copyOfRange(bytes, 4, bytes.length)).iterator().forEachRemaining(p -> out.accept(Integer.toUnsignedLong(p)));
    }

    static DeletionVector newVector(boolean bitmap64) {
        if (bitmap64) {
            throw new IllegalArgumentException("64-bit deletion vectors arrived in Paimon 1.2.0");
        }
        return new BitmapDeletionVector();
    }

    /** The one index file Java writes for these vectors. */
    static File writeVectors(File dir, Map<String, DeletionVector> vectors, boolean bitmap64) throws IOException {
        newVector(bitmap64);
        DeletionVectorsIndexFile index =
                new DeletionVectorsIndexFile(LocalFileIO.create(), new Folder(dir), MemorySize.ofMebiBytes(1024));
        List<IndexFileMeta> metas = index.write(vectors);
        if (metas.size() != 1) {
            throw new IllegalStateException("Java wrote " + metas.size() + " index files");
        }
        return new File(dir, metas.get(0).fileName());
    }

    /** The rows of a bitmap index's result; null for a result that is not a bitmap. */
    static Iterator<Integer> bitmapRows(FileIndexResult result) {
        return result instanceof BitmapIndexResultLazy ? ((BitmapIndexResultLazy) result).get().iterator() : null;
    }

    /** The hashes of one HASH index file of a table, read by the table's IndexFileHandler. */
    static List<Integer> hashes(IndexFileHandler handler, IndexManifestEntry entry) throws IOException {
        return handler.readHashIndexList(entry.indexFile());
    }

    /** The deletion vectors of one DELETION_VECTORS index file of a table, read by the table's IndexFileHandler. */
    static Collection<DeletionVector> vectors(IndexFileHandler handler, IndexManifestEntry entry) {
        return handler.readAllDeletionVectors(Collections.singletonList(entry.indexFile())).values();
    }

    /** A reader factory of `format` for files of `rowType`, read whole and unfiltered. */
    static FormatReaderFactory readerFactory(FileFormat format, RowType rowType) {
        return format.createReaderFactory(rowType);
    }
}
