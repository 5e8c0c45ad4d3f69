meta:
  id: bloom_filter
  title: Apache Paimon bloom-filter file index payload
  application: Apache Paimon (BloomFilterFileIndex, index name "bloom-filter")
  license: Apache-2.0
  ks-version: '0.11'
  endian: be
doc: |
  The payload of a `bloom-filter` entry of the file-index container: the
  number of hash functions k, then the filter's bit set. There is no stored
  bit count: the reader takes numBits = 8 x (payload length - 4). Bit p is bit
  (p & 7), LSB first, of byte (p >> 3).

  Each non-null value is hashed to 64 bits (FastHash: XXH64 seed 0 of the
  UTF-8 bytes for CHAR/VARCHAR and of the bytes for BINARY/VARBINARY; Thomas
  Wang's 64-bit hash of the integer value, the float bits, or the timestamp
  in millis (precision <= 3) or micros otherwise). With h1 = (int) hash and
  h2 = (int) (hash >>> 32), bit ((h1 + i * h2) as int32, bit-inverted when
  negative) % numBits is set for i = 1..k. Sizing from the options `items`
  and `fpp`: nb = (int) (-items * ln fpp / (ln 2)^2), numBits = nb + 8 -
  nb % 8, k = max(1, round(numBits / items * ln 2)).
doc-ref:
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/BloomFilterFileIndex.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/fileindex/bloomfilter/FastHash.java
  - https://github.com/apache/paimon/blob/master/paimon-common/src/main/java/org/apache/paimon/utils/BloomFilter64.java
seq:
  - id: num_hash_functions
    -code: BLOOM_BAD_HASH_COUNT
    type: s4
    valid:
      min: 1
      max: 127
    doc: |
      k. At least 1; below 128, because Java's reader rebuilds the int from
      signed bytes and misreads a low byte of 128 or more.
  - id: bits
    size-eos: true
    doc: The bit set, numBits / 8 bytes.
  - id: bits_check
    -code: BLOOM_EMPTY_BIT_SET
    size: 0
    valid:
      expr: bits.size > 0
    doc: Zero-width; a filter needs at least one byte of bits (Java divides by numBits).
instances:
  num_bits:
    value: bits.size * 8
