"""Get the real Paimon 0.9.0 jar and run our Java programs against it.

The jar is the one the PyPI sdist pypaimon==0.2.0 ships in deps/jars/
(paimon-python-java-bridge-0.9.0.jar, a bundle of paimon-core 0.9.0 with
RoaringBitmap 1.0.5 shaded). Both the sdist and the jar are checked against
pinned SHA-256 sums. Used by tools/golden_java.py and by the Java tests.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEPS = ROOT / "deps"
JAR_NAME = "paimon-python-java-bridge-0.9.0.jar"
JAR = DEPS / "jars" / JAR_NAME
SDIST = "pypaimon==0.2.0"
SDIST_FILE = "pypaimon-0.2.0.tar.gz"
SDIST_SHA256 = "43ac684779841da17528b5f241ede6149bcdab4d16f3cd80f713262f6ed04720"
JAR_SHA256 = "dc9048366715fc75d2b44e3f8ac1dbfab011b8c34aafc26ffa216500fb890b0e"
PAIMON_VERSION = "0.9.0"
ARTIFACT = f"{SDIST} (PyPI sdist) deps/jars/{JAR_NAME}"
JAVA_SRC = ROOT / "tools" / "java"
CLASSES = ROOT / "build" / "java"


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def ensure_jar() -> Path:
    """Path of the verified Paimon 0.9.0 jar, downloading the sdist if needed."""
    if JAR.is_file() and sha256(JAR) == JAR_SHA256:
        return JAR
    cache = DEPS / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    sdist = cache / SDIST_FILE
    if not sdist.is_file() or sha256(sdist) != SDIST_SHA256:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(cache),
                SDIST,
            ],
            check=True,
        )
    if sha256(sdist) != SDIST_SHA256:
        raise SystemExit(f"{sdist}: SHA-256 mismatch; expected {SDIST_SHA256}")
    member = f"pypaimon-0.2.0/deps/jars/{JAR_NAME}"
    JAR.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar, tempfile.TemporaryDirectory() as tmp:
        tar.extract(member, tmp, filter="data")
        Path(tmp, member).replace(JAR)
    if sha256(JAR) != JAR_SHA256:
        raise SystemExit(f"{JAR}: SHA-256 mismatch; expected {JAR_SHA256}")
    return JAR


def ensure_classes() -> Path:
    """Compile tools/java/*.java against the jar (when sources are newer)."""
    jar = ensure_jar()
    sources = sorted(JAVA_SRC.glob("*.java"))
    stamp = CLASSES / ".stamp"
    newest = max(p.stat().st_mtime for p in sources)
    if not stamp.is_file() or stamp.stat().st_mtime < newest:
        CLASSES.mkdir(parents=True, exist_ok=True)
        subprocess.run(["javac", "-nowarn", "-d", str(CLASSES), "-cp", str(jar), *map(str, sources)], check=True)
        stamp.touch()
    return CLASSES


def run_java(main_class: str, *args: str) -> None:
    """Run one of our Java programs with the Paimon jar on the classpath."""
    classes = ensure_classes()
    cp = f"{ensure_jar()}:{classes}"
    done = subprocess.run(["java", "-Xmx1g", "-cp", cp, main_class, *args], capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"java {main_class} failed with exit code {done.returncode}")


if __name__ == "__main__":
    print(ensure_jar())
    print(ensure_classes())
