"""Whole-table validation (`paimon-conform validate TABLE_DIR`): the table's directories, each data file
against the schema and its manifest entry, index files, and the run that puts them together. Uses the
table model and the reader's loading; never the write engine."""
