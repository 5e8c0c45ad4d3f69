"""The testee protocol: another implementation, started as a child process, decodes and encodes the golden
cases over JSON lines (schemas/testee_protocol.json); `runner` drives it, `kit` is the kit as a testee."""
