"""Start Java Paimon as a testee: `python tools/testees/java_paimon.py 0.9.0|1.0-SNAPSHOT`.

Gets the bundled jar (SHA-256 checked) and compiles tools/java/tables/ against it when stale (tools/paimon_java.py),
then replaces itself with `java ... Testee VERSION JAVA_RELEASE`. Anything the setup prints goes to stderr: stdout is
the protocol's. JAVA_RELEASE, the line the testee claims and its tables are judged for: 0.9 for both jars (the
1.0-SNAPSHOT jar is a 2024-09-04 build from before the 1.0.0 format changes: no _VALUE_STATS_COLS, no bitmap V2).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paimon_java

RELEASE = {paimon_java.PAIMON_VERSION: "0.9", paimon_java.PAIMON_10_VERSION: "0.9"}


def main() -> None:
    version = sys.argv[1] if len(sys.argv) > 1 else ""
    if version not in RELEASE:
        sys.exit(f"usage: java_paimon.py {'|'.join(RELEASE)}")
    stdout = os.dup(1)
    os.dup2(2, 1)  # the jar download and javac write here: not the protocol's stdout
    try:
        cp = paimon_java.tables_classpath(version)
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
    command = paimon_java.java_command(cp, "Testee", version, RELEASE[version], heap="512m")
    os.execvp(command[0], command)  # noqa: S606 - the testee becomes the JVM (no shell)


if __name__ == "__main__":
    main()
