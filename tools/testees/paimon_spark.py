"""Start Paimon's Spark connector as a testee: `python tools/testees/paimon_spark.py VERSION`, VERSION a `connector`
release of tools/java/releases.tsv (0.9.0: Maven Central has no later paimon-spark-* build here).

Resolves the connector jar (SHA-256 checked, tools/java_releases.py), then replaces itself with the connector's
virtualenv running tools/connector/testee.py (the install step makes .venv-connector: the PySpark of
requirements/connector.txt, a Spark the connector is built for). Anything the setup prints goes to stderr.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import java_releases  # noqa: E402 - from tools/, put on the path above

VENV_PYTHON = TOOLS.parent / ".venv-connector" / "bin" / "python"


def main() -> None:
    known = java_releases.connectors()
    version = sys.argv[1] if len(sys.argv) > 1 else ""
    if version not in known:
        sys.exit(f"usage: paimon_spark.py {'|'.join(known)}")
    if not VENV_PYTHON.is_file():
        sys.exit(f"no {VENV_PYTHON}: run tools/install.sh (it makes the connector's virtualenv)")
    stdout = os.dup(1)
    os.dup2(2, 1)  # mvn writes here: not the protocol's stdout
    try:
        jar = java_releases.resolve(known[version].jar)
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
    script = TOOLS / "connector" / "testee.py"
    os.execv(VENV_PYTHON, [str(VENV_PYTHON), str(script), str(jar), version])  # noqa: S606 - no shell


if __name__ == "__main__":
    main()
