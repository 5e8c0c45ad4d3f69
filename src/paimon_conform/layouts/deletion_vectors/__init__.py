"""Layout `deletion_vectors`."""
