meta:
  id: blob_file
  title: Apache Paimon BLOB data file (.blob)
  application: Apache Paimon >= 1.4 (BlobFormatWriter, BlobFileMeta; file format "blob")
  file-extension: blob
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - /common/zigzag_varint
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
  MAP<K, BLOB> columns (Paimon 2.0) nest their own framing inside it.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFormatWriter.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/BlobFileMeta.java
  - https://github.com/apache/paimon/blob/master/paimon-format/src/main/java/org/apache/paimon/format/blob/AbstractBlobElementWriter.java
  - https://github.com/apache/paimon/blob/master/docs/docs/concepts/spec/fileformat.md
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
        process: paimon_conform.core.kaitai_processors.crc32
        type: crc_value
  crc_value:
    seq:
      - id: value
        type: u4be
enums:
  version:
    1: v1
