"""Layout `roaring32`."""
