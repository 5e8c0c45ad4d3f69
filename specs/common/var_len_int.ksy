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
    type: 'group(_index, _index == 0 ? 0 : groups[_index - 1].acc)'
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
  unsigned:
    value: 'groups.last.acc & (bits == 32 ? 0xffffffff : 0xffffffffffffffff)'
    doc: The accumulated bits, cut to the value's width as Java's int/long arithmetic does.
  value:
    value: '(unsigned >> (bits - 1)) == 0 ? unsigned : unsigned - (bits == 32 ? 0x100000000 : 0x10000000000000000)'
    doc: The signed int / long Java gets (negative when the top bit ends up set).
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
        doc: The value of this group and the ones before it (before the cut to the width).
