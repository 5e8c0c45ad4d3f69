meta:
  id: delta_varint_list
  title: Delta-encoded list of ZigZag varints (Paimon DeltaVarintCompressor.decompress)
  application: Apache Paimon (DeltaVarintCompressor; .row block index, ARRAY/MAP BLOB element indexes)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - zigzag_varint
  endian: le
doc: |
  A whole byte array read as `DeltaVarintCompressor.decompress` reads it:
  ZigZag varints to the end of the stream, where value i is the sum of the
  first i + 1 varints (the first value, then each difference to the one
  before).
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java
seq:
  - id: entries
    type: 'entry(_index == 0 ? 0 : entries[_index - 1].value)'
    repeat: eos
types:
  entry:
    params:
      - id: prev
        type: s8
        doc: The value before this one (0 for the first).
    seq:
      - id: delta
        type: zigzag_varint
    instances:
      value:
        value: prev + delta.value
