meta:
  id: bsi
  title: Apache Paimon bit-sliced index (BSI) file index payload
  application: Apache Paimon (BitSliceIndexBitmapFileIndex, index name "bsi", Paimon >= 1.0)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
  endian: be
doc: |
  The payload of a `bsi` entry of the file-index container. Each row's value
  is mapped to a long (integers as-is, DATE days, TIME millis, DECIMAL its
  unscaled value, TIMESTAMP millis for precision <= 3 else micros). Rows with
  a value >= 0 go to the positive half, rows with a negative value to the
  negative half with its absolute value. Each half is a bit-sliced index:
  an existence bitmap of its rows and one bitmap per bit of (value - min),
  bit 0 first.

  The flags and halves are interleaved: has_positive, the positive half,
  has_negative, the negative half (the shared notes' table lists both flags
  first; the Java writer and reader interleave them, as the notes' example
  bytes show). A half is written only when it holds a row. Java always
  writes min = 0 (its statistics start at 0), and as many slices as max has
  significant bits.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bsi/BitSliceIndexBitmapFileIndex.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/BitSliceIndexRoaringBitmap.java
seq:
  - id: version
    -code: BSI_BAD_VERSION
    type: u1
    enum: version
    valid:
      in-enum: true
  - id: num_rows
    -code: BSI_BAD_COUNT
    type: s4
    valid:
      min: 0
    doc: Rows of the data file, nulls included.
  - id: has_positive
    -code: BSI_BAD_FLAG
    type: u1
    valid:
      any-of: [0, 1]
  - id: positive
    type: half
    if: has_positive == 1
  - id: has_negative
    -code: BSI_BAD_FLAG
    type: u1
    valid:
      any-of: [0, 1]
  - id: negative
    type: half
    if: has_negative == 1
    doc: Absolute values of the negative rows.
  - id: end_check
    -code: BSI_TRAILING_BYTES
    size: 0
    valid:
      expr: _io.eof
    doc: Zero-width; nothing follows the halves.
types:
  half:
    seq:
      - id: version
        -code: BSI_BAD_VERSION
        type: u1
        valid: 1
      - id: min
        type: s8
        doc: Java writes 0.
      - id: max
        -code: BSI_MIN_ABOVE_MAX
        type: s8
        valid:
          min: min
      - id: existence
        type: roaring32
        doc: Rows of this half.
      - id: num_slices
        -code: BSI_TOO_MANY_SLICES
        type: s4
        valid:
          min: 0
          max: 64
      - id: slices
        type: roaring32
        repeat: expr
        repeat-expr: num_slices
        doc: Slice i = rows whose (value - min) has bit i set.
enums:
  version:
    1: v1
