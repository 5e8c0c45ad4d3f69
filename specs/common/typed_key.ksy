meta:
  id: typed_key
  title: A column value written as a Paimon file-index key (big-endian)
  license: Apache-2.0
  ks-version: '0.11'
  endian: be
doc: |
  How the range-bitmap index writes a key (KeyFactory serializers, a
  ByteBuffer, so big-endian): TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME 4,
  BIGINT, DECIMAL (unscaled, precision <= 18) and TIMESTAMP (millis if
  precision <= 3, else micros) 8, FLOAT 4, DOUBLE 8 (IEEE bits), BOOLEAN one
  byte 1 or 0, CHAR/VARCHAR an s4 byte count and UTF-8 bytes. The column
  type is not recorded in the file, so the caller passes `kind`.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/KeyFactory.java
params:
  - id: kind
    type: u1
    enum: kind
seq:
  - id: value
    type:
      switch-on: kind
      cases:
        'kind::i1': s1
        'kind::i2': s2
        'kind::i4': s4
        'kind::i8': s8
        'kind::f4': f4
        'kind::f8': f8
        'kind::boolean': boolean_key
        'kind::string': string_key
types:
  boolean_key:
    seq:
      - id: value
        -code: KEY_BAD_BOOLEAN
        type: u1
        valid:
          any-of: [0, 1]
        doc: Java reads 1 as true and any other byte as false; it writes only 0 and 1.
  string_key:
    seq:
      - id: len_value
        -code: KEY_BAD_LENGTH
        type: s4
        valid:
          min: 0
          max: _io.size - _io.pos
      - id: value
        size: len_value
        doc: UTF-8 bytes.
enums:
  kind:
    1: i1
    2: i2
    4: i4
    8: i8
    14: f4
    18: f8
    21: boolean
    99: string
