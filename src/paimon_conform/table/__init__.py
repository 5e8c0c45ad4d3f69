"""Whole-table validation: `paimon-conform validate TABLE_DIR`.

schema      the table schema files (schema/schema-N)
paths       resolving references without leaving the table root
layout      directories and file names against specs/table_layout.yaml
data_files  columns, value kinds, partition values and buckets of data files
validate    the walk that ties them together into per-file results
"""
