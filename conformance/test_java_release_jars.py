"""The Java releases the kit runs (tools/java/releases.tsv): one per release line the kit judges for, each jar
really that release, pinned by SHA-256, and the table of docs/releases.md the registry itself."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import java_releases
import pytest
from golden.evidence import JAVA_DECODED, decodes

from paimon_conform.core.java_releases import RELEASES
from paimon_conform.layouts.registry import get

EVIDENCE = ("java",)

ROOT = Path(__file__).resolve().parent.parent
LAUNCHER = ROOT / "tools" / "testees" / "java_paimon.py"


def test_every_release_line_the_kit_judges_for_has_a_java_release_to_run() -> None:
    lines = [r.line for r in java_releases.releases().values()]
    assert len(lines) == len(set(lines)), "one release per line"
    assert set(lines) == set(RELEASES) - {"0.8"}  # 0.8 is judged from its tag only: no 0.8 reader runs here


@pytest.mark.parametrize("version", list(java_releases.releases()))
def test_the_jar_is_the_release_it_is_listed_as(version: str) -> None:
    """paimon-core's own pom.properties inside the (bundle or shaded) jar names the release."""
    jar = java_releases.resolve(java_releases.release(version).jar)
    with zipfile.ZipFile(jar) as z:
        props = z.read("META-INF/maven/org.apache.paimon/paimon-core/pom.properties").decode()
    assert re.search(r"^version=(.+)$", props, re.M).group(1).strip() == version


def test_a_jar_whose_sha256_differs_from_the_pin_is_refused() -> None:
    pinned = java_releases.release("0.9.0").jar
    java_releases.resolve(pinned)
    with pytest.raises(SystemExit, match="SHA-256"):
        java_releases.resolve(java_releases.Jar(pinned.coordinate, "0" * 64))


def test_each_testee_says_which_release_it_runs() -> None:
    for version, r in java_releases.releases().items():
        hello = json.dumps({"id": 1, "op": "hello"}) + "\n"
        done = subprocess.run(
            [sys.executable, str(LAUNCHER), version], input=hello, capture_output=True, text=True, timeout=300
        )
        reply = json.loads(done.stdout.splitlines()[0])
        assert (reply["version"], reply["java_release"]) == (version, r.line), done.stderr[-2000:]
        # the layouts it decodes are the ones the goldens' java-read evidence counts on (golden/evidence.py)
        declared = set(reply["capabilities"]["decode"])
        assert declared == {get(layout).kind for layout in JAVA_DECODED if decodes(version, layout)}, version


def test_the_docs_table_is_the_registry() -> None:
    page = (ROOT / "docs" / "releases.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+\.\d+\.\d+) \| `([^`]+)` \| ([\d.]+) \| `(java-[^`]+)` \|$", page, re.M)
    expected = [(r.version, r.jar.coordinate, r.api, r.testee) for r in java_releases.releases().values()]
    assert rows == expected


def test_reference_json_lists_every_release() -> None:
    listed = {t["name"] for t in json.loads((ROOT / "tools" / "testees" / "reference.json").read_text())}
    assert {r.testee for r in java_releases.releases().values()} <= listed


@pytest.mark.parametrize("version", list(java_releases.connectors()))
def test_the_connector_jar_is_the_release_it_is_listed_as(version: str) -> None:
    """The Spark connector jar's own pom.properties, and the paimon-bundle it shades, name the release; it is built
    for the Spark minor the registry says (the artifact's suffix)."""
    c = java_releases.connectors()[version]
    jar = java_releases.resolve(c.jar)
    artifact = f"paimon-spark-{c.spark}"
    with zipfile.ZipFile(jar) as z:
        for inner in (artifact, "paimon-bundle"):
            props = z.read(f"META-INF/maven/org.apache.paimon/{inner}/pom.properties").decode()
            assert re.search(r"^version=(.+)$", props, re.M).group(1).strip() == version, inner
    assert c.jar.coordinate == f"org.apache.paimon:{artifact}:{version}"
