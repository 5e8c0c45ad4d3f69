meta:
  id: btree_global_index
  title: Apache Paimon BTree global index file (PBTI)
  application: Apache Paimon >= 1.4.1 (BTreeIndexWriter, BTreeIndexReader, BTreeFileFooter, SstFileWriter)
  file-extension: index
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring64
    - /common/var_len_int
    - /common/sst_block
  endian: le
doc: |
  The file of a `btree` global index (`btree-global-index-<uuid>.index`
  under `index/`, listed in the index manifest with its `_GLOBAL_INDEX` row
  range). It maps every distinct value of one column, over one row range,
  to the row ids (relative to the range's start) that hold it.

  An SST file (`SstFileWriter`, no bloom filter): data blocks of entries
  whose key is the value's `KeySerializer` bytes (as in layout
  `bitmap_global_index`) and whose value is a posting list (a varint count
  and that many var-long row ids); a new data block starts once the block
  passes `btree-index.block-size` (64 KiB). After the data blocks: the
  null-rows bitmap (a portable 64-bit Roaring bitmap, layout `roaring64`,
  followed by its CRC-32 as a little-endian int) when a row is NULL; the
  index block, one entry per data block (its last key, and the block's
  offset and stored length as a var-long and a varint); a 52-byte footer.
  Blocks are compressed by `btree-index.compression` (none by default) as
  layout `sst_block` describes. Every number of the footer is
  little-endian (`MemorySliceOutput`), the magic 0x50425449 ("PBTI" read
  as an int) included. Keys are strictly ascending by the column type's
  order across the file; the reader binary-searches the index block by
  them.

  File version 2 (adaptive posting lists) is written only by Paimon after
  2.0.0, on request; Java 1.4.1 and 2.0.0 read every posting list as
  version 1.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeIndexReader.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/globalindex/btree/BTreeFileFooter.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/SstFileWriter.java
seq:
  - id: size_check
    -code: BTREE_TOO_SHORT
    size: 0
    valid:
      expr: _io.size >= 52
    doc: Zero-width; the file holds the 52-byte footer.
  - id: blocks
    size: _io.size - 52
    doc: The data blocks, the null-rows bitmap and the index block.
  - id: footer
    type: footer
instances:
  ofs_footer:
    value: _io.size - 52
    doc: Every block ends at or before the footer.
  index:
    pos: footer.ofs_index
    size: footer.len_index + 5
    type: sst_block(1, ofs_footer)
    doc: One entry per data block; its key is the block's last key, its value the block's handle.
  data_blocks:
    type: data_slot(index.content.entries_region.entries[_index])
    repeat: expr
    repeat-expr: index.content.entries_region.entries.size
  null_rows:
    pos: footer.ofs_null_rows
    size: footer.len_null_rows
    type: roaring64
    if: footer.has_null_rows
    doc: The rows whose value is NULL.
  null_rows_crc:
    pos: footer.ofs_null_rows + footer.len_null_rows
    type: u4
    if: footer.has_null_rows
    doc: CRC-32 of the bitmap's bytes (BTreeIndexReader.readNullBitmap).
  computed_null_rows_crc:
    pos: footer.ofs_null_rows
    size: footer.len_null_rows
    process: paimon_layouts.processors.crc32
    type: crc_value
    if: footer.has_null_rows
types:
  footer:
    seq:
      - id: ofs_bloom_filter
        type: s8
      - id: len_bloom_filter
        type: s4
      - id: num_bloom_filter_entries
        type: s8
      - id: ofs_index
        type: s8
      - id: len_index
        type: s4
        doc: Length of the index block's stored bytes, without its trailer.
      - id: ofs_null_rows
        type: s8
      - id: len_null_rows
        type: s4
        doc: Length of the null-rows bitmap, without its 4-byte CRC; offset and length 0 when no row is NULL.
      - id: version
        -code: BTREE_BAD_VERSION
        type: s4
        enum: version
        valid:
          in-enum: true
        doc: |
          1 (BTreeFileFooter.CURRENT_VERSION in 1.4.1 and 2.0.0). Version 2
          is written only after 2.0.0; released readers do not check the
          version and read its posting lists as version 1.
      - id: magic
        -code: BTREE_BAD_MAGIC
        type: u4
        valid: 0x50425449
        doc: '"File is not a btree index file (bad magic number)".'
      - id: bloom_filter_check
        -code: BTREE_BLOOM_FILTER
        -report-as: ofs_bloom_filter
        size: 0
        valid:
          expr: ofs_bloom_filter == 0 and len_bloom_filter == 0 and num_bloom_filter_entries == 0
        doc: |
          Zero-width; BTreeIndexWriter builds its SstFileWriter without a
          bloom filter, so the handle is all zeros (a reader given one would
          test lookups against it).
      - id: index_check
        -code: BTREE_BAD_BLOCK
        -report-as: ofs_index
        size: 0
        valid:
          expr: ofs_index >= 0 and len_index >= 0 and ofs_index + len_index + 5 <= _root.ofs_footer
        doc: Zero-width; the index block and its 5-byte trailer end before the footer.
      - id: null_rows_check
        -code: BTREE_BAD_BLOCK
        -report-as: ofs_null_rows
        size: 0
        valid:
          expr: 'has_null_rows ? (ofs_null_rows >= 0 and len_null_rows > 0 and ofs_null_rows + len_null_rows + 4 <= _root.ofs_footer) : len_null_rows == 0'
        doc: Zero-width; the null-rows bitmap and its CRC end before the footer.
    instances:
      has_null_rows:
        value: ofs_null_rows != 0 or len_null_rows != 0
        doc: Java reads a handle of offset 0 and length 0 as no null rows.
  data_slot:
    params:
      - id: ref
        type: sst_block::entry
        doc: The index block's entry for this data block.
    seq:
      - id: last_key_check
        -code: BTREE_LAST_KEY_MISMATCH
        -report-as: block
        size: 0
        valid:
          expr: block.content.entries_region.entries.size > 0 and block.content.entries_region.entries.last.key == ref.key
        doc: |
          Zero-width; the index names each data block by its last key, which
          the reader's binary search relies on (a block without entries or
          with another last key sends lookups to the wrong block).
    instances:
      handle:
        value: ref.value.as<sst_block::block_handle>
      block:
        pos: handle.ofs_block.value
        size: handle.len_block.value + 5
        type: sst_block(2, _root.ofs_footer)
        doc: Entries of a key and its posting list.
  crc_value:
    seq:
      - id: value
        type: u4be
enums:
  version:
    1: v1
