'use strict';
// The spec routine utf8_strict: well-formed UTF-8 passes unchanged; anything else is refused (UTF8_INVALID).
const { ProcessError } = require('./ProcessError');

class Utf8Strict {
  decode(data) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch (e) {
      throw new ProcessError('UTF8_INVALID', `malformed UTF-8: ${e.message}`);
    }
    return data;
  }
}
module.exports = { Utf8Strict };
