"""Java Paimon releases from Maven Central: the registry (tools/java/releases.tsv), their jars resolved through
Maven into the user's Maven cache, and the testee compiled against each.

`python tools/java_releases.py` resolves every release (what the install step runs); `--sources` also fetches each
release's paimon-core `-sources` jar (for reading what to test; never evidence). The Maven cache is
`$PAIMON_CONFORM_MAVEN_REPO`, else `~/.m2/repository`; mvn is told the same place, so a user's settings.xml mirror
still applies. Every jar is checked against the SHA-256 the registry pins.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "tools" / "java" / "releases.tsv"
TESTEE_SRC = ROOT / "tools" / "java" / "testee"
TABLES_SRC = ROOT / "tools" / "java" / "tables"
BUILD = ROOT / "build"
DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.6.1"
MAVEN_CENTRAL = "https://repo.maven.apache.org/maven2"  # mvn's default; PAIMON_CONFORM_MAVEN_URL overrides

_LOCK = threading.RLock()  # mvn and javac, one at a time (the suite builds matrices in threads)


@dataclass(frozen=True)
class Jar:
    """One pinned Maven artifact."""

    coordinate: str  # group:artifact:version[:classifier]
    sha256: str

    @property
    def path(self) -> Path:
        """Where Maven keeps it in the local repository."""
        group, artifact, version, *classifier = self.coordinate.split(":")
        suffix = f"-{classifier[0]}" if classifier else ""
        return maven_repo().joinpath(*group.split("."), artifact, version, f"{artifact}-{version}{suffix}.jar")


@dataclass(frozen=True)
class Release:
    """A Java Paimon release the kit runs."""

    version: str  # 1.4.2
    api: str  # the ReleaseApi era its testee compiles with
    jar: Jar

    @property
    def line(self) -> str:
        """The release line the kit judges for: 1.4."""
        return ".".join(self.version.split(".")[:2])

    @property
    def testee(self) -> str:
        """Its name in tools/testees/reference.json."""
        return f"java-{self.version}"


@dataclass(frozen=True)
class Connector:
    """A release of Paimon's Spark connector the kit runs (tools/connector/)."""

    version: str  # 0.9.0
    spark: str  # the Spark minor it is built for: 3.5
    jar: Jar

    @property
    def line(self) -> str:
        """The Java release line its tables are judged for."""
        return ".".join(self.version.split(".")[:2])


