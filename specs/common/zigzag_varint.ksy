meta:
  id: zigzag_varint
  title: ZigZag-encoded LEB128 varint (Paimon DeltaVarintCompressor)
  application: Apache Paimon (DeltaVarintCompressor; the BLOB file's length index)
  xref:
    wikidata: Q6457577
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A signed 64-bit value as Paimon's `DeltaVarintCompressor` writes it: the
  ZigZag transform `(v << 1) ^ (v >> 63)`, then unsigned LEB128 (7 bits per
  byte, least significant group first, high bit set on every byte but the
  last). A 64-bit value takes at most 10 bytes, and the tenth byte can only
  carry bit 63; the Java reader gives up ("Varint overflow") when a tenth
  byte still has its high bit set.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/DeltaVarintCompressor.java
seq:
  - id: groups
    type: 'group(_index, _index == 0 ? 0 : groups[_index - 1].acc)'
    repeat: until
    repeat-until: not _.has_next or _index == 9
  - id: end_check
    -code: VARINT_OVERFLOW
    -report-as: groups
    size: 0
    valid:
      expr: not groups.last.has_next and (groups.size < 10 or groups.last.b <= 1)
    doc: |
      Zero-width; the value ends within 10 bytes and fits in 64 bits (a
      tenth byte holds bit 63 only).
instances:
  raw:
    value: groups.last.acc
    doc: The unsigned LEB128 value (ZigZag form).
  value:
    value: '(raw & 1) == 0 ? (raw >> 1) : -(raw >> 1) - 1'
    doc: The signed value after undoing ZigZag.
types:
  group:
    params:
      - id: idx
        type: u1
      - id: prev
        type: u8
    seq:
      - id: b
        type: u1
    instances:
      has_next:
        value: (b & 0x80) != 0
      acc:
        value: prev | ((b & 0x7f) << (7 * idx))
        doc: The value of this group and the ones before it.
