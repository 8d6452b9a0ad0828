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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from mathjax_settings import MATHJAX_PATH, mathjax2_config  # noqa: E402

project = "impulse"
author = "the impulse developers"
copyright = "2026, the impulse developers"
# live_widgets (docs/tools/live_widgets.py): calculator forms, answer checkers and scenes at the
# chapters' anchors, run in the page by the browser module (docs/static/impulse.js, live.js);
# furo_offline (docs/tools/furo_offline.py): Debian's Furo working from a folder, without a server.
extensions = ["myst_parser", "breathe", "sphinx.ext.mathjax", "live_widgets", "furo_offline"]
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
# ./run stages MathJax in IMPULSE_MATHJAX_STATIC (a folder holding mathjax/) and the browser module
# (impulse-wasm.js) in IMPULSE_WEB_STATIC; their contents land in _static.
html_static_path = ["static", os.environ.get("IMPULSE_MATHJAX_STATIC", "../build/book/mathjax-static")]
if os.environ.get("IMPULSE_WEB_STATIC"):
    html_static_path.append(os.environ["IMPULSE_WEB_STATIC"])
html_css_files = ["impulse.css"]

# Formulas: the MathJax 2 that Debian ships, copied into the book (docs/mathjax_settings.py).
mathjax_path = MATHJAX_PATH
myst_update_mathjax = False
mathjax2_config = mathjax2_config(automatic_line_breaks=True)

# Long names in table cells (test names, function paths, IDs, in code or plain text) get
# line-break opportunities after ".", "_", "/", "-" and "::" and between the words of a CamelCase name
# (<wbr>, invisible and not copied), so a table fits its column without breaking a word letter by
# letter (docs/tools/check_rendered.py fails a page on either).
import re as _re

from docutils import nodes as _nodes

_BREAK = _re.compile(r"(?<=[._/:-])(?=[^._/:-])|(?<=[a-z0-9])(?=[A-Z])")
_LONG = _re.compile(r"\S{10,}")


def _with_breaks(text):
    """text as Text and <wbr> nodes, breaks only inside its runs of 10 or more non-spaces."""
    out, last = [], 0
    for m in _LONG.finditer(text):
        parts = _BREAK.split(m.group(0))
        if len(parts) == 1:
            continue
        out.append(_nodes.Text(text[last:m.start()] + parts[0]))
        for part in parts[1:]:
            out += [_nodes.raw("", "<wbr>", format="html"), _nodes.Text(part)]
        last = m.end()
    if not out:
        return None
    out.append(_nodes.Text(text[last:]))
    return [n for n in out if not (isinstance(n, _nodes.Text) and not n.astext())]


def _table_breaks(app, doctree, docname):
    if app.builder.format != "html":
        return
    for entry in list(doctree.findall(_nodes.entry)):
        for text in list(entry.findall(_nodes.Text)):
            parent = text.parent
            if isinstance(parent, (_nodes.math, _nodes.literal_block, _nodes.raw)):
                continue
            pieces = _with_breaks(text.astext())
            if pieces:
                i = parent.index(text)
                parent[i:i + 1] = pieces


def setup(app):
    app.connect("doctree-resolved", _table_breaks)
