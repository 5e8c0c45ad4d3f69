"""Start Java Paimon as a testee: `python tools/testees/java_paimon.py VERSION`, VERSION a release of
tools/java/releases.tsv (0.9.0 … 2.0.0, from Maven Central) or 1.0-SNAPSHOT (the jar of a PyPI wheel).

Resolves the release's jars (SHA-256 checked) and compiles tools/java/testee/ against them when stale
(tools/java_releases.py), then replaces itself with `java ... Testee VERSION JAVA_RELEASE`. Anything the setup prints
goes to stderr: stdout is the protocol's. JAVA_RELEASE, the line the testee claims and its tables are judged for:
the release's major.minor; 0.9 for the 1.0-SNAPSHOT jar (a 2024-09-04 build from before the 1.0.0 format changes:
no _VALUE_STATS_COLS, no bitmap V2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import java_releases
import paimon_java


def java_release(version: str) -> str:
    """The release line a testee of this version claims."""
    if version == paimon_java.PAIMON_10_VERSION:
        return "0.9"
    return java_releases.release(version).line


def main() -> None:
    known = [*java_releases.releases(), paimon_java.PAIMON_10_VERSION]
    version = sys.argv[1] if len(sys.argv) > 1 else ""
    if version not in known:
        sys.exit(f"usage: java_paimon.py {'|'.join(known)}")
    stdout = os.dup(1)
    os.dup2(2, 1)  # mvn and javac write here: not the protocol's stdout
    try:
        cp = paimon_java.tables_classpath(version)
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
    command = paimon_java.java_command(cp, "Testee", version, java_release(version), heap="512m")
    command[1:1] = ["-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-Dorg.slf4j.simpleLogger.logFile=System.err"]
    os.execvp(command[0], command)  # noqa: S606 - the testee becomes the JVM (no shell)


if __name__ == "__main__":
    main()
