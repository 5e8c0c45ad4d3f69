meta:
  id: binary_row_serialized
  title: Apache Paimon BinaryRow as manifests store it (arity prefix)
  application: Apache Paimon (SerializationUtils.serializeBinaryRow; partition and min/max key fields of manifests)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - binary_row
  endian: be
doc: |
  How manifest entries store a BinaryRow (the partition of a data file, its
  min and max keys, the partition of an index file): the field count as a
  big-endian int32, then the row bytes (binary_row) to the end. The Avro
  `bytes` value holding it gives the length.
doc-ref: https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/utils/SerializationUtils.java
params:
  - id: field_kinds
    type: bytes
    doc: One binary_row::slot_kind value per field, in field order.
seq:
  - id: arity
    -code: BINARY_ROW_BAD_ARITY
    type: s4
    valid:
      expr: _ == field_kinds.length
    doc: Number of fields; must match the row type the reader expects.
  - id: row
    size-eos: true
    type: binary_row(field_kinds)
