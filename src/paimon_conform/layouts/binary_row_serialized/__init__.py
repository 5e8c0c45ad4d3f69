"""Layout `binary_row_serialized`."""
