meta:
  id: hash_index
  title: Apache Paimon dynamic-bucket HASH index file
  application: Apache Paimon (HashIndexFile, index type HASH)
  license: Apache-2.0
  ks-version: '0.11'
  endian: be
doc: |
  The HASH index of one (partition, bucket) of a dynamic-bucket table
  (`bucket = -1` with a primary key): the hash codes of the trimmed
  primary-key BinaryRow of every distinct key in that bucket, as signed
  32-bit big-endian integers (IntFileUtils.writeInts). There is no header,
  count, footer or checksum; the file size is 4 x the number of hashes. Java
  writes the hashes in fastutil IntOpenHashSet order, which carries no
  meaning; readers treat them as a set.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-core/src/main/java/org/apache/paimon/index/HashIndexFile.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/IntFileUtils.java
seq:
  - id: size_check
    -code: HASH_SIZE_NOT_MULTIPLE_OF_4
    size: 0
    valid:
      expr: _io.size % 4 == 0
    doc: Zero-width; the file holds whole 4-byte integers only.
  - id: hashes
    type: s4
    repeat: eos
