meta:
  id: bitmap_index
  title: Apache Paimon bitmap file index payload (versions 1 and 2)
  application: Apache Paimon (BitmapFileIndex, index name "bitmap")
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
  endian: be
doc: |
  The payload of a `bitmap` entry of the file-index container: for each
  distinct non-null value of the column, the rows (0-based, in write order,
  nulls counted) holding it, as a 32-bit RoaringBitmap; and the rows holding
  null. Keys are written per column type (`key_kind`, a parameter, because
  the container records column names only): TINYINT 1 byte, SMALLINT 2,
  INT/DATE/TIME 4, BIGINT and TIMESTAMP (millis if precision <= 3, else
  micros) 8, FLOAT 4, DOUBLE 8, BOOLEAN 1, CHAR/VARCHAR an s4 byte count and
  UTF-8 bytes.

  A value held by exactly one row stores no bitmap: its offset is
  -1 - row (always negative). Otherwise the offset counts from the start of
  the body. Version 1 stores no lengths: a reader derives each bitmap's
  length from the next non-negative offset in header order, so the body must
  follow header order. Version 2 (Paimon >= 1.1, default there) sorts the
  entries by key into index blocks (at most `index-block-size` bytes each,
  16 KiB by default), with a block directory of first keys, and stores each
  length (-1 for a single row); its null-bitmap length is written whenever
  there are nulls, even for a single null row.

  The bitmaps themselves are 32-bit portable RoaringBitmaps in the body; the
  kit parses each at its offset (a RoaringBitmap delimits itself) and checks
  offsets, lengths, ordering and row ranges (paimon_conform.layouts.bitmap_index.codec).
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndex.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMeta.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bitmap/BitmapFileIndexMetaV2.java
params:
  - id: key_kind
    type: u1
    enum: key_kind
    doc: How keys are written; chosen by the column type.
seq:
  - id: version
    -code: BITMAP_BAD_VERSION
    type: u1
    enum: version
    valid:
      in-enum: true
  - id: num_rows
    -code: BITMAP_BAD_COUNT
    type: s4
    valid:
      min: 0
    doc: Rows of the data file, nulls included.
  - id: num_values
    -code: BITMAP_BAD_COUNT
    type: s4
    valid:
      min: 0
      max: (_io.size - _io.pos) / 5
    doc: Distinct non-null values; each takes at least 5 header bytes.
  - id: has_nulls
    -code: BITMAP_BAD_NULL_FLAG
    type: u1
    valid:
      any-of: [0, 1]
  - id: ofs_null_bitmap
    type: s4
    if: has_nulls == 1
    doc: Body offset of the null bitmap, or -1 - row for a single null row.
  - id: len_null_bitmap
    type: s4
    if: has_nulls == 1 and version == version::v2
    doc: Serialized size of the null bitmap (written even for a single null row).
  - id: entries_v1
    type: entry_v1
    repeat: expr
    repeat-expr: num_values
    if: version == version::v1
  - id: num_blocks
    -code: BITMAP_BAD_COUNT
    type: s4
    valid:
      min: 0
      max: (_io.size - _io.pos) / 5
    if: version == version::v2
  - id: block_refs
    type: block_ref
    repeat: expr
    repeat-expr: num_blocks
    if: version == version::v2
  - id: len_index_blocks
    -code: BITMAP_BAD_COUNT
    type: s4
    valid:
      min: 0
      max: _io.size - _io.pos
    if: version == version::v2
  - id: index_blocks
    size: len_index_blocks
    type: index_blocks
    if: version == version::v2
  - id: body
    size-eos: true
    doc: The serialized bitmaps; offsets count from here.
types:
  key:
    seq:
      - id: value
        type:
          switch-on: _root.key_kind
          cases:
            'key_kind::i1': s1
            'key_kind::i2': s2
            'key_kind::i4': s4
            'key_kind::i8': s8
            'key_kind::f4': f4
            'key_kind::f8': f8
            'key_kind::boolean': u1
            'key_kind::string': string_key
  string_key:
    seq:
      - id: len_value
        -code: BITMAP_BAD_KEY
        type: s4
        valid:
          min: 0
          max: _io.size - _io.pos
      - id: value
        size: len_value
        doc: UTF-8 bytes.
  entry_v1:
    seq:
      - id: key
        type: key
      - id: ofs_bitmap
        type: s4
        doc: Body offset of the value's bitmap, or -1 - row for a single row.
  block_ref:
    seq:
      - id: first_key
        type: key
      - id: ofs_block
        type: s4
        doc: Offset of the block from the start of the index blocks.
  index_blocks:
    seq:
      - id: blocks
        type: index_block(_index)
        repeat: expr
        repeat-expr: _parent.num_blocks
      - id: end_check
        -code: BITMAP_BLOCKS_MISMATCH
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the blocks fill the index-block area exactly.
  index_block:
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: BITMAP_BLOCKS_MISMATCH
        size: 0
        valid:
          expr: _io.pos == _parent._parent.block_refs[idx].ofs_block
        doc: Zero-width; the block directory must point exactly here.
      - id: num_entries
        -code: BITMAP_BAD_COUNT
        type: s4
        valid:
          min: 0
          max: (_io.size - _io.pos) / 9
      - id: entries
        type: entry_v2
        repeat: expr
        repeat-expr: num_entries
  entry_v2:
    seq:
      - id: key
        type: key
      - id: ofs_bitmap
        type: s4
      - id: len_bitmap
        type: s4
        doc: Length of the bitmap in the body; -1 for a single row.
enums:
  version:
    1: v1
    2: v2
  key_kind:
    1: i1
    2: i2
    4: i4
    8: i8
    14: f4
    18: f8
    21: boolean
    99: string
