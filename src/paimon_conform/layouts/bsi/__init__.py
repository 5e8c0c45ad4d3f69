"""Layout `bsi`."""
