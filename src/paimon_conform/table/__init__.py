"""Paimon tables: the model the roles share (paths, table layout spec, schema, metadata records and the
snapshot chain, the latest state, table features), and the three roles, each a package: `read/`
(scan and reader), `write/` (the write engine and commit) and `validate/` (`paimon-conform validate
TABLE_DIR`). Imports go one way: read uses the model; write and validate use read, never each other."""
