meta:
  id: file_index
  title: Apache Paimon file-index container (version 1)
  application: Apache Paimon (FileIndexFormat)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - /common/java_mutf8_string
    - bloom_filter
  endian: be
doc: |
  The container of a data file's indexes: a head listing, per column, each
  index's name and where its payload lies, then the payloads. Paimon writes
  it as `<data file>.index` beside the data file, or embeds the same bytes in
  the manifest's `_EMBEDDED_FILE_INDEX` when they are at most
  `file-index.in-manifest-threshold` (500 bytes) long; offsets count from
  the first byte either way.

  Payloads are chosen by index name: `bloom-filter` is parsed here; the
  payloads whose keys depend on the column type (`bitmap`, `range-bitmap`,
  `bsi`) and unknown names stay raw bytes here and are parsed by the kit
  with the column's type. An index whose start is -1 is empty (length 0).

  Only version 1 exists in the releases this spec covers; upstream is adding
  a version 2 (payloads first, 64-bit offsets, a footer), which this spec
  rejects with FILE_INDEX_BAD_VERSION.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
seq:
  - id: magic
    -code: FILE_INDEX_BAD_MAGIC
    type: u8
    valid: 1493475289347502
  - id: version
    -code: FILE_INDEX_BAD_VERSION
    type: u4
    enum: version
    valid:
      in-enum: true
  - id: len_head
    -code: FILE_INDEX_BAD_HEAD_LENGTH
    type: s4
    valid:
      min: 24
      max: _io.size
    doc: |
      Bytes of the head counted from byte 0, up to and including the
      redundant-length word; the body starts here.
  - id: num_columns
    -code: FILE_INDEX_BAD_HEAD_LENGTH
    type: s4
    valid:
      min: 0
      max: (len_head - 24) / 6
    doc: Each column takes at least 6 head bytes (empty name, index count).
  - id: columns
    type: column
    repeat: expr
    repeat-expr: num_columns
  - id: len_redundant
    -code: FILE_INDEX_BAD_HEAD_LENGTH
    type: s4
    valid:
      min: 0
    doc: |
      Java writes 0; readers skip this many reserved bytes. Whether they fit
      in the head is checked by head_check.
  - id: redundant
    size: len_redundant
  - id: head_check
    -code: FILE_INDEX_HEAD_LENGTH_MISMATCH
    size: 0
    valid:
      expr: _io.pos == len_head
    doc: Zero-width; the head must end exactly at len_head.
types:
  column:
    seq:
      - id: name
        type: java_mutf8_string
      - id: num_indexes
        -code: FILE_INDEX_BAD_HEAD_LENGTH
        type: s4
        valid:
          min: 0
          max: (_root.len_head - _io.pos) / 10
        doc: Each index entry takes at least 10 head bytes.
      - id: indexes
        type: index_entry
        repeat: expr
        repeat-expr: num_indexes
  index_entry:
    seq:
      - id: index_type
        type: java_mutf8_string
        doc: '"bloom-filter", "bitmap", "bsi", "range-bitmap", ...'
      - id: ofs_payload
        -code: FILE_INDEX_START_OUTSIDE_BODY
        type: s4
        valid:
          expr: _ == -1 or (_ >= _root.len_head and _ <= _root._io.size)
        doc: Absolute start of the payload, or -1 for an empty index.
      - id: len_payload
        -code: FILE_INDEX_PAYLOAD_PAST_EOF
        type: s4
        valid:
          expr: '(ofs_payload == -1 and _ == 0) or (ofs_payload >= 0 and _ >= 0 and _ <= _root._io.size - ofs_payload)'
    instances:
      is_empty:
        value: ofs_payload == -1
      payload:
        io: _root._io
        pos: ofs_payload
        size: len_payload
        type:
          switch-on: index_type.value
          cases:
            '"bloom-filter"': bloom_filter
        if: not is_empty
        doc: The payload; raw bytes for index names parsed elsewhere or unknown.
enums:
  version:
    1: v1
