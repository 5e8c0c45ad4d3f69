'use strict';
// Corrections to the kaitai-struct 0.11.0 runtime, loaded by every generated module before it parses.
//
// readS8be / readS8le: the runtime negates a negative value word by word with `x ^ 0xffffffff`, which is a
// signed 32-bit result in JavaScript, so a negative value whose low word has its top bit clear comes out
// 2^32 too high (-315619199999999 reads as -315614905032703). These read the 64 bits as a BigInt and give the
// nearest double: exact up to 2^53, as every other integer the runtime reads.
const KaitaiStream = require('kaitai-struct/KaitaiStream');

if (!KaitaiStream.prototype.paimonLayoutsFixed) {
  const asNumber = (hi, lo) => Number(BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)));
  KaitaiStream.prototype.readS8be = function readS8be() {
    this.ensureBytesLeft(8);
    const hi = this.readU4be();
    return asNumber(hi, this.readU4be());
  };
  KaitaiStream.prototype.readS8le = function readS8le() {
    this.ensureBytesLeft(8);
    const lo = this.readU4le();
    return asNumber(this.readU4le(), lo);
  };
  Object.defineProperty(KaitaiStream.prototype, 'paimonLayoutsFixed', { value: true });
}
module.exports = KaitaiStream;
