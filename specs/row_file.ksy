meta:
  id: row_file
  title: Apache Paimon row file (.row)
  application: Apache Paimon >= 2.0 (RowFormatWriter, RowFormatReader; file format "row")
  file-extension: row
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - /common/var_len_int
    - /common/delta_varint_list
  endian: le
doc: |
  The row-oriented data file of Paimon 2.0 (`file.format = row`,
  `data-<uuid>-<n>.row`), made for reading a row by its number. Everything is
  little-endian.

  The file is the data blocks back to back from offset 0, each one ZSTD
  frame (`ZstdBlockCompressor`, level `file.compression.zstd-level`, 1 by
  default; streamed, so the frame states no content size), then the block
  index, then a 32-byte footer: total rows s8, block count s4, index offset
  s8, index length s4, version u1 = 1, three reserved zero bytes, magic
  0x524F5753 ("ROWS"; the file ends in the bytes `SWOR`).

  The block index is three arrays, each a varint byte length and then its
  values delta-encoded as ZigZag varints (`DeltaVarintCompressor`): every
  block's compressed size, its uncompressed size and the number of rows
  before it. Blocks are found by the running sum of the compressed sizes.

  A block, once decompressed, is the rows one after the other, then each
  row's start in the block (s4), then the number of rows (s4). A new block
  starts once the rows, offsets and count reach `file.block-size` (64 KiB by
  default). A row is a null bitmap (bit i % 8 of byte i / 8 set for a null
  field i), then each non-null field in order: BOOLEAN 1 byte, TINYINT 1,
  SMALLINT 2, INT / DATE / TIME 4, BIGINT 8, FLOAT 4, DOUBLE 8; CHAR,
  VARCHAR, BINARY, VARBINARY and BLOB a varint length and the bytes; DECIMAL
  up to precision 18 its unscaled s8, above that a varint length and the
  unscaled big-endian two's complement; TIMESTAMP up to precision 3 its epoch
  milliseconds s8, above that the milliseconds and a varint nanosecond of the
  millisecond; VARIANT two length-prefixed byte strings (value, metadata).
  ARRAY is a varint count, a null bitmap over the elements and the non-null
  elements; MAP and MULTISET are two such arrays (keys, then values or
  counts); ROW is a nested row; VECTOR is a varint count and the elements
  without a bitmap.

  A file does not record its column types. The caller passes one
  `field_kind` byte per column (`field_kinds`); the spec reads rows of
  atomic columns (`decode_rows`), while nested columns are read by the kit's
  codec (paimon_conform.layouts.row_file.codec), which also checks what
  Kaitai cannot say: that each row ends where the next begins.

  Java's reader (RowFormatReaderFactory, RowBlockIndex, RowBlockReader)
  checks the magic and the version and trusts the rest; the row starts and
  the total are the row positions deletion vectors select by. The reserved
  bytes, the footer's block count and bytes between the last block and the
  index are never read.
doc-ref:
  - https://github.com/apache/paimon/blob/master/docs/docs/concepts/spec/rowformat.md
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/row/RowFormatWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/row/RowBlockWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/row/RowBlockIndex.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/row/RowFileFooter.java
params:
  - id: field_kinds
    type: bytes
    doc: One `field_kind` value per column, in column order.
  - id: decode_rows
    type: bool
    doc: Read the rows (every column atomic); otherwise only the block framing.
