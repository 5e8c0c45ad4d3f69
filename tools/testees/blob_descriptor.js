#!/usr/bin/env node
// A minimal testee in JavaScript (Node.js, no packages): it declares `decode` of `blob-descriptor` and
// answers the kit's testee protocol 1 (JSON lines on stdin/stdout, see docs/testee-protocol.md).
// Run: paimon-conform testee --kind blob-descriptor -- node tools/testees/blob_descriptor.js
'use strict';
const readline = require('readline');

const MAGIC = Buffer.from('4353454442' + '4f4c42', 'hex'); // "BLOBDESC" as a little-endian long

// BlobDescriptor.deserialize: version (signed byte, at most 2), the magic for version 2, URI length (s4 LE),
// the URI in UTF-8, offset and length (s8 LE). Returns the case, or throws {code, message}.
function decode(buf) {
  const fail = (code, message) => { throw { code, message }; };
  if (buf.length < 1) fail('TRUNCATED', 'no version byte');
  const version = buf.readInt8(0);
  if (version > 2) fail('BLOB_DESCRIPTOR_BAD_VERSION', `version ${version}`);
  let pos = 1;
  if (version === 2) {
    if (buf.length < 9) fail('TRUNCATED', 'input ends inside the magic');
    if (!buf.subarray(1, 9).equals(MAGIC)) fail('BLOB_DESCRIPTOR_BAD_MAGIC', 'not BLOBDESC');
    pos = 9;
  }
  if (buf.length < pos + 4) fail('TRUNCATED', 'input ends inside the URI length');
  const n = buf.readInt32LE(pos);
  if (n < 0 || n > buf.length - pos - 4 - 16) fail('BLOB_DESCRIPTOR_BAD_URI_LENGTH', `URI length ${n}`);
  let uri;
  try {
    uri = new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(pos + 4, pos + 4 + n));
  } catch (e) {
    fail('UTF8_INVALID', 'malformed UTF-8 in the URI');
  }
  const end = pos + 4 + n;
  if (buf.length !== end + 16) fail('BLOB_DESCRIPTOR_TRAILING_BYTES', 'bytes after the length');
  // 64-bit values are written as JSON integer text: a JavaScript number would round them above 2^53.
  const offset = buf.readBigInt64LE(end).toString();
  const length = buf.readBigInt64LE(end + 8).toString();
  return `{"case_format":1,"kind":"blob-descriptor","version":${version},"uri":${JSON.stringify(uri)},` +
    `"offset":${offset},"length":${length}}`;
}

function answer(req) {
  if (req.op === 'hello') {
    return JSON.stringify({
      id: req.id, name: 'blob-descriptor-js', version: '1', protocol: 1, java_release: '2.0',
      capabilities: { decode: ['blob-descriptor'] },
    });
  }
  if (req.op !== 'decode' || req.kind !== 'blob-descriptor') {
    return JSON.stringify({ id: req.id, error: { message: `not declared: ${req.op} ${req.kind}` } });
  }
  try {
    return `{"id":${req.id},"case":${decode(Buffer.from(req.data, 'hex'))}}`;
  } catch (e) {
    const error = e && e.code ? { code: e.code, message: e.message } : { message: String(e) };
    return JSON.stringify({ id: req.id, error });
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on('line', (line) => {
  const req = JSON.parse(line);
  if (req.op === 'bye') { rl.close(); return; }
  process.stdout.write(answer(req) + '\n');
});
