"""Layout `bloom_filter`."""
