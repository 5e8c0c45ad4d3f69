"""Parquet where pyarrow's reader does not return what Java reads: `int96` (INT96 timestamps decoded from
the column chunk's pages, exact over the years 1..9999)."""
