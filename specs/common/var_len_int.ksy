meta:
  id: var_len_int
  title: Unsigned LEB128 varint as Paimon's VarLengthIntUtils reads it
  application: Apache Paimon (VarLengthIntUtils; bitmap global index and SST blocks)
  xref:
    wikidata: Q6457577
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A non-negative int or long as `VarLengthIntUtils.encodeInt` /
  `encodeLong` writes it: 7 bits per byte, least significant group first,
  the high bit set on every byte but the last. Java's `decodeInt` reads at
  most 5 bytes and `decodeLong` at most 10, accumulating in a 32-bit /
  64-bit two's-complement value: bits past the width are dropped, so a
  value can come out negative (callers then refuse it), and a byte that
  still has its high bit set after the last allowed one is "Malformed".
  `num_bytes` is 5 for an int and 10 for a long.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/VarLengthIntUtils.java
params:
  - id: num_bytes
    type: u1
    doc: 5 (decodeInt) or 10 (decodeLong).
seq:
  - id: groups
    type: 'group(_index, _index == 0 ? 0 : groups[_index - 1].acc, _index == 0 ? 1 : (groups[_index - 1].scale * 128).as<s8>)'
    repeat: until
    repeat-until: not _.has_next or _index == num_bytes - 1
  - id: end_check
    -code: VARINT_MALFORMED
    -report-as: groups
    size: 0
    valid:
      expr: not groups.last.has_next
    doc: Zero-width; the value ends within `num_bytes` bytes ("Malformed integer/long").
instances:
  bits:
    value: 'num_bytes == 5 ? 32 : 64'
  half_sign:
    value: '(bits == 32 ? 0x40000000 : 0x4000000000000000).as<s8>'
    doc: Half the weight of the sign bit (2^30 or 2^62), which every target can hold.
  value:
    value: '(groups.last.acc - (groups.last.is_negative ? half_sign : 0) - (groups.last.is_negative ? half_sign : 0)).as<s8>'
    doc: |
      The signed int / long Java gets: the bits below the sign bit, minus
      2^31 / 2^63 when the sign bit is set (negative; callers refuse it).
      Written in steps every target evaluates exactly, without bitwise
      operators on 64-bit values or a 2^64 literal, and cast to s8 where a
      target would otherwise compute in 32 bits (Java's calculated ints).
types:
  group:
    params:
      - id: idx
        type: u1
      - id: prev
        type: s8
      - id: scale
        type: s8
        doc: 128^idx, the weight of this group's lowest bit (wraps past 2^63 where it no longer counts).
    seq:
      - id: b
        type: u1
    instances:
      is_last_allowed:
        value: idx == _parent.num_bytes - 1
      has_next:
        value: (b & 0x80) != 0
      magnitude:
        value: 'is_last_allowed ? (b & (_parent.bits == 32 ? 0x07 : 0x00)) : (b & 0x7f)'
        doc: |
          The bits of this group below the sign bit. In the last allowed
          group only those (3 bits of an int, none of a long) count; the
          sign bit is `is_negative`, and the bits above it are dropped, as
          Java's int / long arithmetic drops them.
      is_negative:
        value: 'is_last_allowed and (b & (_parent.bits == 32 ? 0x08 : 0x01)) != 0'
      acc:
        value: (prev + magnitude * scale).as<s8>
        doc: The value of this group and the ones before it, without the sign bit (below 2^31 / 2^63).
