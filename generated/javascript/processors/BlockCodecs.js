'use strict';
// The SST block and row-file block codecs the spec routines share; the same rules as every language's.
// zstd: fzstd's streaming decoder, stopped as soon as the output passes the stated size.
// LZ4: a strict block decoder written here (no maintained npm package checks every bound of a raw block).
const fzstd = require('fzstd');
const { ProcessError } = require('./ProcessError');

const MAX_DECOMPRESSED = 2 ** 30;
const NAMES = ['none', 'zstd', 'lz4', 'lzo'];

function zstdExact(data, size, code) {
  if (size < 0 || size > MAX_DECOMPRESSED) throw new ProcessError(code, `a block stating ${size} uncompressed bytes`);
  const out = new Uint8Array(size);
  let got = 0;
  let over = false;
  const stream = new fzstd.Decompress((chunk) => {
    if (over) return;
    if (got + chunk.length > size) {
      over = true;
      return;
    }
    out.set(chunk, got);
    got += chunk.length;
  });
  try {
    stream.push(data, true);
  } catch (e) {
    if (!over) throw new ProcessError(code, `zstd refuses the block: ${e.message}`);
  }
  if (over) throw new ProcessError(code, `zstd gives more than ${size} bytes where the index states ${size}`);
  if (got !== size) throw new ProcessError(code, `zstd gives ${got} bytes where the index states ${size}`);
  return out;
}

// A raw LZ4 block into exactly `original` bytes; ProcessError on anything out of bounds.
function lz4Block(src, dst) {
  let s = 0;
  let d = 0;
  const fail = (why) => new ProcessError('BLOCK_DECOMPRESS', `lz4 refuses the block: ${why}`);
  while (s < src.length) {
    const token = src[s++];
    let lit = token >>> 4;
    if (lit === 15) {
      let b;
      do {
        if (s >= src.length) throw fail('literal length past the input');
        b = src[s++];
        lit += b;
      } while (b === 255);
    }
    if (s + lit > src.length || d + lit > dst.length) throw fail('literals past the bounds');
    dst.set(src.subarray(s, s + lit), d);
    s += lit;
    d += lit;
    if (s === src.length) break; // the last sequence has literals only
    if (s + 2 > src.length) throw fail('offset past the input');
    const offset = src[s] | (src[s + 1] << 8);
    s += 2;
    if (offset === 0 || offset > d) throw fail(`match offset ${offset} out of range`);
    let len = (token & 15) + 4;
    if ((token & 15) === 15) {
      let b;
      do {
        if (s >= src.length) throw fail('match length past the input');
        b = src[s++];
        len += b;
      } while (b === 255);
    }
    if (d + len > dst.length) throw fail('match past the output');
    for (let k = 0; k < len; k++, d++) dst[d] = dst[d - offset];
  }
  return d;
}

function readVarInt(data) {
  let acc = 0;
  for (let i = 0; i < 5; i++) {
    if (i >= data.length) throw new ProcessError('BLOCK_DECOMPRESS', 'the block ends inside its uncompressed length');
    const b = data[i];
    acc = (acc | ((b & 0x7f) << (7 * i))) | 0; // Java's int arithmetic: bits past 32 drop
    if ((b & 0x80) === 0) return [acc, i + 1];
  }
  throw new ProcessError('BLOCK_DECOMPRESS', 'the uncompressed length is a malformed varint');
}

// BlockDecompressor: the varint length, then the codec's bytes.
function decompress(compression, data) {
  if (compression === 0) return data;
  if (compression === 3) throw new ProcessError('BLOCK_NOT_DECODED', 'an LZO block: no LZO decoder is at hand, the content is not checked');
  if (compression !== 1 && compression !== 2) throw new ProcessError('BLOCK_BAD_COMPRESSION', `compression id ${compression} (Unknown persistentId)`);
  const [length, pos] = readVarInt(data);
  if (length < 0) throw new ProcessError('BLOCK_DECOMPRESS', `uncompressed length ${length} is negative`);
  if (length > MAX_DECOMPRESSED) throw new ProcessError('BLOCK_DECOMPRESS', `a block stating ${length} uncompressed bytes`);
  const body = data.subarray(pos);
  if (compression === 1) return zstdExact(body, length, 'BLOCK_DECOMPRESS');
  if (body.length < 8) throw new ProcessError('BLOCK_DECOMPRESS', 'an LZ4 block shorter than its 8-byte header');
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const compressed = view.getInt32(0, true);
  const original = view.getInt32(4, true);
  if (original < 0 || compressed < 0 || (original === 0) !== (compressed === 0)) {
    throw new ProcessError('BLOCK_DECOMPRESS', `LZ4 header lengths ${compressed}/${original} (invalid length)`);
  }
  if (original > length || compressed > body.length - 8) {
    throw new ProcessError('BLOCK_DECOMPRESS', `LZ4 header lengths ${compressed}/${original} do not fit the block`);
  }
  const out = new Uint8Array(length);
  const got = original === 0 ? 0 : lz4Block(body.subarray(8, 8 + compressed), out.subarray(0, original));
  if (got !== original || got !== length) throw new ProcessError('BLOCK_DECOMPRESS', `${NAMES[compression]} gives ${got} bytes where the block states ${length}`);
  return out;
}

module.exports = { decompress, zstdExact };
