"""Layout `binary_row`."""
