meta:
  id: blob_file
  title: Apache Paimon BLOB data file (.blob)
  application: Apache Paimon >= 1.4 (BlobFormatWriter, BlobFileMeta; file format "blob")
  file-extension: blob
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - /common/zigzag_varint
    - /common/delta_varint_list
  endian: le
doc: |
  The `.blob` file that holds one BLOB column of an append table with
  data evolution (`data-<uuid>-<n>.blob`, beside the Parquet/ORC files of the
  other columns, sharing their row ids through `_FIRST_ROW_ID`). Everything is
  little-endian.

  The file is the records back to back, then an index, then a 5-byte footer
  (index length s4, version u1 = 1). The index is one ZigZag varint per row,
  delta-encoded: row i's length is the sum of the first i + 1 varints. A
  length of -1 is a NULL row and -2 a data-evolution placeholder (the row's
  value lives in another file); neither has a record. Every other length is
  the byte length of that row's record, and the records fill the data region
  exactly, in row order.

  A record is the magic 1481511375 (CF 11 4E 58), the payload, the record's
  own length again (s8, magic + payload + 12) and a CRC32 of everything before
  the CRC. Java's reader finds rows through the index only and reads the
  payload at (offset + 4, length - 16); it checks the footer, the index and
  the lengths (BlobFileMeta) but not the magic, the repeated length or the
  CRC. The payload of a BLOB column is the raw bytes; ARRAY<BLOB> and
  MAP<K, BLOB> columns (Paimon 2.0) nest their own framing inside it, which
  Java's reader checks row by row (ArrayBlobElementSerializer,
  MapBlobElementSerializer): the parameters say which framing to read.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/AbstractBlobElementWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/ArrayBlobElementSerializer.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/MapBlobElementSerializer.java
  - https://github.com/apache/paimon/blob/master/docs/docs/concepts/spec/fileformat.md
params:
  - id: element_kind
    type: u1
    enum: element_kind
    doc: |
      The column's type: BLOB (raw payloads; also when the type is not
      known), ARRAY<BLOB> or MAP<K, BLOB>.
  - id: key_width
    type: s4
    doc: |
      MAP<K, BLOB> only: the byte width of every non-NULL key (1 TINYINT or
      BOOLEAN, 2 SMALLINT, 4 INT / DATE / TIME, 8 BIGINT or a compact
      DECIMAL), or -1 for keys of any length (CHAR / VARCHAR, BINARY /
      VARBINARY, a wide DECIMAL).
