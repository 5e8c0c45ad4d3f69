'use strict';
// The spec routine crc32: the bytes' CRC32 (java.util.zip.CRC32), as 4 bytes big-endian.
const CRC32 = require('crc-32');

class Crc32 {
  decode(data) {
    const v = CRC32.buf(data) >>> 0;
    return Uint8Array.of(v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff);
  }
}
module.exports = { Crc32 };
