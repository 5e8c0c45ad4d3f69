'use strict';
// The spec routine block_decompress(compression): an SST block's content, as Java Paimon's BlockDecompressor gives it.
const { decompress } = require('./BlockCodecs');

class BlockDecompress {
  constructor(compression) {
    this.compression = compression;
  }

  decode(data) {
    return decompress(this.compression, data);
  }
}
module.exports = { BlockDecompress };
