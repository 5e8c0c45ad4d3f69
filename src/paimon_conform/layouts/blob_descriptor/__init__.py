"""Layout `blob_descriptor`."""
