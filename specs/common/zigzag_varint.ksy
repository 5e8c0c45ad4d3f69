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
    type: 'group(_index, _index == 0 ? 0 : groups[_index - 1].half, _index < 2 ? 64 : (groups[_index - 1].half_scale * 128).as<s8>)'
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
  is_odd:
    value: (groups[0].b & 1) == 1
    doc: The lowest bit of the ZigZag form (set for negative values).
  value:
    value: '(is_odd ? -groups.last.half - 1 : groups.last.half).as<s8>'
    doc: |
      The signed value after undoing ZigZag: half the unsigned LEB128 value
      (`half`, below 2^63), negated and less one when the lowest bit is set.
      Written so that no target needs an unsigned 64-bit value.
types:
  group:
    params:
      - id: idx
        type: u1
      - id: prev
        type: s8
      - id: half_scale
        type: s8
        doc: Half the weight of this group's lowest bit, 128^idx / 2 (unused for the first group).
    seq:
      - id: b
        type: u1
    instances:
      has_next:
        value: (b & 0x80) != 0
      half:
        value: '(prev + (idx == 0 ? (b & 0x7e) / 2 : (b & 0x7f) * half_scale)).as<s8>'
        doc: |
          Half the unsigned value of this group and the ones before it (the
          lowest bit left out); a tenth byte of at most 1 keeps it below 2^63.
