#!/usr/bin/env node
// Command-line wrapper around the npm build of kaitai-struct-compiler 0.11.0,
// which ships an API only. Compiles .ksy specs to one target language
// (python unless -t names another: java, go, rust, javascript, ...).
//
//   node tools/kaitai/ksc.js [-t TARGET] [--debug] [--python-relative-imports]
//        [-I SPEC_ROOT] [--field-map FILE] -d OUT_DIR SPEC.ksy...
//
// Duties (see docs/toolchain.md):
// * YAML is read with js-yaml and a custom integer tag: integers outside the
//   int32 range stay as their source text, which ksc parses as an exact
//   expression literal (plain js-yaml would hand ksc a lossy double).
// * Imports: relative names resolve against the directory of the spec being
//   compiled, absolute ones ("/common/x") against the -I spec root.
// * --python-relative-imports rewrites "import x" of sibling modules to
//   "from . import x", so the output is a proper Python package.
// * meta/id must equal the file name; any compile error exits non-zero.
// * --field-map writes a JSON map from KSY source paths ("/types/t/seq/2")
//   to field ids, per module, with the spec's stable finding code (key
//   "-code") and display field ("-report-as"), used in error messages.
'use strict';

const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');
const ksc = require('kaitai-struct-compiler');

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT_PATTERN = /^[-+]?(?:0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)$/;

function parseIntText(text) {
  const clean = text.replace(/_/g, '');
  let sign = 1n;
  let body = clean;
  if (body[0] === '-' || body[0] === '+') {
    if (body[0] === '-') sign = -1n;
    body = body.slice(1);
  }
  return sign * BigInt(body);
}

// Integers outside int32 are kept as text so ksc reads them exactly.
const exactIntTag = yaml.defineScalarTag('tag:yaml.org,2002:int', {
  implicit: true,
  implicitFirstChars: ['-', '+', ...'0123456789'],
  resolve: (source) => {
    if (!INT_PATTERN.test(source)) return yaml.NOT_RESOLVED;
    const value = parseIntText(source);
    if (value >= BigInt(INT32_MIN) && value <= BigInt(INT32_MAX)) return Number(value);
    return source.replace(/^\+/, '');
  },
  identify: (object) => Number.isInteger(object),
  represent: (object) => String(object),
});

// Replace the core int tag in place: implicit tags are tried in order, and
// the float tag after it would otherwise claim every integer.
const SCHEMA = new yaml.Schema(
  yaml.CORE_SCHEMA.tags.map((t) => (t.tagName === 'tag:yaml.org,2002:int' ? exactIntTag : t)),
);

function loadKsy(file) {
  return yaml.load(fs.readFileSync(file, 'utf8'), { schema: SCHEMA, filename: file });
}

function parseArgs(argv) {
  const opts = { target: 'python', debug: false, relative: false, include: null, out: null, fieldMap: null, specs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--version') opts.version = true;
    else if (a === '--debug') opts.debug = true;
    else if (a === '-t') opts.target = argv[++i];
    else if (a === '--python-relative-imports') opts.relative = true;
    else if (a === '-I') opts.include = argv[++i];
    else if (a === '-d') opts.out = argv[++i];
    else if (a === '--field-map') opts.fieldMap = argv[++i];
    else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else opts.specs.push(a);
  }
  return opts;
}

function makeImporter(specDir, includeDir, seen) {
  return {
    importYaml(name, mode) {
      const base = mode === 'abs' ? includeDir : specDir;
      if (!base) return Promise.reject(new Error(`absolute import ${name} needs -I`));
      const file = path.resolve(base, `${name}.ksy`);
      try {
        const doc = loadKsy(file);
        seen.set(file, doc);
        return Promise.resolve(doc);
      } catch (e) {
        return Promise.reject(e);
      }
    },
  };
}

// Collect "/types/a/types/b/seq/3" -> id for one spec document.
function fieldPaths(doc, prefix, out) {
  const entry = (id, attr) => {
    const e = { id };
    if (attr['-code']) e.code = attr['-code'];
    if (attr['-report-as']) e.report_as = attr['-report-as'];
    return e;
  };
  (doc.seq || []).forEach((attr, i) => {
    out[`${prefix}/seq/${i}`] = entry(attr.id || `_unnamed${i}`, attr);
  });
  Object.entries(doc.instances || {}).forEach(([name, attr]) => {
    out[`${prefix}/instances/${name}`] = entry(name, attr);
  });
  Object.entries(doc.types || {}).forEach(([name, t]) => fieldPaths(t, `${prefix}/types/${name}`, out));
  return out;
}

function rewriteImports(source, moduleNames) {
  return source.replace(/^import (\w+)$/gm, (line, mod) => (moduleNames.has(mod) ? `from . import ${mod}` : line));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.version) {
    console.log(`kaitai-struct-compiler ${ksc.version} (${ksc.buildDate})`);
    return 0;
  }
  if (!ksc.languages.includes(opts.target)) throw new Error(`unknown target ${opts.target}; one of ${ksc.languages.join(', ')}`);
  if (!opts.out || opts.specs.length === 0) throw new Error('usage: ksc.js [--debug] [-I DIR] -d OUT SPEC.ksy...');
  fs.mkdirSync(opts.out, { recursive: true });
  const outputs = new Map();
  const fieldMap = {};
  for (const spec of opts.specs) {
    const file = path.resolve(spec);
    const doc = loadKsy(file);
    const stem = path.basename(file, '.ksy');
    const id = doc.meta && doc.meta.id;
    if (id !== stem) throw new Error(`${spec}: meta/id '${id}' differs from the file name '${stem}'`);
    const seen = new Map([[file, doc]]);
    let files;
    try {
      files = await ksc.compile(opts.target, doc, makeImporter(path.dirname(file), opts.include, seen), opts.debug);
    } catch (e) {
      throw new Error(`${spec}: ${e && e.toString ? e.toString() : e}`);
    }
    for (const [f, d] of seen) {
      const s = path.basename(f, '.ksy');
      if (d.meta && d.meta.id !== s) throw new Error(`${f}: meta/id '${d.meta.id}' differs from the file name '${s}'`);
      fieldMap[d.meta.id] = fieldPaths(d, '', {});
    }
    for (const [name, text] of Object.entries(files)) outputs.set(name, text);
  }
  const moduleNames = new Set([...outputs.keys()].map((n) => n.replace(/\.py$/, '')));
  const note = `Generated by tools/kaitai/ksc.js with kaitai-struct-compiler ${ksc.version}${opts.debug ? ' (debug build)' : ''}. Do not edit.`;
  const header = opts.target === 'python' ? `# ${note}\n` : `// ${note}\n`;
  for (const name of [...outputs.keys()].sort()) {
    let text = outputs.get(name);
    if (opts.relative) text = rewriteImports(text, moduleNames);
    fs.writeFileSync(path.join(opts.out, name), header + text);
  }
  if (opts.fieldMap) {
    const sorted = {};
    for (const k of Object.keys(fieldMap).sort()) sorted[k] = fieldMap[k];
    fs.writeFileSync(opts.fieldMap, `${JSON.stringify(sorted, null, 2)}\n`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`ksc.js: error: ${err && err.message ? err.message : err}`);
    process.exit(1);
  },
);
