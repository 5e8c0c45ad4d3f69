meta:
  id: blob_descriptor
  title: Apache Paimon BlobDescriptor (serialized BLOB reference)
  application: Apache Paimon >= 1.4 (BlobDescriptor.serialize / deserialize)
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  A reference to a BLOB's bytes: a URI, a byte offset and a byte length, all
  little-endian. Java stores these bytes inline in a data file's BINARY
  column for the fields listed in `blob-descriptor-field` (fallback key
  `blob.stored-descriptor-fields`), hands them to engines when a table is
  read with `blob-as-descriptor`, and accepts them as input on write.

  Version 2 (written since Paimon 1.4) puts the 8-byte magic "BLOBDESC"
  (0x424C4F4244455343 as a little-endian long, so the bytes read
  43 53 45 44 42 4F 4C 42) after the version byte; version 1 has no magic.
  Then: URI length s4, the URI in UTF-8, offset s8, length s8. Java's reader
  rejects a version above 2, a wrong magic, a negative URI length and a URI
  length that leaves fewer than 16 bytes; it treats any version below 2 as
  version 1 and ignores bytes after the length.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/data/BlobDescriptor.java
seq:
  - id: version
    -code: BLOB_DESCRIPTOR_BAD_VERSION
    type: s1
    valid:
      max: 2
    doc: |
      CURRENT_VERSION is 2. Java reads any value up to 2, and every value
      below 2 as version 1; it writes 1 (before Paimon 1.4) or 2.
  - id: magic
    -code: BLOB_DESCRIPTOR_BAD_MAGIC
    contents: [0x43, 0x53, 0x45, 0x44, 0x42, 0x4f, 0x4c, 0x42]
    if: version == 2
    doc: MAGIC = 0x424C4F4244455343 ("BLOBDESC") written as a little-endian long.
  - id: len_uri
    -code: BLOB_DESCRIPTOR_BAD_URI_LENGTH
    type: s4
    valid:
      min: 0
      max: _io.size - _io.pos - 16
    doc: Byte length of the URI; it leaves room for the offset and length.
  - id: uri
    size: len_uri
    type: utf8_text
    doc: Where the BLOB's bytes are (a file path or URI), UTF-8.
  - id: ofs_blob
    type: s8
    doc: Byte offset of the BLOB within the URI's file.
  - id: len_blob
    type: s8
    doc: Byte length of the BLOB.
  - id: end_check
    -code: BLOB_DESCRIPTOR_TRAILING_BYTES
    size: 0
    valid:
      expr: _io.eof
    doc: Zero-width; Java writes nothing after the length (its reader ignores anything there).
types:
  utf8_text:
    seq:
      - id: raw
        size-eos: true
    instances:
      decoded:
        pos: 0
        size-eos: true
        process: paimon_layouts.processors.utf8_strict
        type: text
        doc: The URI, checked to be well-formed UTF-8 by the processor.
  text:
    seq:
      - id: value
        size-eos: true
        type: str
        encoding: UTF-8
