"""Sphinx configuration of the kit's documentation site (built by tools/docs/build.py, which adds the generated
layout pages next to these hand-written ones)."""

project = "paimon-conform"
author = "the paimon-conform authors"
extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
myst_heading_anchors = 3  # GitHub-style anchors of headings down to ###, as the pages link them
exclude_patterns = ["_build"]
html_theme = "alabaster"  # Sphinx's own theme: system fonts, no CDN, nothing fetched when a page loads
html_theme_options = {"page_width": "1200px", "sidebar_width": "240px", "fixed_sidebar": True}
html_static_path = ["_static"]
html_css_files = ["kit.css"]
html_show_sourcelink = False
html_last_updated_fmt = None
html_show_copyright = False
