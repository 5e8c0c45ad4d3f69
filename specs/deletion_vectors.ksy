meta:
  id: deletion_vectors
  title: Apache Paimon deletion-vector index file
  application: Apache Paimon (DeletionVectorsIndexFile, index type DELETION_VECTORS)
  license: Apache-2.0
  ks-version: '0.11'
  imports:
    - roaring32
    - roaring64
  endian: be
doc: |
  A deletion-vector (DV) index file: one version byte, then one framed
  vector per data file, back to back. Which data file a vector belongs to is
  recorded only in the index manifest (`_DELETIONS_VECTORS_RANGES`: data file
  name, offset, length), never in this file.

  Each vector is a u4be length, a blob of that many bytes, and a u4be CRC32
  (java.util.zip.CRC32) of the blob. The blob starts with a 4-byte magic that
  selects the bitmap:
  * 32-bit (`BitmapDeletionVector`): magic 1581511376 written big-endian
    (5E 43 F2 D0), then a 32-bit portable RoaringBitmap; positions are at
    most 2^31 - 1.
  * 64-bit (`Bitmap64DeletionVector`, Paimon >= 1.2, Iceberg-compatible):
    magic 1681511377 written LITTLE-endian (D1 D3 39 64), then a 64-bit
    portable RoaringBitmap. A big-endian 64-bit magic is invalid.

  The two kinds record different lengths in the index manifest, and both
  conventions are part of this layout (`len_manifest`): for a 32-bit vector
  the manifest length is the blob length (magic + bitmap); for a 64-bit
  vector it is the whole framed vector (length word + blob + CRC), i.e. the
  blob length + 8. The manifest offset is always the position of the length
  word; the first vector is at offset 1.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/deletionvectors/DeletionVectorsIndexFile.java
  - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/deletionvectors/BitmapDeletionVector.java
  - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/deletionvectors/Bitmap64DeletionVector.java
seq:
  - id: version
    -code: DV_BAD_VERSION
    type: u1
    enum: version
    valid:
      in-enum: true
    doc: File format version; DeletionVectorsIndexFile checks it is 1.
  - id: vectors
    type: vector
    repeat: eos
types:
  vector:
    seq:
      - id: start_anchor
        size: 0
        if: ofs_vector >= 0
        doc: Zero-width; fixes `ofs_vector` before the length is read.
      - id: room_check
        size: 0
        valid:
          expr: _io.size - _io.pos >= 12
        -code: DV_TRAILING_BYTES
        doc: |
          Zero-width; a vector takes at least 12 bytes (length, magic, CRC),
          so fewer bytes after the last vector are trailing garbage.
      - id: len_blob
        -code: DV_LENGTH_PAST_EOF
        type: u4
        valid:
          min: 4
          max: _io.size - _io.pos - 4
        doc: |
          Byte length of the blob (magic + bitmap). It must leave room for
          the CRC within the file.
      - id: blob
        size: len_blob
        type: blob
      - id: crc
        type: u4
        doc: CRC32 of the blob bytes (magic + bitmap).
      - id: crc_check
        -code: DV_CRC_MISMATCH
        -report-as: crc
        size: 0
        valid:
          expr: crc == computed_crc.value
        doc: Zero-width; the stored CRC must equal the CRC of the blob.
    instances:
      ofs_vector:
        value: _io.pos
        doc: File offset of the length word; the offset the manifest records.
      computed_crc:
        pos: ofs_vector + 4
        size: len_blob
        process: paimon_layouts.processors.crc32
        type: crc_value
      len_manifest:
        value: 'blob.magic == magic::bitmap64 ? len_blob + 8 : len_blob'
        doc: |
          The length the index manifest records for this vector: the blob
          length for a 32-bit vector, the whole framed vector for 64-bit.
  blob:
    seq:
      - id: magic
        -code: DV_BAD_MAGIC
        type: u4
        enum: magic
        valid:
          in-enum: true
        doc: Read big-endian; selects the bitmap layout.
      - id: bitmap
        type:
          switch-on: magic
          cases:
            'magic::bitmap32': roaring32
            'magic::bitmap64': roaring64
      - id: end_check
        -code: DV_BLOB_TRAILING_BYTES
        size: 0
        valid:
          expr: _io.eof
        doc: Zero-width; the bitmap must fill the blob exactly.
  crc_value:
    seq:
      - id: value
        type: u4
enums:
  version:
    1: v1
  magic:
    0x5e43f2d0:
      id: bitmap32
      doc: 1581511376 written big-endian (BitmapDeletionVector.MAGIC_NUMBER).
    0xd1d33964:
      id: bitmap64
      doc: 1681511377 written little-endian (Bitmap64DeletionVector.MAGIC_NUMBER).
