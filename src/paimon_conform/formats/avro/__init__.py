"""Avro object container files: `container` (the header and blocks read within the memory budget, every
count and size checked before anything is built; the table's metadata files and Avro data files) and
`rows` (an Avro data file's declared columns and rows as Arrow, window by window)."""
