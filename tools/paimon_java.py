"""Get the real Paimon jars and run our Java programs against them.

Paimon 0.9.0: the jar the PyPI sdist pypaimon==0.2.0 ships in deps/jars/
(paimon-python-java-bridge-0.9.0.jar, a bundle of paimon-core 0.9.0 with
RoaringBitmap 1.0.5 shaded, no Hadoop). tools/java/*.java compile against it
into build/java/ (ensure_classes, run_java). Used by tools/golden_java.py,
tools/golden_java_buckets.py and the Java tests.

Paimon 1.0-SNAPSHOT: the jar the PyPI wheel paimon-python-ali==0.1.1 ships as
paimon_python_java/java_dependencies/paimon-python-java-bridge.jar (paimon-core
1.0-SNAPSHOT built 2024-09-04, with Hadoop, Parquet and ORC), stored as
deps/jars/paimon-python-java-bridge-1.0-SNAPSHOT.jar. tools/java/tables/*.java
compile against it into build/java-1.0/ (ensure_classes_10, run_java_10). Used
by tools/golden_java_tables.py.

Tables and the testee of every release: the releases of tools/java/releases.tsv,
resolved from Maven Central by tools/java_releases.py. tools/java/tables/*.java
and the testee (tools/java/testee/) compile against every release with Hadoop
from Maven (build/java-testee-<release>/, java_releases.testee_classpath).

Every download and every extracted jar is checked against a pinned SHA-256.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
import threading
import zipfile
from pathlib import Path

import java_releases

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

PAIMON_10_VERSION = "1.0-SNAPSHOT"
WHEEL_10 = "paimon-python-ali==0.1.1"
WHEEL_10_FILE = "paimon_python_ali-0.1.1-py3-none-any.whl"
WHEEL_10_SHA256 = "2a60eab3b2df8af59f393dc7e6d61af2956572b8eadfc9e664a0ec6d2a4688f3"
WHEEL_10_MEMBER = "paimon_python_java/java_dependencies/paimon-python-java-bridge.jar"
JAR_10_NAME = f"paimon-python-java-bridge-{PAIMON_10_VERSION}.jar"
JAR_10 = DEPS / "jars" / JAR_10_NAME
JAR_10_SHA256 = "489495e700f9bd7ba0f7aa412413b168e68f1190589b1f68dfe0ce8a71c1c451"
ARTIFACT_10 = f"{WHEEL_10} (PyPI wheel {WHEEL_10_FILE}) {WHEEL_10_MEMBER}"
JAVA_SRC_10 = JAVA_SRC / "tables"
CLASSES_10 = ROOT / "build" / "java-1.0"


_LOCK = threading.RLock()  # jar downloads and javac builds, one thread at a time


sha256 = java_releases.sha256


def _download(requirement: str, file_name: str, expected: str, wheel: bool) -> Path:
    """A PyPI sdist or wheel in deps/cache/, downloaded by pip when missing, SHA-256 checked."""
    cache = DEPS / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / file_name
    if not target.is_file() or sha256(target) != expected:
        kind = ["--only-binary", ":all:"] if wheel else ["--no-binary", ":all:"]
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *kind, "-d", str(cache), requirement]
        subprocess.run(cmd, check=True)
    if sha256(target) != expected:
        raise SystemExit(f"{target}: SHA-256 mismatch; expected {expected}")
    return target


def ensure_jar() -> Path:
    """Path of the verified Paimon 0.9.0 jar, downloading the sdist if needed."""
    with _LOCK:
        return _ensure_jar()


def _ensure_jar() -> Path:
    if JAR.is_file() and sha256(JAR) == JAR_SHA256:
        return JAR
    sdist = _download(SDIST, SDIST_FILE, SDIST_SHA256, wheel=False)
    member = f"pypaimon-0.2.0/deps/jars/{JAR_NAME}"
    JAR.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar, tempfile.TemporaryDirectory() as tmp:
        tar.extract(member, tmp, filter="data")
        Path(tmp, member).replace(JAR)
    if sha256(JAR) != JAR_SHA256:
        raise SystemExit(f"{JAR}: SHA-256 mismatch; expected {JAR_SHA256}")
    return JAR


def ensure_jar_10() -> Path:
    """Path of the verified Paimon 1.0-SNAPSHOT jar, downloading the wheel if needed."""
    with _LOCK:
        return _ensure_jar_10()


def _ensure_jar_10() -> Path:
    if JAR_10.is_file() and sha256(JAR_10) == JAR_10_SHA256:
        return JAR_10
    wheel = _download(WHEEL_10, WHEEL_10_FILE, WHEEL_10_SHA256, wheel=True)
    JAR_10.parent.mkdir(parents=True, exist_ok=True)
    partial = JAR_10.with_name(JAR_10.name + ".part")
    with zipfile.ZipFile(wheel) as whl, whl.open(WHEEL_10_MEMBER) as src, partial.open("wb") as dst:
        for chunk in iter(lambda: src.read(1 << 20), b""):
            dst.write(chunk)
    if sha256(partial) != JAR_10_SHA256:
        partial.unlink()
        raise SystemExit(f"{WHEEL_10_MEMBER} in {wheel}: SHA-256 mismatch; expected {JAR_10_SHA256}")
    partial.replace(JAR_10)
    return JAR_10


# The table writers the suite runs in the background (the matrices, the table goldens, the verdict probes) run for
# seconds: the C1 compiler alone and one GC thread take half the CPU of the default (C2 and parallel GC) for the
# same wall time, which leaves the suite's other core to the tests (measured on the type x role matrix run of
# 2.0.0: 24 s of CPU down to 12 s, 15.7 s of wall time down to 14.1 s). Not for the golden generators of
# tools/java/*.java: Java orders some of what they report by identity hash codes, which other JVM flags change.
SHORT_RUN_FLAGS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")


def java_command(
    cp: str, main_class: str, *args: str, heap: str = "1g", zone: str | None = None, short: bool = False
) -> list[str]:
    """The command line that runs one of our Java programs (in a JVM whose default time zone is `zone`, else the
    machine's; with SHORT_RUN_FLAGS when `short`). -XX:-OmitStackTraceInFastThrow: a JVM that has thrown the same
    exception often in compiled code otherwise throws a preallocated one without its message (a
    NullPointerException's 'Cannot invoke ...'), and the tests that read Java's errors see only 'null'."""
    where = [f"-Duser.timezone={zone}"] if zone else []
    flags = ["-XX:-OmitStackTraceInFastThrow", *(SHORT_RUN_FLAGS if short else ()), *where]
    return ["java", f"-Xmx{heap}", *flags, "-cp", cp, main_class, *args]


def _run(cp: str, main_class: str, args: tuple[str, ...], short: bool = False) -> None:
    done = subprocess.run(java_command(cp, main_class, *args, short=short), capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"java {main_class} failed with exit code {done.returncode}")


def ensure_classes() -> Path:
    """Compile tools/java/*.java against the 0.9.0 jar (when sources are newer)."""
    return java_releases.compile_sources([ensure_jar()], sorted(JAVA_SRC.glob("*.java")), CLASSES)


def ensure_classes_10() -> Path:
    """Compile tools/java/tables/*.java (with the testee's, API era 0.9) against the 1.0-SNAPSHOT jar into
    build/java-1.0/ (when sources are newer)."""
    return java_releases.compile_sources([ensure_jar_10()], java_releases.testee_sources("0.9", None), CLASSES_10)


def run_java(main_class: str, *args: str, extra: tuple[Path, ...] = ()) -> None:
    """Run one of our Java programs (tools/java/) with the Paimon 0.9.0 jar (and `extra` jars) on the classpath."""
    _run(":".join(map(str, (ensure_jar(), ensure_classes(), *extra))), main_class, args)


def lz4_jar() -> Path:
    """lz4-java, which Paimon's Lz4BlockCompressor needs and its bundle jars leave out: the copy PySpark ships."""
    import pyspark

    found = sorted((Path(pyspark.__file__).parent / "jars").glob("lz4-java-*.jar"))
    if not found:
        raise SystemExit("no lz4-java jar in the PySpark install (pip install -e '.[spark]')")
    return found[-1]


def run_java_10(main_class: str, *args: str) -> None:
    """Run one of our Java programs (tools/java/tables/) with the Paimon 1.0-SNAPSHOT jar on the classpath."""
    _run(f"{ensure_jar_10()}:{ensure_classes_10()}", main_class, args)


def tables_classpath(version: str) -> str:
    """The class path that runs tools/java/tables/ programs and the testee under Paimon `version`, compiling them
    when stale: the 1.0-SNAPSHOT jar (from the wheel), or a release of tools/java/releases.tsv from Maven."""
    if version == PAIMON_10_VERSION:
        return f"{ensure_jar_10()}:{ensure_classes_10()}"
    return java_releases.testee_classpath(version)


def run_java_tables(version: str, main_class: str, *args: str) -> None:
    """Run a tools/java/tables/ program with Paimon `version` (a release from Maven, or the 1.0-SNAPSHOT jar)."""
    _run(tables_classpath(version), main_class, args, short=True)


if __name__ == "__main__":
    print(ensure_jar())
    print(ensure_classes())
    print(ensure_jar_10())
    print(ensure_classes_10())
    java_releases.main([])
