# Sphinx configuration of the impulse book (MyST Markdown + Breathe over Doxygen XML).
# Built by `./run book`, which stages chapters/ and docs/guide/ with the generated pages into
# build/book/src, copies Debian's MathJax 2 (libjs-mathjax) into the book, runs Sphinx with
# warnings as errors and then checks every page in headless Chromium with the network off
# (docs/tools/check_rendered.py).
#
# Editions: the student edition (default) hides exercise answers; `-t instructor`
# (IMPULSE_BOOK_EDITION=instructor ./run book) shows them. Pages mark answers with
# ```{only} instructor``` blocks.
import os

project = "impulse"
author = "the impulse developers"
copyright = "2026, the impulse developers"
extensions = ["myst_parser", "breathe", "sphinx.ext.mathjax"]
source_suffix = {".md": "markdown"}
root_doc = "index"
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
breathe_projects = {"impulse": os.environ.get("IMPULSE_DOXYGEN_XML", "../build/book/doxygen/xml")}
breathe_default_project = "impulse"
# chapters/*/slides/ hold the lecture decks, built by their own Sphinx run (docs/slides/conf.py).
exclude_patterns = ["**/README.md", "chapters/*/slides/**"]
# No copies of the page sources: the student edition must not carry the instructor blocks.
html_copy_source = False
html_show_sourcelink = False

# Furo (Debian package `furo`): a maintained theme that reads on a laptop and on a projector,
# with a light and a dark scheme; it wraps every table in a horizontally scrolling box, so a wide
# table scrolls inside itself instead of widening the page.
html_theme = "furo"
html_title = "impulse: the Newton course, made to run"
# ./run stages MathJax in IMPULSE_MATHJAX_STATIC (a folder holding mathjax/); its contents land in _static.
html_static_path = ["static", os.environ.get("IMPULSE_MATHJAX_STATIC", "../build/book/mathjax-static")]
html_css_files = ["impulse.css"]

# Formulas are typeset by the MathJax 2 that Debian ships (libjs-mathjax), copied into the book
# by ./run as _static/mathjax: the book needs no network. CommonHTML output with the TeX fonts.
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS_CHTML"
myst_update_mathjax = False
mathjax2_config = {
    "tex2jax": {
        "inlineMath": [["\\(", "\\)"]],
        "displayMath": [["\\[", "\\]"]],
        "processEscapes": True,
        "processEnvironments": True,
        "ignoreClass": "document",
        "processClass": "math|output_area",
    },
    "CommonHTML": {"linebreaks": {"automatic": True}},
    "showMathMenu": False,
    "messageStyle": "none",
}

# Long code names in table cells (test names, function paths, IDs) get line-break opportunities
# after ".", "_", "/" and "::" and between the words of a CamelCase name (<wbr>, invisible and not
# copied), so a table fits its column without breaking a word letter by letter
# (docs/tools/check_rendered.py fails a page on either).
import re as _re

from docutils import nodes as _nodes

_BREAK = _re.compile(r"(?<=[._/:])(?=[^._/:])|(?<=[a-z0-9])(?=[A-Z])")


def _table_code_breaks(app, doctree, docname):
    if app.builder.format != "html":
        return
    for lit in list(doctree.findall(_nodes.literal)):
        parent, in_cell = lit.parent, False
        while parent is not None and not in_cell:
            in_cell = isinstance(parent, _nodes.entry)
            parent = parent.parent
        text = lit.astext()
        if not in_cell or len(text) < 16 or len(lit.children) != 1 or not isinstance(lit[0], _nodes.Text):
            continue
        parts = _BREAK.split(text)
        lit.children = []
        for i, part in enumerate(parts):
            if i:
                lit += _nodes.raw("", "<wbr>", format="html")
            lit += _nodes.Text(part)


def setup(app):
    app.connect("doctree-resolved", _table_code_breaks)