seq:
  - id: size_check
    -code: ROW_FILE_TOO_SHORT
    size: 0
    valid:
      expr: _io.size >= 32
    doc: Zero-width; the file holds at least the 32-byte footer.
  - id: magic_check
    -code: ROW_FILE_BAD_MAGIC
    -report-as: footer
    size: 0
    valid:
      expr: footer.magic == 0x524f5753
    doc: Zero-width; Java checks the magic first ("Invalid row file magic").
  - id: version_check
    -code: ROW_FILE_BAD_VERSION
    -report-as: footer
    size: 0
    valid:
      expr: footer.version == version::v1
    doc: Zero-width; then the version ("Unsupported row file version").
  - id: index_range_check
    -code: ROW_FILE_BAD_INDEX_RANGE
    -report-as: footer
    size: 0
    valid:
      expr: footer.ofs_index >= 0 and footer.len_index >= 0 and footer.ofs_index <= _io.size - 32 and footer.len_index <= _io.size - 32 - footer.ofs_index
    doc: Zero-width; the index lies between the start of the file and the footer.
  - id: counts_check
    -code: ROW_FILE_INDEX_MISMATCH
    -report-as: index
    size: 0
    valid:
      expr: index.uncompressed_sizes.deltas.entries.size >= num_blocks and index.row_starts.deltas.entries.size >= num_blocks
    doc: |
      Zero-width; the other two arrays list every block (Java takes the
      number of blocks from the first and indexes the others by it; entries
      past it are never read: ROW_FILE_INDEX_EXTRA, a should of the codec).
  - id: total_check
    -code: ROW_FILE_BAD_ROW_COUNT
    -report-as: footer
    size: 0
    valid:
      expr: '(num_blocks == 0 ? 0 : blocks.last.row_end) == footer.num_rows'
    doc: |
      Zero-width; reads every block (each checked to end before the index,
      numbered from the rows before it, and its rows read), then requires
      the footer's total to be the rows of all blocks (Java ends the last
      block's row positions there when a deletion vector selects rows). The
      checks after this one are of bytes no reader uses.
  - id: blocks_check
    -code: ROW_FILE_BLOCK_GAP
    -report-as: footer
    size: 0
    valid:
      expr: '(num_blocks == 0 ? 0 : blocks.last.ofs_end) == footer.ofs_index'
    doc: |
      Zero-width; the blocks fill everything up to the index (Java reads
      each block where the one before it ends and never looks at the rest).
  - id: block_count_check
    -code: ROW_FILE_BLOCK_COUNT
    -report-as: footer
    size: 0
    valid:
      expr: footer.num_blocks == num_blocks
    doc: Zero-width; the footer's count, which Java's reader does not use.
  - id: reserved_check
    -code: ROW_FILE_RESERVED
    -report-as: footer
    size: 0
    valid:
      expr: footer.reserved == [0, 0, 0]
    doc: Zero-width; the writer leaves them zero and no reader looks at them.
instances:
  footer:
    pos: _io.size - 32
    type: footer
  index:
    pos: footer.ofs_index
    size: footer.len_index
    type: block_index
  num_blocks:
    value: index.compressed_sizes.deltas.entries.size
  blocks:
    type: 'block_slot(_index, _index == 0 ? 0 : blocks[_index - 1].ofs_end, _index == 0 ? 0 : blocks[_index - 1].row_end)'
    repeat: expr
    repeat-expr: num_blocks
    doc: The data blocks, found by the running sum of the compressed sizes.
