meta:
  id: block_trailer
  title: Paimon SST block trailer (compression type and CRC)
  application: Apache Paimon >= 1.4 (org.apache.paimon.sst.BlockTrailer; bitmap global index, BTree index)
  license: Apache-2.0
  ks-version: '0.11'
  endian: le
doc: |
  The 5 bytes after every compressible block of Paimon's SST-style files:
  the block's compression (`BlockCompressionType.persistentId`) and a
  checksum. Despite its name in the Java code (`crc32c`), the checksum is
  `java.util.zip.CRC32` (plain CRC-32) of the stored block bytes followed by
  the compression byte (`SstFileUtils.crc32c`). It is written with
  `MemorySliceOutput.writeInt`, which uses the platform's byte order:
  little-endian on every platform Paimon runs on.
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/BlockTrailer.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/sst/SstFileUtils.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/compression/BlockCompressionType.java
seq:
  - id: compression
    -code: BLOCK_BAD_COMPRESSION
    type: u1
    enum: compression
    valid:
      in-enum: true
    doc: Java refuses any other id ("Unknown persistentId").
  - id: crc
    type: u4
    doc: CRC-32 of the block bytes and the compression byte.
enums:
  compression:
    0: none
    1: zstd
    2: lz4
    3: lzo
