"""Paimon tables on Spark: the Python data source (`source`), the fixed bucket as a Spark SQL expression
(`bucket`) and the main job's pipeline (`pipeline`)."""
