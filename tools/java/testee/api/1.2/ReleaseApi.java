// The calls Testee makes whose signatures changed between Paimon releases: this copy compiles against
// Paimon 1.2.0: PathFactory-based index files, 64-bit deletion vectors (Bitmap64DeletionVector, written when
// the index file is opened with bitmap64), DeletionVector.serializeToBytes static.
import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.BitmapDeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fileindex.FileIndexResult;
import org.apache.paimon.fileindex.bitmap.BitmapIndexResult;
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
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    static final boolean BITMAP64 = true;

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
        bitmap.deserialize(ByteBuffer.wrap(data));
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

    /**
     * The bytes a manifest's DeletionFile covers for the vector whose length field at `offset` says `length`: the
     * field for a 32-bit vector, the field plus the length and CRC fields for a 64-bit one (DeletionVector.read).
     */
    static long vectorSpan(byte[] data, int offset, int length) {
        if (data.length - offset >= 8
                && ByteBuffer.wrap(data, offset + 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()
                        == Bitmap64DeletionVector.MAGIC_NUMBER) {
            return (long) length + Bitmap64DeletionVector.LENGTH_SIZE_BYTES + Bitmap64DeletionVector.CRC_SIZE_BYTES;
        }
        return length;
    }

    /** The vector at `offset`, read by Java's per-split reader (DeletionVectorsIndexFile.readDeletionVector). */
    static DeletionVector readVector(File file, int offset, long span) {
        return indexFile(file.getParentFile(), false)
                .readDeletionVector(new DeletionFile(file.getAbsolutePath(), offset, span, null));
    }

    static boolean is64(DeletionVector dv) {
        return dv instanceof Bitmap64DeletionVector;
    }

    /** The vector's deleted positions, ascending (a 64-bit vector's bitmap is private: reached by reflection). */
    static void positions(DeletionVector dv, LongConsumer out) throws Exception {
        if (dv instanceof BitmapDeletionVector) {
            ((BitmapDeletionVector) dv).get().iterator().forEachRemaining(p -> out.accept(Integer.toUnsignedLong(p)));
            return;
        }
        Field field = Bitmap64DeletionVector.class.getDeclaredField("roaringBitmap");
        field.setAccessible(true);
        Object bitmap = field.get(dv);
        bitmap.getClass().getMethod("forEach", LongConsumer.class).invoke(bitmap, out);
    }

    static DeletionVector newVector(boolean bitmap64) {
        return bitmap64 ? new Bitmap64DeletionVector() : new BitmapDeletionVector();
    }

    static DeletionVectorsIndexFile indexFile(File dir, boolean bitmap64) {
        return new DeletionVectorsIndexFile(LocalFileIO.create(), new Folder(dir), MemorySize.ofMebiBytes(1024), bitmap64);
    }

    /** The one index file Java writes for these vectors. */
    static File writeVectors(File dir, Map<String, DeletionVector> vectors, boolean bitmap64) throws IOException {
        List<IndexFileMeta> metas = indexFile(dir, bitmap64).write(vectors);
        if (metas.size() != 1) {
            throw new IllegalStateException("Java wrote " + metas.size() + " index files");
        }
        return new File(dir, metas.get(0).fileName());
    }

    /** The rows of a bitmap index's result; null for a result that is not a bitmap. */
    static Iterator<Integer> bitmapRows(FileIndexResult result) {
        return result instanceof BitmapIndexResult ? ((BitmapIndexResult) result).get().iterator() : null;
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
