"""Data file formats read as Paimon's Java readers read them: Parquet and ORC columns as Paimon types and
internal values, exact timestamps (INT96, ORC), and the isolated ORC reader."""
