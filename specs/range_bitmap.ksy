meta:
  id: range_bitmap
  title: Apache Paimon range-bitmap file index payload
  application: Apache Paimon (RangeBitmapFileIndex, index name "range-bitmap", Paimon >= 1.3)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - common/typed_key
    - roaring32
  endian: be
doc: |
  The payload of a `range-bitmap` entry of the file-index container. The
  distinct non-null values of the column are sorted (natural signed order,
  Float/Double.compare, false < true, unsigned bytes for strings) and
  numbered: code = rank, 0 for the smallest. The payload holds a header
  (row count, number of keys, smallest and largest key), a chunked
  dictionary of the sorted keys, and a bit-sliced index of each row's code:
  an existence bitmap of the non-null rows and one bitmap per code bit.

  Keys are written by the column type (`key_kind`, a parameter: the
  container records column names only), see typed_key.

  Invariants the kit checks outside this spec, because Kaitai cannot
  compare typed keys: the dictionary keys are strictly increasing, the
  header's min and max are the first and last dictionary key, and every
  row's code is below the number of keys (paimon_conform.layouts.range_bitmap.codec).
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/RangeBitmap.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java
params:
  - id: key_kind
    type: u1
    enum: typed_key::kind
    doc: How keys are written; chosen by the column type.
seq:
  - id: len_header
    -code: RANGE_BITMAP_BAD_LENGTH
    type: s4
    valid:
      min: 13
      max: _io.size - _io.pos
    doc: Bytes of `header` (version up to the dictionary length).
  - id: header
    size: len_header
    type: header
  - id: dictionary
    size: header.len_dictionary
    type: dictionary
  - id: codes
    size-eos: true
    type: code_bsi
    doc: The bit-sliced index of each row's code; it runs to the payload's end.
