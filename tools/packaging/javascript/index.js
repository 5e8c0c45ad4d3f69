'use strict';
// The parser class of every spec, by its class name: require('paimon-layouts').DeletionVectors
const schema = require('./lib/tree_schema.json');

for (const { class: cls } of Object.values(schema.roots)) {
  Object.defineProperty(exports, cls, { enumerable: true, get: () => require(`./lib/${cls}`)[cls] });
}
exports.KaitaiStream = require('./runtime_fixes');
