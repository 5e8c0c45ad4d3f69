"""Layout `blob_file`."""
