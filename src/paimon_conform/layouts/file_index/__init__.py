"""Layout `file_index`."""
