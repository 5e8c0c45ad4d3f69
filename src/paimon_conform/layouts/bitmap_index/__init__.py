"""Layout `bitmap_index`."""
