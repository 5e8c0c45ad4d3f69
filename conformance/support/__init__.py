"""The test suite's helpers (importable through pyproject's pytest `pythonpath`): where things are and what the
run may skip (`environment`), value strategies, the peer and Java matrices, the adversarial mutations, the
bitmap oracle, the capped CLI runner and the sweep of built tables. conftest.py holds fixtures and hooks only."""
