#!/usr/bin/env python3
"""Build and start the Java testee built on the generated parsers (tools/testees/generated_java: Testee.java,
FileIndexCase.java, Json.java).

    paimon-conform testee --kind roaring32 --kind deletion-vectors -- python tools/testees/generated_java.py
    python tools/testees/generated_java.py --build-only   # only build it

Compiles the sources against the package of generated/java, as tools/install.sh builds it (`mvn package` and
the dependency class path in generated/java/target), into build/testees/generated-java, and runs Testee.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(build_only: bool = False) -> int:
    target = ROOT / "generated" / "java" / "target"
    jar, deps = target / "paimon-layouts-0.1.0.jar", target / "classpath.txt"
    if not jar.is_file() or not deps.is_file():
        print(
            f"generated_java: build generated/java first ({jar} or {deps} missing: tools/install.sh)", file=sys.stderr
        )
        return 2
    classpath = f"{jar}:{deps.read_text().strip()}"
    sources = sorted(str(p) for p in Path(__file__).with_name("generated_java").glob("*.java"))
    classes = ROOT / "build" / "testees" / "generated-java"
    done = subprocess.run(["javac", "-d", str(classes), "-cp", classpath, *sources], capture_output=True, text=True)
    if done.returncode != 0:
        print(f"generated_java: javac failed:\n{done.stderr[-3000:]}", file=sys.stderr)
        return 2
    if build_only:  # the suite builds first, so that no hello waits for a compiler
        return 0
    os.execvp("java", ["java", "-Xss16m", "-cp", f"{classes}:{classpath}", "Testee"])  # noqa: S606 - no shell
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] == ["--build-only"]))