types:
  header:
    seq:
      - id: version
        -code: RANGE_BITMAP_BAD_VERSION
        type: u1
        enum: version
        valid:
          in-enum: true
      - id: num_rows
        -code: RANGE_BITMAP_BAD_COUNT
        type: s4
        valid:
          min: 0
        doc: Rows of the data file, nulls included ("rid").
      - id: num_keys
        -code: RANGE_BITMAP_BAD_COUNT
        type: s4
        valid:
          min: 0
          max: num_rows
        doc: Distinct non-null values (the cardinality). Each is held by a row.
      - id: min_key
        type: typed_key(_root.key_kind)
        if: num_keys > 0
      - id: max_key
        type: typed_key(_root.key_kind)
        if: num_keys > 0
      - id: len_dictionary
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 17
          max: _root._io.size - _root._io.pos
      - id: end_check
        -code: RANGE_BITMAP_BAD_LENGTH
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the header length covers these fields exactly.
  dictionary:
    doc-ref: https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/ChunkedDictionary.java
    seq:
      - id: len_header
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid: 13
      - id: version
        -code: RANGE_BITMAP_BAD_VERSION
        type: u1
        enum: version
        valid:
          in-enum: true
      - id: num_chunks
        -code: RANGE_BITMAP_CHUNK_COUNT
        type: s4
        valid:
          min: 0
          max: _root.header.num_keys
        doc: Each chunk holds at least its first key.
      - id: len_offsets
        -code: RANGE_BITMAP_CHUNK_COUNT
        type: s4
        valid:
          expr: _ == 4 * num_chunks
      - id: len_chunks
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 0
          max: _io.size - _io.pos - len_offsets
      - id: ofs_chunks
        type: s4
        repeat: expr
        repeat-expr: num_chunks
        doc: Where each chunk header starts inside `chunks`; a reader takes header i up to offset i + 1.
      - id: chunks
        size: len_chunks
        type: chunk_area
      - id: keys_check
        -code: RANGE_BITMAP_CHUNK_COUNT
        size: 0
        valid:
          expr: '(num_chunks == 0 ? 0 : chunks.chunks.last.ofs_keys + chunks.chunks.last.len_block) == _io.size - _io.pos'
        doc: Zero-width; the key blocks fill the rest of the dictionary exactly.
      - id: keys_check_count
        -code: RANGE_BITMAP_CHUNK_COUNT
        size: 0
        valid:
          expr: '(num_chunks == 0 ? 0 : chunks.chunks.last.code + chunks.chunks.last.num_extra_keys + 1) == _root.header.num_keys'
        doc: Zero-width; the chunks hold exactly the header's number of keys.
      - id: keys
        size-eos: true
        type: key_area
        doc: The chunks' extra keys, block after block.
  chunk_area:
    seq:
      - id: chunks
        type: chunk(_index)
        repeat: expr
        repeat-expr: _parent.num_chunks
      - id: end_check
        -code: RANGE_BITMAP_CHUNK_COUNT
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the chunk headers fill their area exactly.
  key_area:
    doc: Raw key blocks; each chunk parses its own block (instance `block`).
    seq:
      - id: raw
        size-eos: true
  chunk:
    doc-ref:
      - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/FixedLengthChunk.java
      - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/dictionary/chunked/VariableLengthChunk.java
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: RANGE_BITMAP_CHUNK_OFFSETS
        size: 0
        valid:
          expr: _io.pos == _parent._parent.ofs_chunks[idx]
        doc: Zero-width; chunk headers follow each other in offset order, the first at 0.
      - id: version
        -code: RANGE_BITMAP_BAD_VERSION
        type: u1
        valid: 1
      - id: first_key
        type: typed_key(_root.key_kind)
        doc: The chunk's first key, not repeated in its key block.
      - id: code
        -code: RANGE_BITMAP_CHUNK_CODES
        type: s4
        valid:
          expr: '_ == (idx == 0 ? 0 : _parent.chunks[idx - 1].code + _parent.chunks[idx - 1].num_extra_keys + 1)'
        doc: Code of the first key; extra key j has code + 1 + j.
      - id: ofs_keys
        -code: RANGE_BITMAP_CHUNK_OFFSETS
        type: s4
        valid:
          expr: '_ == (idx == 0 ? 0 : _parent.chunks[idx - 1].ofs_keys + _parent.chunks[idx - 1].len_block)'
        doc: Start of this chunk's key block inside the dictionary's key area.
      - id: num_extra_keys
        -code: RANGE_BITMAP_CHUNK_COUNT
        type: s4
        valid:
          min: 0
          max: _root.header.num_keys
        doc: Keys after the first ("size").
      - id: len_key_offsets
        -code: RANGE_BITMAP_CHUNK_COUNT
        type: s4
        valid:
          expr: _ == 4 * num_extra_keys
        if: is_string
      - id: len_keys
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 0
          max: _root._io.size
      - id: len_fixed_key
        -code: RANGE_BITMAP_BAD_KEY_SIZE
        type: s4
        valid:
          expr: '_ == (_root.key_kind == typed_key::kind::boolean ? 1 : _root.key_kind == typed_key::kind::f4 ? 4 : _root.key_kind == typed_key::kind::f8 ? 8 : _root.key_kind.to_i)'
        if: not is_string
      - id: len_fixed_check
        -code: RANGE_BITMAP_BAD_LENGTH
        size: 0
        valid:
          expr: is_string or len_keys == num_extra_keys * len_fixed_key
        doc: Zero-width; a fixed-size key block holds exactly its keys.
      - id: end_check
        -code: RANGE_BITMAP_CHUNK_OFFSETS
        size: 0
        valid:
          expr: _io.eof or _io.pos == _parent._parent.ofs_chunks[idx + 1]
        doc: Zero-width; the next chunk header starts right here.
    instances:
      is_string:
        value: _root.key_kind == typed_key::kind::string
      len_block:
        value: '(is_string ? len_key_offsets : 0) + len_keys'
      block:
        io: _parent._parent.keys._io
        pos: ofs_keys
        size: len_block
        type: key_block(num_extra_keys, is_string)
  key_block:
    params:
      - id: num_keys
        type: s4
      - id: is_string
        type: bool
    seq:
      - id: ofs_keys
        type: s4
        repeat: expr
        repeat-expr: num_keys
        if: is_string
        doc: Offset of each key from the start of `keys`.
      - id: keys
        size-eos: true
        type: key_list(num_keys)
  key_list:
    params:
      - id: num_keys
        type: s4
    seq:
      - id: keys
        type: listed_key(_index)
        repeat: expr
        repeat-expr: num_keys
      - id: end_check
        -code: RANGE_BITMAP_BAD_LENGTH
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the keys fill their block exactly.
  listed_key:
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: RANGE_BITMAP_KEY_OFFSETS
        size: 0
        valid:
          expr: 'not _parent._parent.is_string or _io.pos == _parent._parent.ofs_keys[idx]'
        doc: Zero-width; a string key starts where its offset says.
      - id: key
        type: typed_key(_root.key_kind)
  code_bsi:
    doc-ref: https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/rangebitmap/BitSliceIndexBitmap.java
    seq:
      - id: len_header
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 10
          max: _io.size - _io.pos
      - id: header
        size: len_header
        type: code_bsi_header
      - id: existence
        size: header.len_existence
        type: roaring32
        doc: Rows with a non-null value.
      - id: slices
        size-eos: true
        type: slice_area
  code_bsi_header:
    seq:
      - id: version
        -code: RANGE_BITMAP_BAD_VERSION
        type: u1
        enum: version
        valid:
          in-enum: true
      - id: num_slices
        -code: RANGE_BITMAP_SLICE_COUNT
        type: u1
        valid:
          min: 1
          max: 64
        doc: |
          One byte (the published spec says 4). Java writes
          max(bit length of (num_keys - 1), 1) slices, and 64 when there
          are no keys (bit length of the long -1).
      - id: len_existence
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 8
          max: _root._io.size
      - id: len_indexes
        -code: RANGE_BITMAP_SLICE_COUNT
        type: s4
        valid:
          expr: _ == 8 * num_slices.as<s4>
      - id: slice_refs
        type: slice_ref
        repeat: expr
        repeat-expr: num_slices
      - id: end_check
        -code: RANGE_BITMAP_BAD_LENGTH
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the header length is 10 + 8 * num_slices.
  slice_ref:
    seq:
      - id: ofs_slice
        type: s4
        doc: From the end of the existence bitmap.
      - id: len_slice
        -code: RANGE_BITMAP_BAD_LENGTH
        type: s4
        valid:
          min: 8
          max: _root._io.size
  slice_area:
    seq:
      - id: slices
        type: code_slice(_index)
        repeat: expr
        repeat-expr: _parent.header.num_slices
      - id: end_check
        -code: RANGE_BITMAP_TRAILING_BYTES
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; nothing follows the last slice.
  code_slice:
    params:
      - id: idx
        type: s4
    seq:
      - id: offset_check
        -code: RANGE_BITMAP_SLICE_OFFSETS
        size: 0
        valid:
          expr: _io.pos == _parent._parent.header.slice_refs[idx].ofs_slice
        doc: Zero-width; slices follow each other in order, as their offsets say.
      - id: bitmap
        size: _parent._parent.header.slice_refs[idx].len_slice
        type: roaring32
        doc: Rows whose code has bit idx set (bit 0 first).
enums:
  version:
    1: v1
