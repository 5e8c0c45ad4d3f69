"""The write engine: a write's plan, its tasks (where the rows are), the files they write, dynamic
buckets, the commit, and the reference table. Uses the table model, the reader's data-file and
index-file loading and the layouts; never the validator."""
