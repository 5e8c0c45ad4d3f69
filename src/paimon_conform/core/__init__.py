"""The kit's core: errors, findings, reports, cases, Paimon types, the Kaitai runner, the memory budget and
Java's hash helpers. Every other part of the package may import it; it imports nothing outside itself."""
