"""Layout `row_file`: the `.row` data file of Paimon 2.0."""