seq:
  - id: size_check
    -code: BLOB_TOO_SHORT
    size: 0
    valid:
      expr: _io.size >= 5
    doc: Zero-width; the file holds at least the 5-byte footer.
  - id: version_check
    -code: BLOB_BAD_VERSION
    -report-as: version
    size: 0
    valid:
      expr: version == version::v1
    doc: Zero-width; Java rejects any other version ("Unsupported version").
  - id: index_length_check
    -code: BLOB_BAD_INDEX_LENGTH
    -report-as: len_index
    size: 0
    valid:
      expr: len_index >= 0 and len_index <= _io.size - 5
    doc: Zero-width; the index fits between the start of the file and the footer.
  - id: region_check
    -code: BLOB_INDEX_MISMATCH
    -report-as: len_index
    size: 0
    valid:
      expr: '(index.entries.size == 0 ? 0 : index.entries.last.ofs_end) == ofs_index'
    doc: |
      Zero-width; reads the index (checking each row's length), then
      requires the records it lists to fill the data region exactly
      ("indexed records use N bytes, but data region contains M bytes").
      The footer and index checks are zero-width fields of the sequence so
      that they run in the order Java's BlobFileMeta makes them.
instances:
  version:
    pos: _io.size - 1
    type: u1
    enum: version
    doc: The last byte.
  len_index:
    pos: _io.size - 5
    type: s4
    doc: Byte length of the index, which ends where the footer starts.
  ofs_index:
    value: _io.size - 5 - len_index
    doc: Where the index starts, which is where the data region ends.
  index:
    pos: ofs_index
    size: len_index
    type: length_index
  records:
    type: record_slot(index.entries[_index])
    repeat: expr
    repeat-expr: index.entries.size
    doc: |
      One slot per row, in row order; NULL and placeholder rows have no
      record. Java's reader does not check what a record holds.
types:
  length_index:
    seq:
      - id: entries
        type: 'length_entry(_index == 0 ? 0 : entries[_index - 1].len_record, _index == 0 ? 0 : entries[_index - 1].ofs_end)'
        repeat: eos
  length_entry:
    params:
      - id: prev_len
        type: s8
        doc: The previous row's length (0 before the first row).
      - id: ofs_record
        type: s8
        doc: Where this row's record starts (the end of the previous record).
    seq:
      - id: delta
        type: zigzag_varint
        doc: This row's length minus the previous row's.
      - id: len_check
        -code: BLOB_BAD_RECORD_LENGTH
        -report-as: delta
        size: 0
        valid:
          expr: len_record == -1 or len_record == -2 or (len_record >= 16 and len_record <= _root.ofs_index - ofs_record)
        doc: |
          Zero-width; a length is NULL (-1), placeholder (-2), or a record of
          at least 16 bytes (magic, length, CRC) that ends within the data
          region.
    instances:
      len_record:
        value: prev_len + delta.value
      ofs_end:
        value: 'ofs_record + (len_record > 0 ? len_record : 0)'
  record_slot:
    params:
      - id: entry
        type: length_entry
    instances:
      is_null:
        value: entry.len_record == -1
      is_placeholder:
        value: entry.len_record == -2
      record:
        pos: entry.ofs_record
        size: entry.len_record
        type: record
        if: entry.len_record >= 0
  record:
    seq:
      - id: magic
        -code: BLOB_BAD_MAGIC
        contents: [0xcf, 0x11, 0x4e, 0x58]
        doc: 1481511375 written little-endian (BlobFormatWriter.MAGIC_NUMBER).
      - id: payload
        size: _io.size - 16
        doc: The row's value (raw BLOB bytes), read by Java at record offset + 4.
      - id: len_record
        -code: BLOB_RECORD_LENGTH_MISMATCH
        type: s8
        valid:
          expr: _ == _io.size
        doc: The record's length again (magic + payload + 12), equal to the index's.
      - id: crc
        type: u4
        doc: CRC32 of the magic, payload and length.
      - id: crc_check
        -code: BLOB_CRC_MISMATCH
        -report-as: crc
        size: 0
        valid:
          expr: crc == computed_crc.value
        doc: Zero-width; the stored CRC equals the CRC of the bytes before it.
    instances:
      computed_crc:
        pos: 0
        size: _io.size - 4
        process: paimon_layouts.processors.crc32
        type: crc_value
      elements:
        pos: 4
        size: _io.size - 16
        type:
          switch-on: _root.element_kind
          cases:
            'element_kind::array': array_payload
            'element_kind::map': map_payload
        if: _root.element_kind != element_kind::blob
        doc: |
          The payload of an ARRAY<BLOB> or MAP<K, BLOB> row, framed as
          Java 2.0 writes it; Java's reader reads it at record offset + 4
          with length - 16, whatever the record's magic and CRC.
  crc_value:
    seq:
      - id: value
        type: u4be
  array_payload:
    doc: |
      An ARRAY<BLOB> row (ArrayBlobElementSerializer, Paimon 2.0): magic,
      version, element count, the non-NULL elements' bytes back to back, a
      delta-varint index of element lengths (-1 for a NULL element) and the
      index's length. The checks run in the reader's order.
    seq:
      - id: size_check
        -code: BLOB_ARRAY_TOO_SHORT
        size: 0
        valid:
          expr: _io.size >= 13
        doc: Zero-width; at least the 9-byte header and the index length.
      - id: magic
        -code: BLOB_ARRAY_BAD_MAGIC
        contents: [0x42, 0x43, 0x42, 0x41]
        doc: 1094861634 written little-endian (ArrayBlobElementSerializer.MAGIC_NUMBER).
      - id: version
        -code: BLOB_ARRAY_BAD_VERSION
        type: u1
        enum: element_version
        valid: element_version::v1
      - id: num_elements
        -code: BLOB_ARRAY_BAD_COUNT
        type: s4
        valid:
          min: 0
      - id: index_length_check
        -code: BLOB_ARRAY_BAD_INDEX_LENGTH
        -report-as: len_index
        size: 0
        valid:
          expr: len_index >= 0 and len_index <= _io.size - 13
        doc: Zero-width; the index fits between the header and its length.
      - id: count_check
        -code: BLOB_ARRAY_COUNT_MISMATCH
        -report-as: num_elements
        size: 0
        valid:
          expr: num_elements <= len_index
        doc: Zero-width; every element takes at least one index byte.
      - id: index_count_check
        -code: BLOB_ARRAY_COUNT_MISMATCH
        -report-as: num_elements
        size: 0
        valid:
          expr: index.entries.size == num_elements
        doc: Zero-width; reads the index, which lists one length per element.
      - id: element_checks
        type: 'element_check(index.entries[_index].value, _index == 0 ? 0 : element_checks[_index - 1].len_end, len_data)'
        repeat: expr
        repeat-expr: num_elements
        doc: Each element's length, in order.
      - id: data_check
        -code: BLOB_ARRAY_LENGTH_MISMATCH
        -report-as: len_index
        size: 0
        valid:
          expr: '(num_elements == 0 ? 0 : element_checks.last.len_end) == len_data'
        doc: Zero-width; the elements fill the data between header and index exactly.
    instances:
      len_index:
        pos: _io.size - 4
        type: s4
      ofs_index:
        value: _io.size - 4 - len_index
      len_data:
        value: ofs_index - 9
        doc: Bytes of element data, between the header and the index.
      index:
        pos: ofs_index
        size: len_index
        type: delta_varint_list
  map_payload:
    doc: |
      A MAP<K, BLOB> row (MapBlobElementSerializer, Paimon 2.0): magic,
      version, entry count, the non-NULL keys' bytes, the non-NULL values'
      bytes, a delta-varint index of key lengths, one of value lengths (-1
      for NULL), and the two index lengths. The checks run in the reader's
      order: both indexes are read before either is checked.
    seq:
      - id: size_check
        -code: BLOB_MAP_TOO_SHORT
        size: 0
        valid:
          expr: _io.size >= 17
        doc: Zero-width; at least the 9-byte header and the two index lengths.
      - id: magic
        -code: BLOB_MAP_BAD_MAGIC
        contents: [0x42, 0x43, 0x42, 0x4d]
        doc: 1296188226 written little-endian (MapBlobElementSerializer.MAGIC_NUMBER).
      - id: version
        -code: BLOB_MAP_BAD_VERSION
        type: u1
        enum: element_version
        valid: element_version::v1
      - id: num_entries
        -code: BLOB_MAP_BAD_COUNT
        type: s4
        valid:
          min: 0
      - id: index_lengths_check
        -code: BLOB_MAP_BAD_INDEX_LENGTH
        -report-as: len_key_index
        size: 0
        valid:
          expr: >-
            len_key_index >= 0 and len_key_index <= _io.size - 17
            and len_value_index >= 0 and len_value_index <= _io.size - 17
            and len_key_index + len_value_index <= _io.size - 17
        doc: Zero-width; both indexes fit between the header and their lengths.
      - id: count_check
        -code: BLOB_MAP_COUNT_MISMATCH
        -report-as: num_entries
        size: 0
        valid:
          expr: num_entries <= len_key_index and num_entries <= len_value_index
        doc: Zero-width; every entry takes at least one byte of each index.
      - id: indexes_read
        size: 0
        valid:
          expr: key_index.entries.size >= 0 and value_index.entries.size >= 0
        doc: |
          Zero-width; reads the key index, then the value index (a varint
          fault in either stops the reader before any count is compared).
      - id: key_count_check
        -code: BLOB_MAP_COUNT_MISMATCH
        -report-as: num_entries
        size: 0
        valid:
          expr: key_index.entries.size == num_entries
      - id: key_checks
        type: 'key_check(key_index.entries[_index].value, _index == 0 ? 0 : key_checks[_index - 1].len_end, len_data)'
        repeat: expr
        repeat-expr: num_entries
      - id: value_count_check
        -code: BLOB_MAP_COUNT_MISMATCH
        -report-as: num_entries
        size: 0
        valid:
          expr: value_index.entries.size == num_entries
      - id: value_checks
        type: 'element_check(value_index.entries[_index].value, _index == 0 ? 0 : value_checks[_index - 1].len_end, len_data - len_keys)'
        repeat: expr
        repeat-expr: num_entries
      - id: data_check
        -code: BLOB_MAP_LENGTH_MISMATCH
        -report-as: len_key_index
        size: 0
        valid:
          expr: '(num_entries == 0 ? 0 : value_checks.last.len_end) == len_data - len_keys'
        doc: Zero-width; keys and values fill the data between header and indexes exactly.
    instances:
      len_key_index:
        pos: _io.size - 8
        type: s4
      len_value_index:
        pos: _io.size - 4
        type: s4
      ofs_value_index:
        value: _io.size - 8 - len_value_index
      ofs_key_index:
        value: ofs_value_index - len_key_index
      len_data:
        value: ofs_key_index - 9
        doc: Bytes of key and value data, between the header and the key index.
      len_keys:
        value: '(num_entries == 0 ? 0 : key_checks.last.len_end)'
        doc: Bytes of key data (the values follow them).
      key_index:
        pos: ofs_key_index
        size: len_key_index
        type: delta_varint_list
      value_index:
        pos: ofs_value_index
        size: len_value_index
        type: delta_varint_list
  element_check:
    doc: One element's (or map value's) length, -1 for NULL.
    params:
      - id: len_element
        type: s8
      - id: len_before
        type: s8
        doc: Data bytes taken by the elements before this one.
      - id: len_data
        type: s8
        doc: Data bytes there are for all of them.
    seq:
      - id: length_check
        -code: BLOB_ELEMENT_BAD_LENGTH
        -report-as: len_element
        size: 0
        valid:
          expr: len_element == -1 or (len_element >= 0 and len_element <= len_data - len_before)
        doc: Zero-width; NULL, or a length that fits in the data left.
    instances:
      len_end:
        value: 'len_before + (len_element > 0 ? len_element : 0)'
  key_check:
    doc: One map key's length, -1 for NULL.
    params:
      - id: len_key
        type: s8
      - id: len_before
        type: s8
      - id: len_data
        type: s8
    seq:
      - id: length_check
        -code: BLOB_MAP_BAD_KEY_LENGTH
        -report-as: len_key
        size: 0
        valid:
          expr: >-
            len_key == -1 or (len_key >= 0 and len_key <= 2147483647
            and (_root.key_width < 0 or len_key == _root.key_width)
            and len_key <= len_data - len_before)
        doc: |
          Zero-width; NULL, or a length that is the key type's fixed width
          (when it has one) and fits in the data left.
    instances:
      len_end:
        value: 'len_before + (len_key > 0 ? len_key : 0)'
enums:
  version:
    1: v1
  element_kind:
    0: blob
    1: array
    2: map
  element_version:
    1: v1
