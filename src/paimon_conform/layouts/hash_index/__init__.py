"""Layout `hash_index`."""
