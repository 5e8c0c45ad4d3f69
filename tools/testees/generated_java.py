#!/usr/bin/env python3
"""Start the Java testee built on the generated parsers (tools/testees/generated_java/Testee.java).

    paimon-conform testee --kind roaring32 --kind deletion-vectors -- python tools/testees/generated_java.py

Runs the source file with the package of generated/java on the class path, as tools/install.sh builds it
(`mvn package` and the dependency class path in generated/java/target).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    target = ROOT / "generated" / "java" / "target"
    jar, deps = target / "paimon-layouts-0.1.0.jar", target / "classpath.txt"
    if not jar.is_file() or not deps.is_file():
        print(
            f"generated_java: build generated/java first ({jar} or {deps} missing: tools/install.sh)", file=sys.stderr
        )
        return 2
    classpath = f"{jar}:{deps.read_text().strip()}"
    source = str(Path(__file__).with_name("generated_java") / "Testee.java")
    os.execvp("java", ["java", "-Xss16m", "-cp", classpath, source])  # noqa: S606 - a fixed program, no shell
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
