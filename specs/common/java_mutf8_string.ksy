meta:
  id: java_mutf8_string
  title: Java modified UTF-8 string with a u2be byte length (DataOutput.writeUTF)
  application: Apache Paimon (file index container, column and index names)
  xref:
    wikidata: Q193537
  license: Apache-2.0
  ks-version: '0.11'
  endian: be
doc: |
  A string as `java.io.DataOutputStream.writeUTF` writes it: an unsigned 16-bit
  big-endian byte count, then the characters in Java's "modified UTF-8".
  Modified UTF-8 differs from UTF-8 in two ways: U+0000 is written as the two
  bytes `C0 80`, and a supplementary character is written as its two UTF-16
  surrogates, each as a 3-byte sequence (6 bytes in all). Plain ASCII is
  unchanged. `value` is the decoded text; a lone surrogate decodes to U+FFFD.
doc-ref:
  - https://docs.oracle.com/javase/8/docs/api/java/io/DataInput.html#modified-utf-8
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/FileIndexFormat.java
seq:
  - id: len_body
    type: u2
    doc: Number of bytes of modified UTF-8 that follow (at most 65535).
  - id: body
    size: len_body
    type: mutf8_body
instances:
  value:
    value: body.decoded.value
    doc: The decoded string.
types:
  mutf8_body:
    seq:
      - id: raw
        size-eos: true
    instances:
      decoded:
        pos: 0
        size-eos: true
        process: paimon_layouts.processors.java_mutf8
        type: utf8_text
        doc: |
          The bytes re-encoded as standard UTF-8 by the processor, which
          rejects byte sequences that modified UTF-8 does not allow (a raw
          0x00, 4-byte sequences, truncated or overlong sequences).
  utf8_text:
    seq:
      - id: value
        size-eos: true
        type: str
        encoding: UTF-8