types:
  footer:
    seq:
      - id: num_rows
        type: s8
      - id: num_blocks
        type: s4
      - id: ofs_index
        type: s8
      - id: len_index
        type: s4
      - id: version
        type: u1
        enum: version
      - id: reserved
        size: 3
      - id: magic
        type: u4
  block_index:
    doc: RowBlockIndex.writeTo; bytes after the third array are not read.
    seq:
      - id: compressed_sizes
        type: delta_array
      - id: uncompressed_sizes
        type: delta_array
      - id: row_starts
        type: delta_array
  delta_array:
    doc: DeltaVarintCompressor; value i is the sum of the first i + 1 ZigZag varints.
    seq:
      - id: len_values
        type: var_len_int(5)
      - id: length_check
        -code: ROW_FILE_BAD_INDEX_RANGE
        -report-as: len_values
        size: 0
        valid:
          expr: len_values.value >= 0 and len_values.value <= _io.size - _io.pos
        doc: Zero-width; the array's bytes lie inside the index.
      - id: canonical_check
        -code: ROW_FILE_BAD_INDEX_VARINT
        -report-as: len_values
        size: 0
        valid:
          expr: 'len_values.groups.size == (len_values.value < 0x80 ? 1 : (len_values.value < 0x4000 ? 2 : (len_values.value < 0x200000 ? 3 : (len_values.value < 0x10000000 ? 4 : 5))))'
        doc: |
          Zero-width; the length takes the bytes its value needs: Java
          (RowBlockIndex.readFrom) steps over varIntSize(value) bytes, not over
          the ones it read, and reads any others as the array.
      - id: deltas
        size: len_values.value
        type: delta_varint_list
  block_slot:
    params:
      - id: idx
        type: s4
      - id: ofs_block
        type: s8
        doc: Where the block starts (where the one before it ends).
      - id: rows_before
        type: s8
        doc: The rows of the blocks before it.
    seq:
      - id: size_check
        -code: ROW_FILE_BLOCK_PAST_INDEX
        -report-as: len_compressed
        size: 0
        valid:
          expr: len_compressed > 0 and len_compressed <= _root.footer.ofs_index - ofs_block and len_uncompressed >= 0 and len_uncompressed <= 0x7fffffff
        doc: |
          Zero-width; the block has bytes, ends before the index, and its
          uncompressed size fits a Java array.
      - id: start_check
        -code: ROW_FILE_BAD_ROW_START
        -report-as: row_start
        size: 0
        valid:
          expr: row_start == rows_before
        doc: |
          Zero-width; the rows before this block are the rows of the blocks
          before it (Java numbers the block's rows from here).
      - id: rows_check
        -code: ROW_FILE_BAD_BLOCK
        -report-as: content
        size: 0
        valid:
          expr: content.num_rows >= 0 and (not _root.decode_rows or content.rows.size == content.num_rows)
        doc: Zero-width; decompresses the block and reads its rows, in block order as Java does.
    instances:
      len_compressed:
        value: _root.index.compressed_sizes.deltas.entries[idx].value
      len_uncompressed:
        value: _root.index.uncompressed_sizes.deltas.entries[idx].value
      row_start:
        value: _root.index.row_starts.deltas.entries[idx].value
      ofs_end:
        value: ofs_block + len_compressed
      row_end:
        value: row_start + content.num_rows
      content:
        io: _root._io
        pos: ofs_block
        size: len_compressed
        process: paimon_layouts.processors.zstd_block(len_uncompressed)
        type: block_content
        doc: The block after decompression into its stated uncompressed size.
  block_content:
    seq:
      - id: size_check
        -code: ROW_FILE_BAD_BLOCK
        size: 0
        valid:
          expr: _io.size >= 4
        doc: Zero-width; a block ends in its row count.
      - id: count_check
        -code: ROW_FILE_BAD_BLOCK
        -report-as: num_rows
        size: 0
        valid:
          expr: num_rows >= 0 and num_rows <= (_io.size - 4) / 4
        doc: Zero-width; the row offsets fit in the block.
      - id: rows_region
        size: _io.size - 4 - 4 * num_rows
        doc: The rows, one after the other.
      - id: ofs_rows
        type: s4
        repeat: expr
        repeat-expr: num_rows
        doc: Each row's start in the block.
      - id: row_count
        type: s4
    instances:
      num_rows:
        pos: _io.size - 4
        type: s4
      rows:
        type: row_slot(_index)
        repeat: expr
        repeat-expr: num_rows
        if: _root.decode_rows
  row_slot:
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: ROW_FILE_BAD_ROW_OFFSET
        -report-as: ofs_row
        size: 0
        valid:
          expr: ofs_row >= 0 and ofs_row + (_root.field_kinds.size + 7) / 8 <= _parent.rows_region.size
        doc: Zero-width; the row's null bitmap lies inside the rows (where the row must also end).
      - id: read_check
        -code: ROW_FILE_BAD_ROW_OFFSET
        -report-as: row
        size: 0
        valid:
          expr: row.fields.size == _root.field_kinds.size
        doc: Zero-width; reads the row here, so its faults come in row order.
    instances:
      ofs_row:
        value: _parent.ofs_rows[idx]
      row:
        io: _parent._io
        pos: ofs_row
        size: _parent.rows_region.size - ofs_row
        type: row(_root.field_kinds)
        doc: Read until its last field; what follows belongs to the next row.
  row:
    params:
      - id: kinds
        type: bytes
    seq:
      - id: null_bits
        size: (kinds.size + 7) / 8
      - id: fields
        type: 'field_value(kinds[_index], (null_bits[_index / 8] >> (_index % 8)) & 1 == 1)'
        repeat: expr
        repeat-expr: kinds.size
  field_value:
    params:
      - id: kind
        type: u1
        doc: A `field_kind` value.
      - id: is_null
        type: bool
    seq:
      - id: value
        if: not is_null
        type:
          switch-on: kind_as_enum
          cases:
            'field_kind::boolean': u1
            'field_kind::int8': s1
            'field_kind::int16': s2
            'field_kind::int32': s4
            'field_kind::int64': s8
            'field_kind::float32': f4
            'field_kind::float64': f8
            'field_kind::bytes': var_bytes
            'field_kind::timestamp_nanos': timestamp_nanos
            'field_kind::variant': variant
    instances:
      kind_as_enum:
        value: kind
        enum: field_kind
        doc: The field kind as its enum, for the switch (every target switches on an enum; not all on an enum's id).
  var_bytes:
    seq:
      - id: len_data
        type: block_var_int
      - id: length_check
        -code: ROW_FILE_BAD_LENGTH
        -report-as: len_data
        size: 0
        valid:
          expr: len_data.value >= 0
        doc: Zero-width; Java allocates the length it reads.
      - id: data
        size: len_data.value
  block_var_int:
    doc: |
      A row's varint as Java's BlockInput.readVarInt reads it: 7 bits per
      byte, least significant group first, up to the first byte without the
      high bit, however many (Java's int shift wraps at 32 bits, so groups
      past the fifth land on low bits again). Java's writer uses at most 5
      bytes; more is ROW_FILE_VARINT_OVERLONG, a should of the codec. The
      block index's array lengths are not read this way (var_len_int).
    seq:
      - id: groups
        type: 'block_var_int_group(_index, _index == 0 ? 0 : groups[_index - 1].acc_lo, _index == 0 ? 0 : groups[_index - 1].acc_hi, _index == 0 ? 1 : groups[_index - 1].next_scale)'
        repeat: until
        repeat-until: not _.has_next
    instances:
      value:
        value: '(groups.last.acc >= 0x80000000 ? groups.last.acc - 0x100000000 : groups.last.acc).as<s8>'
        doc: The int Java gets (negative when bit 31 ends up set).
  block_var_int_group:
    doc: |
      One group of a block varint. Java ORs `(b & 0x7f) << (7 * idx)` into
      an int, the shift taken mod 32; the same bits are kept here as two
      16-bit halves ORed separately, and the group's part is made by
      multiplying by 2^((7 * idx) % 32) (`scale`), so that no target needs
      a bitwise operator on a value of 32 bits or more (JavaScript's are
      32-bit signed, Go's keep the operand's 8-bit type).
    params:
      - id: idx
        type: u4
      - id: prev_lo
        type: s8
      - id: prev_hi
        type: s8
      - id: scale
        type: s8
        doc: 2^((7 * idx) % 32).
    seq:
      - id: b
        type: u1
    instances:
      has_next:
        value: (b & 0x80) != 0
      part:
        value: '(((b & 0x7f) * scale) % 0x100000000).as<s8>'
        doc: This group's bits in the 32-bit value (below 2^32).
      acc_lo:
        value: '(prev_lo | (part % 0x10000)).as<s8>'
      acc_hi:
        value: '(prev_hi | (part / 0x10000)).as<s8>'
      acc:
        value: '(acc_hi * 0x10000 + acc_lo).as<s8>'
        doc: The value of this group and the ones before it, as the unsigned 32 bits Java's int holds.
      next_scale:
        value: '(scale * 128 >= 0x100000000 ? scale / 0x2000000 : scale * 128).as<s8>'
        doc: The next group's scale, 2^((7 * (idx + 1)) % 32).
  timestamp_nanos:
    seq:
      - id: millis
        type: s8
      - id: nano_of_milli
        type: block_var_int
      - id: nanos_check
        -code: ROW_FILE_BAD_NANOS
        -report-as: nano_of_milli
        size: 0
        valid:
          expr: nano_of_milli.value >= 0 and nano_of_milli.value <= 999999
        doc: Zero-width; Timestamp refuses a nanosecond of the millisecond outside 0..999999.
  variant:
    seq:
      - id: value
        type: var_bytes
      - id: metadata
        type: var_bytes
enums:
  version:
    1: v1
  field_kind:
    0: nested
    1: boolean
    2: int8
    3: int16
    4: int32
    5: int64
    6: float32
    7: float64
    8: bytes
    9: timestamp_nanos
    10: variant