@functools.cache
def _rows() -> tuple[tuple[str, str, str, Jar], ...]:
    """(kind, version, api, jar) of every line of tools/java/releases.tsv."""
    rows = []
    for number, raw in enumerate(REGISTRY.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        if len(line) != 5 or line[0] not in ("release", "runtime", "connector"):
            raise SystemExit(f"{REGISTRY}:{number}: expected 'release|runtime|connector VERSION API COORDINATE SHA256'")
        kind, version, api, coordinate, sha = line
        rows.append((kind, version, api, Jar(coordinate, sha)))
    return tuple(rows)


def registry() -> tuple[tuple[Release, ...], tuple[Jar, ...]]:
    """(releases, runtime jars) as tools/java/releases.tsv lists them."""
    releases = tuple(Release(v, api, jar) for kind, v, api, jar in _rows() if kind == "release")
    return releases, tuple(jar for kind, _, _, jar in _rows() if kind == "runtime")


def connectors() -> dict[str, Connector]:
    """The Spark connector releases by version."""
    return {v: Connector(v, spark, jar) for kind, v, spark, jar in _rows() if kind == "connector"}


def releases() -> dict[str, Release]:
    """Every release by version, oldest first."""
    return {r.version: r for r in registry()[0]}


def release(version: str) -> Release:
    """One release; SystemExit naming the known ones when it is not in the registry."""
    known = releases()
    if version not in known:
        raise SystemExit(f"no Java Paimon {version} in {REGISTRY.name}; known: {', '.join(known)}")
    return known[version]


def maven_repo() -> Path:
    """The local Maven repository the kit resolves into."""
    return Path(os.environ.get("PAIMON_CONFORM_MAVEN_REPO") or Path.home() / ".m2" / "repository")


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


@functools.cache
def _verified(path: Path, size: int, mtime: float, expected: str) -> bool:
    return sha256(path) == expected


def resolve(jar: Jar, check: bool = True) -> Path:
    """The jar's path in the Maven cache, fetched by mvn when missing; SystemExit when its SHA-256 differs."""
    with _LOCK:
        path = jar.path
        if not path.is_file():
            command = [
                "mvn", "-B", "-q", f"-Dmaven.repo.local={maven_repo()}", f"{DEPENDENCY_PLUGIN}:get",
                f"-Dartifact={_artifact(jar.coordinate)}", "-Dtransitive=false",
            ]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0 and "Failed to read artifact descriptor" in done.stdout + done.stderr:
                _fetch_alone(jar)  # its POM names a parent POM the repository lacks: the jar needs neither
            elif done.returncode != 0 or not path.is_file():
                sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
                raise SystemExit(f"mvn could not resolve {jar.coordinate} (exit {done.returncode})")
        stat = path.stat()
        if check and not _verified(path, stat.st_size, stat.st_mtime, jar.sha256):
            raise SystemExit(f"{path}: SHA-256 {sha256(path)}, the registry pins {jar.sha256} for {jar.coordinate}")
        return path


def _fetch_alone(jar: Jar) -> None:
    """The jar file alone from the repository mvn uses, into its place in the Maven cache: for an artifact whose
    POM names a parent POM the repository does not hold (paimon-flink-2.0 2.0.0 names paimon-flink 2.0.0), which
    stops mvn before it fetches the jar. The pinned SHA-256 is checked after, as for a jar mvn fetched."""
    relative = jar.path.relative_to(maven_repo()).as_posix()
    url = f"{os.environ.get('PAIMON_CONFORM_MAVEN_URL', MAVEN_CENTRAL).rstrip('/')}/{relative}"
    if not url.startswith(("https://", "http://")):
        raise SystemExit(f"PAIMON_CONFORM_MAVEN_URL: an http(s) repository URL, not {url}")
    jar.path.parent.mkdir(parents=True, exist_ok=True)
    partial = jar.path.with_name(jar.path.name + ".part")
    try:
        response = urllib.request.urlopen(url, timeout=120)  # noqa: S310 - http(s) checked above
        with response, partial.open("wb") as out:
            shutil.copyfileobj(response, out, 1 << 20)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise SystemExit(f"{jar.coordinate}: mvn cannot read its POM, and {url} could not be fetched: {exc}") from None
    partial.replace(jar.path)


def _artifact(coordinate: str) -> str:
    """group:artifact:version[:classifier] as dependency:get's -Dartifact (group:artifact:version[:jar:classifier])."""
    group, artifact, version, *classifier = coordinate.split(":")
    return f"{group}:{artifact}:{version}" + (f":jar:{classifier[0]}" if classifier else "")


def runtime_jars() -> list[Path]:
    """Hadoop, lz4-java and SLF4J: on every release's class path."""
    return [resolve(j) for j in registry()[1]]


def jars(version: str) -> list[Path]:
    """The class path jars of one release: its Paimon jar, then the runtime jars."""
    return [resolve(release(version).jar), *runtime_jars()]


def sources_jar(version: str) -> Path:
    """paimon-core's -sources jar of a release (not pinned: read for what to test, never run)."""
    return resolve(Jar(f"org.apache.paimon:paimon-core:{version}:sources", ""), check=False)


def compile_sources(class_path: list[Path], sources: list[Path], classes: Path) -> Path:
    """javac the sources against the class path into classes/ when a source is newer than the last build or the
    set of sources changed (a file moved in keeps its old time). One build at a time across processes too (the
    suite's background jobs start testees beside it): a second caller waits and finds the build fresh."""
    classes.parent.mkdir(parents=True, exist_ok=True)
    with _LOCK, open(classes.parent / f".{classes.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = classes / ".stamp"
        names = "\n".join(sorted(str(p) for p in sources))
        newest = max(p.stat().st_mtime for p in sources)
        stale = not stamp.is_file() or stamp.stat().st_mtime < newest or stamp.read_text() != names
        if stale:  # from an empty folder: a class whose source left the set must not stay behind
            shutil.rmtree(classes, ignore_errors=True)
            classes.mkdir(parents=True)
            cp = ":".join(map(str, class_path))
            subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", cp, *map(str, sources)], check=True)
            stamp.write_text(names)
        return classes


def testee_sources(api: str, version: str | None) -> list[Path]:
    """The Java programs' sources for one API era: tools/java/testee/*.java, api/<era>/ReleaseApi.java and the
    table writers of tools/java/tables/*.java (their calls that moved between releases go through ReleaseApi or
    Reflection), and for a release the layouts of the features it has: since/<first release>/*.java for every
    first release up to it (the testee finds them by name, so a release without them compiles without them)."""
    sources = sorted(TESTEE_SRC.glob("*.java")) + sorted((TESTEE_SRC / "api" / api).glob("*.java"))
    sources += sorted(TABLES_SRC.glob("*.java"))
    for since in sorted((TESTEE_SRC / "since").iterdir()) if version else ():
        if _numbers(since.name) <= _numbers(version):
            sources += sorted(since.glob("*.java"))
    return sources


def _numbers(version: str) -> tuple[int, ...]:
    """A release's version as numbers, for ordering (1.4.2 -> (1, 4, 2))."""
    return tuple(int(part) for part in version.split("."))


def testee_classpath(version: str) -> str:
    """The class path that runs the testee and the table writers under one release, compiling them when stale."""
    r = release(version)
    class_path = jars(version)
    classes = compile_sources(class_path, testee_sources(r.api, version), BUILD / f"java-testee-{version}")
    return ":".join(map(str, (*class_path, classes)))


def main(argv: list[str]) -> int:
    """Resolve every release and runtime jar (and with --sources, paimon-core's sources); print their paths."""
    for r in releases().values():
        print(f"{r.version}: {resolve(r.jar)}")
        if "--sources" in argv:
            print(f"{r.version} sources: {sources_jar(r.version)}")
    for path in runtime_jars():
        print(f"runtime: {path}")
    for c in connectors().values():
        print(f"connector {c.version} (Spark {c.spark}): {resolve(c.jar)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
