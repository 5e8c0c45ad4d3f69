// A file of one of the release's FileFormats, written from rows and read back, through a temporary local file:
// what the testee's blob-file and row-file layouts share.
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.format.FileFormat;
import org.apache.paimon.format.FormatReaderContext;
import org.apache.paimon.format.FormatWriter;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;

import java.io.File;
import java.nio.file.Files;
import java.util.Collections;
import java.util.function.Consumer;

final class FormatFiles {

    private FormatFiles() {}

    /** The bytes the format's writer makes from the rows, in order. */
    static byte[] write(FileFormat format, RowType type, String compression, Iterable<InternalRow> rows)
            throws Exception {
        File dir = Files.createTempDirectory("testee-format").toFile();
        try {
            File file = new File(dir, "data");
            try (PositionOutputStream out = LocalFileIO.create().newOutputStream(new Path(file.getPath()), false)) {
                FormatWriter writer = format.createWriterFactory(type).create(out, compression);
                for (InternalRow row : rows) {
                    writer.addElement(row);
                }
                writer.close();
            }
            return Files.readAllBytes(file.toPath());
        } finally {
            Testee.deleteTree(dir);
        }
    }

    /** Each row the format's reader returns from the bytes, read as `type` (a row is valid during the call only:
     * readers reuse their row objects). */
    static void read(FileFormat format, RowType type, byte[] data, Consumer<InternalRow> each) throws Exception {
        read(format, type, data, null, each);
    }

    /** The rows the format's reader returns for the row positions of `selection` (null: every row), as a read
     * with deletion vectors or row ranges hands them to the reader (FormatReaderContext's selection). */
    static void read(FileFormat format, RowType type, byte[] data, RoaringBitmap32 selection,
            Consumer<InternalRow> each) throws Exception {
        File dir = Files.createTempDirectory("testee-format").toFile();
        try {
            File file = new File(dir, "data");
            Files.write(file.toPath(), data);
            FormatReaderContext context = new FormatReaderContext(LocalFileIO.create(), new Path(file.getPath()),
                    data.length, selection);
            try (RecordReader<InternalRow> reader = format.createReaderFactory(type, type, Collections.emptyList())
                    .createReader(context)) {
                reader.forEachRemaining(each);
            }
        } finally {
            Testee.deleteTree(dir);
        }
    }
}
