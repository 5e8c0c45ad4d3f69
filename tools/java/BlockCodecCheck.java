// Runs Paimon's own block codecs (org.apache.paimon.compression, the ones the SST-style global index
// files use) over blocks the kit wrote, both ways.
//
// Usage: java -cp <paimon jar>:<classes> BlockCodecCheck REQUEST.json REPORT.json
//
// REQUEST.json: {"blocks": [{"compression": "zstd"|"lz4", "content": hex, "stored": hex, "trailer": "none"|"zstd"|"lz4",
//                             "level": n (optional, the zstd level; 1 when absent)}]}
//   content: a block's bytes before compression; stored: the kit's compressed form of it
//   (VarLengthIntUtils length of the content, then the codec's bytes), as a bitmap global index stores it.
// REPORT.json: {"blocks": [{"java_stored": hex, "decoded": hex | null, "error": text | null}]}
//   java_stored: what Java writes for the content (BitmapGlobalIndexFormat.encodeBlock: the varint length,
//   then the compressor's output; zstd at `level`, 1 being the reader's and the option's default; the row
//   format of Paimon 2.0 stores the compressor's output alone, with ZstdBlockCompressor unchanged since 0.9);
//   decoded: Java's decompressor over the kit's stored bytes (null with the error when it refuses them);
//   java_trailer: the BlockTrailer Java writes after the stored bytes when they are of compression `trailer`
//   (the SST block trailer of Paimon's lookup files, org.apache.paimon.lookup.sort in 0.9, moved to
//   org.apache.paimon.sst by 1.4: the compression id and the CRC SortLookupStoreWriter.crc32c computes).
import org.apache.paimon.compression.BlockCompressionFactory;
import org.apache.paimon.compression.BlockCompressionType;
import org.apache.paimon.compression.BlockCompressor;
import org.apache.paimon.compression.BlockDecompressor;
import org.apache.paimon.compression.CompressOptions;
import org.apache.paimon.lookup.sort.BlockTrailer;
import org.apache.paimon.lookup.sort.SortLookupStoreWriter;
import org.apache.paimon.memory.MemorySlice;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.paimon.shade.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.paimon.utils.VarLengthIntUtils;

import java.io.File;
import java.lang.reflect.Method;
import java.util.Arrays;

public class BlockCodecCheck {

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode request = mapper.readTree(new File(args[0]));
        ObjectNode report = mapper.createObjectNode();
        ArrayNode out = report.putArray("blocks");
        for (JsonNode block : request.get("blocks")) {
            BlockCompressionFactory factory =
                    BlockCompressionFactory.create(
                            new CompressOptions(
                                    block.get("compression").asText(),
                                    block.has("level") ? block.get("level").asInt() : 1));
            byte[] content = unhex(block.get("content").asText());
            byte[] stored = unhex(block.get("stored").asText());
            ObjectNode row = out.addObject();
            row.put("java_stored", hex(compress(factory.getCompressor(), content)));
            BlockCompressionType type =
                    BlockCompressionType.valueOf(block.get("trailer").asText().toUpperCase());
            row.put("java_trailer", hex(trailer(stored, type)));
            try {
                row.put("decoded", hex(decompress(factory.getDecompressor(), stored)));
                row.putNull("error");
            } catch (Exception e) {
                row.putNull("decoded");
                row.put("error", e.toString());
            }
        }
        mapper.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), report);
    }

    private static byte[] trailer(byte[] stored, BlockCompressionType type) throws Exception {
        Method crc =
                SortLookupStoreWriter.class.getDeclaredMethod(
                        "crc32c", MemorySlice.class, BlockCompressionType.class);
        crc.setAccessible(true);
        int value = (int) crc.invoke(null, MemorySlice.wrap(stored), type);
        return BlockTrailer.writeBlockTrailer(new BlockTrailer(type, value)).copyBytes();
    }

    private static byte[] compress(BlockCompressor compressor, byte[] content) throws Exception {
        byte[] buf = new byte[compressor.getMaxCompressedSize(content.length) + 5];
        int at = VarLengthIntUtils.encodeInt(buf, 0, content.length);
        int n = at + compressor.compress(content, 0, content.length, buf, at);
        return Arrays.copyOf(buf, n);
    }

    private static byte[] decompress(BlockDecompressor decompressor, byte[] stored) throws Exception {
        int[] pos = {0};
        int length = readVarInt(stored, pos);
        byte[] out = new byte[length];
        int n = decompressor.decompress(stored, pos[0], stored.length - pos[0], out, 0);
        if (n != length) {
            throw new IllegalStateException("decompressed " + n + " bytes, the block states " + length);
        }
        return out;
    }

    private static int readVarInt(byte[] data, int[] pos) {
        int result = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int b = data[pos[0]++] & 0xFF;
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalStateException("Malformed integer.");
    }

    private static byte[] unhex(String text) {
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(text.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    private static String hex(byte[] data) {
        StringBuilder sb = new StringBuilder();
        for (byte b : data) {
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }
}
