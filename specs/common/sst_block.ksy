meta:
  id: sst_block
  title: Paimon SST block (BlockWriter entries, aligned or unaligned, with its trailer)
  application: Apache Paimon >= 1.4 (org.apache.paimon.sst.BlockWriter, BlockReader, SstFileWriter; BTree index)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - var_len_int
    - block_trailer
  endian: le
doc: |
  One block of Paimon's SST files as `SstFileWriter.writeBlock` stores it:
  the stored bytes (the block itself, or a varint uncompressed length and
  the codec's output when compression saves more than an eighth), then the
  5-byte `BlockTrailer` (compression and CRC-32 of the stored bytes and the
  compression byte).

  The block itself (`BlockWriter.finish`): the entries (a varint key
  length, the key, a varint value length, the value) in key order, then
  either, when every entry has the same encoded length ("aligned"), that
  length as a 4-byte int, or the start position of every entry as 4-byte
  ints and their count; then one byte, 0 for aligned, 1 for unaligned.
  Ints are written with `MemorySliceOutput.writeInt`: little-endian. A
  block without entries is written unaligned with a count of 0.

  `value_kind` says how the entries' values are read: as bytes (0), as the
  `BlockHandle` of an index block's entry (1: a var-long offset and a
  varint length of a data block), or as a BTree posting list (2: a varint
  count and that many var-long row ids, `BTreeIndexWriter.flush`).
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/BlockWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/BlockReader.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/SstFileReader.java
params:
  - id: value_kind
    type: u1
    doc: 0 bytes, 1 block handle, 2 posting list.
  - id: max_end
    type: s8
    doc: Where the blocks a handle points to must end (the file's footer offset).
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
    type: block_content(value_kind, max_end)
    doc: The block's entries and their layout footer, after decompression.
types:
  crc_value:
    seq:
      - id: value
        type: u4be
  block_content:
    params:
      - id: value_kind
        type: u1
      - id: max_end
        type: s8
    seq:
      - id: size_check
        -code: SST_BLOCK_TOO_SHORT
        size: 0
        valid:
          expr: _io.size >= 5
        doc: Zero-width; a block ends in a 4-byte int and the aligned-type byte.
      - id: type_check
        -code: SST_BAD_ALIGNED_TYPE
        -report-as: aligned_type
        size: 0
        valid:
          expr: stated_type <= 1
        doc: Zero-width; the last byte is read first (Java refuses another byte, "Illegal block aligned type").
      - id: layout_check
        -code: SST_BAD_LAYOUT
        -report-as: layout_int
        size: 0
        valid:
          expr: 'is_aligned ? stated_int > 0 : (stated_int >= 0 and stated_int <= (_io.size - 5) / 4)'
        doc: |
          Zero-width; an aligned block's record length is positive, and an
          unaligned block's count of positions fits in it. Checked before
          anything is read from them.
      - id: entries_region
        size: len_entries
        type: entry_list(value_kind, max_end)
        doc: The entries, one after the other.
      - id: positions
        type: s4
        repeat: expr
        repeat-expr: num_positions
        doc: Unaligned blocks only; each entry's start in the block.
      - id: layout_int
        type: s4
        doc: The record length (aligned) or the number of entries (unaligned).
      - id: aligned_type
        -code: SST_BAD_ALIGNED_TYPE
        type: u1
        enum: aligned_type
        valid:
          in-enum: true
        doc: Java refuses another byte ("Illegal block aligned type").
    instances:
      stated_type:
        pos: _io.size - 1
        type: u1
        doc: The last byte, read first (BlockReader.create) to know where the entries end.
      stated_int:
        pos: _io.size - 5
        type: s4
      is_aligned:
        value: stated_type == 0
      num_positions:
        value: 'is_aligned ? 0 : stated_int'
      len_entries:
        value: '_io.size - 5 - (is_aligned ? 0 : stated_int * 4)'
  entry_list:
    params:
      - id: value_kind
        type: u1
      - id: max_end
        type: s8
    seq:
      - id: entries
        type: entry(value_kind, max_end)
        repeat: eos
  entry:
    params:
      - id: value_kind
        type: u1
      - id: max_end
        type: s8
    seq:
      - id: len_key
        type: var_len_int(5)
      - id: len_key_check
        -code: SST_BAD_LENGTH
        -report-as: len_key
        size: 0
        valid:
          expr: len_key.value >= 0 and len_key.value <= _io.size - _io.pos
        doc: Zero-width; the key fits in what is left of the block.
      - id: key
        size: len_key.value
      - id: len_value
        type: var_len_int(5)
      - id: len_value_check
        -code: SST_BAD_LENGTH
        -report-as: len_value
        size: 0
        valid:
          expr: len_value.value >= 0 and len_value.value <= _io.size - _io.pos
        doc: Zero-width; the value fits in what is left of the block.
      - id: value
        size: len_value.value
        type:
          switch-on: value_kind
          cases:
            1: block_handle(max_end)
            2: posting_list
            _: raw_value
  raw_value:
    seq:
      - id: raw
        size-eos: true
  block_handle:
    doc: BlockHandle.writeBlockHandleTo, an index block's value.
    params:
      - id: max_end
        type: s8
    seq:
      - id: ofs_block
        type: var_len_int(10)
      - id: len_block
        type: var_len_int(5)
      - id: block_check
        -code: BTREE_BAD_BLOCK
        -report-as: ofs_block
        size: 0
        valid:
          expr: ofs_block.value >= 0 and len_block.value >= 0 and ofs_block.value + len_block.value + 5 <= max_end
        doc: Zero-width; the block and its 5-byte trailer end before `max_end`.
  posting_list:
    doc: BTreeIndexWriter.flush, a BTree data block's value (file version 1).
    seq:
      - id: num_rows
        type: var_len_int(5)
      - id: num_rows_check
        -code: BTREE_BAD_COUNT
        -report-as: num_rows
        size: 0
        valid:
          expr: num_rows.value > 0 and num_rows.value <= _io.size - _io.pos
        doc: |
          Zero-width; a key has at least one row, and every row id takes at
          least a byte: a count the value cannot hold is refused before
          anything is allocated.
      - id: row_ids
        type: var_len_int(10)
        repeat: expr
        repeat-expr: num_rows.value
enums:
  aligned_type:
    0: aligned
    1: unaligned
