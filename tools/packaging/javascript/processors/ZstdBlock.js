'use strict';
// The spec routine zstd_block(size): a row file's block decompressed into exactly `size` bytes (ZstdBlockDecompressor).
const { zstdExact } = require('./BlockCodecs');

class ZstdBlock {
  constructor(size) {
    this.size = size;
  }

  decode(data) {
    return zstdExact(data, this.size, 'ROW_FILE_BLOCK_DECOMPRESS');
  }
}
module.exports = { ZstdBlock };
