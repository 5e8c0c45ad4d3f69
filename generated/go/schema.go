package paimon_layouts

import _ "embed"

// TreeSchema is tree_schema.json: every struct's field ids and every spec's parameters, which the dump
// program prints a parsed file by (the same tree in every language).
//
//go:embed tree_schema.json
var TreeSchema []byte
