"""A testee child process: one JSON line out, one JSON line back, within a timeout; a crash, a hang or
garbage is a failed exchange (TesteeFault), never an exception out of the runner."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time
from typing import Any

from paimon_conform import __version__
from paimon_conform.testee.protocol import MAX_LINE, VERSION, problem


class TesteeFault(Exception):
    """The testee did not answer one request as the protocol says (it crashed, hung or wrote garbage)."""


class Testee:
    """A running testee: `ask(message)` sends a request and returns the parsed reply."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.command, self.timeout = command, timeout
        self.stderr = tempfile.TemporaryFile()  # noqa: SIM115 - kept open for the process's lifetime
        try:
            self.proc = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr, bufsize=0
            )
        except OSError as exc:
            self.stderr.close()
            raise TesteeFault(f"cannot start {command[0]!r}: {exc}") from None
        self.buffer = b""

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request; the reply object (TesteeFault when none comes as the protocol says)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            raise TesteeFault(f"the testee stopped reading ({self._ended()})") from None
        line = self._line()
        try:
            reply = json.loads(line)
        except ValueError:
            raise TesteeFault(f"not a JSON line: {line[:120]!r}") from None
        if not isinstance(reply, dict):
            raise TesteeFault(f"a JSON {type(reply).__name__}, not an object")
        if reply.get("id") != message["id"]:
            raise TesteeFault(f"the reply's id is {reply.get('id')!r}, the request's {message['id']}")
        return reply

    def _line(self) -> bytes:
        """The next line of stdout, within the timeout."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise TesteeFault(f"no reply within {self.timeout:g} s")
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise TesteeFault(f"the testee closed its output ({self._ended()})")
                self.buffer += chunk
                if len(self.buffer) > MAX_LINE:
                    raise TesteeFault(f"a reply line longer than {MAX_LINE} bytes")
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _ended(self) -> str:
        """How the process stands once its pipes close (it is given a moment to exit)."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return "still running"
        return f"exit code {code}"

    def stderr_tail(self, limit: int = 2000) -> str:
        """The last bytes the testee wrote to stderr."""
        self.stderr.seek(0, os.SEEK_END)
        size = self.stderr.tell()
        self.stderr.seek(max(0, size - limit))
        return self.stderr.read().decode("utf-8", "replace")

    def close(self, message: dict[str, Any] | None = None) -> None:
        """Say bye (when given), then make sure the process is gone."""
        if message is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(json.dumps(message).encode() + b"\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=min(self.timeout, 5))
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()


def start(command: list[str], timeout: float) -> tuple[Testee, dict[str, Any]]:
    """Start a testee and shake hands; TesteeFault (with the tail of its stderr) when it does not answer as
    protocol 1 says."""
    testee = Testee(command, timeout)
    try:
        hello = testee.ask({"id": 0, "op": "hello", "protocol": VERSION, "runner": f"paimon-conform {__version__}"})
        why = problem(hello, "hello_reply")
        if why:
            raise TesteeFault(f"handshake: {why}")
    except TesteeFault as fault:
        tail = testee.stderr_tail(600).strip()
        testee.close()
        raise TesteeFault(f"{fault}; its stderr ends: {tail}" if tail else str(fault)) from None
    return testee, hello


class Session:
    """A testee kept for many exchanges: started (with its handshake) on first use, started again after a
    fault, said bye to on close."""

    def __init__(self, command: list[str], timeout: float) -> None:
        self.command, self.timeout = command, timeout
        self.testee: Testee | None = None
        self.hello: dict[str, Any] = {}
        self.asked = 0

    def open(self) -> dict[str, Any]:
        """The handshake's reply, starting the testee when it is not running (TesteeFault when it does not)."""
        if self.testee is None:
            self.testee, self.hello = start(self.command, self.timeout)
        return self.hello

    def exchange(self, request: dict[str, Any], definition: str) -> tuple[dict[str, Any] | None, str]:
        """(reply, "") for an answer; (None, why) when the testee failed, broke the schema `definition` or
        answered with an error."""
        self.asked += 1
        try:
            self.open()
            assert self.testee is not None
            reply = self.testee.ask({**request, "id": self.asked})
        except TesteeFault as fault:
            self.close()
            return None, f"the testee failed: {fault}"
        why = problem(reply, definition)
        if why:
            return None, why
        if "error" in reply:
            return None, f"error: {reply['error'].get('message', '')[:600]}"
        return reply, ""

    def close(self) -> None:
        if self.testee is not None:
            self.testee.close({"id": self.asked + 1, "op": "bye"})
            self.testee = None
