"""The generators of the goldens real Java Paimon writes: one module per golden folder, run by
tools/golden_java.py (GoldenWriter, FileIndexGoldenWriter) and tools/golden_java_buckets.py (BucketGoldenWriter)."""
