"""Versioned, reproducible releases of the golden corpus for ports in other languages.

    python tools/corpus_release.py [-o DIR]   write DIR/paimon-conform-corpus-<version>.tar.gz (default build/)
    python tools/corpus_release.py --check    the corpus is the recorded release (exit 1 and the changes if not)
    python tools/corpus_release.py --record   record the corpus as a new release, versioned by what changed

The archive holds golden/ as it is, MANIFEST.json (every case: its layout, producer, Java release, expected
verdict and finding codes, and each file's SHA-256), SHA256SUMS (for `sha256sum -c`), CHANGES.md and a README
for ports (tools/corpus/README.md). The same commit gives the same bytes: sorted entries, fixed owners, modes and
times, and a gzip header without a name or time.

Versions are semantic and assigned by --record from the difference to the last release
(tools/corpus/released.json): a removed file or a changed expectation is a major version, an added file or changed
bytes under the same expectation a minor one, a changed README for ports a patch.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from java_releases import sha256

from paimon_conform.golden import corpus_work

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"
RECORDS = ROOT / "tools" / "corpus"
RELEASED = RECORDS / "released.json"
CHANGES = RECORDS / "CHANGES.md"
PORTS_README = RECORDS / "README.md"
MANIFEST_FORMAT = 1
NAME = "paimon-conform-corpus"


def _files(paths: list[Path], root: Path) -> list[dict]:
    return [{"path": p.relative_to(root).as_posix(), "sha256": sha256(p), "size": p.stat().st_size} for p in paths]


def _expected(check: str, sidecar: dict, files: list[dict]) -> dict:
    """What a reader of the case must conclude: accept (no must or should finding), reject with a code at a field
    and byte, or replay (a dynamic-bucket assignment sequence a port's assigner must reproduce). `content` is the
    SHA-256 of what the sidecar says the case holds (all of it but its provenance, as canonical JSON): what a
    reader must read. An accepted file's `bytes` (the first of its `files`) are what a writer must write."""
    said = {k: v for k, v in sidecar.items() if k != "provenance"}
    content = hashlib.sha256(json.dumps(said, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    if check == "sequence":
        return {"verdict": "replay", "codes": [], "content": content}
    if "must_reject" in sidecar:
        r = sidecar["must_reject"]
        verdict = {"verdict": "reject", "codes": [r["code"]], "path": r["path"], "offset": r.get("offset")}
        return verdict | {"content": content}
    out = {"verdict": "accept", "codes": [], "content": content}
    return out | ({"bytes": files[0]["sha256"]} if check == "file" else {})


def case_entries(root: Path) -> list[dict]:
    """One entry per golden case, in the order `paimon-conform corpus` checks them."""
    entries = []
    for check, sidecar_path, (layout, _, _) in corpus_work(root):
        sidecar = json.loads(sidecar_path.read_text(encoding="utf-8"))
        prov = sidecar.get("provenance", {})
        if check == "file":
            subject, paths = sidecar_path.with_suffix(".bin"), [sidecar_path.with_suffix(".bin"), sidecar_path]
        elif check == "table":
            subject = sidecar_path.with_suffix("")
            paths = [*sorted(p for p in subject.rglob("*") if p.is_file()), sidecar_path]
        else:
            subject, paths = sidecar_path, [sidecar_path]
        files = _files(paths, root)
        entries.append(
            {
                "path": subject.relative_to(root).as_posix(),
                "check": check,
                "layout": sidecar.get("kind", layout),
                "sidecar": sidecar_path.relative_to(root).as_posix(),
                "producer": prov.get("producer"),
                "java_release": prov.get("paimon_version") if prov.get("producer") == "java-paimon" else None,
                "evidence": prov.get("evidence"),
                "expected": _expected(check, sidecar, files),
                "files": files,
            }
        )
    return entries


def manifest(root: Path, version: str) -> dict:
    """MANIFEST.json of the corpus under `root` at `version`."""
    return {
        "manifest_format": MANIFEST_FORMAT,
        "name": NAME,
        "version": version,
        "readme_sha256": sha256(PORTS_README),  # the README for ports and the changes are part of a release too
        "changes_sha256": sha256(CHANGES) if CHANGES.is_file() else None,
        "cases": case_entries(root),
    }


# --------------------------------------------------------------------------- what changed, and the version


@dataclass
class Changes:
    """The difference between two manifests, case by case."""

    removed: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    expectation: list[str] = field(default_factory=list)  # the same case, another expectation
    content: list[str] = field(default_factory=list)  # the same case and expectation, other bytes
    readme: bool = False  # the README for ports, CHANGES.md or the manifest's own form changed

    def bump(self) -> str:
        """major, minor, patch or none (the semantic-version part the changes call for)."""
        if self.removed or self.expectation:
            return "major"
        if self.added or self.content:
            return "minor"
        return "patch" if self.readme else "none"


def _files_of(case: dict) -> dict[str, str]:
    return {f["path"]: f["sha256"] for f in case["files"]}


def compare(old: dict, new: dict) -> Changes:
    """The changes from release `old` to `new` (a case is known by its path; a removed file of a table is a
    removed file, so a major change)."""
    before = {c["path"]: c for c in old["cases"]}
    after = {c["path"]: c for c in new["cases"]}
    ch = Changes(sorted(before.keys() - after.keys()), sorted(after.keys() - before.keys()))
    head = [k for k in {*old, *new} if k not in ("cases", "version")]
    ch.readme = any(old.get(k) != new.get(k) for k in head)  # the README, CHANGES.md or the manifest's own form
    for path in sorted(before.keys() & after.keys()):
        a, b = before[path], after[path]
        keys = ("check", "layout", "expected")
        if any(a[k] != b[k] for k in keys) or not _files_of(a).keys() <= _files_of(b).keys():
            ch.expectation.append(path)
        elif _files_of(a) != _files_of(b) or a["producer"] != b["producer"] or a["evidence"] != b["evidence"]:
            ch.content.append(path)
    if not (ch.removed or ch.added or ch.expectation or ch.content) and old["cases"] != new["cases"]:
        ch.readme = True  # the cases' order or the form of their entries: the manifest's own form
    return ch


def next_version(version: str, bump: str) -> str:
    """The version after `version` for a change of kind `bump`."""
    major, minor, patch = (int(p) for p in version.split("."))
    if bump == "major":
        return f"{major + 1}.0.0"
    if bump == "minor":
        return f"{major}.{minor + 1}.0"
    if bump == "patch":
        return f"{major}.{minor}.{patch + 1}"
    return version


def changes_section(version: str, ch: Changes, cases: int, first: bool = False) -> str:
    """CHANGES.md's section of one release."""
    lines = [f"## {version}", ""]
    if first:
        lines.append(f"The first release: {cases} cases.")
    elif ch.readme:
        lines.append("The README for ports or the manifest's form changed.\n")
    for title, paths in (
        ("Removed (a major change)", ch.removed),
        ("Expectation changed (a major change)", ch.expectation),
        ("Added", ch.added),
        ("Bytes changed, expectation kept", ch.content),
    ):
        if paths:
            lines += [f"### {title}: {len(paths)}", "", *(f"- `{p}`" for p in paths), ""]
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------- the archive


def _released() -> dict | None:
    return json.loads(RELEASED.read_text(encoding="utf-8")) if RELEASED.is_file() else None


def _dump(doc: dict) -> bytes:
    """JSON with one case per line: stable bytes, and readable diffs of the recorded release."""
    head = {k: v for k, v in doc.items() if k != "cases"}
    body = ",\n".join("    " + json.dumps(c, sort_keys=True, ensure_ascii=False) for c in doc["cases"])
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2] + ',\n  "cases": [\n' + body + "\n  ]\n}\n"
    return text.encode("utf-8")


def _sums(doc: dict, prefix: str) -> bytes:
    """SHA256SUMS: `sha256sum -c` over every corpus file, run in the archive's top folder."""
    rows = sorted({(f["path"], f["sha256"]) for c in doc["cases"] for f in c["files"]})
    return "".join(f"{sha}  {prefix}{path}\n" for path, sha in rows).encode()


def _add(tar: tarfile.TarFile, name: str, data: bytes | None, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
    if data is None:
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
        return
    info.size, info.mode = len(data), mode
    tar.addfile(info, io.BytesIO(data))


def write_archive(out_dir: Path, root: Path = GOLDEN) -> Path:
    """Write the release archive of the corpus under `root` (the recorded release: --check must pass first)."""
    released = _released()
    if released is None:
        raise SystemExit("corpus_release: no release recorded yet; run with --record")
    doc = manifest(root, released["version"])
    if doc != released:
        ch = compare(released, doc)
        raise SystemExit(
            f"corpus_release: the corpus differs from release {released['version']} ({ch.bump()} change); "
            "record it first: python tools/corpus_release.py --record"
        )
    top = f"{NAME}-{doc['version']}"
    members: dict[str, bytes | None] = {
        f"{top}/README.md": PORTS_README.read_bytes(),
        f"{top}/CHANGES.md": CHANGES.read_bytes(),
        f"{top}/MANIFEST.json": _dump(doc),
        f"{top}/SHA256SUMS": _sums(doc, "golden/"),
    }
    for path in sorted({f["path"] for c in doc["cases"] for f in c["files"]}):
        members[f"{top}/golden/{path}"] = (root / path).read_bytes()
    dirs = {str(Path(name).parent) for name in members}
    for d in list(dirs):
        dirs.update(str(p) for p in Path(d).parents if str(p) != ".")
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"{top}.tar.gz"
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted([*dirs, *members]):
            _add(tar, name, members.get(name) if name in members else None)
    with open(target, "wb") as f, gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0, compresslevel=9) as gz:
        gz.write(raw.getvalue())
    digest = sha256(target)
    (out_dir / f"{top}.tar.gz.sha256").write_text(f"{digest}  {target.name}\n")
    return target


def record(root: Path = GOLDEN) -> str:
    """Record the corpus as a release: the next version by what changed, its CHANGES.md section first."""
    released = _released()
    if released is None:
        version, ch = "1.0.0", Changes()
    else:
        ch = compare(released, manifest(root, released["version"]))
        if ch.bump() == "none":
            return released["version"]
        version = next_version(released["version"], ch.bump())
    section = changes_section(version, ch, len(case_entries(root)), first=released is None)
    old = CHANGES.read_text(encoding="utf-8") if CHANGES.is_file() else "# Changes of the golden corpus\n"
    head, _, rest = old.partition("\n## ")
    CHANGES.write_text(head.rstrip() + "\n\n" + section + ("\n## " + rest if rest else ""), encoding="utf-8")
    RELEASED.write_bytes(_dump(manifest(root, version)))  # after CHANGES.md: its SHA-256 is in the manifest
    return version


def check(root: Path = GOLDEN) -> list[str]:
    """Problems: the corpus is not the recorded release (empty when it is)."""
    released = _released()
    if released is None:
        return ["no release recorded (tools/corpus/released.json)"]
    ch = compare(released, manifest(root, released["version"]))
    lists = (("removed", ch.removed), ("expectation changed", ch.expectation), ("added", ch.added))
    problems = [f"{what}: {p}" for what, paths in (*lists, ("bytes changed", ch.content)) for p in paths]
    if ch.readme:
        problems.append("the README for ports (tools/corpus/README.md), CHANGES.md or the manifest's form changed")
    if problems:
        problems.append(f"a {ch.bump()} change since {released['version']}: python tools/corpus_release.py --record")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-o", "--out", default=str(ROOT / "build"), help="where the archive goes (default build/)")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--check", action="store_true", help="exit 1 when the corpus is not the recorded release")
    g.add_argument("--record", action="store_true", help="record the corpus as a new release")
    args = p.parse_args(argv)
    if args.check:
        problems = check()
        print("\n".join(problems) or f"golden/ is corpus release {_released()['version']}")
        return 1 if problems else 0
    if args.record:
        print(f"recorded corpus release {record()}")
        return 0
    target = write_archive(Path(args.out))
    print(
        f"{target} ({target.stat().st_size} bytes)\n{(target.parent / (target.name + '.sha256')).read_text()}", end=""
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
