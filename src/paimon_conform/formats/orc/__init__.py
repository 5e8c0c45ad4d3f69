"""ORC files as Java Paimon's reader (ORC Java under OrcFileFormat) returns them, where pyarrow's reader
(ORC C++) differs: `tail` (postscript, footer, stripe footers, stream placement, compression chunks),
`protobuf` (the wire format the tail is written in), `rle` (byte and integer run-length encodings),
`java_zones` (java.util.TimeZone's rules), `timestamps` (TIMESTAMP / TIMESTAMP_LTZ values with Java's
arithmetic), `tzdir` (a zone directory pyarrow can load Java's zone IDs from) and `worker` (every pyarrow
ORC read, in a worker process a crash of pyarrow cannot take down)."""
