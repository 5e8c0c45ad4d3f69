'use strict';
// The spec routine java_mutf8: Java modified UTF-8 (DataInput.readUTF) re-encoded as UTF-8;
// refuses (MUTF8_INVALID) what readUTF refuses; a lone surrogate becomes U+FFFD.
const { ProcessError } = require('./ProcessError');

class JavaMutf8 {
  decode(data) {
    const units = [];
    const n = data.length;
    let i = 0;
    while (i < n) {
      const b = data[i];
      if (b < 0x80) {
        units.push(b);
        i += 1;
      } else if ((b & 0xe0) === 0xc0) {
        if (i + 1 >= n || (data[i + 1] & 0xc0) !== 0x80) throw new ProcessError('MUTF8_INVALID', `malformed 2-byte sequence at byte ${i}`);
        units.push(((b & 0x1f) << 6) | (data[i + 1] & 0x3f));
        i += 2;
      } else if ((b & 0xf0) === 0xe0) {
        if (i + 2 >= n || (data[i + 1] & 0xc0) !== 0x80 || (data[i + 2] & 0xc0) !== 0x80) {
          throw new ProcessError('MUTF8_INVALID', `malformed 3-byte sequence at byte ${i}`);
        }
        units.push(((b & 0x0f) << 12) | ((data[i + 1] & 0x3f) << 6) | (data[i + 2] & 0x3f));
        i += 3;
      } else {
        throw new ProcessError('MUTF8_INVALID', `byte 0x${b.toString(16).padStart(2, '0')} at ${i} cannot start a modified UTF-8 sequence`);
      }
    }
    // TextEncoder writes every unpaired surrogate as U+FFFD
    let text = '';
    for (let k = 0; k < units.length; k += 8192) text += String.fromCharCode(...units.slice(k, k + 8192));
    return new TextEncoder().encode(text);
  }
}
module.exports = { JavaMutf8 };
