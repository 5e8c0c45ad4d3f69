"""Layout `roaring64`."""
