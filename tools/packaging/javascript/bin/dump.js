#!/usr/bin/env node
'use strict';
// Prints a parsed file as the language-neutral JSON tree of lib/tree_schema.json, the same lines as every
// language's dump program.
//
//   paimon-layouts-dump ROOT FILE [PARAM ...]
//   paimon-layouts-dump --jobs JOBS.tsv      (one job per line: ID, ROOT, FILE, PARAM ... by tabs)
//   paimon-layouts-dump --bench RUNS ROOT FILE [PARAM ...]   ({"best_ms"}: parse + tree walk, best of RUNS)
const fs = require('fs');
const path = require('path');
const KaitaiStream = require('../runtime_fixes');

const LIB = path.join(__dirname, '..', 'lib');
const schema = require(path.join(LIB, 'tree_schema.json'));

// A KSY id as ksc names its JavaScript property: snake_case to lowerCamel.
function lowerCamel(id) {
  return id.split('_').map((p, i) => (i === 0 || !p ? p : p[0].toUpperCase() + p.slice(1))).join('');
}

// constructor -> class path ("DeletionVectors.CrcValue"), from the classes each module nests in its root class
const classPaths = new Map();
function register(cls, name) {
  if (classPaths.has(cls)) return;
  classPaths.set(cls, name);
  for (const key of Object.keys(cls)) {
    const v = cls[key];
    if (typeof v === 'function' && /^[A-Z]/.test(key)) register(v, `${name}.${key}`);
  }
}
for (const { class: cls } of Object.values(schema.roots)) register(require(path.join(LIB, cls))[cls], cls);

function value(v) {
  if (v === undefined || v === null) return null;
  if (typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'NaN';
    if (!Number.isFinite(v)) return v > 0 ? 'Infinity' : '-Infinity';
    return v;
  }
  if (typeof v === 'bigint') return v; // printed exactly below
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
  if (Array.isArray(v)) return v.map(value);
  if (typeof v === 'object' && classPaths.has(v.constructor)) return struct(v);
  throw new Error(`no tree form for ${Object.prototype.toString.call(v)}`);
}

function struct(obj) {
  const cls = classPaths.get(obj.constructor);
  const fields = schema.types[cls];
  if (!fields) throw new Error(`${cls} is not in the tree schema`);
  const out = {};
  for (const id of fields) out[id] = value(obj[lowerCamel(id)]);
  return out;
}

function param(kind, text) {
  const v = JSON.parse(text);
  return kind === 'bytes' ? Uint8Array.from(Buffer.from(v, 'hex')) : v;
}

function parse(root, data, params) {
  const entry = schema.roots[root];
  if (!entry) throw new Error(`no spec ${root}`);
  if (params.length !== entry.params.length) throw new Error(`${root} takes ${entry.params.length} parameters`);
  const Cls = require(path.join(LIB, entry.class))[entry.class];
  const args = entry.params.map((p, i) => param(p.kind, params[i]));
  return new Cls(new KaitaiStream(data), undefined, undefined, ...args);
}

function stringify(tree) {
  return JSON.stringify(tree, (k, v) => (typeof v === 'bigint' ? `__bigint__${v}` : v)).replace(/"__bigint__(-?\d+)"/g, '$1');
}

function bench(runs, root, file, params) {
  const data = new Uint8Array(fs.readFileSync(file));
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    struct(parse(root, data, params));
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
  }
  process.stdout.write(`${JSON.stringify({ best_ms: best })}\n`);
  return 0;
}

function main(argv) {
  if (argv[0] === '--bench') return bench(Number(argv[1]), argv[2], argv[3], argv.slice(4));
  let jobs;
  if (argv[0] === '--jobs' && argv.length === 2) {
    jobs = fs.readFileSync(argv[1], 'utf8').split('\n').filter((l) => l.trim()).map((l) => l.split('\t'));
  } else if (argv.length >= 2) {
    jobs = [[argv[1], ...argv]];
  } else {
    process.stderr.write('usage: paimon-layouts-dump ROOT FILE [PARAM ...] | --jobs FILE\n');
    return 2;
  }
  const lines = [];
  for (const [id, root, file, ...params] of jobs) {
    let line;
    try {
      const data = new Uint8Array(fs.readFileSync(file));
      line = `{"id":${JSON.stringify(id)},"ok":true,"tree":${stringify(struct(parse(root, data, params)))}}`;
    } catch (e) {
      line = JSON.stringify({ id, ok: false, error: `${e && e.name}: ${e && e.message}` });
    }
    lines.push(line);
    if (lines.length >= 256) process.stdout.write(lines.splice(0).join('\n') + '\n');
  }
  if (lines.length) process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

process.exitCode = main(process.argv.slice(2));
