"""Layout btree_global_index: the BTree global index file of Paimon 1.4.1 (PBTI)."""
