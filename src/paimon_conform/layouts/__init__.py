"""Paimon's binary layouts: one package per layout, named as its spec (`specs/<name>.ksy`), its generated
parser (`paimon_layouts.<name>`), its golden folder and its test file. Each package holds the codec (a
Java-exact writer and a fast reader), the checks the spec cannot express, its queries, and `entry.py`,
the layout's registry entry; `registry.py` lists the entries and `base.py` says what an entry provides."""
