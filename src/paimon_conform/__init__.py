"""paimon-conform: specification and conformance kit for Apache Paimon's binary layouts."""

__version__ = "0.1.0"
