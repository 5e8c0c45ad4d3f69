"""The documentation site (tools/docs/build.py) in headless Chromium: every page renders without a script
error and fetches nothing from the network, every layout page has its byte diagrams and a hex dump of the
golden it names, no internal link is broken, and the site's search finds a finding code. Screenshots of a
layout page and of the matrix page (test_testee_matrix) are kept in build/artifacts/."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from support.environment import ROOT, missing

EVIDENCE = ("contract",)

ARTIFACTS = ROOT / "build" / "artifacts"
LAYOUTS = sorted(p.stem for p in (ROOT / "specs").glob("*.ksy"))
README_LIMIT = 200
WIDTH = 1400  # the browser window the pages are checked in


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "site"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "docs" / "build.py"), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    return out


@pytest.fixture(scope="module")
def browser():
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        missing("chromium is not installed (tools/install.sh installs Debian's chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


def _pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)


@pytest.fixture(scope="module")
def rendered(site, browser) -> dict[Path, dict]:
    """Each page as Chromium built it, loaded once for every test: its title, text, links, ids, diagrams, hex
    dump and its key, field-table rows, finding-code rows, schemas shown, width, script errors and every
    request it made."""
    page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    out = {}
    for path in _pages(site):
        errors.clear()
        requests.clear()
        page.goto(path.as_uri(), wait_until="load")
        out[path] = {
            "title": page.title(),
            "text": page.inner_text("body"),
            "links": page.eval_on_selector_all(  # the SVG boxes' links too (their href is not a string)
                "a[href]", "els => els.map(e => new URL(e.getAttribute('href'), document.baseURI).href)"
            ),
            "ids": set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")),
            "diagrams": page.eval_on_selector_all(
                "svg.byte-diagram",
                "els => els.map(e => [e.getBoundingClientRect().width, e.querySelectorAll('rect').length])",
            ),
            "dump": page.eval_on_selector_all("pre.hexdump", "els => els.map(e => e.innerText)"),
            "dump_links": page.eval_on_selector_all("pre.hexdump a", "els => els.map(e => [e.textContent, e.title])"),
            "key": page.eval_on_selector_all(
                "ul.hexdump-key li",
                "els => els.map(e => [e.querySelector('code').innerText, e.dataset.start, e.dataset.end,"
                " e.dataset.type || '', e.dataset.value || ''])",
            ),
            "fields": page.eval_on_selector_all(
                "tr[id^='t-']", "rows => rows.map(r => [r.id, r.cells[0].innerText, r.cells[1].innerText])"
            ),
            "codes": page.eval_on_selector_all(
                "#finding-codes table tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText.trim()))"
            ),
            "schemas": page.eval_on_selector_all("details pre", "els => els.map(e => e.textContent)"),
            "width": page.evaluate("document.documentElement.scrollWidth"),
            "errors": list(errors),
            "requests": list(requests),
        }
    page.close()
    return out


def test_every_page_renders(site, rendered):
    names = {p.relative_to(site).as_posix() for p in rendered}
    assert {"index.html", "findings.html", "search.html", "layouts/index.html"} <= names
    assert {f"layouts/{n}.html" for n in LAYOUTS} <= names
    for path, r in rendered.items():
        assert r["errors"] == [], f"{path}: script errors {r['errors']}"
        assert r["title"].strip(), f"{path}: no title"
        assert r["width"] <= WIDTH, f"{path}: wider than the window ({r['width']} px); wide content must scroll"
        if path.name not in ("search.html", "genindex.html"):
            assert len(r["text"]) > 200, f"{path}: an empty page"


def test_nothing_is_fetched_from_the_network(rendered):
    for path, r in rendered.items():
        outside = [u for u in r["requests"] if not u.startswith(("file:", "data:", "about:"))]
        assert outside == [], f"{path} fetched {outside}"


def test_every_layout_page_has_its_diagrams_and_hex_dump(site, rendered):
    for name in LAYOUTS:
        r = rendered[site / "layouts" / f"{name}.html"]
        assert r["diagrams"], f"{name}: no byte diagram"
        assert all(width > 0 and boxes > 0 for width, boxes in r["diagrams"]), f"{name}: an empty diagram"
        assert len(r["dump"]) == 1, f"{name}: no hex dump"
        golden = re.search(r"(golden/\S+?\.bin)", r["text"])
        assert golden, f"{name}: the dump does not name its golden"
        data = (ROOT / golden.group(1)).read_bytes()
        assert f"golden/{name}/java-" in golden.group(1), "a Java-written golden of this layout"
        shown = bytes.fromhex("".join(re.findall(r"^[0-9a-f]{8}  (.{47})", r["dump"][0], re.M)).replace(" ", ""))
        assert shown == data[: len(shown)]
        assert len(shown) == min(len(data), 512)
        assert r["dump_links"], f"{name}: no byte range links to a field"


def test_every_annotated_integer_is_the_value_of_its_bytes(site, rendered):
    """Each field of a dump's key that the spec reads as an integer (u1 ... s8, with its endianness) carries the
    value the parser read; decoding the golden's bytes at the field's range gives that value, on every page:
    a field placed on the wrong bytes (a substream's offset, a processed block) fails here."""
    decoded = 0
    for name in LAYOUTS:
        r = rendered[site / "layouts" / f"{name}.html"]
        golden = re.search(r"(golden/\S+?\.bin)", r["text"]).group(1)
        data = (ROOT / golden).read_bytes()
        shown = min(len(data), 512)
        assert r["key"], name
        for _, start, end, kind, value in r["key"]:
            start, end = int(start), int(end)
            assert 0 <= start < end <= len(data), f"{name}: a field outside the file"
            assert start < shown, f"{name}: a field of the key not in the dump"
            if kind:
                order = "little" if kind.endswith("le") else "big"
                got = int.from_bytes(data[start:end], order, signed=kind.startswith("s"))
                assert (end - start, got) == (int(kind[1]), int(value)), f"{name}: bytes {start}..{end - 1}"
                decoded += 1
    assert decoded > 100


def test_every_byte_shown_belongs_to_a_field(rendered, site):
    for name in LAYOUTS:
        text = rendered[site / "layouts" / f"{name}.html"]["text"]
        claimed, shown = re.search(r"(\d+) of the (\d+) bytes shown belong to a field", text).groups()
        assert claimed == shown, name


def test_the_dump_annotations_name_the_right_bytes(site, rendered):
    """Spot checks against what the formats say: the roaring cookie is its first two bytes (12346 or 12347,
    little-endian), the deletion-vector file's version byte is byte 0 and is 1."""
    r = rendered[site / "layouts" / "roaring32.html"]
    cookie = next(text for text, title in r["dump_links"] if title.startswith("cookie:"))
    assert int.from_bytes(bytes.fromhex(cookie.replace(" ", "")), "little") in (12346, 12347)
    r = rendered[site / "layouts" / "deletion_vectors.html"]
    assert ("01", "version: bytes 0..0") in [tuple(x) for x in r["dump_links"]]


def _target(url: str) -> tuple[Path, str]:
    parts = urlsplit(url)
    return Path(unquote(parts.path)), unquote(parts.fragment)


def test_no_internal_link_is_broken(site, rendered):
    checked = 0
    for path, r in rendered.items():
        for url in r["links"]:
            if not url.startswith("file:"):
                continue
            target, fragment = _target(url)
            assert target.is_file(), f"{path.name}: a link to {target}, which does not exist"
            if fragment and target.suffix == ".html" and target in rendered:
                assert fragment in rendered[target]["ids"], f"{path.name}: no #{fragment} in {target.name}"
            checked += 1
    assert checked > 1000


def test_a_broken_link_would_be_found(site, rendered):
    """Control for the check above: a made-up anchor is not among a page's ids."""
    ids = rendered[site / "layouts" / "roaring32.html"]["ids"]
    assert "t-roaring32-cookie" in ids
    assert "t-roaring32-no-such-field" not in ids


def test_the_search_finds_a_finding_code(site, browser):
    page = browser.new_page()
    for code, expected in (("ROARING_BAD_COOKIE", 2), ("NO_SUCH_FINDING_CODE_XYZ", 0)):
        page.goto((site / "search.html").as_uri() + f"?q={code}")
        page.wait_for_function(
            "document.querySelector('#search-results p.search-summary, #search-results h2') !== null"
        )
        page.wait_for_function("!document.querySelector('#search-results').innerText.includes('Searching')")
        titles = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(e => e.textContent)")
        if expected:
            assert "Finding codes" in titles, titles
            assert any("RoaringBitmap 32-bit" in t for t in titles), titles
        else:
            assert titles == []
    page.close()


def test_screenshot_of_a_layout_page(site, browser):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": WIDTH, "height": 1000})
    page.goto((site / "layouts" / "deletion_vectors.html").as_uri())
    shot = ARTIFACTS / "docs-layout-deletion_vectors.png"
    page.screenshot(path=str(shot), full_page=True)
    page.close()
    head = shot.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(head[16:20], "big") == WIDTH


def test_readme_is_a_landing_page_whose_links_resolve():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < README_LIMIT
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    local = [u for u in links if not re.match(r"[a-z]+:", u) and not u.startswith("#")]
    assert len(local) >= 10, "the README links the documentation pages"
    for u in local:
        assert (ROOT / u.split("#")[0]).exists(), f"README links {u}, which does not exist"


def test_the_layout_pages_come_from_every_spec(site):
    pages = {p.stem for p in (site / "layouts").glob("*.html")} - {"index"}
    common = {p.stem for p in (ROOT / "specs" / "common").glob("*.ksy")}
    assert pages == set(LAYOUTS) | common


def test_each_layout_page_names_the_releases_that_wrote_its_goldens(site, rendered):
    """The releases a page says wrote the layout are the golden folders' releases (golden/<layout>/java-<r>/)."""
    for name in LAYOUTS:
        text = rendered[site / "layouts" / f"{name}.html"]["text"]
        line = next(x for x in text.splitlines() if x.startswith("Written by Java Paimon"))
        stated = set(line.split(": ", 1)[1].split(", "))
        folders = {p.name.removeprefix("java-") for p in (ROOT / "golden" / name).glob("java-*") if p.is_dir()}
        assert stated == folders, name


def test_the_schemas_are_shown_as_the_kit_ships_them(site, rendered):
    """The testee protocol's schema and each layout's case schema, read back from the page, are the files."""
    schemas = ROOT / "src" / "paimon_conform" / "schemas"
    shown = {"testee-protocol.html": "testee_protocol.json"} | {f"layouts/{n}.html": f"{n}.json" for n in LAYOUTS}
    checked = 0
    for html, schema in shown.items():
        if not (schemas / schema).is_file():
            continue
        blocks = rendered[site / html]["schemas"]
        assert len(blocks) == 1, html
        assert json.loads(blocks[0]) == json.loads((schemas / schema).read_text()), html
        checked += 1
    assert checked >= len(LAYOUTS)


def test_each_layout_page_describes_every_code_its_spec_names(site, rendered):
    """Every `-code` of a spec is a row of its page's finding-code table, with the catalogue's severity."""
    rows = 0
    for name in LAYOUTS:
        named = list(
            dict.fromkeys(re.findall(r"-code:\s*([A-Z][A-Z0-9_]+)", (ROOT / "specs" / f"{name}.ksy").read_text()))
        )
        cells = rendered[site / "layouts" / f"{name}.html"]["codes"]
        assert [c[0] for c in cells] == named, name
        for code, severity, meaning, _ in cells:
            assert severity.split()[0] in ("must", "should", "warning"), f"{name}: {code} has no severity"
            assert meaning, f"{name}: {code} has no meaning"
        rows += len(cells)
    assert rows > 100


def test_the_build_never_empties_a_folder_it_did_not_build(tmp_path):
    keep = tmp_path / "mine"
    keep.mkdir()
    (keep / "notes.txt").write_text("mine")
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "docs" / "build.py"), "-o", str(keep)], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "is not a site this tool built" in done.stderr
    assert [p.name for p in keep.iterdir()] == ["notes.txt"]


def test_the_stated_offsets_are_where_the_parser_read_the_fields(site, rendered):
    """A field table's offset (worked out from the spec's sizes) of a top-level field is where the dump's
    parser found that field in the golden."""
    compared = 0
    for name in LAYOUTS:
        r = rendered[site / "layouts" / f"{name}.html"]
        stated = {field: ofs for row, field, ofs in r["fields"] if row.startswith(f"t-{name}-")}
        for path, start, *_ in r["key"]:
            if stated.get(path, "").isdigit():
                assert int(stated[path]) == int(start), f"{name}.{path}"
                compared += 1
    assert compared >= 10
