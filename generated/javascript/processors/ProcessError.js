'use strict';
// A spec routine refused its input; `code` is the finding code (as in every language).
class ProcessError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'ProcessError';
    this.code = code;
  }
}
module.exports = { ProcessError };
