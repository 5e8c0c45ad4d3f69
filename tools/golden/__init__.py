"""The generators of the golden files that do not come from a Paimon jar, one module per layout
(named as the layout's spec and golden folder), each writing its layout's java-notes/, encoder/ and
must-reject/ folders; tools/golden_derived.py runs them all."""
