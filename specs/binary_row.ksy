meta:
  id: binary_row
  title: Apache Paimon BinaryRow (the row bytes that bucket hashing covers)
  application: Apache Paimon (BinaryRow, BinaryRowWriter; partition, bucket-key and primary-key rows)
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  One row in Paimon's binary row format, as BinaryRowWriter writes it
  (little-endian, `Unsafe` native order on x86 and aarch64): a null bit set
  whose first byte is the row kind, one 8-byte slot per field, then a
  variable-length part. `BinaryRow.hashCode()` is Murmur3 x86_32 with seed
  42 over all of these bytes, so every byte matters: a writer that leaves
  garbage in an unused slot byte or pads differently puts the row in
  another bucket.

  The file does not record the field types, so the caller passes one
  `slot_kind` byte per field (`field_kinds`). A slot kind says how the
  8 bytes are laid out, not what they mean: INT, DATE (days since epoch)
  and TIME (millis of day) are all `int32`; a compact DECIMAL (precision
  <= 18) is its unscaled value and a compact TIMESTAMP (precision <= 3) its
  epoch millis, both `int64`; the scale, precision and the meaning of
  integers are applied by the reader (paimon_conform.layouts.binary_row.codec.read).

  What Kaitai cannot express and the kit checks in Python: that the
  variable-part items follow each other in field order from the end of the
  fixed part, each padded to 8 bytes with zeros, with nothing after the
  last (Java's cursor); that a non-compact DECIMAL's bytes are the minimal
  two's-complement form (BigInteger.toByteArray); that a string is valid
  UTF-8. Nested types (ARRAY, MAP, ROW) are not covered: no Paimon bucket,
  partition or primary key can hold them.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/BinaryRow.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/AbstractBinaryWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/BinaryRowWriter.java
params:
  - id: field_kinds
    type: bytes
    doc: One `slot_kind` value per field, in field order.
seq:
  - id: size_check
    -code: BINARY_ROW_BAD_SIZE
    size: 0
    valid:
      expr: _io.size % 8 == 0 and _io.size >= len_fixed_part
    doc: |
      Zero-width. A row is the fixed part plus 8-byte-padded variable
      items, so its length is a multiple of 8 and at least the fixed part.
  - id: row_kind
    -code: BINARY_ROW_BAD_ROW_KIND
    type: u1
    enum: row_kind
    valid:
      in-enum: true
    doc: "Header byte: the RowKind byte value. Key and partition rows hold +I (0)."
  - id: null_bits
    size: (num_fields + 7) / 8
    doc: |
      Field i is null when bit (i + 8) of the bit set is 1, bits numbered
      LSB-first within each byte: bit i % 8 of null_bits[i / 8].
  - id: unused_null_bits
    -code: BINARY_ROW_UNUSED_NULL_BITS
    -report-as: null_bits
    size: 0
    valid:
      expr: num_fields % 8 == 0 or (null_bits.last >> (num_fields % 8)) == 0
    doc: Zero-width; bits past the last field are 0 (Java's bit set starts zeroed).
  - id: null_bits_padding
    -code: BINARY_ROW_UNUSED_NULL_BITS
    size: bit_set_width - 1 - (num_fields + 7) / 8
    valid:
      expr: '_.length == 0 ? true : _.max == 0'
    doc: The rest of the bit set, zero.
  - id: fields
    type: field(_index, field_kinds[_index])
    repeat: expr
    repeat-expr: num_fields
instances:
  num_fields:
    value: field_kinds.length
  bit_set_width:
    value: ((num_fields + 63 + 8) / 64) * 8
    doc: Bytes of the null bit set including the header byte (8 for up to 56 fields).
  len_fixed_part:
    value: bit_set_width + 8 * num_fields
types:
  field:
    params:
      - id: index
        type: s4
      - id: kind
        type: u1
    seq:
      - id: kind_check
        -code: BINARY_ROW_BAD_FIELD_KIND
        size: 0
        valid:
          expr: kind >= 1 and kind <= 11
        doc: Zero-width; the caller's slot kind is one the layout defines.
      - id: slot
        size: 8
        type:
          switch-on: kind_as_enum
          cases:
            'slot_kind::boolean': boolean_slot(is_null)
            'slot_kind::int8': int_slot(1, is_null)
            'slot_kind::int16': int_slot(2, is_null)
            'slot_kind::int32': int_slot(4, is_null)
            'slot_kind::int64': int_slot(8, is_null)
            'slot_kind::float32': float32_slot(is_null)
            'slot_kind::float64': float64_slot(is_null)
            'slot_kind::string': bytes_slot(is_null)
            'slot_kind::binary': bytes_slot(is_null)
            'slot_kind::decimal': decimal_slot(is_null)
            'slot_kind::timestamp': timestamp_slot(is_null)
    instances:
      is_null:
        value: ((_parent.null_bits[index / 8] >> (index % 8)) & 1) == 1
      kind_as_enum:
        value: kind
        enum: slot_kind
        doc: The slot kind as its enum, for the switch (every target switches on an enum; not all on an enum's id).
  int_slot:
    doc: |
      A fixed-width signed integer in the low bytes, the rest zero. Also the
      compact DECIMAL (unscaled long), compact TIMESTAMP (epoch millis),
      DATE and TIME. A null slot is all zero.
    params:
      - id: width
        type: u1
      - id: is_null
        type: bool
    seq:
      - id: value
        type:
          switch-on: width
          cases:
            1: s1
            2: s2
            4: s4
            8: s8
      - id: padding
        -code: BINARY_ROW_SLOT_PADDING
        size: 8 - width
        valid:
          expr: '_.length == 0 ? true : _.max == 0'
        doc: Unused slot bytes are zero; they are hashed.
      - id: null_check
        -code: BINARY_ROW_NULL_SLOT_NOT_ZERO
        -report-as: value
        size: 0
        valid:
          expr: not is_null or value == 0
        doc: Zero-width; a null fixed-length field has an all-zero slot (setNullAt).
  boolean_slot:
    params:
      - id: is_null
        type: bool
    seq:
      - id: value
        -code: BINARY_ROW_BAD_BOOLEAN
        type: u1
        valid:
          expr: _ == 0 or (_ == 1 and not is_null)
        doc: 1 or 0 (Unsafe.putBoolean); 0 when null.
      - id: padding
        -code: BINARY_ROW_SLOT_PADDING
        size: 7
        valid:
          expr: _.max == 0
  float32_slot:
    params:
      - id: is_null
        type: bool
    seq:
      - id: bits
        type: u4
        doc: Raw IEEE-754 bits (putFloat keeps the NaN payload as given).
      - id: padding
        -code: BINARY_ROW_SLOT_PADDING
        size: 4
        valid:
          expr: _.max == 0
      - id: null_check
        -code: BINARY_ROW_NULL_SLOT_NOT_ZERO
        -report-as: bits
        size: 0
        valid:
          expr: not is_null or bits == 0
    instances:
      value:
        pos: 0
        type: f4
  float64_slot:
    params:
      - id: is_null
        type: bool
    seq:
      - id: bits
        type: s8
        doc: |
          Raw IEEE-754 bits as Java's long (doubleToRawLongBits); signed, so
          that every target holds the same value (a u8 is a signed long in
          Kaitai's Java runtime).
      - id: null_check
        -code: BINARY_ROW_NULL_SLOT_NOT_ZERO
        -report-as: bits
        size: 0
        valid:
          expr: not is_null or bits == 0
    instances:
      value:
        pos: 0
        type: f8
  bytes_slot:
    doc: |
      CHAR / VARCHAR (UTF-8) and BINARY / VARBINARY. Up to 7 bytes are
      inline: data in slot bytes 0..len-1, zeros up to byte 6, and byte 7 =
      0x80 | len. Longer values sit in the variable part; the slot is then
      the LE long (offset << 32) | length, offset from the row start.
    params:
      - id: is_null
        type: bool
    seq:
      - id: low
        type: u4
      - id: high
        type: u4
      - id: null_check
        -code: BINARY_ROW_NULL_SLOT_NOT_ZERO
        -report-as: low
        size: 0
        valid:
          expr: not is_null or (low == 0 and high == 0)
      - id: inline_check
        -code: BINARY_ROW_BAD_INLINE_LENGTH
        -report-as: high
        size: 0
        valid:
          expr: not is_inline or len_inline <= 7
        doc: Zero-width; an inline value has at most 7 bytes.
      - id: inline_padding
        -code: BINARY_ROW_SLOT_PADDING
        -report-as: low
        size: 0
        valid:
          expr: 'not is_inline or len_inline == 7 ? true : inline_tail.max == 0'
        doc: Zero-width; inline slot bytes past the data are zero.
      - id: variable_check
        -code: BINARY_ROW_BAD_OFFSET
        -report-as: high
        size: 0
        valid:
          expr: |
            is_null or is_inline or (len_data >= 8
              and ofs_data % 8 == 0
              and ofs_data >= _parent._parent.len_fixed_part
              and ofs_data + len_data <= _parent._parent._io.size)
        doc: |
          Zero-width; values of 8 bytes or more are not inline (Java inlines
          only up to 7), and sit 8-aligned within the variable part.
    instances:
      is_inline:
        value: (high >> 31) == 1
      len_inline:
        value: (high >> 24) & 0x7f
      inline_data:
        pos: 0
        size: len_inline
        if: is_inline and len_inline <= 7
      inline_tail:
        pos: len_inline
        size: 7 - len_inline
        if: is_inline and len_inline < 7
      len_data:
        value: low
        if: not is_inline
      ofs_data:
        value: high
        if: not is_inline
      data:
        io: _parent._parent._io
        pos: ofs_data
        size: len_data
        if: not is_null and not is_inline
  decimal_slot:
    doc: |
      DECIMAL with precision > 18: the slot is the LE long
      (offset << 32) | numBytes and 16 bytes are reserved at offset; the
      unscaled value is BigInteger.toByteArray() (big-endian two's
      complement, minimal) at the start of them. A null value keeps its 16
      reserved zero bytes and numBytes 0.
    params:
      - id: is_null
        type: bool
    seq:
      - id: len_unscaled
        -code: BINARY_ROW_BAD_DECIMAL_LENGTH
        type: u4
        valid:
          expr: (is_null and _ == 0) or (not is_null and _ >= 1 and _ <= 16)
      - id: ofs_reserved
        -code: BINARY_ROW_BAD_OFFSET
        type: u4
        valid:
          expr: |
            _ % 8 == 0 and _ >= _parent._parent.len_fixed_part
              and _ + 16 <= _parent._parent._io.size
    instances:
      reserved:
        io: _parent._parent._io
        pos: ofs_reserved
        size: 16
      unscaled_be:
        io: _parent._parent._io
        pos: ofs_reserved
        size: len_unscaled
        if: not is_null
  timestamp_slot:
    doc: |
      TIMESTAMP / TIMESTAMP_LTZ with precision > 3: the slot is the LE
      long (offset << 32) | nanoOfMillisecond, and the 8 bytes at offset
      hold the epoch millis. A null value keeps its 8 reserved zero bytes.
    params:
      - id: is_null
        type: bool
    seq:
      - id: nano_of_millisecond
        -code: BINARY_ROW_BAD_NANOS
        type: u4
        valid:
          expr: _ <= 999999 and (not is_null or _ == 0)
      - id: ofs_millis
        -code: BINARY_ROW_BAD_OFFSET
        type: u4
        valid:
          expr: |
            _ % 8 == 0 and _ >= _parent._parent.len_fixed_part
              and _ + 8 <= _parent._parent._io.size
    instances:
      epoch_millis:
        io: _parent._parent._io
        pos: ofs_millis
        type: s8
enums:
  row_kind:
    0:
      id: insert
      doc: +I
    1:
      id: update_before
      doc: -U
    2:
      id: update_after
      doc: +U
    3:
      id: delete
      doc: -D
  slot_kind:
    1: boolean
    2: int8
    3: int16
    4:
      id: int32
      doc: INT, DATE (days since 1970-01-01), TIME (millis of day)
    5:
      id: int64
      doc: BIGINT, compact DECIMAL (unscaled), compact TIMESTAMP (epoch millis)
    6: float32
    7: float64
    8: string
    9: binary
    10:
      id: decimal
      doc: DECIMAL with precision > 18
    11:
      id: timestamp
      doc: TIMESTAMP / TIMESTAMP_LTZ with precision > 3
