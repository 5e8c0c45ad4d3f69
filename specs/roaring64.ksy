meta:
  id: roaring64
  title: RoaringBitmap 64-bit portable serialization
  application: Apache Paimon (OptimizedRoaringBitmap64, 64-bit deletion vectors)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
  endian: le
doc: |
  The portable 64-bit RoaringBitmap layout (the one Iceberg deletion vectors
  use): a u8le bucket count, then per bucket a u4le high key (the upper 32
  bits of its values) and a 32-bit portable bitmap of the low 32 bits.

  Keys are strictly ascending (a duplicate key would let a later bucket
  replace an earlier one). Paimon's writer emits every key from 0 up to the
  highest one, empty buckets included; readers accept sparse keys, so that is
  a canonical-form rule checked by the library, not a validity rule.
doc-ref:
  - https://github.com/RoaringBitmap/RoaringFormatSpec#extension-for-64-bit-implementations
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/OptimizedRoaringBitmap64.java
seq:
  - id: num_buckets
    -code: ROARING64_TOO_MANY_BUCKETS
    type: s8
    valid:
      min: 0
      max: (_io.size - _io.pos) / 12
    doc: |
      Number of buckets. Each bucket takes at least 12 bytes (key and an
      empty bitmap), so a count the remaining bytes cannot hold is rejected
      before anything is allocated. Read as the signed long Java reads
      (readLong): a count of 2^63 or more is negative, refused as well, and
      every target holds the same value (a u8 is a signed long in Java's
      Kaitai runtime).
  - id: buckets
    type: bucket(_index)
    repeat: expr
    repeat-expr: num_buckets
types:
  bucket:
    params:
      - id: idx
        type: s4
    seq:
      - id: high_key
        -code: ROARING64_KEYS_NOT_ASCENDING
        type: u4
        valid:
          expr: 'idx == 0 ? true : _ > _parent.buckets[idx - 1].high_key'
        doc: Upper 32 bits of the bucket's values; strictly ascending.
      - id: bitmap
        type: roaring32
