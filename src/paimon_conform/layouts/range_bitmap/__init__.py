"""Layout `range_bitmap`."""
