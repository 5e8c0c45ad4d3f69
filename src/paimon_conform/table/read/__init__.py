"""Reading a table as Java's batch reader does: data files, index files, schema evolution, the scan
(splits) and the reader. Uses the table model (`paimon_conform.table`) and the layouts, never the
write engine or the validator."""
