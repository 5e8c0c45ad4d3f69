meta:
  id: bitmap_global_index
  title: Apache Paimon bitmap global index file (BGIX)
  application: Apache Paimon >= 2.0 (BitmapGlobalIndexFormat, BitmapGlobalIndexWriter, BitmapIndexReader)
  file-extension: index
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring64
    - /common/var_len_int
    - /common/block_trailer
  endian: be
doc: |
  The file of a `bitmap` global index from Paimon 2.0 on
  (`<prefix>-global-index-<uuid>.index` under `index/`, listed in the index
  manifest with its `_GLOBAL_INDEX` row range). It maps every distinct value
  of one column, over one row range of a data-evolution table, to the row
  ids (relative to the range's start) that hold it. Paimon 1.4 wrote a
  bitmap file-index V2 payload instead (layout `bitmap_index`); 2.0 reads
  only this layout and 1.4 cannot read it.

  From the start: one portable 64-bit Roaring bitmap per value (layout
  `roaring64`, `RoaringNavigableMap64.serialize`, run-optimized), written as
  the values arrive in ascending order; the dictionary blocks; the null-rows
  and non-null-rows bitmaps; the index block; a 48-byte big-endian footer.

  A dictionary block lists, per value, the key bytes and the offset and
  length of its bitmap; the writer starts a new block when the next entry
  would pass `bitmap-index.dictionary-block-size` (16 KiB). The index block
  lists each dictionary block's first key, offset and length. Both are
  "compressible blocks": the stored bytes (plain, or a varint uncompressed
  length and the codec's output when `bitmap-index.compression` saves more
  than an eighth), then a 5-byte `BlockTrailer`. Counts, key lengths and
  lengths are `VarLengthIntUtils` varints; offsets are var-longs.

  Keys are `KeySerializer` bytes of the column type, in the platform's
  (little-endian) byte order for numbers: TINYINT/BOOLEAN 1 byte, SMALLINT
  2, INT/DATE/TIME and FLOAT bits 4, BIGINT and DOUBLE bits 8, DECIMAL the
  unscaled long (precision <= 18) or the unscaled big-endian two's
  complement bytes, TIMESTAMP the epoch millis (and, above precision 3, a
  varint of the nanos of the milli), CHAR/VARCHAR the UTF-8 bytes. Keys are
  strictly ascending by the column type's order; the reader binary-searches
  the index block by it. The spec keeps keys as bytes; the kit checks their
  order with the column type.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/bitmap/BitmapGlobalIndexFormat.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/bitmap/BitmapGlobalIndexWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/bitmap/BitmapIndexReader.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/KeySerializer.java
seq:
  - id: size_check
    -code: BGIX_TOO_SHORT
    size: 0
    valid:
      expr: _io.size >= 48
    doc: Zero-width; the file holds the 48-byte footer ("Invalid bitmap global index file size").
  - id: blocks
    size: _io.size - 48
    doc: The bitmaps and blocks the footer and the index point into.
  - id: footer
    type: footer
instances:
  ofs_footer:
    value: _io.size - 48
    doc: Every block ends at or before the footer.
  null_rows:
    pos: footer.ofs_null_rows
    size: footer.len_null_rows
    type: roaring64
    doc: The rows whose value is NULL.
  non_null_rows:
    pos: footer.ofs_non_null_rows
    size: footer.len_non_null_rows
    type: roaring64
    doc: The rows with a value; the union of the value bitmaps.
  index:
    pos: footer.ofs_index
    size: footer.len_index + 5
    type: compressible_block(true)
    doc: One entry per dictionary block (its first key, offset and length).
  dictionary_blocks:
    type: dictionary_slot(index.content.entries[_index])
    repeat: expr
    repeat-expr: index.content.num_entries.value
types:
  footer:
    seq:
      - id: ofs_null_rows
        type: s8
      - id: len_null_rows
        type: s4
      - id: ofs_non_null_rows
        type: s8
      - id: len_non_null_rows
        type: s4
      - id: ofs_index
        type: s8
      - id: len_index
        type: s4
        doc: Length of the index block's stored bytes, without its trailer.
      - id: num_values
        type: s4
        doc: Distinct non-null values (dictionary entries); Java's reader only requires it to be >= 0.
      - id: version
        -code: BGIX_BAD_VERSION
        type: s4
        enum: version
        valid:
          in-enum: true
        doc: Java knows version 1 ("Unsupported bitmap global index file version").
      - id: magic
        -code: BGIX_BAD_MAGIC
        type: u4
        valid: 0x42474958
        doc: '"BGIX" ("File is not a bitmap global index file (bad footer magic)").'
      - id: num_values_check
        -code: BGIX_BAD_VALUE_COUNT
        -report-as: num_values
        size: 0
        valid:
          expr: num_values >= 0
        doc: Zero-width ("Invalid bitmap value count").
      - id: null_rows_check
        -code: BGIX_BAD_BLOCK
        -report-as: ofs_null_rows
        size: 0
        valid:
          expr: ofs_null_rows >= 0 and len_null_rows >= 0 and ofs_null_rows + len_null_rows <= _root.ofs_footer
        doc: |
          Zero-width; a block has a non-negative offset and length
          (BlockInfo: "Invalid bitmap block offset/length") and ends before
          the footer, where Java's writer puts every block.
      - id: non_null_rows_check
        -code: BGIX_BAD_BLOCK
        -report-as: ofs_non_null_rows
        size: 0
        valid:
          expr: ofs_non_null_rows >= 0 and len_non_null_rows >= 0 and ofs_non_null_rows + len_non_null_rows <= _root.ofs_footer
      - id: index_check
        -code: BGIX_BAD_BLOCK
        -report-as: ofs_index
        size: 0
        valid:
          expr: ofs_index >= 0 and len_index >= 0 and ofs_index + len_index + 5 <= _root.ofs_footer
        doc: Zero-width; the index block and its 5-byte trailer end before the footer.
  compressible_block:
    params:
      - id: is_index
        type: bool
        doc: The index block (entries point at dictionary blocks) or a dictionary block (at bitmaps).
    seq:
      - id: stored
        size: _io.size - 5
        doc: The block as written (compressed when the trailer says so).
      - id: trailer
        type: block_trailer
      - id: crc_check
        -code: BLOCK_CRC_MISMATCH
        -report-as: trailer
        size: 0
        valid:
          expr: trailer.crc == computed_crc.value
        doc: Zero-width; Java compares the checksum before decompressing ("Expected CRC32C(..) but found").
    instances:
      computed_crc:
        pos: 0
        size: _io.size - 4
        process: paimon_layouts.processors.crc32
        type: crc_value
        doc: CRC-32 of the stored bytes and the compression byte after them.
      content:
        pos: 0
        size: _io.size - 5
        process: paimon_layouts.processors.block_decompress(trailer.compression.to_i)
        type: block_entries(is_index)
        doc: The block's entries, after decompression.
  crc_value:
    seq:
      - id: value
        type: u4be
  block_entries:
    params:
      - id: is_index
        type: bool
    seq:
      - id: num_entries
        type: var_len_int(5)
      - id: num_entries_check
        -code: BGIX_BAD_COUNT
        -report-as: num_entries
        size: 0
        valid:
          expr: num_entries.value >= 0 and num_entries.value <= (_io.size - _io.pos) / 3
        doc: |
          Zero-width; a count is not negative ("Invalid bitmap dictionary
          (block|entry) count") and each entry takes at least 3 bytes, so a
          count the block cannot hold is refused before anything is
          allocated (Java allocates the list, then meets the end).
      - id: entries
        type: block_entry(is_index)
        repeat: expr
        repeat-expr: num_entries.value
  block_entry:
    params:
      - id: is_index
        type: bool
    seq:
      - id: len_key
        type: var_len_int(5)
      - id: len_key_check
        -code: BGIX_BAD_KEY_LENGTH
        -report-as: len_key
        size: 0
        valid:
          expr: len_key.value >= 0
        doc: Zero-width ("Invalid bitmap key length").
      - id: key
        size: len_key.value
        doc: The key's KeySerializer bytes (a dictionary block's first key, in the index block).
      - id: ofs_block
        type: var_len_int(10)
      - id: len_block
        type: var_len_int(5)
      - id: block_check
        -code: BGIX_BAD_BLOCK
        -report-as: ofs_block
        size: 0
        valid:
          expr: 'ofs_block.value >= 0 and len_block.value >= 0 and ofs_block.value + len_block.value + (is_index ? 5 : 0) <= _root.ofs_footer'
        doc: Zero-width; the block (with its trailer, for a dictionary block) ends before the footer.
  dictionary_slot:
    params:
      - id: ref
        type: block_entry
        doc: The index block's entry for this dictionary block.
    seq:
      - id: first_key_check
        -code: BGIX_FIRST_KEY_MISMATCH
        -report-as: block
        size: 0
        valid:
          expr: block.content.num_entries.value > 0 and block.content.entries[0].key == ref.key
        doc: |
          Zero-width; the index names the block by its first key, which the
          reader's binary search relies on (a block without entries or with
          another first key sends lookups to the wrong block).
    instances:
      block:
        pos: ref.ofs_block.value
        size: ref.len_block.value + 5
        type: compressible_block(false)
      bitmaps:
        type: bitmap_slot(block.content.entries[_index])
        repeat: expr
        repeat-expr: block.content.num_entries.value
        doc: One per entry of the block, in its order.
  bitmap_slot:
    params:
      - id: entry
        type: block_entry
    instances:
      bitmap:
        pos: entry.ofs_block.value
        size: entry.len_block.value
        type: roaring64
        doc: The rows holding the entry's value.
enums:
  version:
    1: v1
