"""Layout bitmap_global_index: the bitmap global index file of Paimon 2.0 (BGIX)."""
